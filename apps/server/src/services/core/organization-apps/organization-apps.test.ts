import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  invoices,
  organizationApps,
  organizations,
  preauthorizedTransactions,
  transactionExecutions,
} from '../../../db/schema.ts';
import * as billing from '../../license/billing/store.ts';
import { registerApp } from '../apps/service.ts';
import { addPeriod } from './service.ts';

let server: TestServer;
let call: ReturnType<typeof caller>;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let rptA: string;
let rptB: string;
let readerA: string;

const DAY = 86_400_000;
const appsOf = (org: string) => `/svc/core/api/v1/organizations/${org}/apps`;
const appOf = (org: string, id: string) => `${appsOf(org)}/${id}`;

type Answer = {
  id: string;
  installationId: string;
  plan: string;
  status: string;
  version: string;
  latestVersion: string;
  upgradeAvailable: boolean;
  transactionId: string | null;
  nextBillingAt: string | null;
  lastInvoice: { id: string; number: number; amountMinor: number; currency: string; status: string } | null;
};

async function transactionOf(id: string) {
  const [row] = await server.database.db
    .select()
    .from(preauthorizedTransactions)
    .where(eq(preauthorizedTransactions.id, id));
  return row;
}

async function invoiceOf(id: string) {
  const [row] = await server.database.db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

/** What an operator of an ancestor organization does through the billing service. */
async function markPaid(invoiceId: string) {
  const { db } = server.database;
  await billing.markInvoicePaid(db, invoiceId, server.app.clock.now(), tenants.adminA.id);
  await billing.markExecutionOfInvoicePaid(db, invoiceId, server.app.clock.now());
}

/** Every row an organization-app call may change, to prove a refused call changed nothing. */
async function snapshot() {
  const { db } = server.database;
  return JSON.stringify([
    await db.select().from(organizationApps).orderBy(organizationApps.id),
    await db.select().from(invoices).orderBy(invoices.id),
    await db.select().from(preauthorizedTransactions).orderBy(preauthorizedTransactions.id),
    await db.select().from(transactionExecutions).orderBy(transactionExecutions.transactionId),
  ]);
}

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
  await registerApp(server.database.db, {
    id: 'upgrade-me',
    name: 'Upgrade me',
    entryUrl: 'https://upgrade.example.com/',
    version: '1.0.0',
    plans: [{ id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'YEAR' }],
  });
});
afterAll(() => server.close());

describe('installing a free plan', () => {
  it('installs ACTIVE without a transaction, lists it, audits it; a second install is 409', async () => {
    const before = (await server.database.db.select().from(preauthorizedTransactions)).length;
    const response = await call('POST', appsOf(tenants.orgA.resourceId), rptA, {
      appId: 'shift-report',
      plan: 'free',
    });
    expect(response.statusCode).toBe(201);
    const installed = response.json();
    expect(installed).toMatchObject({
      id: 'shift-report',
      organizationId: tenants.orgA.id,
      name: 'Shift report',
      plan: 'free',
      planDetail: { id: 'free', priceMinor: 0, currency: 'EUR', period: 'MONTH' },
      version: '1.1.0',
      latestVersion: '1.1.0',
      upgradeAvailable: false,
      status: 'ACTIVE',
      transactionId: null,
      nextBillingAt: null,
      lastInvoice: null,
    });
    expect((await server.database.db.select().from(preauthorizedTransactions)).length).toBe(before);

    const list = (await call('GET', appsOf(tenants.orgA.id), readerA)).json();
    expect(list.total).toBe(1);
    expect(list.items[0]).toEqual(installed);
    expect((await call('GET', appOf(tenants.orgA.id, 'shift-report'), readerA)).json()).toEqual(installed);

    const again = await call('POST', appsOf(tenants.orgA.id), rptA, { appId: 'shift-report', plan: 'team' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("app 'shift-report' is already installed in this organization");

    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'apps.install'), eq(auditLog.organizationId, tenants.orgA.id)));
    expect(audit.map((row) => [row.resourceId, row.detail])).toEqual([
      ['shift-report', { plan: 'free', version: '1.1.0' }],
    ]);
  });

  it('refuses an unknown plan (naming plan), an unknown app, a reader, and changes nothing', async () => {
    const before = await snapshot();
    const plan = await call('POST', appsOf(tenants.orgA.id), rptA, { appId: 'energy-cost', plan: 'gold' });
    expect(plan.statusCode).toBe(400);
    expect(plan.json().message).toBe(
      "body/plan must be one of basic, pro: app 'energy-cost' has no plan 'gold'",
    );
    const app = await call('POST', appsOf(tenants.orgA.id), rptA, { appId: 'nope', plan: 'free' });
    expect(app.statusCode).toBe(404);
    expect(app.json().message).toBe("app 'nope' not found");
    const reader = await call('POST', appsOf(tenants.orgA.id), readerA, {
      appId: 'energy-cost',
      plan: 'basic',
    });
    expect(reader.statusCode).toBe(403);
    const extra = await call('POST', appsOf(tenants.orgA.id), rptA, {
      appId: 'energy-cost',
      plan: 'basic',
      x: 1,
    });
    expect(extra.statusCode).toBe(400);
    expect(await snapshot()).toBe(before);
    expect((await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).statusCode).toBe(404);
  });
});

