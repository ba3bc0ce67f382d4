import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  deviceLicenses,
  invoices,
  licenseEvents,
  licenses,
  organizations,
  roles,
} from '../../../db/schema.ts';
import { addMember, createUser } from '../../core/organizations/provisioning.ts';
import { verifyDeviceSecret } from '../device-credentials.ts';
import { LICENSE_CODE } from '../keys.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let productReaderA: string;
let devProduct: string;
let usersProduct: string;
let productB: string;
let clientId: string;
let rptClient: string;
let licenseId: string;
let licenseCode: string;

const DAY = 24 * 60 * 60 * 1000;
const base = (org: string) => `/svc/license/api/v1/organizations/${org}`;
const ACTIVATION_KEY = /^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$/;

async function createProduct(rpt: string, org: string, body: Record<string, unknown>) {
  const response = await call('POST', `${base(org)}/products`, rpt, {
    description: '',
    termDays: 365,
    currency: 'EUR',
    ...body,
  });
  expect(response.statusCode).toBe(201);
  return response.json().id as string;
}

async function licenceRows(organizationId: string) {
  return server.database.db.select().from(licenses).where(eq(licenses.organizationId, organizationId));
}

async function eventsOf(id: string) {
  const rows = await server.database.db.select().from(licenseEvents).where(eq(licenseEvents.licenseId, id));
  return rows.map((row) => row.event);
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  await db.update(organizations).set({ dealer: true }).where(eq(organizations.id, tenants.orgA.id));
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'products', scopes: ['READ'] },
    { rsname: 'organizations', scopes: ['READ'] },
  ]);
  productReaderA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
  devProduct = await createProduct(rptA, tenants.orgA.id, {
    code: 'DEV',
    name: 'Device licence',
    resourceType: 'devices',
    quantity: 2,
    priceMinor: 4900,
  });
  usersProduct = await createProduct(rptA, tenants.orgA.id, {
    code: 'USERS',
    name: 'User pack',
    resourceType: 'users',
    quantity: 10,
    priceMinor: 1999,
  });
  productB = await createProduct(rptB, tenants.orgB.id, {
    code: 'B-DEV',
    name: 'B devices',
    resourceType: 'devices',
    quantity: 1,
    priceMinor: 100,
  });
}, 90_000);
afterAll(() => server.close());

