import { and, eq } from 'drizzle-orm';
import { importJWK, SignJWT } from 'jose';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedTenants } from '../../test/support/fixtures.ts';
import {
  decodePayload,
  exchangeCode,
  formAction,
  passwordLogin,
  startLogin,
  submitForm,
  TestBrowser,
  type TokenSet,
} from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { loginFailures, users } from '../db/schema.ts';
import { createUser } from '../services/core/organizations/provisioning.ts';
import { LOGIN_POLICY } from './accounts.ts';
import { UMA_GRANT_TYPE } from './rpt.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
const tokenPath = '/auth/realms/acme/protocol/openid-connect/token';

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
});
afterAll(() => server.close());

async function login(email = tenants.adminA.email) {
  const browser = new TestBrowser(server.app, 'acme');
  return { browser, tokens: await passwordLogin(browser, 'acme', email, PASSWORD) };
}

async function refresh(browser: TestBrowser, refreshToken: string) {
  return browser.request('POST', tokenPath, {
    grant_type: 'refresh_token',
    client_id: 'web-portal',
    refresh_token: refreshToken,
  });
}

async function requestRpt(
  browser: TestBrowser,
  accessToken: string,
  permission: string,
  extra: Record<string, string> = {},
) {
  return browser.request(
    'POST',
    tokenPath,
    { grant_type: UMA_GRANT_TYPE, audience: 'platform', permission, ...extra },
    { authorization: `Bearer ${accessToken}` },
  );
}

/** Where app.inject's requests come from. */
const INJECT_ADDRESS = '127.0.0.1';

async function failuresOf(username: string) {
  const [row] = await server.database.db
    .select()
    .from(loginFailures)
    .where(and(eq(loginFailures.username, username), eq(loginFailures.clientAddress, INJECT_ADDRESS)));
  return row;
}

async function storedUser(email: string) {
  const [row] = await server.database.db.select().from(users).where(eq(users.email, email));
  if (!row) throw new Error(`no user ${email}`);
  return row;
}

