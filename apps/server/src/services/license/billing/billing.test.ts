import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import type { Db } from '../../../db/index.ts';
import {
  auditLog,
  invoices,
  organizations,
  preauthorizedTransactions,
  transactionExecutions,
} from '../../../db/schema.ts';
import { HttpError } from '../../../http/errors.ts';
import { InvoiceProvider, recordInvoice } from './invoice-provider.ts';
import type { Charge, ChargeResult, PaymentProvider } from './payment-provider.ts';
import { authorizeTransaction, executeTransaction } from './transactions.ts';

const REALM = 'bill';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptA1: string;
let rptB: string;
let readerA: string;
let localAdminA1: string;
let localAdminA1Id: string;

const api = (org: string) => `/svc/license/api/v1/organizations/${org}`;
const provider = new InvoiceProvider();

/** A card processor that takes the money at once. */
class CardProvider implements PaymentProvider {
  readonly name = 'card';
  async charge(db: Db, charge: Charge): Promise<ChargeResult> {
    const invoice = await recordInvoice(db, this.name, charge, { status: 'PAID', paidBy: 'pay_123' });
    return { invoiceId: invoice.id, status: 'PAID' };
  }
}

/** A card processor that declines. */
class DecliningProvider implements PaymentProvider {
  readonly name = 'declining';
  async charge(db: Db, charge: Charge): Promise<ChargeResult> {
    const invoice = await recordInvoice(db, this.name, charge, { status: 'FAILED' });
    return { invoiceId: invoice.id, status: 'FAILED', error: 'card declined' };
  }
}

async function tables() {
  const { db } = server.database;
  return {
    invoices: await db.select().from(invoices).orderBy(invoices.number),
    transactions: await db.select().from(preauthorizedTransactions).orderBy(preauthorizedTransactions.id),
    executions: await db.select().from(transactionExecutions),
  };
}

async function invoiceRow(id: string) {
  const [row] = await server.database.db.select().from(invoices).where(eq(invoices.id, id));
  return row;
}

async function authorized(organizationId: string, maxAmountMinor = 500, maxExecutions = 2) {
  const { id, result } = await authorizeTransaction(server.database.db, {
    organizationId,
    description: 'Energy app, monthly',
    purpose: 'app:test',
    currency: 'EUR',
    maxAmountMinor,
    maxExecutions,
    approved: true,
    createdBy: null,
  });
  expect(result).toBe('AUTHORIZED');
  return id;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  rptA = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptA1 = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA1.resourceId)).rpt;
  rptB = (await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, REALM, tenants.orgA.id, 'reader@bill-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'organizations', scopes: ['READ'] },
    { rsname: 'products', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, REALM, reader.email, tenants.orgA.resourceId)).rpt;
  const local = await userWithRole(server, REALM, tenants.orgA1.id, 'admin@bill-a1.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'organizations', scopes: ['READ', 'UPDATE'] },
    { rsname: 'products', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  ]);
  localAdminA1Id = local.id;
  localAdminA1 = (await rptFor(server, REALM, local.email, tenants.orgA1.resourceId)).rpt;
});
afterAll(() => server.close());

describe('InvoiceProvider.charge', () => {
  it('records an OPEN invoice of integer minor units', async () => {
    const result = await provider.charge(server.database.db, {
      organizationId: tenants.orgA1.id,
      amountMinor: 12_345,
      currency: 'EUR',
      description: 'Licence renewal',
      reference: 'license:00000000-0000-4000-8000-000000000001',
    });
    expect(result.status).toBe('OPEN');
    expect(await invoiceRow(result.invoiceId)).toMatchObject({
      organizationId: tenants.orgA1.id,
      amountMinor: 12_345,
      currency: 'EUR',
      status: 'OPEN',
      provider: 'invoice',
      reference: 'license:00000000-0000-4000-8000-000000000001',
      paidAt: null,
      paidBy: null,
    });
  });

  it('refuses fractions, negatives and bad currencies, recording nothing', async () => {
    const before = (await tables()).invoices.length;
    const base = {
      organizationId: tenants.orgA1.id,
      currency: 'EUR',
      description: 'x',
      reference: 'license:x',
    };
    for (const [charge, field] of [
      [{ ...base, amountMinor: 12.5 }, 'amountMinor'],
      [{ ...base, amountMinor: -1 }, 'amountMinor'],
      [{ ...base, amountMinor: Number.NaN }, 'amountMinor'],
      [{ ...base, amountMinor: 2 ** 60 }, 'amountMinor'],
      [{ ...base, amountMinor: 1, currency: 'euro' }, 'currency'],
    ] as const) {
      const refused = provider.charge(server.database.db, charge);
      await expect(refused).rejects.toBeInstanceOf(HttpError);
      await expect(refused).rejects.toThrow(field);
    }
    expect((await tables()).invoices.length).toBe(before);
  });
});

