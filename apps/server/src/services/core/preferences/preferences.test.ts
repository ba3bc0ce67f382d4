import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  tokenA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).accessToken;
  tokenB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).accessToken;
});
afterAll(() => server.close());

const localePath = (user: string) =>
  `/svc/core/api/v1/userPreferences/users/${user}/services/portal/properties/locale`;

describe('user preferences', () => {
  it('saves, reads and overwrites the locale through the users/{user}/services/{service}/properties/{prop} form', async () => {
    expect((await call('GET', localePath(tenants.adminA.email), tokenA)).statusCode).toBe(404);
    const saved = await call('PUT', localePath(tenants.adminA.email), tokenA, { value1: 'de-DE' });
    expect(saved.json()).toMatchObject({
      username: tenants.adminA.email,
      serviceName: 'portal',
      property: 'locale',
      value1: 'de-DE',
    });
    await call('PUT', localePath(tenants.adminA.email), tokenA, { value1: 'it-IT' });
    expect((await call('GET', localePath(tenants.adminA.email), tokenA)).json().value1).toBe('it-IT');
  });

  it("never reads or writes another user's preferences", async () => {
    expect((await call('GET', localePath(tenants.adminA.email), tokenB)).statusCode).toBe(403);
    expect(
      (await call('PUT', localePath(tenants.adminA.email), tokenB, { value1: 'fr-FR' })).statusCode,
    ).toBe(403);
    expect((await call('GET', localePath(tenants.adminA.email), tokenA)).json().value1).toBe('it-IT');
  });

  it('creates, lists and deletes own preferences; validation names the field', async () => {
    const created = await call('POST', '/svc/core/api/v1/userPreferences', tokenB, {
      serviceName: 'portal',
      property: 'menu',
      value1: 'collapsed',
    });
    expect(created.statusCode).toBe(200);
    const bad = await call('POST', '/svc/core/api/v1/userPreferences', tokenB, {
      serviceName: 'portal',
      property: 'a b',
      value1: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('property');
    expect((await call('GET', '/svc/core/api/v1/userPreferences', tokenB)).json()).toHaveLength(1);
    const id = created.json().id as string;
    expect((await call('DELETE', `/svc/core/api/v1/userPreferences/${id}`, tokenA)).statusCode).toBe(404);
    expect((await call('DELETE', `/svc/core/api/v1/userPreferences/${id}`, tokenB)).statusCode).toBe(204);
    expect((await call('GET', '/svc/core/api/v1/userPreferences', tokenB)).json()).toEqual([]);
  });
});
