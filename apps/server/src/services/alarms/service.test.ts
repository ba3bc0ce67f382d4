import type { alarms as contract } from '@edgeport/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { activatedDevice, testPreset } from '../../../test/support/devices.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { alarmEvents, alarmRules, alarms, auditLog } from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';

const REALM = 'alarmsvc';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let viewer: string;
let acker: string;
const devices: Record<string, string> = {};
const rules: Record<string, contract.AlarmRule> = {};
let foreignDevice: string;

const base = '/svc/alarms/api/v1';
const inA = () => `organization=${tenants.orgA.id}`;

async function send(label: string, values: Record<string, number | boolean>) {
  await server.app.ingest.pipeline.accept(devices[label] ?? '', Buffer.from(JSON.stringify({ values })));
  await server.app.alarms.settled();
}

async function tableSnapshot() {
  const db = server.database.db;
  const [a] = await db
    .select({ v: sql<string>`md5(coalesce(string_agg(t::text, ',' order by t.id), ''))` })
    .from(sql`${alarms} t`);
  const [e] = await db.select({ n: sql<number>`count(*)::int` }).from(alarmEvents);
  const [r] = await db
    .select({ v: sql<string>`md5(coalesce(string_agg(t::text, ',' order by t.id), ''))` })
    .from(sql`${alarmRules} t`);
  return [a?.v, e?.n, r?.v];
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  const preset = await testPreset(server, tenants.orgA.id);
  for (const label of ['alpha', 'bravo', 'charlie']) {
    devices[label] = (await activatedDevice(server, tenants.orgA.id, label, preset.id)).deviceId;
  }
  foreignDevice = (await createDevice(server.database.db, tenants.orgB.id, 'b-device')).id;
  rptA = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const viewerUser = await userWithRole(server, REALM, tenants.orgA.id, 'viewer@alarmsvc.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  viewer = (await rptFor(server, REALM, viewerUser.email, tenants.orgA.resourceId)).rpt;
  const ackUser = await userWithRole(server, REALM, tenants.orgA.id, 'acker@alarmsvc.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
    { rsname: 'alarms', scopes: ['ACK'] },
  ]);
  acker = (await rptFor(server, REALM, ackUser.email, tenants.orgA.resourceId)).rpt;

  const create = async (body: Record<string, unknown>) => {
    const response = await call('POST', `${base}/rules?${inA()}`, rptA, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as contract.AlarmRule;
  };
  rules.hot = await create({
    name: 'Hot',
    condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 80 },
    severity: 'MAJOR',
    ackRequired: true,
  });
  rules.stopped = await create({
    name: 'Stopped',
    condition: { kind: 'boolean', path: '/line/running', value: false },
    severity: 'CRITICAL',
    resetRequired: true,
  });
  rules.slow = await create({
    name: 'Slow',
    condition: { kind: 'threshold', path: '/line/speed', operator: '<', value: 10 },
    severity: 'INFO',
  });
  // Open: alpha Hot (MAJOR, ACTIVE), alpha Stopped (CRITICAL), bravo Hot (MAJOR, CLEARED awaiting ack), charlie
  // Stopped (CRITICAL). Closed: charlie Slow (INFO).
  await send('alpha', { MotorTemp: 900, Running: false });
  await send('bravo', { MotorTemp: 950 });
  await send('bravo', { MotorTemp: 700 });
  await send('charlie', { LineSpeed: 5, Running: false });
  await send('charlie', { LineSpeed: 50 });
});
afterAll(() => server.close());

async function search(body: Record<string, unknown>, token = rptA) {
  const response = await call('POST', `${base}/alarms/search?${inA()}`, token, body);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: contract.Alarm[]; total: number; page: number; pageSize: number };
}

const labels = (page: { items: contract.Alarm[] }) => page.items.map((a) => `${a.deviceLabel}/${a.name}`);