describe('the dealer area', () => {
  it('refuses an organization that is not a dealer (403 saying so) and a caller without CREATE/UPDATE products', async () => {
    const notDealer = await call('GET', `${base(tenants.orgB.id)}/clients`, rptB);
    expect(notDealer.statusCode).toBe(403);
    expect(notDealer.json().message).toContain('not a dealer');
    expect((await call('GET', `${base(tenants.orgA.id)}/clients`, productReaderA)).statusCode).toBe(403);
    expect(
      (await call('POST', `${base(tenants.orgA.id)}/clients`, productReaderA, { name: 'Nope' })).statusCode,
    ).toBe(403);
  });

  it('creates a client organization below the dealer with the default roles, and audits it', async () => {
    const response = await call('POST', `${base(tenants.orgA.id)}/clients`, rptA, {
      name: '  Client One ',
      vpnEnabled: false,
    });
    expect(response.statusCode).toBe(201);
    const client = response.json();
    clientId = client.id;
    expect(client).toMatchObject({
      name: 'Client One',
      iotEnabled: true,
      vpnEnabled: false,
      hasOwnResources: true,
      dealer: false,
      licenseCount: 0,
      deviceCount: 0,
    });
    const { db } = server.database;
    const [row] = await db.select().from(organizations).where(eq(organizations.id, clientId));
    expect(row?.parentId).toBe(tenants.orgA.id);
    const clientRoles = await db.select().from(roles).where(eq(roles.organizationId, clientId));
    expect(clientRoles.map((role) => role.name).sort()).toEqual(['Administrator', 'Operator']);
    const audit = await db.select().from(auditLog).where(eq(auditLog.resourceId, clientId));
    expect(audit.map((entry) => entry.action)).toEqual(['organizations.create']);
    // The client's own administrator.
    const administrator = clientRoles.find((role) => role.name === 'Administrator');
    const user = await createUser(db, { realm: 'acme', email: 'admin@client-one.test', password: PASSWORD });
    await addMember(db, clientId, user.id, administrator ? [administrator.id] : []);
    rptClient = (await rptFor(server, 'acme', user.email, row?.resourceId ?? '')).rpt;
  });

  it('refuses bad client input naming the field', async () => {
    for (const [body, field] of [
      [{ name: '' }, 'name'],
      [{ name: 'x', extra: true }, 'extra'],
      [{ name: 'x', iotEnabled: 'maybe' }, 'iotEnabled'],
    ] as const) {
      const response = await call('POST', `${base(tenants.orgA.id)}/clients`, rptA, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toContain(field);
    }
  });

  it('lists its clients (direct sub-organizations)', async () => {
    const response = await call('GET', `${base(tenants.orgA.id)}/clients?search=client`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json().items.map((item: { id: string }) => item.id)).toEqual([clientId]);
    const all = await call('GET', `${base(tenants.orgA.id)}/clients`, rptA);
    expect(all.json().total).toBe(2); // Client One and A1
  });

  it('issues a licence of its devices product: ISSUED with quantity × version quantity device licences', async () => {
    const response = await call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rptA, {
      productId: devProduct,
      quantity: 3,
    });
    expect(response.statusCode).toBe(201);
    const { license, charge } = response.json();
    licenseId = license.id;
    licenseCode = license.licenseCode;
    expect(licenseCode).toMatch(LICENSE_CODE);
    expect(charge).toBeNull();
    expect(license).toMatchObject({
      organizationId: clientId,
      issuerOrganizationId: tenants.orgA.id,
      status: 'ISSUED',
      quantity: 3,
      allowance: 6,
      termPriceMinor: 14_700,
      expiresAt: null,
      product: { id: devProduct, resourceType: 'devices' },
      deviceLicenses: { total: 6, available: 6, active: 0, expired: 0 },
    });
    const keys = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.licenseId, licenseId));
    expect(keys).toHaveLength(6);
    expect(keys.every((key) => key.organizationId === clientId && key.status === 'AVAILABLE')).toBe(true);
    expect(await eventsOf(licenseId)).toEqual(['ISSUED']);
  });

  it("refuses another seller's product (404 naming productId) and bad quantities (400)", async () => {
    const foreign = await call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rptA, {
      productId: productB,
      quantity: 1,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain('productId');
    const zero = await call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rptA, {
      productId: devProduct,
      quantity: 0,
    });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().message).toContain('quantity');
    // A client of another dealer / not a sub-organization: 404.
    const notClient = await call(
      'POST',
      `${base(tenants.orgA.id)}/clients/${tenants.orgB.id}/licenses`,
      rptA,
      {
        productId: devProduct,
        quantity: 1,
      },
    );
    expect(notClient.statusCode).toBe(404);
    expect(await licenceRows(tenants.orgB.id)).toHaveLength(0);
    expect(await licenceRows(clientId)).toHaveLength(1);
  });
});

