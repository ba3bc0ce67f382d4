import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { invoices, organizationApps } from '../../../db/schema.ts';
import * as billing from '../../license/billing/store.ts';
import { PAYMENT_TERM_DAYS } from './service.ts';

/*
 * Issue 32 "a paid app runs without being installed": the portal ran /store/container/{id} from the catalogue's
 * entry address for any app. What an app needs to run (its entry address) now comes only from the launch of an app
 * the organization installed, and not while its paid plan is in arrears.
 */

let server: TestServer;
let call: ReturnType<typeof caller>;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let rptA: string;
let rptB: string;
let readerA: string;

const DAY = 86_400_000;
const appsOf = (org: string) => `/svc/core/api/v1/organizations/${org}/apps`;
const launchOf = (org: string, id: string) => `${appsOf(org)}/${id}/launch`;
const ENERGY = {
  id: 'energy-cost',
  name: 'Energy cost',
  publisher: 'Edgeport',
  entryUrl: 'http://apps.localhost:8080/store-apps/energy-cost/',
  origin: 'http://apps.localhost:8080',
};

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server, 'acme');
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'organizations', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('an app the organization did not install', () => {
  it('does not launch (404 naming the store) and the catalogue gives no entry address to run it from', async () => {
    expect((await call('GET', appsOf(tenants.orgB.id), rptB)).json()).toEqual({ items: [], total: 0 });
    const launch = await call('GET', launchOf(tenants.orgB.id, 'energy-cost'), rptB);
    expect(launch.statusCode).toBe(404);
    expect(launch.json().message).toBe(
      "app 'energy-cost' is not installed in this organization: install it from the store to open it",
    );
    const catalogue = await call('GET', '/svc/core/api/v1/apps/energy-cost', rptB);
    expect(catalogue.statusCode).toBe(200);
    expect(catalogue.json()).not.toHaveProperty('entryUrl');
    expect(catalogue.json()).not.toHaveProperty('origin');
    const list = (await call('GET', '/svc/core/api/v1/apps', rptB)).json();
    expect(JSON.stringify(list)).not.toContain('/store-apps/');
  });

  it('answers 404 for an app the catalogue does not have, 400 for an id that cannot be one', async () => {
    const unknown = await call('GET', launchOf(tenants.orgB.id, 'nope'), rptB);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("app 'nope' not found");
    expect((await call('GET', launchOf(tenants.orgB.id, 'a%20b'), rptB)).statusCode).toBe(400);
  });
});

describe('an installed app', () => {
  it('launches with its entry address for anyone who may see the store (READ organizations)', async () => {
    const installed = await call('POST', appsOf(tenants.orgA.id), rptA, {
      appId: 'shift-report',
      plan: 'free',
    });
    expect(installed.statusCode).toBe(201);
    expect(installed.json()).not.toHaveProperty('entryUrl');
    const launch = await call('GET', launchOf(tenants.orgA.id, 'shift-report'), readerA);
    expect(launch.statusCode).toBe(200);
    expect(launch.json()).toEqual({
      id: 'shift-report',
      name: 'Shift report',
      publisher: 'Edgeport',
      version: '1.1.0',
      plan: 'free',
      entryUrl: 'http://apps.localhost:8080/store-apps/shift-report/',
      origin: 'http://apps.localhost:8080',
    });
  });

  it("is not launched through another organization's token or in another organization", async () => {
    expect([403, 404]).toContain(
      (await call('GET', launchOf(tenants.orgA.id, 'shift-report'), rptB)).statusCode,
    );
    expect((await call('GET', launchOf(tenants.orgB.id, 'shift-report'), rptB)).statusCode).toBe(404);
    expect((await call('GET', launchOf(tenants.orgA.id, 'shift-report'))).statusCode).toBe(401);
  });
});

describe('a paid plan', () => {
  let installationId = '';
  let invoiceId = '';
  const daysAgo = (days: number) => new Date(server.app.clock.now().getTime() - days * DAY);
  const invoiceCreated = (at: Date) =>
    server.database.db.update(invoices).set({ createdAt: at }).where(eq(invoices.id, invoiceId));
  const launchEnergy = (token = rptA) => call('GET', launchOf(tenants.orgA.id, 'energy-cost'), token);

  it('launches while its first invoice is within the payment term', async () => {
    const installed = await call('POST', appsOf(tenants.orgA.id), rptA, {
      appId: 'energy-cost',
      plan: 'basic',
      approved: true,
    });
    expect(installed.statusCode).toBe(201);
    expect(installed.json()).toMatchObject({ status: 'PAYMENT_DUE', lastInvoice: { status: 'OPEN' } });
    installationId = installed.json().installationId;
    invoiceId = installed.json().lastInvoice.id;
    expect((await launchEnergy()).json()).toEqual({ ...ENERGY, version: '1.0.0', plan: 'basic' });
    await invoiceCreated(daysAgo(PAYMENT_TERM_DAYS - 1));
    expect((await launchEnergy()).statusCode).toBe(200);
  });

  it('does not launch once the invoice is overdue (402 naming it), and launches again once it is paid', async () => {
    await invoiceCreated(daysAgo(PAYMENT_TERM_DAYS + 1));
    const overdue = await launchEnergy(readerA);
    expect(overdue.statusCode).toBe(402);
    const since = daysAgo(PAYMENT_TERM_DAYS + 1)
      .toISOString()
      .slice(0, 10);
    const [invoice] = await server.database.db.select().from(invoices).where(eq(invoices.id, invoiceId));
    expect(overdue.json().message).toBe(
      `app 'energy-cost' cannot be opened: the payment of its plan 'basic' is overdue since ${since} ` +
        `(invoice ${invoice?.number} is OPEN); pay it under Installed apps to open the app again`,
    );
    const { db } = server.database;
    await billing.markInvoicePaid(db, invoiceId, server.app.clock.now(), tenants.adminA.id);
    await billing.markExecutionOfInvoicePaid(db, invoiceId, server.app.clock.now());
    expect((await launchEnergy()).statusCode).toBe(200);
  });

  it('does not launch once the next period went unpaid past the term; paying it opens the app again', async () => {
    const { db } = server.database;
    await db
      .update(organizationApps)
      .set({ nextBillingAt: daysAgo(PAYMENT_TERM_DAYS - 1) })
      .where(eq(organizationApps.id, installationId));
    expect((await launchEnergy()).statusCode).toBe(200);
    await db
      .update(organizationApps)
      .set({ nextBillingAt: daysAgo(PAYMENT_TERM_DAYS + 1) })
      .where(eq(organizationApps.id, installationId));
    expect((await launchEnergy()).statusCode).toBe(402);
    const paid = await call('POST', `${appsOf(tenants.orgA.id)}/energy-cost/payment`, rptA);
    expect(paid.statusCode).toBe(200);
    // The period is charged now: its invoice is open but not yet overdue.
    expect((await launchEnergy()).statusCode).toBe(200);
  });

  it('does not launch without an authorized transaction (nothing could pay it)', async () => {
    const { db } = server.database;
    await db
      .update(organizationApps)
      .set({ transactionId: null })
      .where(eq(organizationApps.id, installationId));
    const response = await launchEnergy();
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toContain("the payment of its plan 'basic' is overdue");
  });
});
