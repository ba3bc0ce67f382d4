import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, organizations, users, vpnLegacySessions } from '../../../db/schema.ts';
import { newTotpSecret } from '../../../identity/accounts.ts';
import { LEGACY_COOKIE, parseLegacyUsername } from './service.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let accessTokenA: string;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function post(url: string, fields: Record<string, string>, cookie?: string) {
  return server.app.inject({
    method: 'POST',
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie: `${LEGACY_COOKIE}=${cookie}` } : {}),
    },
    payload: form(fields),
  });
}
function ping(cookie?: string) {
  return server.app.inject({
    method: 'GET',
    url: '/svc/vpn/ping',
    headers: cookie ? { cookie: `${LEGACY_COOKIE}=${cookie}` } : {},
  });
}
function sessionCookie(response: Awaited<ReturnType<typeof post>>) {
  return response.cookies.find((cookie) => cookie.name === LEGACY_COOKIE);
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  accessTokenA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).accessToken;
});
afterAll(() => server.close());

describe('legacy remote-access login', () => {
  it('splits the username at the last slash', () => {
    expect(parseLegacyUsername('a@b.test/acme-a')).toEqual({ email: 'a@b.test', domain: 'acme-a' });
    expect(parseLegacyUsername('no-domain')).toBeUndefined();
    expect(parseLegacyUsername('/acme-a')).toBeUndefined();
    expect(parseLegacyUsername('a@b.test/')).toBeUndefined();
  });

  it('signs in with a form (ajax=true: 200 with the session cookie), pings and logs out', async () => {
    const { adminA, orgA } = tenants;
    const login = await post('/svc/vpn/login', {
      username: `${adminA.email}/${orgA.resourceId}`,
      password: PASSWORD,
      ajax: 'true',
    });
    expect(login.statusCode).toBe(200);
    const answer = login.json();
    expect(answer.success).toBe(true);
    const expiresAt = Date.parse(answer.expiresAt);
    expect(expiresAt - Date.now()).toBeGreaterThan(9 * 60_000);
    const cookie = sessionCookie(login);
    expect(cookie).toMatchObject({ path: '/svc/vpn', httpOnly: true, sameSite: 'Lax' });
    const token = cookie?.value ?? '';
    expect(token.length).toBeGreaterThan(30);
    const rows = await server.database.db.select().from(vpnLegacySessions);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tokenHash).not.toBe(token);
    expect(rows[0]).toMatchObject({ userId: adminA.id, organizationId: orgA.id });

    const before = rows[0]?.expiresAt.getTime() ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 10));
    const kept = await ping(token);
    expect(kept.statusCode).toBe(200);
    expect(kept.json().success).toBe(true);
    const [extended] = await server.database.db.select().from(vpnLegacySessions);
    expect(extended?.expiresAt.getTime()).toBeGreaterThan(before);

    const logout = await post('/svc/vpn/logout', {}, token);
    expect(logout.statusCode).toBe(200);
    expect(logout.json()).toEqual({ success: true });
    const cleared = sessionCookie(logout);
    expect(cleared?.value).toBe('');
    expect(await server.database.db.select().from(vpnLegacySessions)).toHaveLength(0);
    expect((await ping(token)).statusCode).toBe(401);
    const actions = await server.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.organizationId, orgA.id));
    expect(actions.map((row) => row.action)).toEqual(
      expect.arrayContaining(['vpn.legacyLogin', 'vpn.legacyLogout']),
    );
  });

  it('answers 302 to the portal without ajax, on the new login path, with an access token as password', async () => {
    const { adminA, orgA } = tenants;
    const redirected = await post('/svc/vpn/api/login', {
      username: `${adminA.email}/${orgA.resourceId}`,
      password: PASSWORD,
    });
    expect(redirected.statusCode).toBe(302);
    expect(redirected.headers.location).toBe('/');
    expect(sessionCookie(redirected)?.value).toBeTruthy();
    const withToken = await post('/svc/vpn/login', {
      username: `${adminA.email}/${orgA.id}`,
      password: accessTokenA,
      ajax: 'true',
    });
    expect(withToken.statusCode).toBe(200);
    expect((await ping(sessionCookie(withToken)?.value)).statusCode).toBe(200);
    // A JSON body works too.
    const json = await server.app.inject({
      method: 'POST',
      url: '/svc/vpn/login',
      payload: { username: `${adminA.email}/${orgA.resourceId}`, password: PASSWORD, ajax: 'true' },
    });
    expect(json.statusCode).toBe(200);
  });

  it('refuses wrong credentials (401), non-members and VPN-disabled organizations (403)', async () => {
    const { adminA, adminB, orgA, orgB, orgA1 } = tenants;
    const { db } = server.database;
    const wrong = await userWithRole(server, 'acme', orgA.id, 'wrong@acme-a.test', [
      { rsname: 'devices', scopes: ['READ'] },
    ]);
    const sessionsBefore = (await db.select().from(vpnLegacySessions)).length;
    const refusals: [Record<string, string>, number][] = [
      [{ username: `${wrong.email}/${orgA.resourceId}`, password: 'not the password' }, 401],
      [{ username: `${wrong.email}/${orgA.resourceId}`, password: 'a.b.c' }, 401],
      [{ username: `${adminA.email}/nowhere`, password: PASSWORD }, 401],
      [{ username: `${adminA.email}`, password: PASSWORD }, 401],
      [{ username: `${adminB.email}/${orgA.resourceId}`, password: PASSWORD }, 403],
      // Another user's token is not this user's password.
      [{ username: `${adminB.email}/${orgB.resourceId}`, password: accessTokenA }, 401],
    ];
    for (const [fields, status] of refusals) {
      const answer = await post('/svc/vpn/login', { ...fields, ajax: 'true' });
      expect(answer.statusCode, JSON.stringify(fields)).toBe(status);
      expect(answer.json()).toMatchObject({ success: false, message: expect.any(String) });
      expect(sessionCookie(answer)).toBeUndefined();
    }
    const missing = await post('/svc/vpn/login', { username: 'x' });
    expect(missing.statusCode).toBe(400);
    await db.update(organizations).set({ vpnEnabled: false }).where(eq(organizations.id, orgB.id));
    const off = await post('/svc/vpn/login', {
      username: `${adminB.email}/${orgB.resourceId}`,
      password: PASSWORD,
      ajax: 'true',
    });
    expect(off.statusCode).toBe(403);
    expect((await db.select().from(vpnLegacySessions)).length).toBe(sessionsBefore);
    // Rights inherited from the parent organization let a user into a sub-organization.
    const inheriting = await userWithRole(server, 'acme', orgA.id, 'inherits@acme-a.test', [
      { rsname: 'devices', scopes: ['READ', 'INHERIT'] },
    ]);
    const inherited = await post('/svc/vpn/login', {
      username: `${inheriting.email}/${orgA1.resourceId}`,
      password: PASSWORD,
      ajax: 'true',
    });
    expect(inherited.statusCode).toBe(200);
    const notInherited = await post('/svc/vpn/login', {
      username: `${wrong.email}/${orgA1.resourceId}`,
      password: PASSWORD,
      ajax: 'true',
    });
    expect(notInherited.statusCode).toBe(403);
  });

  it('refuses the password alone of an account with a one-time code, and takes its access token', async () => {
    const { db } = server.database;
    const { orgA } = tenants;
    const enrolled = await userWithRole(server, 'acme', orgA.id, 'otp@acme-a.test', [
      { rsname: 'devices', scopes: ['READ'] },
    ]);
    const accessToken = (await rptFor(server, 'acme', enrolled.email, orgA.resourceId)).accessToken;
    await db.update(users).set({ totpSecret: newTotpSecret() }).where(eq(users.id, enrolled.id));
    const sessionsBefore = (await db.select().from(vpnLegacySessions)).length;
    const withPassword = await post('/svc/vpn/login', {
      username: `${enrolled.email}/${orgA.resourceId}`,
      password: PASSWORD,
      ajax: 'true',
    });
    expect(withPassword.statusCode).toBe(401);
    expect(sessionCookie(withPassword)).toBeUndefined();
    expect((await db.select().from(vpnLegacySessions)).length).toBe(sessionsBefore);
    const withToken = await post('/svc/vpn/login', {
      username: `${enrolled.email}/${orgA.resourceId}`,
      password: accessToken,
      ajax: 'true',
    });
    expect(withToken.statusCode).toBe(200);
  });

  it('pings only live sessions', async () => {
    expect((await ping()).statusCode).toBe(401);
    expect((await ping('garbage')).statusCode).toBe(401);
    const { adminA, orgA } = tenants;
    const login = await post('/svc/vpn/login', {
      username: `${adminA.email}/${orgA.resourceId}`,
      password: PASSWORD,
      ajax: 'true',
    });
    const token = sessionCookie(login)?.value ?? '';
    await server.database.db.update(vpnLegacySessions).set({ expiresAt: new Date(Date.now() - 1000) });
    expect((await ping(token)).statusCode).toBe(401);
    expect((await post('/svc/vpn/logout', {})).statusCode).toBe(200);
  });

  it('limits login attempts per client', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 25; attempt += 1) {
      statuses.push((await post('/svc/vpn/api/login', { username: 'nobody', password: 'x' })).statusCode);
    }
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
  });
});
