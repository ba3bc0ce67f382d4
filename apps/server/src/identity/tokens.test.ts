import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../test/support/fixtures.ts';
import {
  decodePayload,
  passwordLogin,
  pkce,
  TestBrowser,
  type TokenSet,
} from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { rptFor } from '../../test/support/tokens.ts';
import { UMA_GRANT_TYPE } from './rpt.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const base = '/auth/realms/acme/protocol/openid-connect';

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
});
afterAll(() => server.close());
afterEach(() => {
  server.app.clock.reset();
});

async function login(email: string) {
  const browser = new TestBrowser(server.app, 'acme');
  return { browser, tokens: await passwordLogin(browser, 'acme', email, PASSWORD) };
}

function exchange(browser: TestBrowser, bearer: string, permission = tenants.orgA.resourceId) {
  return browser.request(
    'POST',
    `${base}/token`,
    { grant_type: UMA_GRANT_TYPE, audience: 'platform', permission },
    { authorization: `Bearer ${bearer}` },
  );
}

function refresh(browser: TestBrowser, refreshToken: string) {
  return browser.request('POST', `${base}/token`, {
    grant_type: 'refresh_token',
    client_id: 'web-portal',
    refresh_token: refreshToken,
  });
}

/** A route any signed-in user may call with a plain access token: their own locale preference. */
function ownPreference(email: string, bearer: string) {
  return call(
    'GET',
    `/svc/core/api/v1/userPreferences/users/${email}/services/portal/properties/locale`,
    bearer,
  );
}

/** Keycloak's RP-initiated logout as keycloak-js does it (id_token_hint, the form submits itself). */
async function logout(browser: TestBrowser, idToken: string) {
  const query = new URLSearchParams({
    client_id: 'web-portal',
    id_token_hint: idToken,
    post_logout_redirect_uri: `${browser.origin}/`,
  });
  const page = await browser.request('GET', `${base}/logout?${query}`);
  const action = /<form[^>]*action="([^"]+)"[^>]*>/.exec(page.body)?.[1];
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
  const confirmed = await browser.request('POST', String(action), { xsrf: xsrf ?? '', logout: 'yes' });
  expect(confirmed.headers.location).toBe(`${browser.origin}/`);
}

/** Starts a new sign-in in the same browser: answers whether its session cookie got a code without credentials. */
async function signsInSilently(browser: TestBrowser): Promise<boolean> {
  const redirectUri = `${browser.origin}/`;
  const query = new URLSearchParams({
    client_id: 'web-portal',
    redirect_uri: redirectUri,
    state: randomBytes(8).toString('hex'),
    response_mode: 'fragment',
    response_type: 'code',
    scope: 'openid',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
  });
  const response = await browser.request('GET', `${base}/auth?${query}`);
  const location = String(response.headers.location ?? '');
  if (location.includes('/login-actions/')) return false;
  return new URL(location, browser.origin).hash.includes('code=');
}

describe('F5: only access tokens are API credentials', () => {
  it('refuses the ID token as a bearer of the services, of userinfo and of the permission-token exchange', async () => {
    const { browser, tokens } = await login(tenants.adminA.email);
    expect(decodePayload(tokens.id_token).aud).toBe('web-portal');

    const service = await ownPreference(tenants.adminA.email, tokens.id_token);
    expect(service.statusCode).toBe(401);
    expect(service.json().message).toBe('token is not an access token');
    const userinfo = await browser.request('GET', `${base}/userinfo`, undefined, {
      authorization: `Bearer ${tokens.id_token}`,
    });
    expect(userinfo.statusCode).toBe(401);
    const rpt = await exchange(browser, tokens.id_token);
    expect(rpt.statusCode).toBe(401);
    expect(rpt.json().error).toBe('invalid_grant');

    // The access token of the same sign-in does all three.
    expect((await ownPreference(tenants.adminA.email, tokens.access_token)).statusCode).toBe(404);
    expect((await exchange(browser, tokens.access_token)).statusCode).toBe(200);
  });

  it('refuses the ID token after logout too', async () => {
    const { browser, tokens } = await login(tenants.adminA.email);
    await logout(browser, tokens.id_token);
    expect((await exchange(browser, tokens.id_token)).statusCode).toBe(401);
    expect((await ownPreference(tenants.adminA.email, tokens.id_token)).statusCode).toBe(401);
  });
});

