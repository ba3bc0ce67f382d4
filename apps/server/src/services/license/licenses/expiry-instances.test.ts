import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { invoices, licenseEvents, licenses, organizations } from '../../../db/schema.ts';
import { InvoiceProvider } from '../billing/invoice-provider.ts';
import { LicenseExpiry } from './expiry.ts';

const DUE = 200;
const DAY = 24 * 60 * 60 * 1000;
const base = (org: string) => `/svc/license/api/v1/organizations/${org}`;

let server: TestServer;
let issued: { id: string; expiresAt: string }[] = [];
let clientId = '';

/** A second server instance's sweep: its own LicenseExpiry on the same database, clock and broker. */
function otherInstance() {
  const { app, database } = server;
  return new LicenseExpiry({
    db: database.db,
    clock: app.clock,
    log: app.log,
    notifier: app.notifier,
    payments: new InvoiceProvider(),
    ingest: app.ingest,
  });
}

beforeAll(async () => {
  server = await startTestServer();
  const tenants = await seedTenants(server, 'acme');
  const call = caller(server);
  const { db } = server.database;
  await db.update(organizations).set({ dealer: true }).where(eq(organizations.id, tenants.orgA.id));
  const rpt = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  const product = (
    await call('POST', `${base(tenants.orgA.id)}/products`, rpt, {
      code: 'DEV',
      name: 'Device licence',
      resourceType: 'devices',
      quantity: 1,
      termDays: 365,
      priceMinor: 4900,
      currency: 'EUR',
    })
  ).json();
  clientId = (await call('POST', `${base(tenants.orgA.id)}/clients`, rpt, { name: 'Client' })).json().id;
  issued = [];
  for (let index = 0; index < DUE; index += 1) {
    const answer = await call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rpt, {
      productId: product.id,
      quantity: 1,
      activate: true,
      autorenew: true,
    });
    expect(answer.statusCode).toBe(201);
    issued.push(answer.json().license);
  }
}, 180_000);
afterAll(() => server.close());

describe('licence renewal with two server instances sweeping at once', () => {
  it(`renews each of ${DUE} due licences once: one RENEWED event, one invoice, one more term`, async () => {
    const { db } = server.database;
    const ids = issued.map((licence) => licence.id);
    const invoicesBefore = await db.select().from(invoices).where(eq(invoices.organizationId, clientId));
    server.app.clock.advance(366 * DAY);
    const sweptAt = server.app.clock.now().getTime();
    const second = otherInstance();
    try {
      await Promise.all([server.app.licenseExpiry.sweep(), second.sweep()]);
    } finally {
      await second.close();
    }
    const renewed = await db
      .select()
      .from(licenseEvents)
      .where(and(inArray(licenseEvents.licenseId, ids), eq(licenseEvents.event, 'RENEWED')));
    expect(renewed).toHaveLength(DUE);
    expect(new Set(renewed.map((event) => event.licenseId)).size).toBe(DUE);
    const invoicesAfter = await db.select().from(invoices).where(eq(invoices.organizationId, clientId));
    expect(invoicesAfter.length - invoicesBefore.length).toBe(DUE);
    const rows = await db.select().from(licenses).where(inArray(licenses.id, ids));
    for (const row of rows) {
      const before = issued.find((licence) => licence.id === row.id);
      expect(row.status).toBe('ACTIVE');
      // One term from the moment of renewal (the old term had ended), not two.
      expect(new Date(before?.expiresAt ?? 0).getTime()).toBeLessThan(sweptAt);
      expect(row.expiresAt?.getTime()).toBeGreaterThanOrEqual(sweptAt + 365 * DAY);
      expect(row.expiresAt?.getTime()).toBeLessThanOrEqual(server.app.clock.now().getTime() + 365 * DAY);
    }
  }, 120_000);
});
