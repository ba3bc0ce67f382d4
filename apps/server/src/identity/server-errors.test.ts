import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, seedTenants } from '../../test/support/fixtures.ts';
import { passwordLogin, TestBrowser } from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
const logLines: { msg?: string; realm?: string; err?: { message?: string } }[] = [];

beforeAll(async () => {
  server = await startTestServer(
    {},
    { level: 'error', stream: { write: (line) => logLines.push(JSON.parse(line)) } },
  );
  tenants = await seedTenants(server);
});
afterAll(async () => {
  await server.database.db.execute(sql`alter table if exists oidc_payloads_gone rename to oidc_payloads`);
  await server.close();
});

describe('identity server errors', () => {
  it('logs the cause of a server_error answer with the realm', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const tokens = await passwordLogin(browser, 'acme', tenants.adminA.email, PASSWORD);
    // The stored grants and tokens out of reach: oidc-provider can only answer server_error.
    await server.database.db.execute(sql`alter table oidc_payloads rename to oidc_payloads_gone`);
    const response = await browser.request('POST', '/auth/realms/acme/protocol/openid-connect/token', {
      grant_type: 'refresh_token',
      client_id: 'web-portal',
      refresh_token: tokens.refresh_token,
    });
    expect(response.statusCode).toBe(500);
    expect(response.json().error).toBe('server_error');
    const logged = logLines.find((line) => line.msg === 'identity server error');
    expect(logged?.realm).toBe('acme');
    expect(logged?.err?.message).toMatch(/oidc_payloads/);
  });
});
