import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedTenants } from '../../test/support/fixtures.ts';
import { decodePayload, passwordLogin, TestBrowser } from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
});
afterAll(() => server.close());

describe('Keycloak-compatible login', () => {
  it('logs in with the standard flow and PKCE, issuing JWT access, refresh and ID tokens', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const tokens = await passwordLogin(browser, 'acme', tenants.adminA.email, PASSWORD);
    const access = decodePayload(tokens.access_token);
    expect(access.iss).toBe('http://acme.app.localhost:8080/auth/realms/acme');
    expect(access.sub).toBe(tenants.adminA.id);
    expect(typeof access.sid).toBe('string');
    expect(decodePayload(tokens.refresh_token).typ).toBe('Refresh');
    expect(decodePayload(tokens.id_token).email).toBe(tenants.adminA.email);
  });
});
