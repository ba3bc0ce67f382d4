import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces } from 'node:os';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { notificationDeliveries } from '../../db/schema.ts';
import * as store from './store.ts';

/*
 * The SSRF guard end to end (F8 of issue 32): an organization's administrator cannot open loopback or the server's
 * own addresses for webhooks — neither through the organization's allowed hosts nor through a list stored before —
 * and even the server-wide WEBHOOK_ALLOWED_PRIVATE_HOSTS opens private addresses only. Real receivers listen on
 * loopback and on an interface address of this host; none of them may get a single request.
 */

type Receiver = { calls: string[]; port: number; host: string; url: (path?: string) => string };
const servers: http.Server[] = [];

async function startReceiver(host: string): Promise<Receiver> {
  const calls: string[] = [];
  const server = http.createServer((request, response) => {
    calls.push(request.url ?? '');
    response.writeHead(204).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return { calls, port, host: shown, url: (path = '/hook') => `http://${shown}:${port}${path}` };
}

/** An address of one of this host's interfaces other than loopback (IPv4 first), if it has one. */
function interfaceAddress(): string | undefined {
  const entries = Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && !entry.internal && !entry.address.startsWith('fe80'));
  const v4 = entries.find((entry) => entry?.family === 'IPv4');
  return (v4 ?? entries[0])?.address;
}

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let loopback: Receiver;
let own: Receiver | undefined;
const ownAddress = interfaceAddress();

const api = (path: string) => `/svc/notifications/api/v1/${path}?organization=${tenants.orgA.id}`;

async function deliveriesTo(target: string) {
  return server.database.db
    .select()
    .from(notificationDeliveries)
    .where(
      and(
        eq(notificationDeliveries.organizationId, tenants.orgA.id),
        eq(notificationDeliveries.target, target),
      ),
    );
}

beforeAll(async () => {
  loopback = await startReceiver('127.0.0.1');
  if (ownAddress) own = await startReceiver(ownAddress);
  // The operator even lists loopback and the server's own address: they stay closed.
  const privateHosts = [`127.0.0.1:${loopback.port}`, 'localhost', '10.1.2.3'];
  if (own) privateHosts.push(`${own.host}:${own.port}`);
  server = await startTestServer({ webhookAllowedPrivateHosts: privateHosts, notificationRetryDelaysMs: [] });
  tenants = await seedTenants(server);
  call = caller(server);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
}, 60_000);

afterAll(async () => {
  await server.close();
  for (const receiver of servers) receiver.close();
});

describe('an organization cannot open the SSRF guard', () => {
  it('refuses 127.0.0.1:<port> in its allowed hosts (400 naming the entry), and saves nothing', async () => {
    const refused = await call('PUT', api('settings'), rptA, {
      allowedWebhookHosts: ['hooks.example.com', `127.0.0.1:${loopback.port}`],
    });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().message).toContain('allowedWebhookHosts/1');
    expect(refused.json().message).toContain('loopback');
    for (const entry of ['localhost', '[::1]', '169.254.169.254', '[fd00:ec2::254]', '0.0.0.0']) {
      const answer = await call('PUT', api('settings'), rptA, { allowedWebhookHosts: [entry] });
      expect(answer.statusCode, entry).toBe(400);
      expect(answer.json().message, entry).toContain('allowedWebhookHosts/0');
    }
    expect((await call('GET', api('settings'), rptA)).json().allowedWebhookHosts).toEqual([]);
  });

  it('does not post to a loopback receiver its stored allowed hosts name: the receiver gets nothing', async () => {
    // As the probe left it: the organization's list names the local receiver.
    await store.saveSettings(server.database.db, tenants.orgA.id, {
      allowedWebhookHosts: [`127.0.0.1:${loopback.port}`, `localhost:${loopback.port}`],
    });
    const rule = await call('POST', api('notifications'), rptA, {
      name: 'Local receiver',
      source: { alarmEvents: ['RAISED'], severities: [], alarmRuleIds: [] },
      recipients: { userIds: [], groupIds: [], emails: [], webhooks: [loopback.url()] },
    });
    expect(rule.statusCode).toBe(400);
    expect(rule.json().message).toContain('recipients/webhooks/0');
    for (const url of [loopback.url('/trigger'), `http://localhost:${loopback.port}/trigger`]) {
      await expect(server.app.notifier.callWebhook(tenants.orgA.id, url, {})).rejects.toThrow(/loopback/);
      expect((await deliveriesTo(url))[0]).toMatchObject({ status: 'FAILED', attempts: 0 });
    }
    // A delivery queued before the fix is refused when it is attempted, without retries.
    const queued = loopback.url('/queued');
    await store.insertDeliveries(server.database.db, [
      {
        organizationId: tenants.orgA.id,
        notificationId: null,
        notificationName: 'webhook',
        channel: 'webhook',
        target: queued,
        subject: 'queued',
        body: '',
        payload: {},
        nextAttemptAt: new Date(Date.now() - 1000),
      },
    ]);
    server.app.notifier.wake();
    await server.app.notifier.settled();
    const [attempted] = await deliveriesTo(queued);
    expect(attempted).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(attempted?.lastError).toContain('loopback');
    expect(loopback.calls).toEqual([]);
    await store.saveSettings(server.database.db, tenants.orgA.id, { allowedWebhookHosts: [] });
  });

  it.skipIf(!ownAddress)("refuses an address of this host's own interfaces", async () => {
    if (!own) throw new Error('no receiver on an interface address');
    const listed = await call('PUT', api('settings'), rptA, {
      allowedWebhookHosts: [`${own.host}:${own.port}`],
    });
    expect(listed.statusCode).toBe(400);
    expect(listed.json().message).toContain('an address of this server');
    const url = own.url('/own');
    await expect(server.app.notifier.callWebhook(tenants.orgA.id, url, {})).rejects.toThrow(
      /an address of this server/,
    );
    expect(own.calls).toEqual([]);
  });
});

describe('WEBHOOK_ALLOWED_PRIVATE_HOSTS', () => {
  it('opens the private hosts it lists, and no others', async () => {
    const opened = await call('PUT', api('settings'), rptA, { allowedWebhookHosts: ['10.1.2.3'] });
    expect(opened.statusCode, opened.body).toBe(200);
    const closed = await call('PUT', api('settings'), rptA, { allowedWebhookHosts: ['10.9.9.9'] });
    expect(closed.statusCode).toBe(400);
    expect(closed.json().message).toContain('WEBHOOK_ALLOWED_PRIVATE_HOSTS');
    await call('PUT', api('settings'), rptA, { allowedWebhookHosts: [] });
    const rule = (webhooks: string[]) =>
      call('POST', api('notifications'), rptA, {
        name: `Private ${webhooks.join()}`,
        source: { alarmEvents: ['RAISED'], severities: [], alarmRuleIds: [] },
        recipients: { userIds: [], groupIds: [], emails: [], webhooks },
      });
    expect((await rule(['http://10.1.2.3/hook'])).statusCode).toBe(201);
    const other = await rule(['http://10.9.9.9/hook']);
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toContain('private');
  });

  it('never opens loopback, even when it lists it', async () => {
    await expect(
      server.app.notifier.callWebhook(tenants.orgA.id, loopback.url('/listed'), {}),
    ).rejects.toThrow(/loopback/);
    await expect(
      server.app.notifier.callWebhook(tenants.orgA.id, `http://localhost:${loopback.port}/listed`, {}),
    ).rejects.toThrow(/loopback/);
    expect(loopback.calls).toEqual([]);
  });
});
