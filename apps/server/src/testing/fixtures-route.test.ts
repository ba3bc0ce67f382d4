import { afterAll, describe, expect, it } from 'vitest';
import { passwordLogin, TestBrowser } from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';

const servers: TestServer[] = [];
afterAll(() => Promise.all(servers.map((server) => server.close())));

const fixture = {
  realm: 'e2e-fixture',
  organizations: [{ key: 'plant', name: 'Plant', iotEnabled: false }],
  users: [
    {
      key: 'op',
      email: 'op@plant.test',
      password: 'a-long-password',
      memberships: [{ org: 'plant', permissions: [{ rsname: 'portal', scopes: ['ACCESS'] }] }],
    },
  ],
  statusIssues: [{ type: 'maintenance', status: 'scheduled', title: 'Upgrade' }],
};

describe('test-support tenant seeding', () => {
  it('is not mounted unless EDGEPORT_TEST_FIXTURES is set', async () => {
    const server = await startTestServer();
    servers.push(server);
    const response = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: fixture,
    });
    expect(response.statusCode).toBe(404);
  });

  it('seeds a realm whose users can sign in', async () => {
    const server = await startTestServer({ testFixtures: true });
    servers.push(server);
    const response = await server.app.inject({
      method: 'POST',
      url: '/test-support/tenants',
      payload: fixture,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().organizations.plant.id).toMatch(/^[0-9a-f-]{36}$/);
    const browser = new TestBrowser(server.app, 'e2e-fixture');
    await expect(
      passwordLogin(browser, 'e2e-fixture', 'op@plant.test', 'a-long-password'),
    ).resolves.toBeDefined();
  });
});
