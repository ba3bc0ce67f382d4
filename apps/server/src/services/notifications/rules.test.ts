import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import {
  alarmRules,
  auditLog,
  notificationDeliveries,
  notificationRules,
  notificationSettings,
  userGroups,
} from '../../db/schema.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
let orgAdminA: string;
const ids: Record<string, string> = {};

const rules = (org: string) => `/svc/notifications/api/v1/notifications?organization=${org}`;
const rule = (id: string, org: string) => `/svc/notifications/api/v1/notifications/${id}?organization=${org}`;
const settings = (org: string) => `/svc/notifications/api/v1/settings?organization=${org}`;
const deliveries = (org: string, query = '') =>
  `/svc/notifications/api/v1/deliveries?organization=${org}${query}`;
const resend = (id: string, org: string) =>
  `/svc/notifications/api/v1/deliveries/${id}/resend?organization=${org}`;

function input(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Pressure alarms',
    language: 'de',
    source: { alarmEvents: ['RAISED', 'CLEARED'], severities: ['CRITICAL', 'MAJOR'], alarmRuleIds: [] },
    recipients: {
      userIds: [tenants.adminA.id],
      groupIds: [ids.groupA],
      emails: ['Night.Shift@Example.test'],
      webhooks: ['https://hooks.example.test/edgeport'],
    },
    ...overrides,
  };
}

async function auditActions(organizationId: string, action: string) {
  return server.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, organizationId), eq(auditLog.action, action)));
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'notifications', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, orgA.resourceId)).rpt;
  const orgAdmin = await userWithRole(server, 'acme', orgA.id, 'org-admin@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'organizations', scopes: ['READ', 'UPDATE'] },
  ]);
  orgAdminA = (await rptFor(server, 'acme', orgAdmin.email, orgA.resourceId)).rpt;
  const [groupA] = await db
    .insert(userGroups)
    .values({ organizationId: orgA.id, name: 'Night shift' })
    .returning();
  const [groupB] = await db
    .insert(userGroups)
    .values({ organizationId: orgB.id, name: 'B shift' })
    .returning();
  const condition = { kind: 'threshold', path: '/p', operator: '>', value: 5 } as const;
  const [ruleA] = await db
    .insert(alarmRules)
    .values({ organizationId: orgA.id, name: 'High pressure', condition, severity: 'MAJOR' })
    .returning();
  const [ruleB] = await db
    .insert(alarmRules)
    .values({ organizationId: orgB.id, name: 'B pressure', condition, severity: 'MAJOR' })
    .returning();
  if (!groupA || !groupB || !ruleA || !ruleB) throw new Error('seeding returned nothing');
  Object.assign(ids, { groupA: groupA.id, groupB: groupB.id, alarmRuleA: ruleA.id, alarmRuleB: ruleB.id });
});
afterAll(() => server.close());