describe('licences of the holder', () => {
  it('lists, counts and gets them', async () => {
    const list = await call('GET', `${base(clientId)}/licenses`, rptClient);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, pageSize: 200 });
    expect((await call('GET', `${base(clientId)}/licenses?pageSize=201`, rptClient)).statusCode).toBe(400);
    expect((await call('GET', `${base(clientId)}/licenses?status=ACTIVE`, rptClient)).json().total).toBe(0);
    expect((await call('GET', `${base(clientId)}/licenses/count?pageSize=1000`, rptClient)).json()).toEqual({
      count: 1,
    });
    expect((await call('GET', `${base(clientId)}/licenses/count?pageSize=1001`, rptClient)).statusCode).toBe(
      400,
    );
    const one = await call('GET', `${base(clientId)}/licenses/${licenseId}`, rptClient);
    expect(one.json().licenseCode).toBe(licenseCode);
  });

  it('validates codes: own ISSUED valid, unknown valid false, malformed 400', async () => {
    const own = await call(
      'GET',
      `${base(clientId)}/licenses/validate?licenseCode=${encodeURIComponent(` ${licenseCode.toLowerCase()} `)}`,
      rptClient,
    );
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({
      valid: true,
      status: 'ISSUED',
      quantity: 3,
      product: { id: devProduct },
    });
    const unknown = await call(
      'GET',
      `${base(clientId)}/licenses/validate?licenseCode=LIC-2222-3333-4444`,
      rptClient,
    );
    expect(unknown.json()).toEqual({
      valid: false,
      reason: 'unknown licence code',
      status: null,
      product: null,
      quantity: null,
      expiresAt: null,
    });
    // Another organization's code answers like an unknown one.
    const foreign = await call(
      'GET',
      `${base(tenants.orgB.id)}/licenses/validate?licenseCode=${licenseCode}`,
      rptB,
    );
    expect(foreign.json()).toMatchObject({ valid: false, product: null });
    const malformed = await call(
      'GET',
      `${base(clientId)}/licenses/validate?licenseCode=LIC-0000-OOOO-1111`,
      rptClient,
    );
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toContain('licenseCode');
  });

  it('a device key of an ISSUED licence cannot activate a device until the licence is activated', async () => {
    const [key] = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.licenseId, licenseId));
    const response = await call('POST', `${base(clientId)}/deviceLicenses/activate`, rptClient, {
      activationKey: key?.activationKey,
      label: 'Pump 1',
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toContain('activate the licence first');
  });

  it('activation: ACTIVE, the term starts on the server clock and one term is charged (OPEN invoice)', async () => {
    expect(
      (await call('POST', `${base(clientId)}/licenses/activation`, rptClient, { licenseCode: 'LIC-1' }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', `${base(clientId)}/licenses/activation`, rptClient, {
          licenseCode: 'LIC-2222-3333-4444',
        })
      ).statusCode,
    ).toBe(404);
    const before = server.app.clock.now().getTime();
    const response = await call('POST', `${base(clientId)}/licenses/activation`, rptClient, { licenseCode });
    expect(response.statusCode).toBe(200);
    const { license, charge } = response.json();
    expect(license.status).toBe('ACTIVE');
    const expires = new Date(license.expiresAt).getTime();
    expect(expires - new Date(license.activatedAt).getTime()).toBe(365 * DAY);
    expect(new Date(license.activatedAt).getTime()).toBeGreaterThanOrEqual(before);
    expect(charge).toMatchObject({ status: 'OPEN', amountMinor: 14_700, currency: 'EUR' });
    const [invoice] = await server.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.id, charge.invoiceId));
    expect(invoice).toMatchObject({
      organizationId: clientId,
      amountMinor: 14_700,
      status: 'OPEN',
      reference: `license:${licenseId}`,
    });
    const keys = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.licenseId, licenseId));
    expect(keys.every((key) => key.expiresAt?.getTime() === expires)).toBe(true);
    const again = await call('POST', `${base(clientId)}/licenses/activation`, rptClient, { licenseCode });
    expect(again.statusCode).toBe(409);
    expect(await eventsOf(licenseId)).toEqual(['ISSUED', 'ACTIVATED']);
  });

  it("a device activated with its key runs until the licence's expiry", async () => {
    const [key] = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(and(eq(deviceLicenses.licenseId, licenseId), eq(deviceLicenses.status, 'AVAILABLE')));
    const response = await call('POST', `${base(clientId)}/deviceLicenses/activate`, rptClient, {
      activationKey: key?.activationKey,
      label: 'Pump 1',
    });
    expect(response.statusCode).toBe(201);
    const licence = (await call('GET', `${base(clientId)}/licenses/${licenseId}`, rptClient)).json();
    expect(response.json().license.expiresAt).toBe(licence.expiresAt);
    expect(licence.deviceLicenses).toEqual({ total: 6, available: 5, active: 1, expired: 0 });
  });

  it('expirationDate, trial and history', async () => {
    const licence = (await call('GET', `${base(clientId)}/licenses/${licenseId}`, rptClient)).json();
    expect((await call('GET', `${base(clientId)}/licenses/expirationDate`, rptClient)).json()).toEqual({
      expirationDate: licence.expiresAt,
      licenseId,
    });
    expect((await call('GET', `${base(tenants.orgB.id)}/licenses/expirationDate`, rptB)).json()).toEqual({
      expirationDate: null,
      licenseId: null,
    });
    const trial = (await call('GET', `${base(clientId)}/subscriptions/trialExpiration`, rptClient)).json();
    expect(trial).toMatchObject({ onTrial: false, expired: false, daysLeft: 0 });
    const trialB = (await call('GET', `${base(tenants.orgB.id)}/subscriptions/trialExpiration`, rptB)).json();
    expect(trialB).toMatchObject({ onTrial: true, expired: false });
    expect(trialB.daysLeft).toBeGreaterThanOrEqual(29);
    const history = (await call('GET', `${base(clientId)}/subscriptions/history`, rptClient)).json();
    expect(history.items.map((item: { event: string }) => item.event)).toEqual(['ACTIVATED', 'ISSUED']);
    expect(history.items[0]).toMatchObject({ licenseId, licenseCode, productName: 'Device licence' });
    const future = new Date(Date.now() + 400 * DAY).toISOString();
    const empty = (
      await call(
        'GET',
        `${base(clientId)}/subscriptions/history?from=${encodeURIComponent(future)}`,
        rptClient,
      )
    ).json();
    expect(empty.total).toBe(0);
    expect(
      (await call('GET', `${base(clientId)}/subscriptions/history?from=yesterday`, rptClient)).statusCode,
    ).toBe(400);
  });

  it('PUT and autorenew set autorenew (AUTORENEW_ON / OFF events); PUT refuses other fields', async () => {
    const put = await call('PUT', `${base(clientId)}/licenses/${licenseId}`, rptClient, { autorenew: true });
    expect(put.statusCode).toBe(200);
    expect(put.json().autorenew).toBe(true);
    expect(
      (await call('PUT', `${base(clientId)}/licenses/${licenseId}`, rptClient, { quantity: 9 })).statusCode,
    ).toBe(400);
    const off = await call('PUT', `${base(clientId)}/licenses/${licenseId}/autorenew`, rptClient, {
      autorenew: false,
    });
    expect(off.json().autorenew).toBe(false);
    expect(
      (await call('PUT', `${base(clientId)}/licenses/${licenseId}/autorenew`, rptClient, {})).statusCode,
    ).toBe(400);
    expect(await eventsOf(licenseId)).toEqual(['ISSUED', 'ACTIVATED', 'AUTORENEW_ON', 'AUTORENEW_OFF']);
  });

  it('renew extends from the current expiry by one term and charges price × quantity', async () => {
    const before = (await call('GET', `${base(clientId)}/licenses/${licenseId}`, rptClient)).json();
    const response = await call('POST', `${base(clientId)}/licenses/${licenseId}/renew`, rptClient);
    expect(response.statusCode).toBe(200);
    const { license, charge } = response.json();
    expect(new Date(license.expiresAt).getTime() - new Date(before.expiresAt).getTime()).toBe(365 * DAY);
    expect(charge).toMatchObject({ status: 'OPEN', amountMinor: 14_700 });
    const open = await server.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.reference, `license:${licenseId}`));
    expect(open).toHaveLength(2);
  });

  it('a refused payment refuses the renewal and changes nothing', async () => {
    const before = await licenceRows(clientId);
    const spy = vi.spyOn(server.app.payments, 'charge').mockResolvedValue({
      invoiceId: '00000000-0000-4000-8000-000000000000',
      status: 'FAILED',
      error: 'card declined',
    });
    try {
      const response = await call('POST', `${base(clientId)}/licenses/${licenseId}/renew`, rptClient);
      expect(response.statusCode).toBe(409);
      expect(response.json().message).toContain('card declined');
    } finally {
      spy.mockRestore();
    }
    expect(await licenceRows(clientId)).toEqual(before);
  });

  it('only an ISSUED licence can be deleted', async () => {
    const active = await call('DELETE', `${base(clientId)}/licenses/${licenseId}`, rptClient);
    expect(active.statusCode).toBe(409);
    const issued = (
      await call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rptA, {
        productId: devProduct,
        quantity: 1,
      })
    ).json().license;
    expect((await call('DELETE', `${base(clientId)}/licenses/${issued.id}`, rptClient)).statusCode).toBe(204);
    expect(
      await server.database.db.select().from(deviceLicenses).where(eq(deviceLicenses.licenseId, issued.id)),
    ).toEqual([]);
    expect((await call('GET', `${base(clientId)}/licenses/${issued.id}`, rptClient)).statusCode).toBe(404);
  });

  it('a client cannot use the dealer calls', async () => {
    expect((await call('GET', `${base(clientId)}/clients`, rptClient)).statusCode).toBe(403);
    expect((await call('GET', `${base(clientId)}/issuedLicenses`, rptClient)).statusCode).toBe(403);
    expect((await call('GET', `${base(tenants.orgA.id)}/clients`, rptClient)).statusCode).toBe(403);
    expect(
      (await call('POST', `${base(tenants.orgA.id)}/issuedLicenses/${licenseId}/revoke`, rptClient))
        .statusCode,
    ).toBe(403);
  });

  it("another organization's admin gets 403/404 and changes nothing", async () => {
    const before = await licenceRows(clientId);
    const attempts: [Parameters<typeof call>[0], string, unknown?][] = [
      ['GET', `${base(clientId)}/licenses`],
      ['GET', `${base(clientId)}/licenses/${licenseId}`],
      ['PUT', `${base(clientId)}/licenses/${licenseId}`, { autorenew: true }],
      ['POST', `${base(clientId)}/licenses/${licenseId}/renew`],
      ['DELETE', `${base(clientId)}/licenses/${licenseId}`],
      ['POST', `${base(clientId)}/licenses/activation`, { licenseCode }],
      ['GET', `${base(tenants.orgA.id)}/clients/${clientId}`],
      ['POST', `${base(tenants.orgA.id)}/issuedLicenses/${licenseId}/revoke`],
      ['POST', `${base(tenants.orgA.id)}/issuedLicenses/${licenseId}/renew`],
      ['PUT', `${base(tenants.orgA.id)}/issuedLicenses/${licenseId}/autorenew`, { autorenew: true }],
      [
        'POST',
        `${base(tenants.orgA.id)}/clients/${clientId}/licenses`,
        { productId: devProduct, quantity: 1 },
      ],
      // B's own organization with A's ids.
      ['GET', `${base(tenants.orgB.id)}/licenses/${licenseId}`],
      ['POST', `${base(tenants.orgB.id)}/licenses/${licenseId}/renew`],
      ['PUT', `${base(tenants.orgB.id)}/licenses/${licenseId}/autorenew`, { autorenew: true }],
      ['POST', `${base(tenants.orgB.id)}/licenses/activation`, { licenseCode }],
    ];
    for (const [method, url, body] of attempts) {
      expect([403, 404], `${method} ${url}`).toContain((await call(method, url, rptB, body)).statusCode);
    }
    expect(await licenceRows(clientId)).toEqual(before);
  });
});