describe('POST transactions (authorization results)', () => {
  const request = {
    description: 'Shift report app, yearly',
    purpose: 'app:shift-report',
    currency: 'EUR',
    maxAmountMinor: 9_900,
    maxExecutions: 12,
    approved: true,
  };

  it('answers AUTHORIZED, USER_REJECTED and ERROR_NO_EMPTY_TRANSACTIONS, recording each (201)', async () => {
    const ok = await call('POST', `${api(tenants.orgA.id)}/transactions`, rptA, request);
    expect(ok.statusCode).toBe(201);
    const { approved: _approved, ...shown } = request;
    expect(ok.json()).not.toHaveProperty('approved');
    expect(ok.json()).toMatchObject({
      ...shown,
      organizationId: tenants.orgA.id,
      result: 'AUTHORIZED',
      status: 'ACTIVE',
      executions: 0,
      createdBy: tenants.adminA.id,
      revokedAt: null,
    });
    const rejected = await call('POST', `${api(tenants.orgA.id)}/transactions`, rptA, {
      ...request,
      approved: false,
    });
    expect(rejected.statusCode).toBe(201);
    expect(rejected.json()).toMatchObject({ result: 'USER_REJECTED', status: 'REFUSED' });
    for (const empty of [{ maxAmountMinor: 0 }, { maxExecutions: 0 }]) {
      const response = await call('POST', `${api(tenants.orgA.id)}/transactions`, rptA, {
        ...request,
        ...empty,
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toMatchObject({ result: 'ERROR_NO_EMPTY_TRANSACTIONS', status: 'REFUSED' });
    }
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, ok.json().id), eq(auditLog.action, 'transactions.create')));
    expect(audit?.detail).toMatchObject({ result: 'AUTHORIZED', maxAmountMinor: 9_900 });
  });

  it('answers ERROR_NO_IN_APP_PURCHASES when the organization has in-app purchases off', async () => {
    const { db } = server.database;
    await db
      .update(organizations)
      .set({ inAppPurchases: false })
      .where(eq(organizations.id, tenants.orgB.id));
    const response = await call('POST', `${api(tenants.orgB.id)}/transactions`, rptB, request);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ result: 'ERROR_NO_IN_APP_PURCHASES', status: 'REFUSED' });
    // Checked before the others: an empty, rejected request is still refused for in-app purchases.
    const empty = await call('POST', `${api(tenants.orgB.id)}/transactions`, rptB, {
      ...request,
      maxExecutions: 0,
      approved: false,
    });
    expect(empty.json().result).toBe('ERROR_NO_IN_APP_PURCHASES');
    await db.update(organizations).set({ inAppPurchases: true }).where(eq(organizations.id, tenants.orgB.id));
  });

  it('answers 400 naming the field and records nothing', async () => {
    const before = await tables();
    const cases: [Record<string, unknown>, string][] = [
      [{ ...request, maxAmountMinor: 1.5 }, 'maxAmountMinor'],
      [{ ...request, maxAmountMinor: -1 }, 'maxAmountMinor'],
      [{ ...request, maxExecutions: 2.5 }, 'maxExecutions'],
      [{ ...request, currency: 'eur' }, 'currency'],
      [{ ...request, description: '   ' }, 'description'],
      [{ ...request, approved: undefined }, 'approved'],
      [{ ...request, extra: 1 }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const response = await call('POST', `${api(tenants.orgA.id)}/transactions`, rptA, body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message, field).toContain(field);
    }
    expect(await tables()).toEqual(before);
  });

  it("refuses another organization's administrator and a caller without UPDATE organizations", async () => {
    const before = await tables();
    expect((await call('POST', `${api(tenants.orgA.id)}/transactions`, rptB, request)).statusCode).toBe(403);
    expect((await call('POST', `${api(tenants.orgA.id)}/transactions`, readerA, request)).statusCode).toBe(
      403,
    );
    expect((await call('POST', `${api('nowhere')}/transactions`, rptA, request)).statusCode).toBe(404);
    expect(await tables()).toEqual(before);
  });
});