describe('notification rules', () => {
  it('creates a rule (by organization id or resourceId), normalised, and audits it', async () => {
    const created = await call('POST', rules(tenants.orgA.resourceId), rptA, input());
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json();
    expect(body).toMatchObject({
      organizationId: tenants.orgA.id,
      name: 'Pressure alarms',
      enabled: true,
      language: 'de',
      recipients: { emails: ['night.shift@example.test'], groupIds: [ids.groupA] },
    });
    ids.rule = body.id;
    const [audit] = await auditActions(tenants.orgA.id, 'notifications.create');
    expect(audit).toMatchObject({ resourceId: ids.rule, resourceName: 'Pressure alarms' });
    // No addresses or webhook URLs in the audit detail (a URL may carry a token).
    expect(JSON.stringify(audit?.detail)).not.toContain('hooks.example.test');
    const listed = await call('GET', rules(tenants.orgA.id), readerA);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id: ids.rule }] });
    expect((await call('GET', rule(ids.rule as string, tenants.orgA.id), readerA)).json().name).toBe(
      'Pressure alarms',
    );
  });

  it('refuses a name in use with 409', async () => {
    const again = await call('POST', rules(tenants.orgA.id), rptA, input({ name: ' Pressure alarms ' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('name');
    // The same name in another organization is fine (B has IoT off: its rule is stored directly).
    const [inB] = await server.database.db
      .insert(notificationRules)
      .values({
        organizationId: tenants.orgB.id,
        name: 'Pressure alarms',
        source: { alarmEvents: ['RAISED'], severities: [], alarmRuleIds: [] },
        recipients: { userIds: [], groupIds: [], emails: ['b@example.test'], webhooks: [] },
      })
      .returning();
    ids.ruleB = inB?.id as string;
  });

  it.each([
    [
      'userIds',
      () => ({ recipients: { ...input().recipients, userIds: [tenants.adminB.id] } }),
      'recipients/userIds/0',
    ],
    [
      'groupIds',
      () => ({ recipients: { ...input().recipients, groupIds: [ids.groupB] } }),
      'recipients/groupIds/0',
    ],
    [
      'alarmRuleIds',
      () => ({ source: { ...input().source, alarmRuleIds: [ids.alarmRuleA, ids.alarmRuleB] } }),
      'source/alarmRuleIds/1',
    ],
  ])("refuses another organization's %s, naming the field", async (_field, overrides, named) => {
    const before = await server.database.db.select().from(notificationRules);
    const refused = await call(
      'POST',
      rules(tenants.orgA.id),
      rptA,
      input({ name: 'Other', ...overrides() }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain(named);
    expect(await server.database.db.select().from(notificationRules)).toHaveLength(before.length);
  });

  it.each([
    ['http://127.0.0.1:8080/hook', 'loopback'],
    ['http://0x7f.1/hook', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1', 'metadata'],
    ['http://10.1.2.3/hook', 'private'],
    ['http://localhost/hook', 'loopback'],
  ])('refuses the webhook %s at save time (%s)', async (url, reason) => {
    const refused = await call(
      'POST',
      rules(tenants.orgA.id),
      rptA,
      input({
        name: 'Hook',
        recipients: { ...input().recipients, webhooks: ['https://ok.example.test/', url] },
      }),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('recipients/webhooks/1');
    expect(refused.json().message).toContain(reason);
  });

  it('accepts an alarm rule of the organization and a webhook to a host the allowed hosts narrow to', async () => {
    const allowed = await call('PUT', settings(tenants.orgA.id), rptA, {
      allowedWebhookHosts: ['hooks.example.test:8080'],
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const created = await call(
      'POST',
      rules(tenants.orgA.id),
      rptA,
      input({
        name: 'Local receiver',
        source: { alarmEvents: ['RAISED'], severities: [], alarmRuleIds: [ids.alarmRuleA] },
        recipients: {
          userIds: [],
          groupIds: [],
          emails: [],
          webhooks: ['http://hooks.example.test:8080/hook'],
        },
      }),
    );
    expect(created.statusCode, created.body).toBe(201);
    ids.local = created.json().id;
    // Another port of the same host is not among the allowed hosts.
    const otherPort = await call(
      'PUT',
      rule(ids.local as string, tenants.orgA.id),
      rptA,
      input({
        name: 'Local receiver',
        recipients: {
          userIds: [],
          groupIds: [],
          emails: [],
          webhooks: ['http://hooks.example.test:9090/hook'],
        },
      }),
    );
    expect(otherPort.statusCode).toBe(400);
    expect(otherPort.json().message).toContain("not one of the organization's allowed webhook hosts");
    await call('PUT', settings(tenants.orgA.id), rptA, { allowedWebhookHosts: [] });
  });

  it('replaces a rule and audits the change; 409 when renamed to a name in use', async () => {
    const changed = await call(
      'PUT',
      rule(ids.rule as string, tenants.orgA.id),
      rptA,
      input({ name: 'Pressure (all)', enabled: false, language: null }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Pressure (all)', enabled: false, language: null });
    const [audit] = await auditActions(tenants.orgA.id, 'notifications.update');
    expect(audit?.detail).toMatchObject({ previousName: 'Pressure alarms', enabled: false });
    const clash = await call(
      'PUT',
      rule(ids.rule as string, tenants.orgA.id),
      rptA,
      input({ name: 'Local receiver' }),
    );
    expect(clash.statusCode).toBe(409);
  });

  it("answers 404 for another organization's rule and changes nothing", async () => {
    const ruleB = ids.ruleB as string;
    expect((await call('GET', rule(ruleB, tenants.orgA.id), rptA)).statusCode).toBe(404);
    expect(
      (await call('PUT', rule(ruleB, tenants.orgA.id), rptA, input({ name: 'Stolen' }))).statusCode,
    ).toBe(404);
    expect((await call('DELETE', rule(ruleB, tenants.orgA.id), rptA)).statusCode).toBe(404);
    // B's organization named by A's administrator: 404 (not a member) and nothing listed.
    for (const org of [tenants.orgB.id, tenants.orgB.resourceId]) {
      expect([403, 404]).toContain((await call('GET', rules(org), rptA)).statusCode);
      expect([403, 404]).toContain((await call('POST', rules(org), rptA, input({ name: 'X' }))).statusCode);
      expect([403, 404]).toContain((await call('DELETE', rule(ruleB, org), rptA)).statusCode);
      expect([403, 404]).toContain((await call('GET', settings(org), rptA)).statusCode);
      expect([403, 404]).toContain(
        (await call('PUT', settings(org), rptA, { sender: 'evil@example.test' })).statusCode,
      );
    }
    const [stored] = await server.database.db
      .select()
      .from(notificationRules)
      .where(eq(notificationRules.id, ruleB));
    expect(stored?.name).toBe('Pressure alarms');
    expect(
      await server.database.db
        .select()
        .from(notificationSettings)
        .where(eq(notificationSettings.organizationId, tenants.orgB.id)),
    ).toEqual([]);
  });

  it('needs the notifications permissions', async () => {
    expect((await call('POST', rules(tenants.orgA.id), readerA, input({ name: 'R' }))).statusCode).toBe(403);
    expect((await call('PUT', rule(ids.rule as string, tenants.orgA.id), readerA, input())).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', rule(ids.rule as string, tenants.orgA.id), readerA)).statusCode).toBe(403);
    expect((await call('GET', rules(tenants.orgA.id), orgAdminA)).statusCode).toBe(403);
    expect((await call('GET', deliveries(tenants.orgA.id), readerA)).statusCode).toBe(200);
  });

  it('validates bodies and ids', async () => {
    const bad = await call('POST', rules(tenants.orgA.id), rptA, { ...input(), extra: 1 });
    expect(bad.statusCode).toBe(400);
    const blank = await call('POST', rules(tenants.orgA.id), rptA, input({ name: '   ' }));
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('name');
    const ftp = await call(
      'POST',
      rules(tenants.orgA.id),
      rptA,
      input({ recipients: { ...input().recipients, webhooks: ['ftp://example.test/x'] } }),
    );
    expect(ftp.statusCode).toBe(400);
    expect((await call('GET', rule('not-a-uuid', tenants.orgA.id), rptA)).statusCode).toBe(400);
    expect((await call('GET', '/svc/notifications/api/v1/notifications', rptA)).statusCode).toBe(400);
  });

  it('deletes a rule and audits it', async () => {
    const deleted = await call('DELETE', rule(ids.local as string, tenants.orgA.id), rptA);
    expect(deleted.statusCode).toBe(204);
    expect((await call('GET', rule(ids.local as string, tenants.orgA.id), rptA)).statusCode).toBe(404);
    expect(await auditActions(tenants.orgA.id, 'notifications.delete')).toHaveLength(1);
  });
});

describe('deliveries and resend', () => {
  async function delivery(organizationId: string, status: 'FAILED' | 'SENT') {
    const [row] = await server.database.db
      .insert(notificationDeliveries)
      .values({
        organizationId,
        notificationId: null,
        notificationName: 'seeded',
        channel: 'email',
        target: 'nobody@example.test',
        subject: 'Seeded',
        body: 'Seeded',
        payload: {},
        status,
        attempts: 5,
        lastError: status === 'FAILED' ? 'e-mail not accepted: 550' : null,
      })
      .returning();
    if (!row) throw new Error('seeding returned nothing');
    return row.id;
  }

  it('lists the failed log, and resends a FAILED delivery (audited) but not a SENT one', async () => {
    const failed = await delivery(tenants.orgA.id, 'FAILED');
    const sent = await delivery(tenants.orgA.id, 'SENT');
    const failedB = await delivery(tenants.orgB.id, 'FAILED');
    const log = await call('GET', deliveries(tenants.orgA.id, '&status=FAILED'), readerA);
    expect(log.statusCode).toBe(200);
    expect(log.json()).toMatchObject({
      total: 1,
      items: [{ id: failed, lastError: 'e-mail not accepted: 550' }],
    });
    expect((await call('POST', resend(failed, tenants.orgA.id), readerA)).statusCode).toBe(403);
    expect((await call('POST', resend(sent, tenants.orgA.id), rptA)).statusCode).toBe(409);
    expect((await call('POST', resend(failedB, tenants.orgA.id), rptA)).statusCode).toBe(404);
    const again = await call('POST', resend(failed, tenants.orgA.id), rptA);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ id: failed, status: 'PENDING', attempts: 0, lastError: null });
    expect(await auditActions(tenants.orgA.id, 'notifications.resend')).toHaveLength(1);
    // The worker takes it up: the outbox (no SMTP_URL) counts as sent.
    await server.app.notifier.settled();
    const [row] = await server.database.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, failed));
    expect(row).toMatchObject({ status: 'SENT', attempts: 1 });
    const [rowB] = await server.database.db
      .select()
      .from(notificationDeliveries)
      .where(eq(notificationDeliveries.id, failedB));
    expect(rowB).toMatchObject({ status: 'FAILED', attempts: 5 });
  });
});

describe('channel settings', () => {
  it('answers defaults, saves a change (secret write-only, hosts normalised) and audits it without the secret', async () => {
    const fresh = await call('GET', settings(tenants.orgB.id), rptB);
    expect(fresh.json()).toEqual({
      sender: null,
      webhookSecretSet: false,
      quietHours: null,
      allowedWebhookHosts: [],
    });
    const secret = 'a-very-secret-signing-key';
    const saved = await call('PUT', settings(tenants.orgA.id), orgAdminA, {
      sender: 'alerts@acme.example',
      webhookSecret: secret,
      quietHours: { start: '22:00', end: '06:00', timeZone: 'Europe/Berlin' },
      allowedWebhookHosts: [
        'Receiver.Example.test:8080',
        '1572394766',
        'bücher.example',
        'receiver.example.test:8080',
      ],
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toEqual({
      sender: 'alerts@acme.example',
      webhookSecretSet: true,
      quietHours: { start: '22:00', end: '06:00', timeZone: 'Europe/Berlin' },
      allowedWebhookHosts: ['receiver.example.test:8080', '93.184.215.14', 'xn--bcher-kva.example'],
    });
    expect(saved.body).not.toContain(secret);
    const audits = await auditActions(tenants.orgA.id, 'notificationSettings.update');
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(audits.map((audit) => audit.detail))).not.toContain(secret);
    const partial = await call('PUT', settings(tenants.orgA.id), orgAdminA, { webhookSecret: null });
    expect(partial.json()).toMatchObject({ webhookSecretSet: false, sender: 'alerts@acme.example' });
  });

  it('refuses an unknown time zone and a malformed host, naming the field', async () => {
    const zone = await call('PUT', settings(tenants.orgA.id), rptA, {
      quietHours: { start: '22:00', end: '06:00', timeZone: 'Mars/Olympus' },
    });
    expect(zone.statusCode).toBe(400);
    expect(zone.json().message).toContain('quietHours/timeZone');
    const host = await call('PUT', settings(tenants.orgA.id), rptA, {
      allowedWebhookHosts: ['ok.example', 'http://evil.example/'],
    });
    expect(host.statusCode).toBe(400);
    expect(host.json().message).toContain('allowedWebhookHosts/1');
    const shortSecret = await call('PUT', settings(tenants.orgA.id), rptA, { webhookSecret: 'short' });
    expect(shortSecret.statusCode).toBe(400);
  });

  it('needs READ / UPDATE on organizations', async () => {
    const notifier = await userWithRole(server, 'acme', tenants.orgA.id, 'notifier@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'notifications', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
    ]);
    const token = (await rptFor(server, 'acme', notifier.email, tenants.orgA.resourceId)).rpt;
    expect((await call('GET', settings(tenants.orgA.id), token)).statusCode).toBe(403);
    expect((await call('PUT', settings(tenants.orgA.id), token, { sender: null })).statusCode).toBe(403);
  });
});
