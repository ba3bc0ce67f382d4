import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { activatedDevice, testPreset } from '../../../test/support/devices.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { alarmRules, auditLog, notificationRules, triggerRules } from '../../db/schema.ts';

const REALM = 'triggers';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let deviceA: string;
let deviceB: string;
let notificationA: string;
let notificationB: string;
let alarmRuleB: string;

const base = '/svc/triggermanager/api/v1/triggers';
const list = (organization: string) => `${base}?organization=${organization}`;
const one = (id: string, organization: string, suffix = '') =>
  `${base}/${id}${suffix}?organization=${organization}`;

async function notificationRule(organizationId: string, name: string) {
  const [row] = await server.database.db
    .insert(notificationRules)
    .values({
      organizationId,
      name,
      source: { alarmEvents: [], severities: [], alarmRuleIds: [] },
      recipients: { userIds: [], groupIds: [], emails: ['ops@example.test'], webhooks: [] },
    })
    .returning();
  if (!row) throw new Error('no notification rule');
  return row.id;
}

function dataTrigger(name: string, extra: Record<string, unknown> = {}) {
  return {
    name,
    condition: { kind: 'data', deviceId: deviceA, path: '/line/speed', operator: '>', value: 100 },
    action: { kind: 'write', deviceId: deviceA, path: '/setpoints/speed', value: 50 },
    ...extra,
  };
}

async function storedTriggers(organizationId: string) {
  return server.database.db
    .select()
    .from(triggerRules)
    .where(eq(triggerRules.organizationId, organizationId));
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  rptA = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const presetA = await testPreset(server, tenants.orgA.id);
  const presetB = await testPreset(server, tenants.orgB.id);
  deviceA = (await activatedDevice(server, tenants.orgA.id, 'Line A', presetA.id)).deviceId;
  deviceB = (await activatedDevice(server, tenants.orgB.id, 'Line B', presetB.id)).deviceId;
  notificationA = await notificationRule(tenants.orgA.id, 'Ops A');
  notificationB = await notificationRule(tenants.orgB.id, 'Ops B');
  const [rule] = await server.database.db
    .insert(alarmRules)
    .values({
      organizationId: tenants.orgB.id,
      name: 'Hot B',
      condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 80 },
      severity: 'MAJOR',
    })
    .returning();
  alarmRuleB = rule?.id ?? '';
});
afterAll(() => server.close());