describe('alarm rules', () => {
  it('lists and gets rules with their device', async () => {
    const list = await call('GET', `${base}/rules?${inA()}`, viewer);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((rule: contract.AlarmRule) => rule.name)).toEqual([
      'Hot',
      'Slow',
      'Stopped',
    ]);
    const one = await call('GET', `${base}/rules/${rules.hot?.id}?${inA()}`, viewer);
    expect(one.json()).toMatchObject({
      name: 'Hot',
      deviceId: null,
      deviceLabel: null,
      enabled: true,
      ackRequired: true,
      resetRequired: false,
      delaySeconds: 0,
      hysteresis: 0,
      message: '',
    });
  });

  it('checks names, ranges, devices and paths', async () => {
    const post = (body: Record<string, unknown>) => call('POST', `${base}/rules?${inA()}`, rptA, body);
    const ok = {
      name: 'Range',
      condition: { kind: 'range', path: '/line/speed', low: 10, high: 100 },
      severity: 'MINOR',
      deviceId: devices.alpha,
    };
    const taken = await post({ ...ok, name: 'Hot' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('name');
    const inverted = await post({ ...ok, condition: { ...ok.condition, low: 200 } });
    expect(inverted.statusCode).toBe(400);
    expect(inverted.json().message).toContain('body/condition/low');
    const foreign = await post({ ...ok, deviceId: foreignDevice });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain('deviceId');
    const unknownPath = await post({ ...ok, condition: { ...ok.condition, path: '/nope' } });
    expect(unknownPath.statusCode).toBe(400);
    expect(unknownPath.json().message).toContain('body/condition/path');
    const wrongType = await post({ ...ok, condition: { kind: 'boolean', path: '/line/speed', value: true } });
    expect(wrongType.statusCode).toBe(400);
    const noSlash = await post({ ...ok, condition: { kind: 'noData', path: 'x', seconds: 5 } });
    expect(noSlash.statusCode).toBe(400);
    const extra = await post({ ...ok, surprise: 1 });
    expect(extra.statusCode).toBe(400);

    const created = await post(ok);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ deviceId: devices.alpha, deviceLabel: 'alpha' });
    const id = created.json().id as string;
    const renameTaken = await call('PUT', `${base}/rules/${id}?${inA()}`, rptA, { name: 'Slow' });
    expect(renameTaken.statusCode).toBe(409);
    const changed = await call('PUT', `${base}/rules/${id}?${inA()}`, rptA, {
      name: 'Range 2',
      severity: 'WARNING',
      deviceId: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ name: 'Range 2', severity: 'WARNING', deviceId: null });
    const badChange = await call('PUT', `${base}/rules/${id}?${inA()}`, rptA, {
      condition: { kind: 'range', path: '/line/speed', low: 5, high: 1 },
    });
    expect(badChange.statusCode).toBe(400);
    expect((await call('DELETE', `${base}/rules/${id}?${inA()}`, rptA)).statusCode).toBe(204);
    expect((await call('GET', `${base}/rules/${id}?${inA()}`, rptA)).statusCode).toBe(404);

    const audit = await server.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, id)));
    expect(audit.map((row) => row.action).sort()).toEqual([
      'alarms.rule.create',
      'alarms.rule.delete',
      'alarms.rule.update',
    ]);
  });

  it('needs CREATE/UPDATE/DELETE alarms to change rules', async () => {
    const body = {
      name: 'Viewer rule',
      condition: { kind: 'offline' },
      severity: 'INFO',
    };
    expect((await call('POST', `${base}/rules?${inA()}`, viewer, body)).statusCode).toBe(403);
    expect((await call('PUT', `${base}/rules/${rules.hot?.id}?${inA()}`, viewer, body)).statusCode).toBe(403);
    expect((await call('DELETE', `${base}/rules/${rules.hot?.id}?${inA()}`, viewer)).statusCode).toBe(403);
  });
});

