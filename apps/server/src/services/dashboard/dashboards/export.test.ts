import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { roles, telemetry, userRoles } from '../../../db/schema.ts';
import { ensurePartitionsBetween } from '../../../telemetry/partitions.ts';
import { rebuildRollups } from '../../../telemetry/rollups.ts';
import { createDevice } from '../../core/devices/provisioning.ts';
import { exportFilename } from './service.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const token: Record<string, string> = {};
const ids: Record<string, string> = {};

const API = '/svc/dashboard/api/v1';
const T0 = '2025-03-01T09:59:00.000Z';
const T1 = '2025-03-01T10:00:00.000Z';
const T2 = '2025-03-01T10:00:01.250Z';
const RANGE = { from: '2025-03-01T10:00:00Z', to: '2025-03-01T11:00:00Z' };

/** Two slots (`line` with a default device, `other` without), bindings on both pages, a write button, a variable. */
function document(defaultDeviceId: string) {
  return {
    schemaVersion: 2,
    rootPageId: 'p1',
    slots: [
      { name: 'line', label: 'Line', defaultDeviceId },
      { name: 'other', label: 'Other' },
    ],
    variables: [{ name: 'mode', type: 'string', initial: 'a' }],
    pages: [
      {
        id: 'p1',
        title: 'One',
        widgets: [
          {
            id: 'speed',
            type: 'value',
            layout: { x: 0, y: 0, w: 4, h: 2 },
            binding: { slot: 'line', path: '/line/speed' },
            options: {},
          },
          {
            id: 'message',
            type: 'value',
            layout: { x: 4, y: 0, w: 4, h: 2 },
            binding: { slot: 'line', path: '/status/message' },
            options: {},
          },
          {
            id: 'mode',
            type: 'value',
            layout: { x: 8, y: 0, w: 4, h: 2 },
            binding: { variable: 'mode' },
            options: {},
          },
        ],
      },
      {
        id: 'p2',
        title: 'Two',
        widgets: [
          {
            id: 'chart',
            type: 'lineChart',
            layout: { x: 0, y: 0, w: 12, h: 6 },
            bindings: [
              { slot: 'other', path: '/line/speed' },
              { slot: 'line', path: '/motor/temperature' },
              { slot: 'line', path: '/line/speed' },
            ],
            options: { windowSeconds: 600 },
          },
          {
            id: 'write',
            type: 'button',
            layout: { x: 0, y: 6, w: 4, h: 2 },
            action: { kind: 'write', binding: { slot: 'line', path: '/setpoints/speed' }, value: 100 },
            options: { label: 'Go' },
          },
        ],
      },
    ],
  };
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  ids.d1 = (await createDevice(db, orgA.id, 'line-1')).id;
  ids.d2 = (await createDevice(db, orgA.id, 'line-2')).id;
  ids.foreign = (await createDevice(db, orgB.id, 'b-line')).id;
  await ensurePartitionsBetween(db, Date.parse(T0), Date.parse(T2));
  await db.insert(telemetry).values([
    { deviceId: ids.d1, ts: new Date(T0), values: { '/line/speed': 1 } },
    {
      deviceId: ids.d1,
      ts: new Date(T1),
      values: { '/line/speed': 10, '/status/message': '=HYPERLINK("http://x")', '/motor/temperature': -5 },
    },
    { deviceId: ids.d1, ts: new Date(T2), values: { '/line/speed': 11.5, '/status/message': 'a,"b"\nc' } },
    { deviceId: ids.d2, ts: new Date(T1), values: { '/line/speed': 20, '/status/message': '@SUM(A1)' } },
    { deviceId: ids.foreign, ts: new Date(T1), values: { '/line/speed': 99 } },
  ]);
  token.adminA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  token.adminB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  // Erin may read dashboards, and her data role shows her only /line/... paths.
  const erin = await userWithRole(server, 'acme', orgA.id, 'erin@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'dashboards', scopes: ['READ'] },
  ]);
  ids.erin = erin.id;
  const [dataRole] = await db
    .insert(roles)
    .values({
      organizationId: orgA.id,
      name: 'line data only',
      kind: 'data',
      modelPathPermissions: [{ path: '/line', read: true, write: false }],
    })
    .returning();
  if (!dataRole) throw new Error('no role');
  await db.insert(userRoles).values({ userId: erin.id, roleId: dataRole.id });
  token.erin = (await rptFor(server, 'acme', erin.email, orgA.resourceId)).rpt;

  const created = await call('POST', `${API}/dashboards`, token.adminA, {
    name: 'Plant line #1 =bad',
    document: document(ids.d1),
  });
  expect(created.statusCode, created.body).toBe(201);
  ids.dashboard = created.json().id;
  const flow = await call('POST', `${API}/flows`, token.adminA, { name: 'A flow' });
  ids.flow = flow.json().id;
});
afterAll(() => server.close());

const exportOf = (id: string | undefined, who: string, body: unknown) =>
  call('POST', `${API}/dashboards/${id}/version/LATEST/data`, token[who], body);

function rowsOf(body: string): string[] {
  expect(body.startsWith('\uFEFF')).toBe(true);
  return body.slice(1).split('\r\n').slice(0, -1);
}

