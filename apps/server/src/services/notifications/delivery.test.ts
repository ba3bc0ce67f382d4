import { createHmac, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { alarms } from '@edgeport/contract';
import { and, eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import {
  alarmRules,
  groupMembers,
  notificationDeliveries,
  organizationLimits,
  userGroups,
  userPreferences,
  users,
} from '../../db/schema.ts';
import { DeviceEvents } from '../../ingest/events.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import { addMember, createUser } from '../core/organizations/provisioning.ts';
import { hostNetwork, type WebhookNetwork } from './network.ts';
import { DAILY_LIMIT_REACHED, Notifier } from './notifier.ts';
import { UNREACHABLE } from './webhook.ts';

/*
 * The webhook receiver stands for a public host: `receiver.test` resolves to the public (documentation) address
 * 203.0.113.80, the SSRF guard checks that address, and only the socket to it is pointed at the local receiver. Local
 * addresses themselves are never reachable by a webhook (guard.test.ts).
 */
const PUBLIC_ADDRESS = '203.0.113.80';
const toReceiver = (address: string) => (address === PUBLIC_ADDRESS ? '127.0.0.1' : address);

/** This host's network, but `receiver.test` resolves to a public address whose connections reach the local receiver. */
const receiverNetwork: WebhookNetwork = {
  ...hostNetwork,
  resolve: async (host) =>
    host === 'receiver.test' ? [{ address: PUBLIC_ADDRESS, family: 4 }] : hostNetwork.resolve(host),
  connectLookup(target) {
    const lookup = hostNetwork.connectLookup(target);
    return (hostname, options, callback) =>
      lookup(hostname, options, (error, address, family) =>
        callback(
          error,
          typeof address === 'string'
            ? toReceiver(address)
            : address.map((entry) => ({ ...entry, address: toReceiver(entry.address) })),
          family,
        ),
      );
  },
};

/*
 * End to end: alarm changes emitted on the device events become localized e-mail at a real SMTP server and signed
 * webhook calls at a real local HTTP receiver; a receiver that is down is retried, then makes one FAILED delivery,
 * and a resend once it is up delivers it.
 */

type Mail = { from: string; to: string[]; subject: string; text: string };

/** RFC 2047 encoded words (`=?UTF-8?Q?...?=`, `=?UTF-8?B?...?=`) back to text. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_all, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : Buffer.from(
            text
              .replace(/_/g, ' ')
              .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) =>
                String.fromCharCode(Number.parseInt(hex, 16)),
              ),
            'latin1',
          ).toString('utf8'),
    );
}

function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\r?\n/g, '')
    .replace(/(?:=[0-9A-F]{2})+/g, (run) => Buffer.from(run.replace(/=/g, ''), 'hex').toString('utf8'));
}

function parseMail(from: string, to: string[], data: string): Mail {
  const split = data.indexOf('\r\n\r\n');
  const head = data.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const subject = decodeHeader(/^Subject: (.*)$/im.exec(head)?.[1] ?? '');
  const body = data.slice(split + 4);
  const text = /content-transfer-encoding: base64/i.test(head)
    ? Buffer.from(body, 'base64').toString('utf8')
    : decodeQuotedPrintable(body);
  return { from, to, subject, text };
}

async function startSmtp() {
  const received: Mail[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let data = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        data += chunk;
      });
      stream.on('end', () => {
        received.push(
          parseMail(
            session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            session.envelope.rcptTo.map((address) => address.address),
            data,
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  return { port, received, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}

type Call = { headers: http.IncomingHttpHeaders; body: string; path: string };

/** A local webhook receiver that can be taken down and brought up again on the same port. */
async function startReceiver() {
  const calls: Call[] = [];
  let server: http.Server | undefined;
  let port = 0;
  const up = async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => {
        body += chunk;
      });
      request.on('end', () => {
        calls.push({ headers: request.headers, body, path: request.url ?? '' });
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => server?.listen(port, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  };
  const down = async () => {
    const current = server;
    server = undefined;
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  await up();
  return { calls, up, down, url: () => `http://receiver.test:${port}/edgeport/hook`, port: () => port };
}

let server: TestServer;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
const SECRET = 'sixteen-plus-characters-secret';
const ids: Record<string, string> = {};

const api = (path: string, org: string) =>
  `/svc/notifications/api/v1/${path}${path.includes('?') ? '&' : '?'}organization=${org}`;

function alarmOf(overrides: Partial<alarms.Alarm> = {}): alarms.Alarm {
  const now = new Date().toISOString();
  return {
    id: randomUUID(),
    organizationId: tenants.orgA.id,
    ruleId: ids.alarmRule as string,
    triggerId: null,
    deviceId: ids.device as string,
    deviceLabel: 'press-01',
    name: 'High pressure',
    path: '/pressure',
    severity: 'MAJOR' as alarms.Alarm['severity'],
    status: 'ACTIVE',
    ack: 'REQUIRED',
    reset: 'NOT_REQUIRED',
    open: true,
    message: 'Pressure 7.5 bar above 6 bar',
    value: 7.5,
    raisedAt: now,
    conditionClearedAt: null,
    ackAt: null,
    ackBy: null,
    resetAt: null,
    resetBy: null,
    clearedAt: null,
    clearedBy: null,
    updatedAt: now,
    ...overrides,
  };
}

async function emit(event: alarms.AlarmEventKind, alarm: alarms.Alarm) {
  server.app.ingest.events.emit('alarm', { organizationId: alarm.organizationId, event, alarm });
  await server.app.notifier.settled();
}

async function deliveriesOf(alarmId: string) {
  const rows = await server.database.db
    .select()
    .from(notificationDeliveries)
    .where(eq(notificationDeliveries.organizationId, tenants.orgA.id));
  return rows.filter((row) => (row.payload.alarm as { id?: string } | undefined)?.id === alarmId);
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  smtp = await startSmtp();
  receiver = await startReceiver();
  server = await startTestServer(
    { smtpUrl: `smtp://127.0.0.1:${smtp.port}`, notificationRetryDelaysMs: [40, 80] },
    false,
    { webhookNetwork: receiverNetwork },
  );
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA } = tenants;
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  const german = await createUser(db, { realm: 'acme', email: 'Greta@Example.test', password: 'x' });
  const italian = await createUser(db, { realm: 'acme', email: 'luca@example.test', password: 'x' });
  await db.update(users).set({ locale: 'it-IT' }).where(eq(users.id, italian.id));
  await addMember(db, orgA.id, german.id, []);
  await addMember(db, orgA.id, italian.id, []);
  await db.insert(userPreferences).values({
    userId: german.id,
    serviceName: 'portal',
    property: 'locale',
    value1: 'de-DE',
  });
  const [group] = await db.insert(userGroups).values({ organizationId: orgA.id, name: 'Shift' }).returning();
  if (!group) throw new Error('seeding returned nothing');
  await db.insert(groupMembers).values([
    { groupId: group.id, userId: italian.id },
    { groupId: group.id, userId: german.id },
  ]);
  const condition = { kind: 'threshold', path: '/pressure', operator: '>', value: 6 } as const;
  const [alarmRule] = await db
    .insert(alarmRules)
    .values({ organizationId: orgA.id, name: 'High pressure', condition, severity: 'MAJOR' })
    .returning();
  const [otherRule] = await db
    .insert(alarmRules)
    .values({ organizationId: orgA.id, name: 'Low oil', condition, severity: 'MINOR' })
    .returning();
  if (!alarmRule || !otherRule) throw new Error('seeding returned nothing');
  ids.device = (await createDevice(db, orgA.id, 'press-01')).id;
  Object.assign(ids, {
    german: german.id,
    group: group.id,
    alarmRule: alarmRule.id,
    otherRule: otherRule.id,
  });

  const settings = await call('PUT', api('settings', orgA.id), rptA, {
    sender: 'alerts@acme.example',
    webhookSecret: SECRET,
  });
  expect(settings.statusCode, settings.body).toBe(200);
  const created = await call('POST', api('notifications', orgA.id), rptA, {
    name: 'Pressure mail',
    language: 'fr',
    source: { alarmEvents: ['RAISED', 'CLEARED'], severities: [], alarmRuleIds: [alarmRule.id] },
    recipients: {
      userIds: [german.id],
      groupIds: [group.id],
      emails: ['ops@example.test', 'greta@example.test'],
      webhooks: [receiver.url()],
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  ids.rule = created.json().id;
}, 60_000);

afterAll(async () => {
  await server.close();
  await smtp.close();
  await receiver.down();
});

describe('alarm notifications', () => {
  it('sends a localized e-mail per recipient to the SMTP server and a signed webhook', async () => {
    const alarm = alarmOf();
    await emit('RAISED', alarm);
    const rows = await deliveriesOf(alarm.id);
    expect(rows.map((row) => `${row.channel}:${row.target}:${row.status}`).sort()).toEqual([
      'email:greta@example.test:SENT',
      'email:luca@example.test:SENT',
      'email:ops@example.test:SENT',
      `webhook:${receiver.url()}:SENT`,
    ]);
    const mails = smtp.received.filter((mail) => mail.text.includes('press-01'));
    expect(mails).toHaveLength(3);
    for (const mail of mails) expect(mail.from).toBe('alerts@acme.example');
    const to = (address: string) => mails.find((mail) => mail.to.includes(address));
    // German by the portal preference, Italian by the account locale, French by the rule for a bare address.
    expect(to('greta@example.test')?.subject).toBe(
      '[Schwerwiegend] Alarm ausgelöst: press-01 – Pressure 7.5 bar above 6 bar',
    );
    expect(to('greta@example.test')?.text).toContain('Schweregrad: Schwerwiegend');
    expect(to('greta@example.test')?.text).toContain('Gerät: press-01');
    expect(to('greta@example.test')?.text).toContain('Meldung: Pressure 7.5 bar above 6 bar');
    expect(to('greta@example.test')?.text).toContain('Ereignis: Alarm ausgelöst');
    expect(to('greta@example.test')?.text).toMatch(/Zeitpunkt: \d{2}\.\d{2}\.\d{4}/);
    expect(to('greta@example.test')?.text).toContain('http://acme.app.localhost:8080/alarms');
    expect(to('luca@example.test')?.subject).toContain('[Grave] Allarme attivato: press-01');
    expect(to('luca@example.test')?.text).toContain('Dispositivo: press-01');
    expect(to('ops@example.test')?.subject).toContain('[Majeure] Alarme déclenchée: press-01');
    expect(to('ops@example.test')?.text).toContain('Appareil: press-01');

    const hook = receiver.calls.at(-1);
    expect(hook?.path).toBe('/edgeport/hook');
    const signature = createHmac('sha256', SECRET)
      .update(hook?.body ?? '')
      .digest('hex');
    expect(hook?.headers['x-edgeport-signature']).toBe(`sha256=${signature}`);
    expect(hook?.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(hook?.body ?? '{}');
    expect(payload).toMatchObject({
      event: 'RAISED',
      organizationId: tenants.orgA.id,
      alarm: { id: alarm.id, severity: 'MAJOR', deviceLabel: 'press-01' },
    });
    expect(Number.isNaN(Date.parse(payload.sentAt))).toBe(false);
  });

  it('sends nothing for events, alarm rules or organizations the rule does not listen to', async () => {
    const before = smtp.received.length;
    const calls = receiver.calls.length;
    const acked = alarmOf();
    await emit('ACKNOWLEDGED', acked);
    const otherRule = alarmOf({ ruleId: ids.otherRule as string });
    await emit('RAISED', otherRule);
    const otherOrg = alarmOf({ organizationId: tenants.orgB.id });
    await emit('RAISED', otherOrg);
    expect(await deliveriesOf(acked.id)).toEqual([]);
    expect(await deliveriesOf(otherRule.id)).toEqual([]);
    expect(smtp.received.length).toBe(before);
    expect(receiver.calls.length).toBe(calls);
  });

  it('retries a receiver that is down, logs ONE failed delivery, and resends once it is up', async () => {
    await receiver.down();
    const calls = receiver.calls.length;
    const alarm = alarmOf({ severity: 'CRITICAL' as alarms.Alarm['severity'] });
    await emit('CLEARED', alarm);
    const failed = await until(async () => {
      const rows = await deliveriesOf(alarm.id);
      return rows.find((row) => row.channel === 'webhook' && row.status === 'FAILED');
    }, 'the webhook delivery to fail');
    expect(failed.attempts).toBe(3);
    expect(failed.lastError).toBe(UNREACHABLE);
    const rows = await deliveriesOf(alarm.id);
    expect(rows.filter((row) => row.status === 'FAILED')).toHaveLength(1);
    expect(rows.filter((row) => row.channel === 'email' && row.status === 'SENT')).toHaveLength(3);

    const log = await call('GET', api('deliveries?status=FAILED', tenants.orgA.id), rptA);
    expect(log.statusCode).toBe(200);
    expect(log.json().items.filter((item: { id: string }) => item.id === failed.id)).toEqual([
      expect.objectContaining({ channel: 'webhook', attempts: 3, lastError: failed.lastError }),
    ]);

    await receiver.up();
    const resent = await call('POST', api(`deliveries/${failed.id}/resend`, tenants.orgA.id), rptA);
    expect(resent.statusCode, resent.body).toBe(200);
    await server.app.notifier.settled();
    const after = await until(async () => {
      const [row] = await deliveriesOf(alarm.id).then((all) => all.filter((one) => one.id === failed.id));
      return row?.status === 'SENT' ? row : undefined;
    }, 'the resent delivery');
    expect(after).toMatchObject({ attempts: 1, lastError: null });
    expect(receiver.calls.length).toBe(calls + 1);
    expect(JSON.parse(receiver.calls.at(-1)?.body ?? '{}')).toMatchObject({
      event: 'CLEARED',
      alarm: { id: alarm.id },
    });
  });

  it('refuses a target the SSRF guard no longer allows at delivery time, without retries', async () => {
    // The organization narrows its webhooks to another host.
    await call('PUT', api('settings', tenants.orgA.id), rptA, { allowedWebhookHosts: ['hooks.example.com'] });
    const calls = receiver.calls.length;
    const alarm = alarmOf();
    await emit('RAISED', alarm);
    const [hook] = (await deliveriesOf(alarm.id)).filter((row) => row.channel === 'webhook');
    expect(hook).toMatchObject({ status: 'FAILED', attempts: 1 });
    expect(hook?.lastError).toContain("not one of the organization's allowed webhook hosts");
    expect(receiver.calls.length).toBe(calls);
    await call('PUT', api('settings', tenants.orgA.id), rptA, { allowedWebhookHosts: [] });
  });

  it('holds non-critical e-mail during quiet hours until they end; CRITICAL and webhooks go at once', async () => {
    const now = new Date();
    const clock = (offsetMinutes: number) => {
      const at = new Date(now.getTime() + offsetMinutes * 60_000);
      return `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
    };
    await call('PUT', api('settings', tenants.orgA.id), rptA, {
      quietHours: { start: clock(-60), end: clock(120), timeZone: 'UTC' },
    });
    const major = alarmOf();
    const critical = alarmOf({ severity: 'CRITICAL' as alarms.Alarm['severity'] });
    await emit('RAISED', major);
    await emit('RAISED', critical);
    const held = (await deliveriesOf(major.id)).filter((row) => row.channel === 'email');
    expect(held).toHaveLength(3);
    for (const row of held) {
      expect(row.status).toBe('PENDING');
      const wait = (row.nextAttemptAt?.getTime() ?? 0) - now.getTime();
      expect(wait).toBeGreaterThan(118 * 60_000);
      expect(wait).toBeLessThanOrEqual(120 * 60_000);
    }
    expect((await deliveriesOf(major.id)).find((row) => row.channel === 'webhook')?.status).toBe('SENT');
    expect((await deliveriesOf(critical.id)).every((row) => row.status === 'SENT')).toBe(true);
    await call('PUT', api('settings', tenants.orgA.id), rptA, { quietHours: null });
  });
});

describe('trigger actions', () => {
  it("notifies a rule's recipients with a trigger text, and calls a webhook with the payload", async () => {
    await server.app.notifier.notifyTrigger(tenants.orgA.id, ids.rule as string, {
      triggerId: randomUUID(),
      triggerName: 'Oil change',
      detail: '/oil = 3 (< 5) on device press-01',
    });
    await server.app.notifier.settled();
    const mail = smtp.received.find(
      (one) => one.to.includes('greta@example.test') && one.subject.includes('Oil change'),
    );
    expect(mail?.subject).toBe('Trigger ausgelöst: Oil change');
    expect(mail?.text).toContain('/oil = 3 (< 5) on device press-01');
    expect(mail?.text).toContain('http://acme.app.localhost:8080/trigger');

    const calls = receiver.calls.length;
    await server.app.notifier.callWebhook(tenants.orgA.id, receiver.url(), {
      trigger: { id: 't1', name: 'Oil change' },
      value: 3,
    });
    await server.app.notifier.settled();
    expect(receiver.calls.length).toBe(calls + 1);
    expect(JSON.parse(receiver.calls.at(-1)?.body ?? '{}')).toMatchObject({
      event: 'TRIGGER',
      trigger: { name: 'Oil change' },
      value: 3,
      organizationId: tenants.orgA.id,
    });
  });

  it('refuses a metadata webhook with the reason in the failed log, and a rule of another organization', async () => {
    await expect(
      server.app.notifier.callWebhook(tenants.orgA.id, 'http://169.254.169.254/latest/meta-data', {}),
    ).rejects.toThrow(/metadata/);
    const [logged] = await server.database.db
      .select()
      .from(notificationDeliveries)
      .where(
        and(
          eq(notificationDeliveries.organizationId, tenants.orgA.id),
          eq(notificationDeliveries.target, 'http://169.254.169.254/latest/meta-data'),
        ),
      );
    expect(logged).toMatchObject({ status: 'FAILED', notificationName: 'webhook' });
    expect(logged?.lastError).toContain('metadata');
    await expect(
      server.app.notifier.notifyTrigger(tenants.orgB.id, ids.rule as string, {
        triggerId: randomUUID(),
        triggerName: 'x',
        detail: '',
      }),
    ).rejects.toThrow(/not found/);
  });
});

describe('the delivery worker', () => {
  it('takes up deliveries left PENDING by an earlier run when it starts', async () => {
    const [row] = await server.database.db
      .insert(notificationDeliveries)
      .values({
        organizationId: tenants.orgA.id,
        notificationName: 'left over',
        channel: 'email',
        target: 'leftover@example.test',
        subject: 'Left over',
        body: 'from before the restart',
        payload: {},
        nextAttemptAt: new Date(Date.now() - 1000),
      })
      .returning();
    const restarted = new Notifier({
      db: server.database.db,
      events: new DeviceEvents(),
      log: server.app.log,
      config: {
        smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
        baseDomain: 'localhost',
        notificationRetryDelaysMs: [],
      },
    });
    await restarted.start();
    await restarted.settled();
    await restarted.close();
    const [after] = await server.database.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, row?.id as string));
    expect(after).toMatchObject({ status: 'SENT', attempts: 1 });
    expect(smtp.received.some((mail) => mail.to.includes('leftover@example.test'))).toBe(true);
  });

  it('stores deliveries over the daily limit as FAILED with the reason', async () => {
    await server.database.db
      .insert(organizationLimits)
      .values({ organizationId: tenants.orgA.id, limits: { notificationsPerDay: 1 } });
    const before = smtp.received.length;
    const alarm = alarmOf();
    await emit('RAISED', alarm);
    const rows = await deliveriesOf(alarm.id);
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).toMatchObject({ status: 'FAILED', lastError: DAILY_LIMIT_REACHED });
    expect(smtp.received.length).toBe(before);
  });
});