describe('searching and counting alarms', () => {
  it('searches with filters, paging and sorting', async () => {
    const all = await search({ sort: 'deviceLabel', pageSize: 2 });
    expect(all.total).toBe(5);
    expect(all.items).toHaveLength(2);
    expect(all.items.map((a) => a.deviceLabel)).toEqual(['alpha', 'alpha']);
    const page2 = await search({ sort: 'deviceLabel', pageSize: 2, page: 2 });
    expect(page2.items.map((a) => a.deviceLabel)).toEqual(['charlie']);

    const open = await search({ open: true, sort: 'severity' });
    expect(open.total).toBe(4);
    expect(open.items.map((a) => a.severity)).toEqual(['CRITICAL', 'CRITICAL', 'MAJOR', 'MAJOR']);
    expect(open.items.every((a) => a.open)).toBe(true);
    const closed = await search({ open: false });
    expect(labels(closed)).toEqual(['charlie/Slow']);
    expect(closed.items[0]?.open).toBe(false);

    expect((await search({ severities: ['MAJOR'] })).total).toBe(2);
    expect(labels(await search({ statuses: ['CLEARED'], open: true }))).toEqual(['bravo/Hot']);
    expect((await search({ ack: 'REQUIRED' })).total).toBe(2);
    expect((await search({ reset: 'REQUIRED' })).total).toBe(2);
    expect((await search({ deviceId: devices.alpha })).total).toBe(2);
    expect((await search({ ruleId: rules.stopped?.id })).total).toBe(2);
    expect(labels(await search({ search: 'BRAV' }))).toEqual(['bravo/Hot']);
    expect((await search({ search: 'slo' })).total).toBe(1);
    expect((await search({ search: '%' })).total).toBe(0);
    expect((await search({ from: new Date(Date.now() + 60_000).toISOString() })).total).toBe(0);
    expect((await search({ to: new Date(Date.now() + 60_000).toISOString() })).total).toBe(5);
    const asc = await search({ sort: 'name', order: 'desc' });
    expect(asc.items.map((a) => a.name)[0]).toBe('Stopped');

    const bad = await call('POST', `${base}/alarms/search?${inA()}`, rptA, { sort: 'secret' });
    expect(bad.statusCode).toBe(400);
  });

  it('gets one alarm with its history, oldest first', async () => {
    const [bravoHot] = (await search({ deviceId: devices.bravo })).items;
    const response = await call('GET', `${base}/alarms/${bravoHot?.id}?${inA()}`, viewer);
    expect(response.statusCode).toBe(200);
    const alarm = response.json() as contract.AlarmWithHistory;
    expect(alarm).toMatchObject({
      name: 'Hot',
      deviceLabel: 'bravo',
      status: 'CLEARED',
      ack: 'REQUIRED',
      open: true,
    });
    expect(alarm.history.map((step) => [step.kind, step.value])).toEqual([
      ['RAISED', 95],
      ['CONDITION_CLEARED', 70],
    ]);
    const missing = await call('GET', `${base}/alarms/${crypto.randomUUID()}?${inA()}`, viewer);
    expect(missing.statusCode).toBe(404);
    expect((await call('GET', `${base}/alarms/not-a-uuid?${inA()}`, viewer)).statusCode).toBe(400);
  });

  it('counts open alarms by severity (spec 4), with a search filter', async () => {
    const counts = await call('GET', `${base}/alarms/severityCount?${inA()}`, viewer);
    expect(counts.json()).toEqual({ CRITICAL: 2, MAJOR: 2, MINOR: 0, WARNING: 0, INFO: 0, total: 4 });
    const filtered = await call('GET', `${base}/alarms/severityCount?${inA()}&filter=alpha`, viewer);
    expect(filtered.json()).toMatchObject({ CRITICAL: 1, MAJOR: 1, total: 2 });
  });

  it('counts by device with a cursor', async () => {
    const first = await call('GET', `${base}/alarms/severityCountByDevice?${inA()}&pageSize=2`, viewer);
    expect(first.statusCode).toBe(200);
    const page = first.json() as {
      items: { deviceLabel: string; counts: contract.SeverityCounts }[];
      next: string;
    };
    expect(
      page.items.map((item) => [
        item.deviceLabel,
        item.counts.CRITICAL,
        item.counts.MAJOR,
        item.counts.total,
      ]),
    ).toEqual([
      ['alpha', 1, 1, 2],
      ['bravo', 0, 1, 1],
    ]);
    expect(page.next).toEqual(expect.any(String));
    const second = await call(
      'GET',
      `${base}/alarms/severityCountByDevice?${inA()}&pageSize=2&next=${encodeURIComponent(page.next)}`,
      viewer,
    );
    expect(second.json()).toMatchObject({
      items: [{ deviceLabel: 'charlie', counts: { CRITICAL: 1 } }],
      next: null,
    });
    const bad = await call('GET', `${base}/alarms/severityCountByDevice?${inA()}&next=garbage`, viewer);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('next');
  });
});