describe('dealer calls on issued licences', () => {
  it('lists issued licences and shows the client with its licences and resources', async () => {
    const issued = await call('GET', `${base(tenants.orgA.id)}/issuedLicenses?clientId=${clientId}`, rptA);
    expect(issued.statusCode).toBe(200);
    expect(issued.json().items.map((item: { id: string }) => item.id)).toEqual([licenseId]);
    const detail = await call('GET', `${base(tenants.orgA.id)}/clients/${clientId}`, rptA);
    expect(detail.statusCode).toBe(200);
    const body = detail.json();
    expect(body.client).toMatchObject({ id: clientId, licenseCount: 1, activeLicenseCount: 1 });
    expect(body.licenses.map((item: { id: string }) => item.id)).toEqual([licenseId]);
    expect(body.deviceLicenses).toEqual({ total: 6, available: 5, active: 1, expired: 0 });
    expect(
      body.resources.find((item: { resourceType: string }) => item.resourceType === 'devices').allowance,
    ).toBe(6);
    expect((await call('GET', `${base(tenants.orgA.id)}/clients/${tenants.orgB.id}`, rptA)).statusCode).toBe(
      404,
    );
  });

  it("lists the client's device licences for the dealer: paged, filtered, keys unmasked, with their devices", async () => {
    const url = `${base(tenants.orgA.id)}/clients/${clientId}/deviceLicenses`;
    const all = await call('GET', url, rptA);
    expect(all.statusCode).toBe(200);
    const page = all.json();
    expect(page).toMatchObject({ total: 6, page: 0 });
    const stored = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.licenseId, licenseId));
    expect(page.items.map((item: { activationKey: string }) => item.activationKey).sort()).toEqual(
      stored.map((row) => row.activationKey).sort(),
    );
    expect(
      page.items.every((item: { activationKey: string }) => ACTIVATION_KEY.test(item.activationKey)),
    ).toBe(true);
    // The same rows, in the same order, as the client's own list (its administrator sees keys unmasked too).
    const own = (await call('GET', `${base(clientId)}/deviceLicenses`, rptClient)).json();
    expect(page.items).toEqual(own.items);

    const active = (await call('GET', `${url}?status=ACTIVE`, rptA)).json();
    expect(active.total).toBe(1);
    expect(active.items[0]).toMatchObject({ status: 'ACTIVE', device: { label: 'Pump 1' } });
    expect(active.items[0].device.id).toMatch(/^[0-9a-f-]{36}$/);
    const available = (await call('GET', `${url}?status=AVAILABLE`, rptA)).json();
    expect(available.total).toBe(5);
    expect(available.items.every((item: { device: unknown }) => item.device === null)).toBe(true);
    const paged = (await call('GET', `${url}?pageSize=2&page=1`, rptA)).json();
    expect(paged).toMatchObject({ total: 6, page: 1, pageSize: 2 });
    expect(paged.items.map((item: { id: string }) => item.id)).toEqual(
      page.items.slice(2, 4).map((item: { id: string }) => item.id),
    );
    const key = stored.find((row) => row.status === 'AVAILABLE')?.activationKey ?? '';
    const byKey = (await call('GET', `${url}?search=${key.slice(-4)}`, rptA)).json();
    expect(byKey.items.map((item: { activationKey: string }) => item.activationKey)).toContain(key);
    expect((await call('GET', `${url}?search=pump`, rptA)).json().total).toBe(1);
    expect((await call('GET', `${url}?status=GONE`, rptA)).statusCode).toBe(400);

    // The client list and detail count the client's devices.
    const listed = (await call('GET', `${base(tenants.orgA.id)}/clients?search=client`, rptA)).json();
    expect(listed.items[0]).toMatchObject({ id: clientId, deviceCount: 1 });
    const detail = (await call('GET', `${base(tenants.orgA.id)}/clients/${clientId}`, rptA)).json();
    expect(detail.client.deviceCount).toBe(1);
  });

  it("refuses the client's device licences to all but the dealer", async () => {
    const path = (org: string, client: string) => `${base(org)}/clients/${client}/deviceLicenses`;
    // Not a client of the dealer, unknown, malformed.
    expect((await call('GET', path(tenants.orgA.id, tenants.orgB.id), rptA)).statusCode).toBe(404);
    expect(
      (await call('GET', path(tenants.orgA.id, '00000000-0000-4000-8000-000000000000'), rptA)).statusCode,
    ).toBe(404);
    expect((await call('GET', path(tenants.orgA.id, 'client-one'), rptA)).statusCode).toBe(400);
    // Without CREATE/UPDATE products in the dealer.
    expect((await call('GET', path(tenants.orgA.id, clientId), productReaderA)).statusCode).toBe(403);
    // The client's own administrator: not in the dealer, and the client is no dealer (nor its own client).
    expect([403, 404]).toContain((await call('GET', path(tenants.orgA.id, clientId), rptClient)).statusCode);
    expect((await call('GET', path(clientId, clientId), rptClient)).statusCode).toBe(403);
    // Another dealer's administrator: A's dealer path is refused, and in its own dealer A's client is unknown.
    const { db } = server.database;
    await db.update(organizations).set({ dealer: true }).where(eq(organizations.id, tenants.orgB.id));
    try {
      expect([403, 404]).toContain((await call('GET', path(tenants.orgA.id, clientId), rptB)).statusCode);
      const foreign = await call('GET', path(tenants.orgB.id, clientId), rptB);
      expect(foreign.statusCode).toBe(404);
      expect(foreign.json().message).not.toContain('EP-');
      expect((await call('GET', `${base(tenants.orgB.id)}/clients`, rptB)).json().total).toBe(0);
    } finally {
      await db.update(organizations).set({ dealer: false }).where(eq(organizations.id, tenants.orgB.id));
    }
  });

  it('issues an ACTIVE licence at once, charged, with autorenew', async () => {
    const response = await call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rptA, {
      productId: usersProduct,
      quantity: 2,
      activate: true,
      autorenew: true,
    });
    expect(response.statusCode).toBe(201);
    const { license, charge } = response.json();
    expect(license).toMatchObject({
      status: 'ACTIVE',
      autorenew: true,
      allowance: 20,
      deviceLicenses: { total: 0 },
    });
    expect(charge).toMatchObject({ status: 'OPEN', amountMinor: 3998 });
    const off = await call('PUT', `${base(tenants.orgA.id)}/issuedLicenses/${license.id}/autorenew`, rptA, {
      autorenew: false,
    });
    expect(off.json().autorenew).toBe(false);
    const renewed = await call('POST', `${base(tenants.orgA.id)}/issuedLicenses/${license.id}/renew`, rptA);
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().charge.amountMinor).toBe(3998);
  });

  it('revokes: REVOKED, device licences EXPIRED, the device can no longer sign in', async () => {
    const [active] = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(and(eq(deviceLicenses.licenseId, licenseId), eq(deviceLicenses.status, 'ACTIVE')));
    const deviceId = active?.deviceId ?? '';
    // The device's secret is unknown here: issue fresh credentials to check sign-in before and after.
    const { issueDeviceCredentials } = await import('../device-credentials.ts');
    const credentials = await issueDeviceCredentials(server.database.db, deviceId);
    expect(await verifyDeviceSecret(server.database.db, deviceId, credentials.password)).toBeDefined();
    const response = await call('POST', `${base(tenants.orgA.id)}/issuedLicenses/${licenseId}/revoke`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ status: 'REVOKED', deviceLicenses: { total: 6, expired: 6 } });
    expect(await verifyDeviceSecret(server.database.db, deviceId, credentials.password)).toBeUndefined();
    const list = (await call('GET', `${base(clientId)}/deviceLicenses?status=EXPIRED`, rptClient)).json();
    expect(list.total).toBe(6);
    const forDealer = (
      await call('GET', `${base(tenants.orgA.id)}/clients/${clientId}/deviceLicenses?status=EXPIRED`, rptA)
    ).json();
    expect(forDealer.total).toBe(6);
    expect(
      (await call('POST', `${base(tenants.orgA.id)}/issuedLicenses/${licenseId}/revoke`, rptA)).statusCode,
    ).toBe(409);
    expect((await call('POST', `${base(clientId)}/licenses/${licenseId}/renew`, rptClient)).statusCode).toBe(
      409,
    );
    const validation = (
      await call('GET', `${base(clientId)}/licenses/validate?licenseCode=${licenseCode}`, rptClient)
    ).json();
    expect(validation).toMatchObject({ valid: false, status: 'REVOKED' });
    expect(await eventsOf(licenseId)).toContain('REVOKED');
  });
});