describe('installing a paid plan', () => {
  it('answers 402 naming USER_REJECTED without the approval, and installs nothing', async () => {
    for (const body of [
      { appId: 'energy-cost', plan: 'basic' },
      { appId: 'energy-cost', plan: 'basic', approved: false },
    ]) {
      const response = await call('POST', appsOf(tenants.orgA.id), rptA, body);
      expect(response.statusCode).toBe(402);
      expect(response.json().message).toBe("the payment of plan 'basic' was not authorized: USER_REJECTED");
    }
    expect(
      await server.database.db
        .select()
        .from(organizationApps)
        .where(eq(organizationApps.appId, 'energy-cost')),
    ).toEqual([]);
    expect(await server.database.db.select().from(invoices)).toEqual([]);
    const refused = await server.database.db
      .select()
      .from(preauthorizedTransactions)
      .where(eq(preauthorizedTransactions.organizationId, tenants.orgA.id));
    expect(refused.map((row) => [row.result, row.status])).toEqual([
      ['USER_REJECTED', 'REFUSED'],
      ['USER_REJECTED', 'REFUSED'],
    ]);
  });

  it('answers 402 naming ERROR_NO_IN_APP_PURCHASES when the organization has in-app purchases off', async () => {
    const { db } = server.database;
    await db
      .update(organizations)
      .set({ inAppPurchases: false })
      .where(eq(organizations.id, tenants.orgB.id));
    const response = await call('POST', appsOf(tenants.orgB.id), rptB, {
      appId: 'energy-cost',
      plan: 'pro',
      approved: true,
    });
    expect(response.statusCode).toBe(402);
    expect(response.json().message).toBe(
      "the payment of plan 'pro' was not authorized: ERROR_NO_IN_APP_PURCHASES",
    );
    expect((await call('GET', appsOf(tenants.orgB.id), rptB)).json()).toEqual({ items: [], total: 0 });
    await db.update(organizations).set({ inAppPurchases: true }).where(eq(organizations.id, tenants.orgB.id));
  });

  it('authorizes a transaction and charges the first period: PAYMENT_DUE until the invoice is paid', async () => {
    const now = server.app.clock.now();
    const response = await call('POST', appsOf(tenants.orgA.id), rptA, {
      appId: 'energy-cost',
      plan: 'basic',
      approved: true,
    });
    expect(response.statusCode).toBe(201);
    const installed: Answer = response.json();
    expect(installed).toMatchObject({ plan: 'basic', status: 'PAYMENT_DUE', version: '1.0.0' });
    expect(installed.lastInvoice).toMatchObject({ amountMinor: 900, currency: 'EUR', status: 'OPEN' });
    const billingAt = new Date(installed.nextBillingAt ?? '').getTime();
    expect(billingAt - addPeriod(now, 'MONTH').getTime()).toBeGreaterThanOrEqual(0);
    expect(billingAt - addPeriod(now, 'MONTH').getTime()).toBeLessThan(5_000);

    const transaction = await transactionOf(installed.transactionId ?? '');
    expect(transaction).toMatchObject({
      organizationId: tenants.orgA.id,
      purpose: `app:${installed.installationId}`,
      currency: 'EUR',
      maxAmountMinor: 900,
      maxExecutions: 120,
      result: 'AUTHORIZED',
      status: 'ACTIVE',
      createdBy: tenants.adminA.id,
    });
    const invoice = await invoiceOf(installed.lastInvoice?.id ?? '');
    expect(invoice).toMatchObject({ organizationId: tenants.orgA.id, amountMinor: 900, status: 'OPEN' });

    await markPaid(invoice?.id ?? '');
    const paid: Answer = (await call('GET', appOf(tenants.orgA.id, 'energy-cost'), readerA)).json();
    expect(paid.status).toBe('ACTIVE');
    expect(paid.lastInvoice?.status).toBe('PAID');
  });

  it('is PAYMENT_DUE again once the billing date has passed', async () => {
    const before: Answer = (await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json();
    const { db } = server.database;
    await db
      .update(organizationApps)
      .set({ nextBillingAt: new Date(server.app.clock.now().getTime() + DAY) })
      .where(eq(organizationApps.id, before.installationId));
    expect((await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json().status).toBe('ACTIVE');
    server.app.clock.advance(2 * DAY);
    expect((await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json().status).toBe(
      'PAYMENT_DUE',
    );
  });
});

describe('payment and rescheduling', () => {
  it('charges the due period (next execution) and moves the billing date one period on', async () => {
    const before: Answer = (await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json();
    const response = await call('POST', `${appOf(tenants.orgA.id, 'energy-cost')}/payment`, rptA);
    expect(response.statusCode).toBe(200);
    const after: Answer = response.json();
    expect(after.status).toBe('PAYMENT_DUE');
    expect(after.lastInvoice).toMatchObject({ amountMinor: 900, status: 'OPEN' });
    expect(after.lastInvoice?.id).not.toBe(before.lastInvoice?.id);
    expect(after.nextBillingAt).toBe(addPeriod(new Date(before.nextBillingAt ?? ''), 'MONTH').toISOString());
    const executions = await server.database.db
      .select()
      .from(transactionExecutions)
      .where(eq(transactionExecutions.transactionId, after.transactionId ?? ''));
    expect(executions.map((row) => [row.n, row.amountMinor, row.status]).sort()).toEqual([
      [1, 900, 'PAID'],
      [2, 900, 'PENDING'],
    ]);

    // While that invoice is open, paying again answers it instead of charging twice.
    const invoicesBefore = (await server.database.db.select().from(invoices)).length;
    const again = await call('POST', `${appOf(tenants.orgA.id, 'energy-cost')}/payment`, rptA);
    expect(again.statusCode).toBe(200);
    expect(again.json().lastInvoice.id).toBe(after.lastInvoice?.id);
    expect(again.json().nextBillingAt).toBe(after.nextBillingAt);
    expect((await server.database.db.select().from(invoices)).length).toBe(invoicesBefore);

    await markPaid(after.lastInvoice?.id ?? '');
    expect((await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json().status).toBe('ACTIVE');
  });

  it('has nothing to pay or reschedule on a free plan (409)', async () => {
    const pay = await call('POST', `${appOf(tenants.orgA.id, 'shift-report')}/payment`, rptA);
    expect(pay.statusCode).toBe(409);
    expect(pay.json().message).toBe("app 'shift-report' is on a free plan: there is nothing to pay");
    const at = new Date(server.app.clock.now().getTime() + 10 * DAY).toISOString();
    const move = await call('POST', `${appOf(tenants.orgA.id, 'shift-report')}/reschedule`, rptA, {
      nextBillingAt: at,
    });
    expect(move.statusCode).toBe(409);
  });

  it('moves the next billing date, never into the past (400)', async () => {
    const url = `${appOf(tenants.orgA.id, 'energy-cost')}/reschedule`;
    const before = await snapshot();
    const past = await call('POST', url, rptA, {
      nextBillingAt: new Date(server.app.clock.now().getTime() - 60_000).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toBe('body/nextBillingAt must not be in the past');
    const garbage = await call('POST', url, rptA, { nextBillingAt: 'tomorrow' });
    expect(garbage.statusCode).toBe(400);
    expect(await snapshot()).toBe(before);

    const at = new Date(server.app.clock.now().getTime() + 45 * DAY);
    const moved = await call('POST', url, rptA, { nextBillingAt: at.toISOString() });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ nextBillingAt: at.toISOString(), status: 'ACTIVE' });
  });
});

describe('changing the plan', () => {
  it('paid to paid: a refused approval changes nothing (402); an approved one swaps the transaction', async () => {
    const url = `${appOf(tenants.orgA.id, 'energy-cost')}/plan/pro`;
    const before: Answer = (await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json();
    const rows = await snapshot();
    const refused = await call('PATCH', url, rptA, { approved: false });
    expect(refused.statusCode).toBe(402);
    expect(refused.json().message).toBe("the payment of plan 'pro' was not authorized: USER_REJECTED");
    const after = (await call('GET', appOf(tenants.orgA.id, 'energy-cost'), rptA)).json();
    expect(after).toEqual(before);
    // Only the refused authorization is recorded.
    expect(await snapshot()).not.toBe(rows);
    expect((await transactionOf(before.transactionId ?? ''))?.status).toBe('ACTIVE');

    const unknown = await call('PATCH', `${appOf(tenants.orgA.id, 'energy-cost')}/plan/gold`, rptA, {
      approved: true,
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('params/plan must be one of basic, pro');

    const changed = await call('PATCH', url, rptA, { approved: true });
    expect(changed.statusCode).toBe(200);
    const pro: Answer = changed.json();
    expect(pro).toMatchObject({ plan: 'pro', status: 'PAYMENT_DUE' });
    expect(pro.transactionId).not.toBe(before.transactionId);
    expect(pro.lastInvoice).toMatchObject({ amountMinor: 2900, currency: 'EUR', status: 'OPEN' });
    expect((await transactionOf(before.transactionId ?? ''))?.status).toBe('REVOKED');
    expect(await transactionOf(pro.transactionId ?? '')).toMatchObject({
      status: 'ACTIVE',
      maxAmountMinor: 2900,
      maxExecutions: 120,
      purpose: `app:${before.installationId}`,
    });
  });

  it('free to paid authorizes as an install does; paid to free revokes the transaction', async () => {
    const base = appOf(tenants.orgA.id, 'shift-report');
    expect((await call('PATCH', `${base}/plan/team`, rptA)).statusCode).toBe(400); // the body is required
    const refused = await call('PATCH', `${base}/plan/team`, rptA, {});
    expect(refused.statusCode).toBe(402);
    expect((await call('GET', base, rptA)).json()).toMatchObject({ plan: 'free', transactionId: null });

    const team: Answer = (await call('PATCH', `${base}/plan/team`, rptA, { approved: true })).json();
    expect(team).toMatchObject({ plan: 'team', status: 'PAYMENT_DUE' });
    expect(team.lastInvoice).toMatchObject({ amountMinor: 1900, status: 'OPEN' });
    expect(team.nextBillingAt).not.toBeNull();

    const free: Answer = (await call('PATCH', `${base}/plan/free`, rptA, {})).json();
    expect(free).toMatchObject({ plan: 'free', status: 'ACTIVE', transactionId: null, nextBillingAt: null });
    expect((await transactionOf(team.transactionId ?? ''))?.status).toBe('REVOKED');
    // The team period already charged stays owed: its invoice is still open.
    expect((await invoiceOf(team.lastInvoice?.id ?? ''))?.status).toBe('OPEN');
  });

  it('PUT changes the plan too; the same plan changes nothing', async () => {
    const base = appOf(tenants.orgA.id, 'shift-report');
    const same = await call('PUT', base, rptA, { plan: 'free' });
    expect(same.statusCode).toBe(200);
    expect(same.json().plan).toBe('free');
    const unknown = await call('PUT', base, rptA, { plan: 'gold' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('body/plan must be one of free, team');
  });
});

describe('upgrading', () => {
  it("moves the installed version to the catalogue's current one", async () => {
    const base = appOf(tenants.orgA.id, 'upgrade-me');
    expect(
      (await call('POST', appsOf(tenants.orgA.id), rptA, { appId: 'upgrade-me', plan: 'free' })).statusCode,
    ).toBe(201);
    await registerApp(server.database.db, {
      id: 'upgrade-me',
      name: 'Upgrade me',
      entryUrl: 'https://upgrade.example.com/',
      version: '2.0.0',
      plans: [{ id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'YEAR' }],
    });
    expect((await call('GET', base, rptA)).json()).toMatchObject({
      version: '1.0.0',
      latestVersion: '2.0.0',
      upgradeAvailable: true,
    });
    expect((await call('POST', `${base}/upgrade`, readerA)).statusCode).toBe(403);
    const upgraded = await call('POST', `${base}/upgrade`, rptA);
    expect(upgraded.statusCode).toBe(200);
    expect(upgraded.json()).toMatchObject({
      version: '2.0.0',
      latestVersion: '2.0.0',
      upgradeAvailable: false,
    });

    await registerApp(server.database.db, {
      id: 'upgrade-me',
      name: 'Upgrade me',
      entryUrl: 'https://upgrade.example.com/',
      version: '2.1.0',
      plans: [{ id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'YEAR' }],
    });
    expect((await call('PUT', base, rptA, { upgrade: true })).json()).toMatchObject({ version: '2.1.0' });
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'apps.upgrade'));
    expect(audit.map((row) => row.detail)).toEqual([
      { from: '1.0.0', to: '2.0.0' },
      { from: '2.0.0', to: '2.1.0' },
    ]);
  });
});

describe('another organization', () => {
  it("B's administrator cannot read or change A's apps (403/404) and nothing changes", async () => {
    const before = await snapshot();
    const a = tenants.orgA.id;
    const attempts: [Parameters<typeof call>[0], string, unknown?][] = [
      ['GET', appsOf(a)],
      ['POST', appsOf(a), { appId: 'energy-cost', plan: 'basic', approved: true }],
      ['GET', appOf(a, 'energy-cost')],
      ['PUT', appOf(a, 'energy-cost'), { upgrade: true }],
      ['DELETE', `${appOf(a, 'energy-cost')}?force=true`],
      ['POST', `${appOf(a, 'energy-cost')}/payment`],
      ['POST', `${appOf(a, 'energy-cost')}/reschedule`, { nextBillingAt: '2999-01-01T00:00:00.000Z' }],
      ['PATCH', `${appOf(a, 'energy-cost')}/plan/basic`, { approved: true }],
      ['POST', `${appOf(a, 'upgrade-me')}/upgrade`],
    ];
    for (const [method, url, body] of attempts) {
      const response = await call(method, url, rptB, body);
      expect([403, 404], `${method} ${url}`).toContain(response.statusCode);
    }
    // B's own organization does not have A's installations.
    expect((await call('GET', appOf(tenants.orgB.id, 'energy-cost'), rptB)).statusCode).toBe(404);
    expect(
      (await call('DELETE', `${appOf(tenants.orgB.id, 'energy-cost')}?force=true`, rptB)).statusCode,
    ).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});

describe('deleting', () => {
  it('refuses (409) while an invoice of the app is open, and with force voids it and revokes the transaction', async () => {
    const base = appOf(tenants.orgA.id, 'energy-cost');
    const installed: Answer = (await call('GET', base, rptA)).json();
    expect(installed.lastInvoice?.status).toBe('OPEN');
    const before = await snapshot();
    const refused = await call('DELETE', base, rptA);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      `app 'energy-cost' has 1 open invoice (number ${installed.lastInvoice?.number}): pay it first, or delete with force=true to void it`,
    );
    expect(await snapshot()).toBe(before);
    expect((await call('DELETE', `${base}?force=true`, readerA)).statusCode).toBe(403);

    const forced = await call('DELETE', `${base}?force=true`, rptA);
    expect(forced.statusCode).toBe(204);
    expect((await call('GET', base, rptA)).statusCode).toBe(404);
    expect((await invoiceOf(installed.lastInvoice?.id ?? ''))?.status).toBe('VOID');
    expect((await transactionOf(installed.transactionId ?? ''))?.status).toBe('REVOKED');
    // The paid invoices stay paid.
    const own = await server.database.db
      .select({ status: invoices.status, amountMinor: invoices.amountMinor })
      .from(invoices)
      .where(and(eq(invoices.organizationId, tenants.orgA.id), inArray(invoices.status, ['PAID'])));
    expect(own).toEqual([
      { status: 'PAID', amountMinor: 900 },
      { status: 'PAID', amountMinor: 900 },
    ]);
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'apps.uninstall'));
    expect(audit?.detail).toMatchObject({
      force: true,
      voidedInvoices: [installed.lastInvoice?.id],
      revokedTransactions: [installed.transactionId],
    });
  });

  it('deletes an app without open invoices at once; an app that is not installed is 404', async () => {
    const base = appOf(tenants.orgA.id, 'upgrade-me');
    expect((await call('DELETE', base, rptA)).statusCode).toBe(204);
    expect((await call('DELETE', base, rptA)).statusCode).toBe(404);
    expect(
      (await call('GET', appsOf(tenants.orgA.id), rptA)).json().items.map((item: Answer) => item.id),
    ).toEqual(['shift-report']);
    // It can be installed again (a new installation).
    expect(
      (await call('POST', appsOf(tenants.orgA.id), rptA, { appId: 'upgrade-me', plan: 'free' })).statusCode,
    ).toBe(201);
  });
});

describe('addPeriod', () => {
  it('adds calendar months (clamped to the month end) and years, in UTC', () => {
    expect(addPeriod(new Date('2025-01-31T10:00:00Z'), 'MONTH').toISOString()).toBe(
      '2025-02-28T10:00:00.000Z',
    );
    expect(addPeriod(new Date('2024-01-31T10:00:00Z'), 'MONTH').toISOString()).toBe(
      '2024-02-29T10:00:00.000Z',
    );
    expect(addPeriod(new Date('2025-12-15T00:00:00Z'), 'MONTH').toISOString()).toBe(
      '2026-01-15T00:00:00.000Z',
    );
    expect(addPeriod(new Date('2024-02-29T00:00:00Z'), 'YEAR').toISOString()).toBe(
      '2025-02-28T00:00:00.000Z',
    );
  });
});