describe('F6: a permission token is issued only for a live session', () => {
  it('renews a permission token while the session lives, and not after logout', async () => {
    const { browser, tokens } = await login(tenants.adminA.email);
    const first = await exchange(browser, tokens.access_token);
    const rpt = first.json().access_token as string;
    const renewed = await exchange(browser, rpt);
    expect(renewed.statusCode).toBe(200);
    expect(decodePayload(renewed.json().access_token).sid).toBe(decodePayload(tokens.access_token).sid);

    await logout(browser, tokens.id_token);
    for (const bearer of [rpt, renewed.json().access_token as string, tokens.access_token]) {
      const refused = await exchange(browser, bearer);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ error: 'invalid_grant', error_description: 'Session not active' });
    }
    // As with Keycloak, a permission token already issued is a self-contained JWT: it stays valid for the rest
    // of its 5 minutes; only its renewal needs the session.
    expect((await call('GET', `/svc/core/api/v1/organizations/${tenants.orgA.id}`, rpt)).statusCode).toBe(
      200,
    );
  });

  it('stops renewal when the session is ended from the account page', async () => {
    const { browser, tokens } = await login(tenants.adminA.email);
    const { rpt } = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
    const sid = decodePayload(tokens.access_token).sid as string;
    const ended = await call('DELETE', `/svc/core/api/v1/account/sessions/${sid}`, rpt);
    expect(ended.statusCode).toBeLessThan(300);
    expect((await exchange(browser, tokens.access_token)).statusCode).toBe(401);
  });
});

describe("F10: security policies' maxSessionMinutes", () => {
  let worker: { id: string; email: string };

  beforeAll(async () => {
    worker = await userWithRole(server, 'acme', tenants.orgA.id, 'short-shift@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
    const policies = `/svc/core/api/v1/organizations/${tenants.orgA.id}/securityPolicies`;
    const policy = await call('POST', policies, rpt, {
      name: 'One-minute sessions',
      rules: { allowedIpRanges: [], requireTotp: false, maxSessionMinutes: 1 },
    });
    expect(policy.statusCode).toBe(201);
    const assigned = await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/users/${worker.id}/securityPolicies/${policy.json().id}`,
      rpt,
    );
    expect(assigned.statusCode).toBeLessThan(300);
  });

  it('refuses refresh and permission tokens once the session is older than the policy allows', async () => {
    const { browser, tokens } = await login(worker.email);
    const early = await refresh(browser, tokens.refresh_token);
    expect(early.statusCode).toBe(200);
    const current = early.json() as TokenSet;
    expect((await exchange(browser, current.access_token)).statusCode).toBe(200);

    server.app.clock.advance(90_000);
    const late = await refresh(browser, current.refresh_token);
    expect(late.statusCode).toBe(400);
    expect(late.json().error).toBe('invalid_grant');
    expect(late.json().error_description).toContain('maxSessionMinutes');
    expect((await exchange(browser, current.access_token)).statusCode).toBe(401);
    expect(await signsInSilently(browser), 'the session cookie no longer signs in').toBe(false);
  });

  it('ends the session at the permission-token exchange as well', async () => {
    const { browser, tokens } = await login(worker.email);
    server.app.clock.advance(90_000);
    const refused = await exchange(browser, tokens.access_token);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().error_description).toContain('maxSessionMinutes');
    expect((await refresh(browser, tokens.refresh_token)).statusCode).toBe(400);
  });

  it('does not let the session cookie sign in again without credentials once the session is too old', async () => {
    const { browser } = await login(worker.email);
    expect(await signsInSilently(browser)).toBe(true);
    server.app.clock.advance(90_000);
    expect(await signsInSilently(browser)).toBe(false);
  });

  it('leaves sessions within the limit, and users without a limiting policy, alone', async () => {
    const limited = await login(worker.email);
    const unlimited = await login(tenants.adminA.email);
    server.app.clock.advance(50_000);
    expect((await refresh(limited.browser, limited.tokens.refresh_token)).statusCode).toBe(200);
    server.app.clock.advance(10 * 60_000);
    expect((await refresh(unlimited.browser, unlimited.tokens.refresh_token)).statusCode).toBe(200);
    expect((await exchange(unlimited.browser, unlimited.tokens.access_token)).statusCode).toBe(200);
    expect(await signsInSilently(unlimited.browser)).toBe(true);
  });
});