describe('organization account flags', () => {
  it("reads them with READ organizations at the spec's path, and at /account where they were first served", async () => {
    const response = await call('GET', `${base(clientId)}`, rptClient);
    expect(response.json()).toEqual({
      organizationId: clientId,
      name: 'Client One',
      dealer: false,
      hasOwnResources: true,
      inAppPurchases: true,
    });
    expect((await call('GET', `${base(clientId)}/account`, rptClient)).json()).toEqual(response.json());
    expect((await call('GET', `${base(clientId)}`, rptB)).statusCode).toBe(403);
    const document = (await server.app.inject({ method: 'GET', url: '/svc/license/docs/json' })).json();
    expect(Object.keys(document.paths)).toContain('/svc/license/api/v1/organizations/{org}');
    expect(Object.keys(document.paths)).not.toContain('/svc/license/api/v1/organizations/{org}/account');
  });

  it('only an ancestor organization changes them', async () => {
    const self = await call('PUT', `${base(clientId)}?by=${clientId}`, rptClient, { dealer: true });
    expect(self.statusCode).toBe(403);
    const selfA = await call('PUT', `${base(tenants.orgA.id)}?by=${tenants.orgA.id}`, rptA, {
      dealer: false,
    });
    expect(selfA.statusCode).toBe(403);
    const foreign = await call('PUT', `${base(clientId)}?by=${tenants.orgB.id}`, rptB, {
      dealer: true,
    });
    expect(foreign.statusCode).toBe(404);
    const wrongToken = await call('PUT', `${base(clientId)}?by=${tenants.orgA.id}`, rptB, {
      dealer: true,
    });
    expect([403, 404]).toContain(wrongToken.statusCode);
    expect((await call('PUT', `${base(clientId)}`, rptA, { dealer: true })).statusCode).toBe(400);
    const [unchanged] = await server.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, clientId));
    expect(unchanged?.dealer).toBe(false);
    const response = await call('PUT', `${base(clientId)}?by=${tenants.orgA.resourceId}`, rptA, {
      dealer: true,
      inAppPurchases: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ dealer: true, hasOwnResources: true, inAppPurchases: false });
    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, clientId), eq(auditLog.action, 'organizations.account')));
    expect(audit.map((entry) => entry.organizationId).sort()).toEqual([tenants.orgA.id, clientId].sort());
  });
});

