import { setTimeout as sleep } from 'node:timers/promises';
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

describe('test-support outbox', () => {
  it('answers the newest mails to one address, only where the fixtures are mounted', async () => {
    const [plain, mounted] = servers;
    if (!plain || !mounted) throw new Error('needs the servers of the seeding tests above');
    expect((await plain.app.inject('/test-support/outbox?recipient=mail@plant.test')).statusCode).toBe(404);
    await mounted.app.mail.send({ to: 'Mail@Plant.test', subject: 'first', text: 'one' });
    // Newest first is by creation time, which two mails sent within the same millisecond share (it failed once).
    await sleep(5);
    await mounted.app.mail.send({ to: 'mail@plant.test', subject: 'second', text: 'two' });
    await mounted.app.mail.send({ to: 'other@plant.test', subject: 'other', text: 'three' });
    const response = await mounted.app.inject('/test-support/outbox?recipient=mail@plant.test');
    expect(response.statusCode).toBe(200);
    expect(response.json().map((mail: { subject: string }) => mail.subject)).toEqual(['second', 'first']);
  });
});

describe('test-support clock', () => {
  it('moves the server clock forward and puts it back on the system time', async () => {
    const server = await startTestServer({ testFixtures: true });
    servers.push(server);
    const move = (payload: object) =>
      server.app.inject({ method: 'POST', url: '/test-support/clock', payload });
    const year = 366 * 86_400_000;
    const moved = await move({ advanceMs: year });
    expect(moved.statusCode).toBe(200);
    expect(Date.parse(moved.json().now) - Date.now()).toBeGreaterThan(year - 60_000);
    expect(server.app.clock.now().getTime() - Date.now()).toBeGreaterThan(year - 60_000);
    expect((await move({ advanceMs: -1 })).statusCode).toBe(400);
    const reset = await move({ reset: true });
    expect(reset.statusCode).toBe(200);
    expect(Math.abs(server.app.clock.now().getTime() - Date.now())).toBeLessThan(60_000);
  });
});