describe('executeTransaction', () => {
  it('numbers executions, charges through the provider and is EXHAUSTED after the last', async () => {
    const { db } = server.database;
    const id = await authorized(tenants.orgA1.id, 500, 2);
    const first = await executeTransaction(db, provider, id, 400, 'January');
    expect(first).toMatchObject({ n: 1, status: 'PENDING' });
    expect(await invoiceRow(first.invoiceId)).toMatchObject({
      organizationId: tenants.orgA1.id,
      amountMinor: 400,
      currency: 'EUR',
      status: 'OPEN',
      reference: `transaction:${id}/1`,
      description: 'January',
    });
    await expect(executeTransaction(db, provider, id, 501, 'too much')).rejects.toThrow(
      /over the authorized/,
    );
    const second = await executeTransaction(db, provider, id, 500, 'February');
    expect(second).toMatchObject({ n: 2, status: 'PENDING' });
    const [row] = await db
      .select()
      .from(preauthorizedTransactions)
      .where(eq(preauthorizedTransactions.id, id));
    expect(row?.status).toBe('EXHAUSTED');
    const third = executeTransaction(db, provider, id, 1, 'March');
    await expect(third).rejects.toMatchObject({ statusCode: 409 });
    const executions = await db
      .select()
      .from(transactionExecutions)
      .where(eq(transactionExecutions.transactionId, id));
    expect(
      executions.map((execution) => [execution.n, execution.amountMinor, execution.status]).sort(),
    ).toEqual([
      [1, 400, 'PENDING'],
      [2, 500, 'PENDING'],
    ]);
  });

  it('refuses a refused or unknown transaction and fractional amounts; PAID and FAILED providers', async () => {
    const { db } = server.database;
    const refused = await authorizeTransaction(db, {
      organizationId: tenants.orgA1.id,
      description: 'x',
      purpose: 'app:x',
      currency: 'EUR',
      maxAmountMinor: 100,
      maxExecutions: 1,
      approved: false,
      createdBy: null,
    });
    expect(refused.result).toBe('USER_REJECTED');
    await expect(executeTransaction(db, provider, refused.id, 1, 'x')).rejects.toMatchObject({
      statusCode: 409,
    });
    await expect(
      executeTransaction(db, provider, '00000000-0000-4000-8000-000000000000', 1, 'x'),
    ).rejects.toMatchObject({ statusCode: 404 });
    const id = await authorized(tenants.orgA1.id, 100, 3);
    await expect(executeTransaction(db, provider, id, 1.5, 'x')).rejects.toMatchObject({ statusCode: 400 });
    const paid = await executeTransaction(db, new CardProvider(), id, 100, 'card');
    expect(paid).toMatchObject({ n: 1, status: 'PAID' });
    expect(await invoiceRow(paid.invoiceId)).toMatchObject({
      status: 'PAID',
      provider: 'card',
      paidBy: 'pay_123',
    });
    const declined = await executeTransaction(db, new DecliningProvider(), id, 100, 'declined');
    expect(declined).toMatchObject({ n: 2, status: 'FAILED' });
    const [execution] = await db
      .select()
      .from(transactionExecutions)
      .where(and(eq(transactionExecutions.transactionId, id), eq(transactionExecutions.n, 2)));
    expect(execution?.error).toBe('card declined');
  });
});