describe('trigger rules', () => {
  let created: { id: string };

  it('creates a rule, lists and reads it; audited', async () => {
    const response = await call(
      'POST',
      list(tenants.orgA.id),
      rptA,
      dataTrigger(' Speed guard ', { cooldownSeconds: 60 }),
    );
    expect(response.statusCode).toBe(201);
    created = response.json();
    expect(created).toMatchObject({
      organizationId: tenants.orgA.id,
      name: 'Speed guard',
      enabled: true,
      cooldownSeconds: 60,
      runCount: 0,
      lastRunAt: null,
      lastError: null,
      lastErrorAt: null,
      condition: { kind: 'data', deviceId: deviceA, path: '/line/speed', operator: '>', value: 100 },
      action: { kind: 'write', deviceId: deviceA, path: '/setpoints/speed', value: 50 },
    });
    const listed = await call('GET', list(tenants.orgA.resourceId), rptA);
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id: created.id, name: 'Speed guard' }] });
    expect((await call('GET', one(created.id, tenants.orgA.id), rptA)).json().name).toBe('Speed guard');
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'triggers.create'), eq(auditLog.resourceId, created.id)));
    expect(record).toMatchObject({ organizationId: tenants.orgA.id, resourceName: 'Speed guard' });
  });

  it('keeps boolean and string values as they are, and null devices as null', async () => {
    const response = await call('POST', list(tenants.orgA.id), rptA, {
      name: 'Stopped',
      condition: { kind: 'data', deviceId: null, path: '/line/running', operator: '==', value: false },
      action: { kind: 'notify', notificationId: notificationA },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().condition).toEqual({
      kind: 'data',
      deviceId: null,
      path: '/line/running',
      operator: '==',
      value: false,
    });
    const text = await call('POST', list(tenants.orgA.id), rptA, {
      name: 'Status text',
      condition: { kind: 'data', deviceId: deviceA, path: '/status/message', operator: '==', value: '5' },
      action: {
        kind: 'alarm',
        severity: 'MINOR',
        message: 'status 5',
        ackRequired: true,
        resetRequired: false,
      },
    });
    expect(text.statusCode).toBe(201);
    expect(text.json().condition.value).toBe('5');
  });

  it('refuses a name in use with 409', async () => {
    const again = await call('POST', list(tenants.orgA.id), rptA, dataTrigger('Speed guard'));
    expect(again.statusCode).toBe(409);
    const rename = await call('PUT', one(created.id, tenants.orgA.id), rptA, { name: 'Stopped' });
    expect(rename.statusCode).toBe(409);
    expect((await storedTriggers(tenants.orgA.id)).map((row) => row.name).sort()).toEqual([
      'Speed guard',
      'Status text',
      'Stopped',
    ]);
  });

  it('checks every reference against the organization', async () => {
    const refused = async (body: Record<string, unknown>, status: number, message: string) => {
      const response = await call('POST', list(tenants.orgA.id), rptA, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().message).toContain(message);
    };
    await refused(
      dataTrigger('x', {
        condition: { kind: 'data', deviceId: deviceB, path: '/line/speed', operator: '>', value: 1 },
      }),
      404,
      `body/condition/deviceId: device '${deviceB}' not found`,
    );
    await refused(
      dataTrigger('x', { action: { kind: 'write', deviceId: deviceB, path: '/setpoints/speed', value: 1 } }),
      404,
      `body/action/deviceId: device '${deviceB}' not found`,
    );
    await refused(
      dataTrigger('x', { action: { kind: 'write', deviceId: deviceA, path: '/line/speed', value: 1 } }),
      400,
      "body/action/path '/line/speed' is not writable",
    );
    await refused(
      dataTrigger('x', {
        action: { kind: 'write', deviceId: deviceA, path: '/setpoints/speed', value: 500 },
      }),
      400,
      'body/action/value must be <= 200',
    );
    await refused(
      dataTrigger('x', {
        action: { kind: 'write', deviceId: deviceA, path: '/setpoints/speed', value: true },
      }),
      400,
      'body/action/value expects a number',
    );
    await refused(
      dataTrigger('x', { action: { kind: 'notify', notificationId: notificationB } }),
      404,
      `body/action/notificationId: notification rule '${notificationB}' not found`,
    );
    await refused(
      dataTrigger('x', { action: { kind: 'webhook', url: 'http://127.0.0.1:9/hook' } }),
      400,
      'body/action/url',
    );
    await refused(
      dataTrigger('x', { action: { kind: 'webhook', url: 'http://169.254.169.254/latest' } }),
      400,
      'body/action/url',
    );
    await refused(
      dataTrigger('x', {
        condition: { kind: 'data', deviceId: null, path: '/line/running', operator: '>', value: true },
      }),
      400,
      'body/condition/operator must be == or != for a boolean value',
    );
    await refused(
      dataTrigger('x', {
        condition: { kind: 'data', deviceId: deviceA, path: '/no/such', operator: '>', value: 1 },
      }),
      400,
      "body/condition/path '/no/such' is not a path of the device's model",
    );
    await refused(
      dataTrigger('x', {
        condition: { kind: 'alarm', event: 'RAISED', severities: [], ruleIds: [alarmRuleB] },
      }),
      404,
      `body/condition/ruleIds: alarm rule '${alarmRuleB}' not found`,
    );
    expect(await storedTriggers(tenants.orgA.id)).toHaveLength(3);
  });

  it('changes the given fields, disables and enables; audited', async () => {
    const response = await call('PUT', one(created.id, tenants.orgA.id), rptA, {
      enabled: false,
      cooldownSeconds: 0,
      action: { kind: 'webhook', url: 'https://hooks.example.com/edgeport' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Speed guard',
      enabled: false,
      cooldownSeconds: 0,
      action: { kind: 'webhook', url: 'https://hooks.example.com/edgeport' },
      condition: { kind: 'data', path: '/line/speed' },
    });
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'triggers.update'), eq(auditLog.resourceId, created.id)));
    expect(record?.detail).toMatchObject({ changes: { enabled: false }, before: { enabled: true } });
  });

  it("refuses another organization's administrator and changes nothing", async () => {
    const before = await storedTriggers(tenants.orgA.id);
    // B's token names A: refused.
    expect((await call('GET', list(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect((await call('POST', list(tenants.orgA.id), rptB, dataTrigger('evil'))).statusCode).toBe(403);
    expect((await call('PUT', one(created.id, tenants.orgA.id), rptB, { enabled: true })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', one(created.id, tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect((await call('POST', one(created.id, tenants.orgA.id, '/run'), rptB)).statusCode).toBe(403);
    // B's own organization with A's trigger id: not found.
    expect((await call('GET', one(created.id, tenants.orgB.id), rptB)).statusCode).toBe(404);
    expect((await call('PUT', one(created.id, tenants.orgB.id), rptB, { enabled: true })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', one(created.id, tenants.orgB.id), rptB)).statusCode).toBe(404);
    expect((await call('POST', one(created.id, tenants.orgB.id, '/run'), rptB)).statusCode).toBe(404);
    expect((await call('GET', list(tenants.orgB.id), rptB)).json()).toEqual({ items: [], total: 0 });
    expect(await storedTriggers(tenants.orgA.id)).toEqual(before);
    expect(await storedTriggers(tenants.orgB.id)).toEqual([]);
  });

  it('lets READ organizations list and read, and only UPDATE organizations change', async () => {
    await userWithRole(server, REALM, tenants.orgA.id, 'reader@triggers.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'organizations', scopes: ['READ'] },
    ]);
    await userWithRole(server, REALM, tenants.orgA.id, 'devices@triggers.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ', 'UPDATE'] },
    ]);
    const reader = (await rptFor(server, REALM, 'reader@triggers.test', tenants.orgA.resourceId)).rpt;
    const other = (await rptFor(server, REALM, 'devices@triggers.test', tenants.orgA.resourceId)).rpt;
    expect((await call('GET', list(tenants.orgA.id), reader)).statusCode).toBe(200);
    expect((await call('GET', one(created.id, tenants.orgA.id), reader)).statusCode).toBe(200);
    expect((await call('GET', list(tenants.orgA.id), other)).statusCode).toBe(403);
    expect((await call('POST', list(tenants.orgA.id), reader, dataTrigger('by reader'))).statusCode).toBe(
      403,
    );
    expect((await call('PUT', one(created.id, tenants.orgA.id), reader, { enabled: true })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', one(created.id, tenants.orgA.id), reader)).statusCode).toBe(403);
    expect((await call('POST', one(created.id, tenants.orgA.id, '/run'), reader)).statusCode).toBe(403);
    expect(await storedTriggers(tenants.orgA.id)).toHaveLength(3);
  });

  it('deletes a rule; audited', async () => {
    expect((await call('DELETE', one(created.id, tenants.orgA.id), rptA)).statusCode).toBe(204);
    expect((await call('GET', one(created.id, tenants.orgA.id), rptA)).statusCode).toBe(404);
    expect((await call('DELETE', one(created.id, tenants.orgA.id), rptA)).statusCode).toBe(404);
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'triggers.delete'), eq(auditLog.resourceId, created.id)));
    expect(record?.resourceName).toBe('Speed guard');
  });
});