describe('operator actions', () => {
  it('needs the action permission: ACK lets ack, not reset or clear', async () => {
    const [alphaHot] = (await search({ deviceId: devices.alpha, ruleId: rules.hot?.id })).items;
    const ids = [alphaHot?.id];
    expect((await call('POST', `${base}/alarms/action/ack?${inA()}`, viewer, { ids })).statusCode).toBe(403);
    expect((await call('POST', `${base}/alarms/action/reset?${inA()}`, acker, { ids })).statusCode).toBe(403);
    expect((await call('POST', `${base}/alarms/action/clear?${inA()}`, acker, { ids })).statusCode).toBe(403);
    expect((await call('POST', `${base}/alarms/action/clearAll?${inA()}`, acker, {})).statusCode).toBe(403);
    const acked = await call('POST', `${base}/alarms/action/ack?${inA()}`, acker, { ids });
    expect(acked.json()).toEqual({ affected: 1 });
    const after = await call('GET', `${base}/alarms/${alphaHot?.id}?${inA()}`, viewer);
    expect(after.json()).toMatchObject({
      ack: 'DONE',
      ackBy: 'acker@alarmsvc.test',
      status: 'ACTIVE',
      open: true,
    });
    const [entry] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'alarms.ack'), eq(auditLog.resourceId, alphaHot?.id ?? '')));
    expect(entry).toMatchObject({ actorEmail: 'acker@alarmsvc.test', resourceName: 'Hot' });
    expect(entry?.detail).toMatchObject({ affected: 1 });
  });

  it('refuses unknown ids with 404 and changes nothing', async () => {
    const [alphaStopped] = (await search({ deviceId: devices.alpha, ruleId: rules.stopped?.id })).items;
    const before = await tableSnapshot();
    const response = await call('POST', `${base}/alarms/action/reset?${inA()}`, rptA, {
      ids: [alphaStopped?.id, crypto.randomUUID()],
    });
    expect(response.statusCode).toBe(404);
    expect(await tableSnapshot()).toEqual(before);
  });

  it('acts on every open alarm matching a filter, with one audit record', async () => {
    const reset = await call('POST', `${base}/alarms/action/resetAll?${inA()}`, rptA, {
      filter: { deviceId: devices.alpha },
    });
    expect(reset.json()).toEqual({ affected: 1 });
    const again = await call('POST', `${base}/alarms/action/resetAll?${inA()}`, rptA, {
      filter: { deviceId: devices.alpha },
    });
    expect(again.json()).toEqual({ affected: 0 });
    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'alarms.resetAll'));
    // The second changed nothing: one record.
    expect(audit).toHaveLength(1);
    expect(audit[0]?.detail).toMatchObject({ affected: 1, matched: 1 });

    const ackAll = await call('POST', `${base}/alarms/action/ackAll?${inA()}`, rptA, {});
    // bravo Hot is the only one still awaiting an ack; it is CLEARED: the ack closes it.
    expect(ackAll.json()).toEqual({ affected: 1 });
    expect((await search({ deviceId: devices.bravo })).items[0]).toMatchObject({ open: false, ack: 'DONE' });

    const clearAll = await call('POST', `${base}/alarms/action/clearAll?${inA()}`, rptA, {
      filter: { severities: ['CRITICAL'] },
    });
    expect(clearAll.json()).toEqual({ affected: 2 });
    const counts = await call('GET', `${base}/alarms/severityCount?${inA()}`, rptA);
    expect(counts.json()).toMatchObject({ CRITICAL: 0, MAJOR: 1, total: 1 });
  });
});

describe('tenant isolation', () => {
  it("refuses another organization's admin and changes nothing", async () => {
    const [target] = (await search({ open: true })).items;
    const rule = rules.hot;
    if (!target || !rule) throw new Error('nothing to attack');
    const before = await tableSnapshot();
    const asB = [
      call('POST', `${base}/alarms/search?${inA()}`, rptB, {}),
      call('GET', `${base}/alarms/${target.id}?${inA()}`, rptB),
      call('GET', `${base}/alarms/severityCount?${inA()}`, rptB),
      call('GET', `${base}/alarms/severityCountByDevice?${inA()}`, rptB),
      call('POST', `${base}/alarms/action/ack?${inA()}`, rptB, { ids: [target.id] }),
      call('POST', `${base}/alarms/action/clearAll?${inA()}`, rptB, {}),
      call('GET', `${base}/rules?${inA()}`, rptB),
      call('GET', `${base}/rules/${rule.id}?${inA()}`, rptB),
      call('PUT', `${base}/rules/${rule.id}?${inA()}`, rptB, { name: 'pwned' }),
      call('DELETE', `${base}/rules/${rule.id}?${inA()}`, rptB),
      call('POST', `${base}/rules?${inA()}`, rptB, {
        name: 'x',
        condition: { kind: 'offline' },
        severity: 'INFO',
      }),
    ];
    for (const response of await Promise.all(asB)) expect([403, 404]).toContain(response.statusCode);
    // In B's own organization with A's ids: not found (or refused), never A's data.
    const inB = `organization=${tenants.orgB.id}`;
    const ownOrg = [
      call('GET', `${base}/alarms/${target.id}?${inB}`, rptB),
      call('POST', `${base}/alarms/action/clear?${inB}`, rptB, { ids: [target.id] }),
      call('GET', `${base}/rules/${rule.id}?${inB}`, rptB),
      call('PUT', `${base}/rules/${rule.id}?${inB}`, rptB, { name: 'pwned' }),
      call('DELETE', `${base}/rules/${rule.id}?${inB}`, rptB),
    ];
    for (const response of await Promise.all(ownOrg)) {
      expect([403, 404]).toContain(response.statusCode);
      expect(response.body).not.toContain(`"deviceLabel":"${target.deviceLabel}"`);
    }
    const clearAllB = await call('POST', `${base}/alarms/action/clearAll?${inB}`, rptB, {});
    if (clearAllB.statusCode === 200) expect(clearAllB.json()).toEqual({ affected: 0 });
    await server.app.alarms.settled();
    expect(await tableSnapshot()).toEqual(before);
  });
});
