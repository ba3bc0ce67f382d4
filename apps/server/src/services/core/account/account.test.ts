import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants } from '../../../../test/support/fixtures.ts';
import { passwordLogin, TestBrowser } from '../../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { decodePayload } from '../../../../test/support/tokens.ts';
import { users } from '../../../db/schema.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
});
afterAll(() => server.close());

async function signIn() {
  const browser = new TestBrowser(server.app, 'acme');
  return { browser, tokens: await passwordLogin(browser, 'acme', tenants.adminA.email, PASSWORD) };
}

describe('account', () => {
  it('shows the account with its credentials and sessions, marking the current one', async () => {
    await signIn();
    const { tokens } = await signIn();
    const account = (await call('GET', '/svc/core/api/v1/account', tokens.access_token)).json();
    expect(account.email).toBe(tenants.adminA.email);
    expect(account.credentials).toEqual([{ id: 'password', type: 'password' }]);
    expect(account.sessions.length).toBeGreaterThanOrEqual(2);
    const current = account.sessions.filter((session: { current: boolean }) => session.current);
    expect(current).toEqual([expect.objectContaining({ id: decodePayload(tokens.access_token).sid })]);
  });

  it('updates name and locale, refusing an unknown locale by name', async () => {
    const { tokens } = await signIn();
    const bad = await call('PATCH', '/svc/core/api/v1/account', tokens.access_token, { locale: 'xx-XX' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('locale');
    const ok = await call('PATCH', '/svc/core/api/v1/account', tokens.access_token, {
      firstName: 'Ada',
      locale: 'fr-FR',
    });
    expect(ok.json()).toMatchObject({ firstName: 'Ada', locale: 'fr-FR' });
  });

  it('ends another session: its refresh token stops working', async () => {
    const other = await signIn();
    const { tokens } = await signIn();
    const sid = String(decodePayload(other.tokens.access_token).sid);
    expect(
      (await call('DELETE', `/svc/core/api/v1/account/sessions/${sid}`, tokens.access_token)).statusCode,
    ).toBe(204);
    const refresh = await other.browser.request('POST', '/auth/realms/acme/protocol/openid-connect/token', {
      grant_type: 'refresh_token',
      client_id: 'web-portal',
      refresh_token: other.tokens.refresh_token,
    });
    expect(refresh.statusCode).toBe(400);
    expect(
      (await call('DELETE', `/svc/core/api/v1/account/sessions/${sid}`, tokens.access_token)).statusCode,
    ).toBe(404);
  });

  it("cannot end another user's session", async () => {
    const { tokens } = await signIn();
    const browserB = new TestBrowser(server.app, 'acme');
    const tokensB = await passwordLogin(browserB, 'acme', tenants.adminB.email, PASSWORD);
    const sid = String(decodePayload(tokens.access_token).sid);
    expect(
      (await call('DELETE', `/svc/core/api/v1/account/sessions/${sid}`, tokensB.access_token)).statusCode,
    ).toBe(404);
  });

  it('removes the OTP credential but never the password', async () => {
    const session = await signIn();
    await server.database.db
      .update(users)
      .set({ totpSecret: 'JBSWY3DPEHPK3PXP' })
      .where(eq(users.id, tenants.adminA.id));
    const password = await call(
      'DELETE',
      '/svc/core/api/v1/account/credentials/password',
      session.tokens.access_token,
    );
    expect(password.statusCode).toBe(400);
    expect(
      (await call('DELETE', '/svc/core/api/v1/account/credentials/otp', session.tokens.access_token))
        .statusCode,
    ).toBe(204);
    const [row] = await server.database.db.select().from(users).where(eq(users.id, tenants.adminA.id));
    expect(row?.totpSecret).toBeNull();
    expect(row?.passwordHash).toBeTruthy();
    expect(
      (await call('DELETE', '/svc/core/api/v1/account/credentials/otp', session.tokens.access_token))
        .statusCode,
    ).toBe(404);
  });
});