describe('the demo dealer', () => {
  it('sells two products and has a client holding an ACTIVE device licence pack', async () => {
    const { db } = server.database;
    const { createOrganization } = await import('../../core/organizations/provisioning.ts');
    const { seedDealerDemo } = await import('./demo.ts');
    const org = await createOrganization(db, { realm: 'acme', name: 'Demo', resourceId: 'demo-dealer' });
    const seeded = await seedDealerDemo(db, org, server.app.clock.now());
    const [dealer] = await db.select().from(organizations).where(eq(organizations.id, org.id));
    expect(dealer?.dealer).toBe(true);
    const { products } = await import('../../../db/schema.ts');
    const sold = await db.select().from(products).where(eq(products.organizationId, org.id));
    expect(sold.map((product) => [product.name, product.resourceType]).sort()).toEqual([
      ['Device licence', 'devices'],
      ['User pack', 'users'],
    ]);
    const [held] = await licenceRows(seeded.clientId);
    expect(held).toMatchObject({ status: 'ACTIVE', issuerOrganizationId: org.id, quantity: 5 });
    const keys = await db.select().from(deviceLicenses).where(eq(deviceLicenses.licenseId, seeded.licenseId));
    expect(keys).toHaveLength(5);
    expect(
      keys.every(
        (key) => key.status === 'AVAILABLE' && key.expiresAt?.getTime() === held?.expiresAt?.getTime(),
      ),
    ).toBe(true);
  });
});

