import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { decodePayload, rptFor, signWith } from '../../../../test/support/tokens.ts';
import { organizations } from '../../../db/schema.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let rptA: string;
let loginTokenA: string;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  const session = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
  rptA = session.rpt;
  loginTokenA = session.accessToken;
});
afterAll(() => server.close());

function call(
  method: 'GET' | 'PUT',
  url: string,
  token?: string,
  payload?: unknown,
  host = 'acme.app.localhost:8080',
) {
  return server.app.inject({
    method,
    url,
    headers: { host, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

async function storedOrg(id: string) {
  const [row] = await server.database.db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

describe('server basics', () => {
  it('answers health and readiness', async () => {
    expect((await server.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await server.app.inject('/readyz')).json()).toEqual({
      status: 'ready',
      database: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite',
    });
  });

  it('publishes the core OpenAPI document at /svc/core/docs/json', async () => {
    const doc = (await server.app.inject('/svc/core/docs/json')).json();
    expect(doc.info.title).toBe('Edgeport core service');
    expect(Object.keys(doc.paths)).toContain('/svc/core/api/v1/organizations/{org}');
  });
});

describe('GET /svc/core/api/v1/instance', () => {
  const url = '/svc/core/api/v1/instance';

  it("answers the product, the services' API version and the realm the host names", async () => {
    const response = await call('GET', url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    const doc = (await server.app.inject('/svc/core/docs/json')).json() as { info: { version: string } };
    expect(doc.info.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(response.json()).toEqual({ product: 'edgeport', version: doc.info.version, realm: 'acme' });
    const other = await call('GET', url, undefined, undefined, 'plant-2.app.example.com');
    expect(other.json()).toEqual({ product: 'edgeport', version: doc.info.version, realm: 'plant-2' });
  });

  it('names no realm on a host without one', async () => {
    const response = await call('GET', url, undefined, undefined, 'localhost:8080');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      product: 'edgeport',
      version: expect.stringMatching(/^\d+\.\d+\.\d+$/),
    });
  });

  it('is public: it needs no token and does not look at one', async () => {
    const anonymous = (await call('GET', url)).json();
    for (const token of [rptA, loginTokenA, 'not-a-token']) {
      const response = await call('GET', url, token);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual(anonymous);
    }
  });
});

describe('core organizations', () => {
  it('reads the organization the RPT was issued for', async () => {
    const response = await call('GET', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: tenants.orgA.id, resourceId: tenants.orgA.resourceId });
  });

  it('lists my organizations with sub-organizations, from the login token', async () => {
    const response = await call('GET', '/svc/core/api/v1/organizations/mine', loginTokenA);
    const names = (response.json() as Array<{ name: string }>).map((org) => org.name).sort();
    expect(names).toEqual(['Org A', 'Org A1']);
  });

  it('updates the organization and validates the body, naming the field', async () => {
    const bad = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rptA, {
      iotEnabled: 'maybe',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('iotEnabled');
    const empty = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rptA, { name: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('name');
    const unknown = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rptA, {
      owner: 'me',
    });
    expect(unknown.statusCode).toBe(400);
    expect((await storedOrg(tenants.orgA.id))?.name).toBe('Org A');

    const ok = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rptA, {
      name: 'Org A renamed',
    });
    expect(ok.statusCode).toBe(200);
    expect((await storedOrg(tenants.orgA.id))?.name).toBe('Org A renamed');
  });
});

describe('tenant boundaries and token checks on /svc', () => {
  it('refuses organization B data with organization A token (403), and changes nothing', async () => {
    const read = await call('GET', `/svc/core/api/v1/organizations/${tenants.orgB.id}`, rptA);
    expect(read.statusCode).toBe(403);
    const users = await call('GET', `/svc/core/api/v1/organizations/${tenants.orgB.id}/users`, rptA);
    expect(users.statusCode).toBe(403);
    const write = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgB.id}`, rptA, {
      name: 'taken over',
    });
    expect(write.statusCode).toBe(403);
    expect((await storedOrg(tenants.orgB.id))?.name).toBe('Org B');
  });

  it('refuses organization data with a login token that is no RPT', async () => {
    const response = await call('GET', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, loginTokenA);
    expect(response.statusCode).toBe(403);
  });

  it('refuses a caller lacking the permission inside their own organization', async () => {
    const viewer = await userWithRole(server, 'acme', tenants.orgA.id, 'viewer@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'organizations', scopes: ['READ'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', viewer.email, tenants.orgA.resourceId);
    expect((await call('GET', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rpt)).statusCode).toBe(
      200,
    );
    const write = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rpt, { name: 'no' });
    expect(write.statusCode).toBe(403);
    expect(
      (await call('GET', `/svc/core/api/v1/organizations/${tenants.orgA.id}/users`, rpt)).statusCode,
    ).toBe(403);
  });

  it('answers 401 for missing, tampered, expired and other-realm tokens', async () => {
    const url = `/svc/core/api/v1/organizations/${tenants.orgA.id}`;
    expect((await call('GET', url)).statusCode).toBe(401);
    const [header, payload, signature] = rptA.split('.');
    const claims = { ...decodePayload(rptA), sub: tenants.adminB.id };
    const tampered = `${header}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`;
    expect((await call('GET', url, tampered)).statusCode).toBe(401);
    expect((await call('GET', url, `${payload}`)).statusCode).toBe(401);

    const realm = await server.app.realms.get('acme');
    const expired = await signWith(
      realm?.signingKey ?? {},
      decodePayload(rptA),
      Math.floor(Date.now() / 1000) - 60,
    );
    const response = await call('GET', url, expired);
    expect(response.statusCode).toBe(401);
    expect(response.json().message).toBe('token expired');

    await server.app.realms.create('other', 'Other');
    const other = await server.app.realms.get('other');
    const otherRealm = await signWith(
      other?.signingKey ?? {},
      { ...decodePayload(rptA), iss: 'http://other.app.localhost:8080/auth/realms/other' },
      Math.floor(Date.now() / 1000) + 60,
    );
    expect((await call('GET', url, otherRealm)).statusCode).toBe(401);
    expect((await call('GET', url, rptA, undefined, 'other.app.localhost:8080')).statusCode).toBe(401);
  });
});

describe('realm discovery', () => {
  it('answers loginInfo for a host naming a realm, 404 otherwise, and needs the hostname', async () => {
    const found = await call('GET', '/svc/core/api/v1/organizations/loginInfo?hostname=acme.app.localhost');
    expect(found.json()).toEqual({ realm: 'acme', displayName: 'ACME' });
    expect(
      (await call('GET', '/svc/core/api/v1/organizations/loginInfo?hostname=nope.app.localhost')).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', '/svc/core/api/v1/organizations/loginInfo?hostname=localhost')).statusCode,
    ).toBe(404);
    const missing = await call('GET', '/svc/core/api/v1/organizations/loginInfo');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('hostname');
  });

  it("lists the realms where the caller's email has an account", async () => {
    const response = await call('GET', '/svc/core/api/v1/organizations/mineRealms', loginTokenA);
    expect(response.json()).toEqual([
      { name: 'acme', displayName: 'ACME', url: 'http://acme.app.localhost:8080' },
    ]);
  });
});
