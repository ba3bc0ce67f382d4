import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startLogin, TestBrowser } from '../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { DEFAULT_THEME } from './service.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let rptA: string;

const acmeTheme = { brandName: 'Acme Cloud', primaryColor: '#e8590c', logoUrl: null, colorScheme: 'dark' };

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

function call(method: 'GET' | 'PUT', url: string, token?: string, payload?: Record<string, unknown>) {
  return server.app.inject({
    method,
    url,
    headers: { host: 'acme.app.localhost:8080', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(payload ? { payload } : {}),
  });
}

describe('theme service', () => {
  it('answers the default theme by host before anything is set', async () => {
    expect((await call('GET', '/svc/theme/theme')).json()).toEqual(DEFAULT_THEME);
  });

  it('validates a theme update, naming the field, and stores nothing on bad input', async () => {
    const bad = await call('PUT', `/svc/theme/${tenants.orgA.id}/theme`, rptA, {
      ...acmeTheme,
      primaryColor: 'orange',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('primaryColor');
    const script = await call('PUT', `/svc/theme/${tenants.orgA.id}/theme`, rptA, {
      ...acmeTheme,
      logoUrl: 'javascript:alert(1)',
    });
    expect(script.statusCode).toBe(400);
    expect((await call('GET', `/svc/theme/${tenants.orgA.id}/theme`, rptA)).json()).toEqual(DEFAULT_THEME);
  });

  it('stores the theme of an organization, serves it by host, and brands the login page', async () => {
    const saved = await call('PUT', `/svc/theme/${tenants.orgA.id}/theme`, rptA, acmeTheme);
    expect(saved.statusCode).toBe(200);
    expect((await call('GET', `/svc/theme/${tenants.orgA.id}/theme`, rptA)).json()).toEqual(acmeTheme);
    expect((await call('GET', '/svc/theme/theme')).json()).toEqual(acmeTheme);
    const { loginPage } = await startLogin(new TestBrowser(server.app, 'acme'), 'acme');
    expect(loginPage).toContain('Acme Cloud');
    expect(loginPage).toContain('--primary:#e8590c');
    expect(loginPage).toContain(':root{color-scheme:dark}');
  });

  it("refuses another organization's theme and an update without UPDATE on organizations", async () => {
    expect((await call('PUT', `/svc/theme/${tenants.orgB.id}/theme`, rptA, acmeTheme)).statusCode).toBe(403);
    expect((await call('GET', `/svc/theme/${tenants.orgB.id}/theme`, rptA)).statusCode).toBe(403);
    const viewer = await userWithRole(server, 'acme', tenants.orgA.id, 'theme-viewer@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', viewer.email, tenants.orgA.resourceId);
    expect((await call('GET', `/svc/theme/${tenants.orgA.id}/theme`, rpt)).statusCode).toBe(200);
    expect((await call('PUT', `/svc/theme/${tenants.orgA.id}/theme`, rpt, acmeTheme)).statusCode).toBe(403);
  });
});