describe('Keycloak-compatible login', () => {
  it('logs in with the standard flow and PKCE, issuing JWT access, refresh and ID tokens', async () => {
    const { tokens } = await login();
    const access = decodePayload(tokens.access_token);
    expect(access.iss).toBe('http://acme.app.localhost:8080/auth/realms/acme');
    expect(access.sub).toBe(tenants.adminA.id);
    expect(typeof access.sid).toBe('string');
    // As Keycloak's: the ID token names the session too, and the access token carries the default roles.
    expect(decodePayload(tokens.id_token).sid).toBe(access.sid);
    expect(access.realm_access).toEqual({
      roles: ['default-roles-acme', 'offline_access', 'uma_authorization'],
    });
    expect(access.resource_access).toEqual({ account: { roles: ['manage-account', 'view-profile'] } });
    expect(decodePayload(tokens.refresh_token).typ).toBe('Refresh');
    // Signed, as Keycloak's (HS512), not an unsigned JWT.
    expect(JSON.parse(Buffer.from(tokens.refresh_token.split('.')[0] ?? '', 'base64url').toString())).toEqual(
      {
        alg: 'HS512',
        typ: 'JWT',
      },
    );
    expect(tokens.refresh_token.split('.')[2]).toMatch(/^[\w-]{86}$/);
    expect(decodePayload(tokens.id_token).email).toBe(tenants.adminA.email);
  });

  it("carries the authorization request's nonce in the ID token, per login (keycloak-js compares the two)", async () => {
    const nonces = ['d3b07384-d9a7-4f3b-8b1e-0c6f1a2e9b11', '6f1ed002-ab5d-4f29-8c0f-1c9b7b1c4e22'];
    const idTokens = await Promise.all(
      nonces.map(async (nonce) => {
        const start = await startLogin(new TestBrowser(server.app, 'acme'), 'acme', { nonce });
        const { code } = await submitForm(start, start.action, {
          username: tenants.adminA.email,
          password: PASSWORD,
        });
        if (!code) throw new Error('no authorization code');
        return decodePayload((await exchangeCode(start, 'acme', code)).id_token);
      }),
    );
    expect(idTokens.map((claims) => claims.nonce)).toEqual(nonces);
  });

  it('publishes the discovery document with Keycloak paths and only S256', async () => {
    const response = await new TestBrowser(server.app, 'acme').request(
      'GET',
      '/auth/realms/acme/.well-known/openid-configuration',
    );
    const discovery = response.json();
    expect(discovery.token_endpoint).toBe(
      'http://acme.app.localhost:8080/auth/realms/acme/protocol/openid-connect/token',
    );
    expect(discovery.jwks_uri).toMatch(/protocol\/openid-connect\/certs$/);
    expect(discovery.check_session_iframe).toBe(
      'http://acme.app.localhost:8080/auth/realms/acme/protocol/openid-connect/login-status-iframe.html',
    );
    expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
    expect(discovery.response_modes_supported).toEqual(expect.arrayContaining(['query', 'fragment']));
  });

  it('answers the query response mode too', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const start = await startLogin(browser, 'acme', { response_mode: 'query' });
    const { location } = await browser.follow(
      'POST',
      start.action,
      { username: tenants.adminA.email, password: PASSWORD },
      `${browser.origin}/`,
    );
    expect(location).toMatch(/^http:\/\/acme\.app\.localhost:8080\/\?code=/);
  });

  it('serves userinfo for a valid access token and refuses a bad one', async () => {
    const { browser, tokens } = await login();
    const ok = await browser.request('GET', '/auth/realms/acme/protocol/openid-connect/userinfo', undefined, {
      authorization: `Bearer ${tokens.access_token}`,
    });
    expect(ok.json().email).toBe(tenants.adminA.email);
    const bad = await browser.request(
      'GET',
      '/auth/realms/acme/protocol/openid-connect/userinfo',
      undefined,
      {
        authorization: `Bearer ${tokens.access_token.slice(0, -4)}AAAA`,
      },
    );
    expect(bad.statusCode).toBe(401);
  });

  it('rotates refresh tokens and refuses a used one', async () => {
    const { browser, tokens } = await login();
    const first = await refresh(browser, tokens.refresh_token);
    expect(first.statusCode).toBe(200);
    const next = first.json() as TokenSet;
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(decodePayload(next.access_token).sub).toBe(tenants.adminA.id);
    expect((await refresh(browser, next.refresh_token)).statusCode).toBe(200);
  });

  it('ends the session on logout with id_token_hint, without a confirmation screen; refresh then fails', async () => {
    const { browser, tokens } = await login();
    const query = new URLSearchParams({
      client_id: 'web-portal',
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${browser.origin}/`,
    });
    const page = await browser.request('GET', `/auth/realms/acme/protocol/openid-connect/logout?${query}`);
    expect(page.body).toContain("document.getElementById('op.logoutForm').submit()");
    const form = /<form[^>]*action="([^"]+)"[^>]*>/.exec(page.body);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
    expect(form?.[1]).toBeDefined();
    const confirmed = await browser.request('POST', String(form?.[1]), { xsrf: xsrf ?? '', logout: 'yes' });
    expect(confirmed.headers.location).toBe(`${browser.origin}/`);
    const after = await refresh(browser, tokens.refresh_token);
    expect(after.statusCode).toBe(400);
    expect(after.json().error).toBe('invalid_grant');
  });

  it("ends the session on logout by POST, as keycloak-js sends it with logoutMethod 'POST'", async () => {
    const { browser, tokens } = await login();
    const bearerOf = { authorization: `Bearer ${tokens.access_token}` };
    const userinfo = () =>
      browser.request('GET', '/auth/realms/acme/protocol/openid-connect/userinfo', undefined, bearerOf);
    const profile = () => browser.request('GET', '/auth/realms/acme/account', undefined, bearerOf);
    // keycloak-js loadUserProfile() reads Keycloak's account representation.
    expect((await profile()).json()).toMatchObject({
      id: tenants.adminA.id,
      username: tenants.adminA.email,
      email: tenants.adminA.email,
      emailVerified: true,
    });
    expect((await userinfo()).statusCode).toBe(200);
    const page = await browser.request('POST', '/auth/realms/acme/protocol/openid-connect/logout', {
      client_id: 'web-portal',
      id_token_hint: tokens.id_token,
      post_logout_redirect_uri: `${browser.origin}/`,
    });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.body).toContain("document.getElementById('op.logoutForm').submit()");
    const form = /<form[^>]*action="([^"]+)"[^>]*>/.exec(page.body);
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page.body)?.[1];
    const confirmed = await browser.request('POST', String(form?.[1]), { xsrf: xsrf ?? '', logout: 'yes' });
    expect(confirmed.headers.location).toBe(`${browser.origin}/`);
    expect((await refresh(browser, tokens.refresh_token)).statusCode).toBe(400);
    // The access token is unexpired, but its session is gone: it reads nothing any more, as in Keycloak.
    expect((await userinfo()).statusCode).toBe(401);
    expect((await profile()).statusCode).toBe(401);
  });

  it('asks for confirmation when logout comes without a valid hint', async () => {
    const { browser } = await login();
    const page = await browser.request('GET', '/auth/realms/acme/protocol/openid-connect/logout');
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('.submit()');
    expect(page.body).toContain('name="logout" value="yes"');
  });

  it('serves the pages keycloak-js loads in hidden frames, and reports a live session as unchanged', async () => {
    const { browser, tokens } = await login();
    const base = '/auth/realms/acme/protocol/openid-connect';
    const iframe = await browser.request('GET', `${base}/login-status-iframe.html`);
    expect(iframe.statusCode).toBe(200);
    expect(iframe.headers['content-security-policy']).toMatch(/script-src 'nonce-/);
    const sid = String(decodePayload(tokens.access_token).sid);
    const live = await browser.request('GET', `${base}/login-status-iframe.html/check?sid=${sid}`);
    expect(live.json()).toEqual({ state: 'unchanged' });
    const other = await browser.request('GET', `${base}/login-status-iframe.html/check?sid=someone-else`);
    expect(other.json()).toEqual({ state: 'changed' });
    expect((await browser.request('GET', `${base}/3p-cookies/step1.html`)).body).toContain(
      "window.location = 'step2.html'",
    );
    expect((await browser.request('GET', `${base}/3p-cookies/step2.html`)).body).toContain(
      "postMessage(supported ? 'supported'",
    );
  });
});

describe('login page', () => {
  it('is localized from ui_locales and offers the five languages', async () => {
    const start = await startLogin(new TestBrowser(server.app, 'acme'), 'acme', { ui_locales: 'de' });
    expect(start.loginPage).toContain('<html lang="de">');
    expect(start.loginPage).toContain('Anmelden');
    for (const lang of ['en', 'de', 'es', 'fr', 'it'])
      expect(start.loginPage).toContain(`hreflang="${lang}"`);
  });

  it('rejects a wrong password with the error, no code, and counts the attempt', async () => {
    const user = await createUser(server.database.db, {
      realm: 'acme',
      email: 'wrong@acme.test',
      password: PASSWORD,
    });
    const start = await startLogin(new TestBrowser(server.app, 'acme'), 'acme');
    const result = await submitForm(start, start.action, { username: user.email, password: 'not it' });
    expect(result.code).toBeUndefined();
    expect(result.status).toBe(401);
    expect(result.page).toContain('Invalid username or password.');
    expect((await failuresOf(user.email))?.failures).toBe(1);
  });

  it('locks the name at this address after repeated failures, even for the right password, until the lock expires', async () => {
    const user = await createUser(server.database.db, {
      realm: 'acme',
      email: 'locked@acme.test',
      password: PASSWORD,
    });
    await server.database.db.insert(loginFailures).values({
      realm: 'acme',
      username: user.email,
      clientAddress: INJECT_ADDRESS,
      failures: LOGIN_POLICY.maxFailures - 1,
    });
    const start = await startLogin(new TestBrowser(server.app, 'acme'), 'acme');
    const failed = await submitForm(start, start.action, { username: user.email, password: 'still wrong' });
    expect(failed.page).toContain('Invalid username or password.');
    const right = await submitForm(start, formAction(failed.page), {
      username: user.email,
      password: PASSWORD,
    });
    expect(right.code).toBeUndefined();
    expect(right.status).toBe(429);
    expect(right.page).toContain('Too many failed attempts');
    await server.database.db
      .update(loginFailures)
      .set({ lockedUntil: new Date(Date.now() - 1000) })
      .where(eq(loginFailures.username, user.email));
    const later = await submitForm(start, formAction(right.page), {
      username: user.email,
      password: PASSWORD,
    });
    expect(later.code).toBeDefined();
  });

  it('runs UPDATE_PASSWORD: validates, stores the new password, clears the action', async () => {
    const user = await createUser(server.database.db, {
      realm: 'acme',
      email: 'newpass@acme.test',
      password: PASSWORD,
      requiredActions: ['UPDATE_PASSWORD'],
    });
    const browser = new TestBrowser(server.app, 'acme');
    const start = await startLogin(browser, 'acme');
    const step = await submitForm(start, start.action, { username: user.email, password: PASSWORD });
    expect(step.page).toContain('Update password');
    const mismatch = await submitForm(start, formAction(step.page), {
      'password-new': 'a-new-password',
      'password-confirm': 'another-one',
    });
    expect(mismatch.page).toContain('Passwords don&#39;t match.');
    const done = await submitForm(start, formAction(mismatch.page), {
      'password-new': 'a-new-password',
      'password-confirm': 'a-new-password',
    });
    expect(done.code).toBeDefined();
    expect((await storedUser(user.email)).requiredActions).toEqual([]);
    await expect(
      passwordLogin(new TestBrowser(server.app, 'acme'), 'acme', user.email, 'a-new-password'),
    ).resolves.toBeDefined();
  });

  it('enrols TOTP through CONFIGURE_TOTP and then asks for a code at every login', async () => {
    const user = await createUser(server.database.db, {
      realm: 'acme',
      email: 'totp@acme.test',
      password: PASSWORD,
      requiredActions: ['CONFIGURE_TOTP'],
    });
    const start = await startLogin(new TestBrowser(server.app, 'acme'), 'acme');
    const setup = await submitForm(start, start.action, { username: user.email, password: PASSWORD });
    const secret = /id="kc-totp-secret-key">([^<]+)</.exec(setup.page)?.[1]?.replace(/\s/g, '') ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
    const wrong = await submitForm(start, formAction(setup.page), {
      totp: '000000' === totp.generate() ? '111111' : '000000',
    });
    expect(wrong.page).toContain('Invalid authenticator code.');
    const enrolled = await submitForm(start, formAction(wrong.page), { totp: totp.generate() });
    expect(enrolled.code).toBeDefined();

    const again = await startLogin(new TestBrowser(server.app, 'acme'), 'acme');
    const otpStep = await submitForm(again, again.action, { username: user.email, password: PASSWORD });
    expect(otpStep.page).toContain('id="otp"');
    const withCode = await submitForm(again, formAction(otpStep.page), { otp: totp.generate() });
    expect(withCode.code).toBeDefined();
    const tokens = await exchangeCode(again, 'acme', withCode.code ?? '');
    expect(decodePayload(tokens.id_token).amr).toEqual(['pwd', 'otp']);
  });

  it('starts an account action (kc_action) for a signed-in user without asking for the password again', async () => {
    const { browser } = await login(tenants.adminA.email);
    const start = await startLogin(browser, 'acme', { kc_action: 'UPDATE_PASSWORD' });
    expect(start.loginPage).toContain('id="password-new"');
    const done = await submitForm(start, start.action, {
      'password-new': PASSWORD,
      'password-confirm': PASSWORD,
    });
    expect(done.code).toBeDefined();
  });

  it('accepts the base host (realm chosen by cookie) as a redirect target, but no other host', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const start = await startLogin(browser, 'acme', { redirect_uri: 'http://localhost:8080/' });
    expect(start.loginPage).toContain('kc-form-login');
    await expect(
      startLogin(browser, 'acme', { redirect_uri: 'http://other.app.localhost:8080/' }),
    ).rejects.toThrow(/no form in page/);
  });
});

describe('bad requests to the identity server', () => {
  it('answers an unknown realm with 404 JSON', async () => {
    const response = await new TestBrowser(server.app, 'nope').request(
      'GET',
      '/auth/realms/nope/.well-known/openid-configuration',
    );
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Realm does not exist' });
  });

  it('rejects a redirect_uri that is not registered', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const query = new URLSearchParams({
      client_id: 'web-portal',
      redirect_uri: 'https://evil.example.com/',
      response_type: 'code',
      scope: 'openid',
      code_challenge: 'x'.repeat(43),
      code_challenge_method: 'S256',
    });
    const response = await browser.request('GET', `/auth/realms/acme/protocol/openid-connect/auth?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.headers.location).toBeUndefined();
    expect(response.body).toContain('redirect_uri did not match');
  });

  it('refuses the code without the right PKCE verifier', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const start = await startLogin(browser, 'acme');
    const { code } = await submitForm(start, start.action, {
      username: tenants.adminA.email,
      password: PASSWORD,
    });
    const response = await browser.request('POST', tokenPath, {
      grant_type: 'authorization_code',
      client_id: 'web-portal',
      code: code ?? '',
      redirect_uri: start.redirectUri,
      code_verifier: 'x'.repeat(64),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('invalid_grant');
  });
});

describe('permission token (UMA ticket grant)', () => {
  it('lists what the user may do in the organization, scoped to it', async () => {
    const { browser, tokens } = await login();
    const response = await requestRpt(browser, tokens.access_token, tenants.orgA.resourceId, {
      scope: `org:${tenants.orgA.id} app:*`,
    });
    expect(response.statusCode).toBe(200);
    const rpt = decodePayload(response.json().access_token);
    expect(rpt.scope).toBe(`org:${tenants.orgA.id} app:*`);
    expect(rpt.aud).toBe('platform');
    const permissions = (rpt.authorization as { permissions: Array<{ rsname: string; scopes: string[] }> })
      .permissions;
    expect(permissions.find((p) => p.rsname === 'portal')?.scopes).toContain('ACCESS');
    expect(response.json().expires_in).toBe(300);
  });

  it('inherits INHERIT permissions into sub-organizations', async () => {
    const { browser, tokens } = await login();
    const response = await requestRpt(browser, tokens.access_token, tenants.orgA1.resourceId);
    expect(response.statusCode).toBe(200);
    const permissions = (
      decodePayload(response.json().access_token).authorization as { permissions: unknown[] }
    ).permissions;
    expect(permissions.length).toBeGreaterThan(0);
  });

  it('refuses an organization the user is not a member of', async () => {
    const { browser, tokens } = await login();
    const response = await requestRpt(browser, tokens.access_token, tenants.orgB.resourceId);
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('access_denied');
  });

  it('names the missing field and refuses unknown resources and foreign scopes', async () => {
    const { browser, tokens } = await login();
    expect((await requestRpt(browser, tokens.access_token, '')).json().error_description).toBe(
      'permission is required',
    );
    expect((await requestRpt(browser, tokens.access_token, 'missing-org')).statusCode).toBe(400);
    const foreign = await requestRpt(browser, tokens.access_token, tenants.orgA.resourceId, {
      scope: `org:${tenants.orgB.id} app:*`,
    });
    expect(foreign.statusCode).toBe(400);
    const noBearer = await browser.request('POST', tokenPath, {
      grant_type: UMA_GRANT_TYPE,
      audience: 'platform',
      permission: tenants.orgA.resourceId,
    });
    expect(noBearer.statusCode).toBe(401);
  });
});

describe('signing keys', () => {
  it('are generated per install and differ between realms', async () => {
    await server.app.realms.create('other', 'Other');
    const acme = await server.app.realms.get('acme');
    const other = await server.app.realms.get('other');
    expect(acme?.signingKey.kid).toBeDefined();
    expect(acme?.signingKey.n).not.toBe(other?.signingKey.n);
  });

  it('a token signed with another key is not accepted for this realm', async () => {
    const other = await server.app.realms.get('other');
    const forged = await new SignJWT({ scope: 'openid' })
      .setProtectedHeader({ alg: 'RS256', kid: other?.signingKey.kid })
      .setIssuer('http://acme.app.localhost:8080/auth/realms/acme')
      .setSubject(tenants.adminA.id)
      .setExpirationTime('5m')
      .sign(await importJWK(other?.signingKey ?? {}, 'RS256'));
    await expect(server.app.verifyToken(forged)).rejects.toThrow();
  });
});
