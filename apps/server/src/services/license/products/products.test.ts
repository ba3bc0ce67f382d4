import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, products } from '../../../db/schema.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let rptA1: string;
let readerA: string;

const productsOf = (org: string) => `/svc/license/api/v1/organizations/${org}/products`;
const deviceProduct = {
  code: 'DEV-1',
  name: 'Device licence',
  description: 'one device for a year',
  resourceType: 'devices',
  quantity: 1,
  termDays: 365,
  priceMinor: 4900,
  currency: 'EUR',
};

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const admin1 = await userWithRole(server, 'acme', tenants.orgA1.id, 'admin@acme-a1.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'products', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  ]);
  rptA1 = (await rptFor(server, 'acme', admin1.email, tenants.orgA1.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'products', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
}, 90_000);
afterAll(() => server.close());

async function productRows(organizationId: string) {
  return server.database.db.select().from(products).where(eq(products.organizationId, organizationId));
}

describe('products', () => {
  let productId: string;

  it('creates a product with version 1 and audits it', async () => {
    const response = await call('POST', productsOf(tenants.orgA.id), rptA, deviceProduct);
    expect(response.statusCode).toBe(201);
    const body = response.json();
    productId = body.id;
    expect(body).toMatchObject({
      code: 'DEV-1',
      name: 'Device licence',
      resourceType: 'devices',
      currentVersion: 1,
      current: { version: 1, quantity: 1, termDays: 365, priceMinor: 4900, currency: 'EUR', vpn: false },
    });
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, productId));
    expect(audit.map((row) => row.action)).toEqual(['products.create']);
  });

  it('refuses a taken code (409) and bad input naming the field (400)', async () => {
    expect((await call('POST', productsOf(tenants.orgA.id), rptA, deviceProduct)).statusCode).toBe(409);
    const cases: [Record<string, unknown>, string][] = [
      [{ ...deviceProduct, code: 'X', priceMinor: 12.5 }, 'priceMinor'],
      [{ ...deviceProduct, code: 'Y', resourceType: 'cars' }, 'resourceType'],
      [{ ...deviceProduct, code: 'Z', currency: 'euro' }, 'currency'],
      [{ ...deviceProduct, code: 'W', termDays: 0 }, 'termDays'],
      [{ ...deviceProduct, code: 'has space' }, 'code'],
      [{ ...deviceProduct, code: 'U', extra: 1 }, 'extra'],
      [{ ...deviceProduct, code: 'V', resourceType: 'users', vpn: true }, 'vpn'],
    ];
    for (const [body, field] of cases) {
      const response = await call('POST', productsOf(tenants.orgA.id), rptA, body);
      expect(response.statusCode, field).toBe(400);
      expect(response.json().message).toContain(field);
    }
    expect(await productRows(tenants.orgA.id)).toHaveLength(1);
  });

  it('lists (default page size 10000), counts, searches and gets', async () => {
    await call('POST', productsOf(tenants.orgA.id), rptA, {
      ...deviceProduct,
      code: 'USERS-10',
      name: 'User pack',
      resourceType: 'users',
      quantity: 10,
      priceMinor: 1000,
    });
    const list = await call('GET', productsOf(tenants.orgA.id), readerA);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 2, pageSize: 10_000, page: 0 });
    expect(list.json().items.map((item: { name: string }) => item.name)).toEqual([
      'Device licence',
      'User pack',
    ]);
    expect((await call('GET', `${productsOf(tenants.orgA.id)}?pageSize=10000`, readerA)).statusCode).toBe(
      200,
    );
    expect((await call('GET', `${productsOf(tenants.orgA.id)}?pageSize=10001`, readerA)).statusCode).toBe(
      400,
    );
    const search = await call(
      'GET',
      `${productsOf(tenants.orgA.id)}?search=user&resourceType=users`,
      readerA,
    );
    expect(search.json().items).toHaveLength(1);
    expect((await call('GET', `${productsOf(tenants.orgA.id)}/count`, readerA)).json()).toEqual({ count: 2 });
    expect(
      (await call('GET', `${productsOf(tenants.orgA.id)}/count?resourceType=devices`, readerA)).json(),
    ).toEqual({ count: 1 });
    const one = await call('GET', `${productsOf(tenants.orgA.id)}/${productId}`, readerA);
    expect(one.json().code).toBe('DEV-1');
  });

  it('PUT changes name and description only; a new version becomes current', async () => {
    const put = await call('PUT', `${productsOf(tenants.orgA.id)}/${productId}`, rptA, {
      name: 'Device licence (1y)',
    });
    expect(put.statusCode).toBe(200);
    expect(put.json().name).toBe('Device licence (1y)');
    expect(
      (await call('PUT', `${productsOf(tenants.orgA.id)}/${productId}`, rptA, { priceMinor: 1 })).statusCode,
    ).toBe(400);
    const version = await call('POST', `${productsOf(tenants.orgA.id)}/${productId}/versions`, rptA, {
      quantity: 1,
      termDays: 30,
      priceMinor: 500,
      currency: 'EUR',
      vpn: true,
    });
    expect(version.statusCode).toBe(201);
    expect(version.json()).toMatchObject({ version: 2, termDays: 30, vpn: true });
    const product = (await call('GET', `${productsOf(tenants.orgA.id)}/${productId}`, rptA)).json();
    expect(product).toMatchObject({ currentVersion: 2, current: { version: 2, priceMinor: 500 } });
    const versions = (
      await call('GET', `${productsOf(tenants.orgA.id)}/${productId}/versions`, readerA)
    ).json();
    expect(versions.items.map((item: { version: number }) => item.version)).toEqual([2, 1]);
  });

  it('a reader cannot change products (403)', async () => {
    expect(
      (await call('POST', productsOf(tenants.orgA.id), readerA, { ...deviceProduct, code: 'R' })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `${productsOf(tenants.orgA.id)}/${productId}`, readerA, { name: 'nope' }))
        .statusCode,
    ).toBe(403);
  });

  it('only a dealer or a top-level organization sells', async () => {
    const response = await call('POST', productsOf(tenants.orgA1.id), rptA1, deviceProduct);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toContain('dealer');
  });

  it("another organization's admin gets 403/404 and changes nothing", async () => {
    const before = await productRows(tenants.orgA.id);
    const urls: [Parameters<typeof call>[0], string, unknown?][] = [
      ['GET', productsOf(tenants.orgA.id)],
      ['GET', `${productsOf(tenants.orgA.id)}/${productId}`],
      ['PUT', `${productsOf(tenants.orgA.id)}/${productId}`, { name: 'hijacked' }],
      ['DELETE', `${productsOf(tenants.orgA.id)}/${productId}`],
      [
        'POST',
        `${productsOf(tenants.orgA.id)}/${productId}/versions`,
        { quantity: 1, termDays: 1, priceMinor: 0, currency: 'EUR' },
      ],
    ];
    for (const [method, url, body] of urls) {
      expect([403, 404]).toContain((await call(method, url, rptB, body)).statusCode);
    }
    // B's own organization with A's product id: 404.
    expect((await call('GET', `${productsOf(tenants.orgB.id)}/${productId}`, rptB)).statusCode).toBe(404);
    expect((await call('DELETE', `${productsOf(tenants.orgB.id)}/${productId}`, rptB)).statusCode).toBe(404);
    expect(await productRows(tenants.orgA.id)).toEqual(before);
  });

  it('deletes a product without licences', async () => {
    const created = (
      await call('POST', productsOf(tenants.orgA.id), rptA, { ...deviceProduct, code: 'GONE' })
    ).json();
    expect((await call('DELETE', `${productsOf(tenants.orgA.id)}/${created.id}`, rptA)).statusCode).toBe(204);
    expect((await call('GET', `${productsOf(tenants.orgA.id)}/${created.id}`, rptA)).statusCode).toBe(404);
  });
});