describe("the holder's licence create (POST /organizations/{org}/licenses)", () => {
  it("issues one through the dealer's rules, by its client's id or resourceId, and refuses what the dealer path refuses", async () => {
    const [client] = await server.database.db
      .select()
      .from(organizations)
      .where(eq(organizations.id, clientId));
    const before = await licenceRows(clientId);
    const created = await call(
      'POST',
      `${base(client?.resourceId ?? '')}/licenses?by=${tenants.orgA.id}`,
      rptA,
      {
        productId: usersProduct,
        quantity: 2,
      },
    );
    expect(created.statusCode).toBe(201);
    expect(created.json().license).toMatchObject({
      organizationId: clientId,
      issuerOrganizationId: tenants.orgA.id,
      status: 'ISSUED',
      quantity: 2,
      product: { id: usersProduct },
    });
    const refusals: [string, string, Record<string, unknown>, number][] = [
      // No dealer named; a bad quantity; a product of another seller.
      [`${base(clientId)}/licenses`, rptA, { productId: devProduct, quantity: 1 }, 400],
      [`${base(clientId)}/licenses?by=${tenants.orgA.id}`, rptA, { productId: devProduct, quantity: 0 }, 400],
      [`${base(clientId)}/licenses?by=${tenants.orgA.id}`, rptA, { productId: productB, quantity: 1 }, 404],
      // Not the dealer's client; a token of another organization; an organization that is not a dealer.
      [
        `${base(tenants.orgB.id)}/licenses?by=${tenants.orgA.id}`,
        rptA,
        { productId: devProduct, quantity: 1 },
        404,
      ],
      [`${base(clientId)}/licenses?by=${tenants.orgA.id}`, rptB, { productId: devProduct, quantity: 1 }, 403],
      [`${base(clientId)}/licenses?by=${tenants.orgB.id}`, rptB, { productId: productB, quantity: 1 }, 403],
      [
        `${base(clientId)}/licenses?by=${tenants.orgA.id}`,
        productReaderA,
        { productId: devProduct, quantity: 1 },
        403,
      ],
    ];
    for (const [url, rpt, body, status] of refusals)
      expect((await call('POST', url, rpt, body)).statusCode, url).toBe(status);
    expect(await licenceRows(clientId)).toHaveLength(before.length + 1);
    expect(await licenceRows(tenants.orgB.id)).toHaveLength(0);
  });
});