describe('CSV export of the current version', () => {
  it('writes one row per time, every device binding of every page, values escaped', async () => {
    const answer = await exportOf(ids.dashboard, 'adminA', { ...RANGE, slots: { other: ids.d2 } });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toContain('text/csv');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="Plant_line_1_bad-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = rowsOf(answer.body);
    expect(rows[0]).toBe(
      'time,line:/line/speed,line:/status/message,other:/line/speed,line:/motor/temperature,line:/setpoints/speed',
    );
    // A text cell starting with = gets a leading apostrophe; quotes are doubled; the newline stays inside quotes.
    expect(rows.slice(1)).toEqual([
      `${T1},10,"'=HYPERLINK(""http://x"")",20,-5,`,
      `${T2},11.5,"a,""b""\nc",,,`,
    ]);
  });

  it("uses each slot's default device, and leaves a slot without one empty", async () => {
    const rows = rowsOf((await exportOf(ids.dashboard, 'adminA', RANGE)).body);
    expect(rows.slice(1)).toEqual([
      `${T1},10,"'=HYPERLINK(""http://x"")",,-5,`,
      `${T2},11.5,"a,""b""\nc",,,`,
    ]);
    // The slot's device swapped for another of the organization.
    const swapped = rowsOf(
      (await exportOf(ids.dashboard, 'adminA', { ...RANGE, slots: { line: ids.d2 } })).body,
    );
    expect(swapped.slice(1)).toEqual([`${T1},20,'@SUM(A1),,,`]);
  });

  it("leaves out the paths the caller's data roles hide", async () => {
    const shared = await call('POST', `${API}/dashboards/${ids.dashboard}/readers/${ids.erin}`, token.adminA);
    expect(shared.statusCode).toBe(200);
    const answer = await exportOf(ids.dashboard, 'erin', { ...RANGE, slots: { other: ids.d2 } });
    expect(answer.statusCode, answer.body).toBe(200);
    const rows = rowsOf(answer.body);
    expect(rows).toEqual(['time,line:/line/speed,other:/line/speed', `${T1},10,20`, `${T2},11.5,`]);
  });

  it('refuses devices of another organization, unknown slots and bad ranges, naming the field', async () => {
    const foreign = await exportOf(ids.dashboard, 'adminA', { ...RANGE, slots: { other: ids.foreign } });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().message).toContain('body/slots/other');
    // Nothing of the foreign device's data (its value is 99) is in the answer; its id, random, may contain "99".
    expect(foreign.body.replaceAll(ids.foreign ?? '', '')).not.toContain('99');
    const unknown = await exportOf(ids.dashboard, 'adminA', { ...RANGE, slots: { nope: ids.d1 } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('body/slots/nope');
    const backwards = await exportOf(ids.dashboard, 'adminA', { from: RANGE.to, to: RANGE.from });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toContain('body/to');
  });

  it('gives the 1-minute or 1-hour averages for a long range, says which, and the stored values when asked', async () => {
    for (const deviceId of [ids.d1, ids.d2]) await rebuildRollups(server.database.db, deviceId ?? '');
    const twoDays = { from: '2025-03-01T00:00:00Z', to: '2025-03-03T00:00:00Z' };
    const automatic = await exportOf(ids.dashboard, 'adminA', twoDays);
    expect(automatic.statusCode, automatic.body).toBe(200);
    expect(automatic.headers['x-data-resolution']).toBe('minute');
    expect(automatic.headers['content-disposition']).toMatch(/-minute-averages\.csv"$/);
    // A row per minute: the average of its numbers; text has no averages.
    expect(rowsOf(automatic.body).slice(1)).toEqual([
      '2025-03-01T09:59:00.000Z,1,,,,',
      '2025-03-01T10:00:00.000Z,10.75,,,-5,',
    ]);
    const hourly = await exportOf(ids.dashboard, 'adminA', { ...twoDays, resolution: 'hour' });
    expect(hourly.headers['x-data-resolution']).toBe('hour');
    expect(rowsOf(hourly.body).slice(1)).toEqual([
      '2025-03-01T09:00:00.000Z,1,,,,',
      '2025-03-01T10:00:00.000Z,10.75,,,-5,',
    ]);
    const raw = await exportOf(ids.dashboard, 'adminA', { ...twoDays, resolution: 'raw' });
    expect(raw.headers['x-data-resolution']).toBe('raw');
    expect(rowsOf(raw.body)).toHaveLength(4);
    expect((await exportOf(ids.dashboard, 'adminA', RANGE)).headers['x-data-resolution']).toBe('raw');
    const wrong = await exportOf(ids.dashboard, 'adminA', { ...twoDays, resolution: 'weekly' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toContain('resolution');
  });

  it('answers 404 for flows, unknown ids and other tenants', async () => {
    expect((await exportOf(ids.flow, 'adminA', RANGE)).statusCode).toBe(404);
    const flowRoute = await call('POST', `${API}/flows/${ids.flow}/version/LATEST/data`, token.adminA, RANGE);
    expect(flowRoute.statusCode).toBe(404);
    expect((await exportOf('00000000-0000-4000-8000-000000000000', 'adminA', RANGE)).statusCode).toBe(404);
    expect([403, 404]).toContain((await exportOf(ids.dashboard, 'adminB', RANGE)).statusCode);
  });

  it('makes safe file names', () => {
    const now = new Date('2025-03-01T12:00:00Z');
    expect(exportFilename('Hällo / "quoted"\r\n', now)).toBe('Hallo_quoted-2025-03-01.csv');
    expect(exportFilename('***', now)).toBe('dashboard-2025-03-01.csv');
    expect(exportFilename('Line', now, 'hour')).toBe('Line-2025-03-01-hour-averages.csv');
  });
});