describe('transactions: list, executions, retry, revoke', () => {
  let id: string;
  let foreignId: string;
  beforeAll(async () => {
    const { db } = server.database;
    id = await authorized(tenants.orgA.id, 1_000, 3);
    await executeTransaction(db, new DecliningProvider(), id, 700, 'Declined at first');
    await executeTransaction(db, provider, id, 800, 'Invoiced');
    foreignId = await authorized(tenants.orgB.id, 1_000, 3);
    await executeTransaction(db, provider, foreignId, 100, 'B charge');
  });

  it('lists the organization’s transactions newest first, paged and filtered', async () => {
    const page = (await call('GET', `${api(tenants.orgA.id)}/transactions?pageSize=2`, rptA)).json();
    expect(page.pageSize).toBe(2);
    expect(page.items).toHaveLength(2);
    expect(page.total).toBeGreaterThanOrEqual(5);
    expect(page.items[0]).toMatchObject({ id, executions: 2, status: 'ACTIVE' });
    const refused = (await call('GET', `${api(tenants.orgA.id)}/transactions?status=REFUSED`, rptA)).json();
    expect(refused.items.every((item: { status: string }) => item.status === 'REFUSED')).toBe(true);
    expect(refused.total).toBe(3);
    const bList = (await call('GET', `${api(tenants.orgB.id)}/transactions`, rptB)).json();
    expect(bList.items.map((item: { id: string }) => item.id)).not.toContain(id);
    expect((await call('GET', `${api(tenants.orgA.id)}/transactions?status=NOPE`, rptA)).statusCode).toBe(
      400,
    );
  });

  it('shows executions with their invoice status; foreign ids answer 404', async () => {
    const response = await call('GET', `${api(tenants.orgA.id)}/transaction/${id}/executions`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json().items).toMatchObject([
      { n: 1, amountMinor: 700, status: 'FAILED', invoiceStatus: 'FAILED', error: 'card declined' },
      { n: 2, amountMinor: 800, status: 'PENDING', invoiceStatus: 'OPEN', error: null },
    ]);
    expect(
      (await call('GET', `${api(tenants.orgA.id)}/transaction/${foreignId}/executions`, rptA)).statusCode,
    ).toBe(404);
    expect((await call('GET', `${api(tenants.orgA.id)}/transaction/${id}/executions`, rptB)).statusCode).toBe(
      403,
    );
    expect(
      (await call('GET', `${api(tenants.orgA.id)}/transaction/not-a-uuid/executions`, rptA)).statusCode,
    ).toBe(400);
  });

  it("serves the spec's singular paths, and the plural ones first served as the same calls outside the API document", async () => {
    const singular = await call('GET', `${api(tenants.orgA.id)}/transaction/${id}/executions`, rptA);
    const plural = await call('GET', `${api(tenants.orgA.id)}/transactions/${id}/executions`, rptA);
    expect(plural.statusCode).toBe(200);
    expect(plural.json()).toEqual(singular.json());
    expect(
      (await call('GET', `${api(tenants.orgA.id)}/transactions/${id}/executions`, rptB)).statusCode,
    ).toBe(403);
    const document = (await server.app.inject({ method: 'GET', url: '/svc/license/docs/json' })).json();
    const paths = Object.keys(document.paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/svc/license/api/v1/organizations/{org}/transaction/{id}/executions',
        '/svc/license/api/v1/organizations/{org}/transaction/{id}',
        '/svc/license/api/v1/organizations/{org}/transaction/{id}/execution/{n}',
      ]),
    );
    expect(paths.filter((path) => path.includes('/transactions/'))).toEqual([]);
  });

  it('retries a FAILED or PENDING execution with a new invoice, voiding the old one', async () => {
    const before = (await call('GET', `${api(tenants.orgA.id)}/transaction/${id}/executions`, rptA)).json()
      .items;
    const retried = await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/1`, rptA);
    expect(retried.statusCode).toBe(200);
    const one = retried.json();
    expect(one).toMatchObject({
      n: 1,
      amountMinor: 700,
      status: 'PENDING',
      invoiceStatus: 'OPEN',
      error: null,
    });
    expect(one.invoiceId).not.toBe(before[0].invoiceId);
    expect((await invoiceRow(before[0].invoiceId))?.status).toBe('VOID');
    expect(await invoiceRow(one.invoiceId)).toMatchObject({
      amountMinor: 700,
      reference: `transaction:${id}/1`,
      provider: 'invoice',
    });

    const pending = await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/2`, rptA);
    expect(pending.statusCode).toBe(200);
    expect((await invoiceRow(before[1].invoiceId))?.status).toBe('VOID');

    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, id), eq(auditLog.action, 'transactions.retry')));
    expect(audit?.detail).toMatchObject({ n: 1, previousStatus: 'FAILED' });

    const snapshot = await tables();
    expect(
      (await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/9`, rptA)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `${api(tenants.orgA.id)}/transaction/${foreignId}/execution/1`, rptA)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/1`, rptB)).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/1`, readerA)).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/0`, rptA)).statusCode,
    ).toBe(400);
    expect(await tables()).toEqual(snapshot);
  });

  it('does not retry a PAID execution', async () => {
    const { db } = server.database;
    const paidTx = await authorized(tenants.orgA.id, 100, 1);
    await executeTransaction(db, new CardProvider(), paidTx, 100, 'paid by card');
    const response = await call('POST', `${api(tenants.orgA.id)}/transaction/${paidTx}/execution/1`, rptA);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('PAID');
  });

  it('revokes: REVOKED, later executions and retries refused (409), foreign ids untouched', async () => {
    const snapshot = await tables();
    expect((await call('DELETE', `${api(tenants.orgA.id)}/transaction/${foreignId}`, rptA)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${api(tenants.orgA.id)}/transaction/${id}`, rptB)).statusCode).toBe(403);
    expect((await call('DELETE', `${api(tenants.orgA.id)}/transaction/${id}`, readerA)).statusCode).toBe(403);
    expect(await tables()).toEqual(snapshot);

    const revoked = await call('DELETE', `${api(tenants.orgA.id)}/transaction/${id}`, rptA);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id, status: 'REVOKED', result: 'AUTHORIZED' });
    expect(revoked.json().revokedAt).toBeTruthy();
    await expect(executeTransaction(server.database.db, provider, id, 1, 'after')).rejects.toMatchObject({
      statusCode: 409,
    });
    expect((await call('DELETE', `${api(tenants.orgA.id)}/transaction/${id}`, rptA)).statusCode).toBe(409);
    expect(
      (await call('POST', `${api(tenants.orgA.id)}/transaction/${id}/execution/1`, rptA)).statusCode,
    ).toBe(409);
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, id), eq(auditLog.action, 'transactions.revoke')));
    expect(audit).toBeDefined();
  });
});

describe('invoices: lists and marking paid', () => {
  let txId: string;
  let invoiceId: string;
  beforeAll(async () => {
    txId = await authorized(tenants.orgA1.id, 2_000, 5);
    invoiceId = (await executeTransaction(server.database.db, provider, txId, 1_999, 'A1 monthly')).invoiceId;
  });

  it('lists the organization’s own invoices, paged and filtered by status', async () => {
    const page = (
      await call('GET', `${api(tenants.orgA1.id)}/invoices?status=OPEN&pageSize=1`, rptA1)
    ).json();
    expect(page.pageSize).toBe(1);
    expect(page.items).toHaveLength(1);
    expect(page.items[0]).toMatchObject({
      id: invoiceId,
      organizationName: 'Org A1',
      status: 'OPEN',
      amountMinor: 1_999,
    });
    expect(page.total).toBeGreaterThan(1);
    const own = (await call('GET', `${api(tenants.orgA.id)}/invoices?pageSize=1000`, rptA)).json();
    expect(
      own.items.every((item: { organizationId: string }) => item.organizationId === tenants.orgA.id),
    ).toBe(true);
    expect((await call('GET', `${api(tenants.orgA1.id)}/invoices`, rptB)).statusCode).toBe(403);
    expect((await call('GET', `${api(tenants.orgA1.id)}/invoices?status=LOST`, rptA1)).statusCode).toBe(400);
  });

  it("lists the descendants' invoices for the operator, not its own", async () => {
    const clients = (await call('GET', `${api(tenants.orgA.id)}/clientInvoices?pageSize=1000`, rptA)).json();
    const orgsSeen = new Set(clients.items.map((item: { organizationId: string }) => item.organizationId));
    expect([...orgsSeen]).toEqual([tenants.orgA1.id]);
    expect(clients.items.map((item: { id: string }) => item.id)).toContain(invoiceId);
    const filtered = (
      await call('GET', `${api(tenants.orgA.id)}/clientInvoices?organizationId=${tenants.orgB.id}`, rptA)
    ).json();
    expect(filtered.total).toBe(0);
    const leaf = (await call('GET', `${api(tenants.orgA1.id)}/clientInvoices`, rptA1)).json();
    expect(leaf.total).toBe(0);
    expect((await call('GET', `${api(tenants.orgA.id)}/clientInvoices`, rptB)).statusCode).toBe(403);
  });

  it('only an operator of a strict ancestor with UPDATE products marks it paid', async () => {
    const snapshot = await tables();
    const paidUrl = (org: string) => `${api(org)}/invoices/${invoiceId}/paid`;
    // The organization itself cannot mark its own invoice paid, even with UPDATE products there.
    expect((await call('POST', paidUrl(tenants.orgA1.id), localAdminA1)).statusCode).toBe(404);
    expect((await call('POST', paidUrl(tenants.orgA1.id), rptA1)).statusCode).toBe(404);
    // Another tenant, in its own organization or in A's.
    expect((await call('POST', paidUrl(tenants.orgB.id), rptB)).statusCode).toBe(404);
    expect((await call('POST', paidUrl(tenants.orgA.id), rptB)).statusCode).toBe(403);
    // The ancestor without UPDATE products.
    expect((await call('POST', paidUrl(tenants.orgA.id), readerA)).statusCode).toBe(403);
    expect(await tables()).toEqual(snapshot);

    const marked = await call('POST', paidUrl(tenants.orgA.id), rptA);
    expect(marked.statusCode).toBe(200);
    expect(marked.json()).toMatchObject({ id: invoiceId, status: 'PAID', paidBy: tenants.adminA.id });
    expect(marked.json().paidAt).toBeTruthy();
    const executions = (
      await call('GET', `${api(tenants.orgA1.id)}/transaction/${txId}/executions`, rptA1)
    ).json();
    expect(executions.items[0]).toMatchObject({ n: 1, status: 'PAID', invoiceStatus: 'PAID' });
    const again = await call('POST', paidUrl(tenants.orgA.id), rptA);
    expect(again.statusCode).toBe(409);
    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, invoiceId), eq(auditLog.action, 'invoices.paid')));
    expect(audit?.organizationId).toBe(tenants.orgA.id);
    expect(audit?.detail).toMatchObject({ invoiceOrganizationId: tenants.orgA1.id, amountMinor: 1_999 });
    expect(localAdminA1Id).toBeTruthy();
  });

  it('marks a licence invoice paid and changes nothing else', async () => {
    const { invoiceId: licenceInvoice } = await provider.charge(server.database.db, {
      organizationId: tenants.orgA1.id,
      amountMinor: 5_000,
      currency: 'EUR',
      description: 'Licence',
      reference: 'license:00000000-0000-4000-8000-000000000002',
    });
    const executionsBefore = (await tables()).executions;
    const response = await call('POST', `${api(tenants.orgA.id)}/invoices/${licenceInvoice}/paid`, rptA);
    expect(response.statusCode).toBe(200);
    expect((await tables()).executions).toEqual(executionsBefore);
  });
});
