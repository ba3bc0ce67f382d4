import type { platform } from '@edgeport/contract';
import { count, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { decodePayload, rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, type ModelPath, roles, telemetry, userRoles } from '../../../db/schema.ts';
import type { Principal } from '../../../http/principal.ts';
import { insertTelemetry } from '../../../ingest/store.ts';
import { compactTelemetry } from '../../../telemetry/compaction.ts';
import { dayOf, ensurePartitionsBetween, partitionName } from '../../../telemetry/partitions.ts';
import { rebuildRollups } from '../../../telemetry/rollups.ts';
import { createDevice } from '../../core/devices/provisioning.ts';
import { seedTelemetryFixture } from './fixtures.ts';
import { pointsOfBuckets } from './reduction.ts';
import { exportData, valueCell } from './service.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const tokens = { adminA: '', adminB: '', adminA1: '', noModels: '', reader: '' };
const ids = { press: '', press2: '', twin: '', bare: '', a1Device: '', bDevice: '' };

/** 10,000 values one second apart, a saw tooth 0..99 with one peak and one dip in the middle. */
const START = Date.parse('2024-03-01T00:00:00Z');
const COUNT = 10_000;
const PEAK = { at: 5_000, value: 9_999 };
const DIP = { at: 7_000, value: -500 };

const PATHS: ModelPath[] = [
  { path: '/motor/speed', type: 'number', unit: 'rpm' },
  { path: '/motor/running', type: 'boolean' },
  { path: '/count', type: 'integer' },
  { path: '/state', type: 'string' },
  { path: '/secret/temp', type: 'number', unit: '°C' },
];

const dataOf = (org: string) => `/svc/platform/api/v1/organizations/${org}/data`;
const iso = (ms: number) => new Date(ms).toISOString();
const WHOLE = { from: iso(START - 1000), to: iso(START + COUNT * 1000) };

async function auditCount() {
  return (await server.database.db.select().from(auditLog)).length;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgA1, orgB } = tenants;

  const seeded = await seedTelemetryFixture(db, orgA.id, {
    model: 'Press',
    paths: PATHS,
    preset: 'Press preset',
    devices: ['press-01', 'press-02', 'twin'],
    points: 0,
    intervalMs: 1000,
  });
  ids.press = seeded.devices['press-01']?.id ?? '';
  ids.press2 = seeded.devices['press-02']?.id ?? '';
  ids.twin = seeded.devices.twin?.id ?? '';
  ids.bare = (await createDevice(db, orgA.id, 'no-preset')).id;
  ids.a1Device = (await createDevice(db, orgA1.id, 'a1-device')).id;
  ids.bDevice = (await createDevice(db, orgB.id, 'b-device')).id;

  await ensurePartitionsBetween(db, START, START + COUNT * 1000);
  // press-01: the saw tooth on /motor/speed and /count, /motor/running alternating, a formula-like /state.
  await db.execute(sql`
    insert into telemetry (device_id, ts, values)
    select ${ids.press}::uuid, to_timestamp((${START}::float8 + g * 1000) / 1000.0),
      jsonb_build_object(
        '/motor/speed', case when g = ${PEAK.at} then ${PEAK.value} when g = ${DIP.at} then ${DIP.value} else g % 100 end,
        '/count', g,
        '/motor/running', g % 2 = 0,
        '/state', case when g = 3 then '=HYPERLINK("x")' else 'ok, fine' end,
        '/secret/temp', 21.5)
    from generate_series(0, ${COUNT - 1}) g`);
  // press-02: a few values with a negative number and a different time base.
  await db.insert(telemetry).values([
    { deviceId: ids.press2, ts: new Date(START + 500), values: { '/motor/speed': -12.5 } },
    { deviceId: ids.press2, ts: new Date(START + 1500), values: { '/motor/speed': 7 } },
    // A value of another type (as an older model version could have stored) is left out, never an error.
    { deviceId: ids.press2, ts: new Date(START + 2500), values: { '/motor/speed': 'n/a' } },
  ]);
  // twin: 6,000 rows in 2,000 distinct times (three rows share each), to page an export across equal times.
  await db.execute(sql`
    insert into telemetry (device_id, ts, values)
    select ${ids.twin}::uuid, to_timestamp((${START}::float8 + (g / 3) * 1000) / 1000.0),
      jsonb_build_object('/count', g)
    from generate_series(0, 5999) g`);
  // Another organization's device with values on the same paths.
  await db.insert(telemetry).values({ deviceId: ids.bDevice, ts: new Date(START), values: { '/count': 1 } });
  for (const device of [ids.press, ids.press2, ids.twin, ids.bDevice]) await rebuildRollups(db, device);

  tokens.adminA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  tokens.adminB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  tokens.adminA1 = await (async () => {
    const user = await userWithRole(server, 'acme', orgA1.id, 'admin@a1.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ'] },
      { rsname: 'models', scopes: ['READ'] },
    ]);
    return (await rptFor(server, 'acme', user.email, orgA1.resourceId)).rpt;
  })();
  const noModels = await userWithRole(server, 'acme', orgA.id, 'devices-only@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  tokens.noModels = (await rptFor(server, 'acme', noModels.email, orgA.resourceId)).rpt;
  // A reader whose data role opens /motor and /count only.
  const reader = await userWithRole(server, 'acme', orgA.id, 'motor-reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
    { rsname: 'models', scopes: ['READ'] },
  ]);
  const [dataRole] = await db
    .insert(roles)
    .values({
      organizationId: orgA.id,
      name: 'motor data',
      kind: 'data',
      modelPathPermissions: [
        { path: '/motor', read: true, write: false },
        { path: '/count', read: true, write: false },
      ],
    })
    .returning();
  await db.insert(userRoles).values({ userId: reader.id, roleId: dataRole?.id ?? '' });
  tokens.reader = (await rptFor(server, 'acme', reader.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

type Series = platform.DataSeries;

async function query(body: Record<string, unknown>, token = tokens.adminA, org = tenants.orgA.id) {
  return call('POST', `${dataOf(org)}/query`, token, body);
}

describe('POST data/query', () => {
  it('answers every stored value when they fit, oldest first, with type and unit', async () => {
    const answer = await query({
      deviceIds: [ids.press],
      paths: ['/motor/speed'],
      ...WHOLE,
      maxPoints: 20_000,
    });
    expect(answer.statusCode).toBe(200);
    const [series] = answer.json().series as Series[];
    expect(series).toMatchObject({
      deviceId: ids.press,
      label: 'press-01',
      path: '/motor/speed',
      type: 'number',
      unit: 'rpm',
      decimated: false,
      total: COUNT,
      resolution: 'raw',
    });
    expect(series?.points.t).toHaveLength(COUNT);
    expect(series?.points.t[0]).toBe(START);
    expect(series?.points.t[1]).toBe(START + 1000);
    expect(series?.points.v.slice(0, 3)).toEqual([0, 1, 2]);
    expect(series?.points.v[PEAK.at]).toBe(PEAK.value);
  });

  it('decimates on the server to min and max per bucket: the peak, the dip, the first and last time survive', async () => {
    const answer = await query({ deviceIds: [ids.press], paths: ['/motor/speed'], ...WHOLE, maxPoints: 100 });
    expect(answer.statusCode).toBe(200);
    const [series] = answer.json().series as Series[];
    expect(series?.decimated).toBe(true);
    expect(series?.total).toBe(COUNT);
    // 200 s per point: drawn from the minute rollups.
    expect(series?.resolution).toBe('minute');
    expect(series?.points.t.length).toBeLessThanOrEqual(100);
    expect(series?.points.t.length).toBeGreaterThan(50);
    const values = series?.points.v.filter((v): v is number => v !== null) ?? [];
    expect(Math.max(...values)).toBe(PEAK.value);
    expect(Math.min(...values)).toBe(DIP.value);
    // Every bucket keeps 0 and 99 of the saw tooth, too.
    expect(values.filter((v) => v === 99).length).toBeGreaterThan(40);
    expect(series?.points.t[0]).toBe(START);
    expect(series?.points.t.at(-1)).toBe(START + (COUNT - 1) * 1000);
    const times = series?.points.t ?? [];
    expect(times.every((t, i) => i === 0 || t >= (times[i - 1] ?? 0))).toBe(true);
  });

  it('draws a year from the hour rollups: every value counted, the peak and the dip kept, booleans as 0/1', async () => {
    const year = {
      from: new Date(START - 200 * 86_400_000).toISOString(),
      to: new Date(START + 166 * 86_400_000).toISOString(),
    };
    const answer = await query({
      deviceIds: [ids.press],
      paths: ['/motor/speed', '/motor/running'],
      ...year,
      maxPoints: 500,
    });
    expect(answer.statusCode).toBe(200);
    const [speed, running] = answer.json().series as Series[];
    expect(speed).toMatchObject({ resolution: 'hour', decimated: true, total: COUNT });
    expect(Math.max(...((speed?.points.v ?? []) as number[]))).toBe(PEAK.value);
    expect(Math.min(...((speed?.points.v ?? []) as number[]))).toBe(DIP.value);
    expect(speed?.points.t.at(-1)).toBe(START + (COUNT - 1) * 1000);
    expect(running).toMatchObject({ resolution: 'hour', total: COUNT });
    expect(new Set(running?.points.v)).toEqual(new Set([0, 1]));
    // Another organization's device is not found, rollups or not.
    const foreign = await query({ deviceIds: [ids.bDevice], paths: ['/count'], ...year });
    expect(foreign.statusCode).toBe(404);
  });

  it('keeps only the range asked, inclusive at both ends', async () => {
    const answer = await query({
      deviceIds: [ids.press],
      paths: ['/count'],
      from: iso(START + 10_000),
      to: iso(START + 20_000),
    });
    const [series] = answer.json().series as Series[];
    expect(series?.total).toBe(11);
    expect(series?.points.v).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(series?.type).toBe('integer');
  });

  it('answers booleans as 0/1 and lists string values raw, cut at maxPoints', async () => {
    const answer = await query({
      deviceIds: [ids.press],
      paths: ['/motor/running', '/state'],
      from: iso(START),
      to: iso(START + 99_000),
      maxPoints: 10,
    });
    expect(answer.statusCode).toBe(200);
    const [running, state] = answer.json().series as Series[];
    expect(running?.type).toBe('boolean');
    expect(running?.decimated).toBe(true);
    expect(new Set(running?.points.v)).toEqual(new Set([0, 1]));
    expect(state).toMatchObject({ type: 'string', decimated: true, total: 100 });
    expect(state?.text).toHaveLength(10);
    expect(state?.text?.[3]).toBe('=HYPERLINK("x")');
    expect(state?.points.v.every((v) => v === null)).toBe(true);
  });

  it('answers a series per device and path its model has, in the order asked; none for a device without preset', async () => {
    const answer = await query({
      deviceIds: [ids.press2, ids.bare, ids.press],
      paths: ['/motor/speed', '/count'],
      ...WHOLE,
    });
    expect(answer.statusCode).toBe(200);
    const series = answer.json().series as Series[];
    expect(series.map((s) => [s.label, s.path])).toEqual([
      ['press-02', '/motor/speed'],
      ['press-02', '/count'],
      ['press-01', '/motor/speed'],
      ['press-01', '/count'],
    ]);
    expect(series[0]?.points).toEqual({ t: [START + 500, START + 1500], v: [-12.5, 7] });
    expect(series[1]?.total).toBe(0);
  });

  it("refuses another organization's device with 404 naming it, and another tenant's caller", async () => {
    const before = await auditCount();
    for (const foreign of [ids.bDevice, ids.a1Device]) {
      const answer = await query({ deviceIds: [ids.press, foreign], paths: ['/count'], ...WHOLE });
      expect(answer.statusCode).toBe(404);
      expect(answer.json().message).toContain(foreign);
    }
    const asB = await query({ deviceIds: [ids.press], paths: ['/count'], ...WHOLE }, tokens.adminB);
    expect([403, 404]).toContain(asB.statusCode);
    const bInOwnOrg = await query(
      { deviceIds: [ids.press], paths: ['/count'], ...WHOLE },
      tokens.adminB,
      tenants.orgB.id,
    );
    // Organization B has no IoT: rights on models do not count there.
    expect(bInOwnOrg.statusCode).toBe(403);
    const a1InParent = await query({ deviceIds: [ids.press], paths: ['/count'], ...WHOLE }, tokens.adminA1);
    expect([403, 404]).toContain(a1InParent.statusCode);
    const a1Own = await query(
      { deviceIds: [ids.press], paths: ['/count'], ...WHOLE },
      tokens.adminA1,
      tenants.orgA1.id,
    );
    expect(a1Own.statusCode).toBe(404);
    expect(await auditCount()).toBe(before);
  });

  it('needs READ models besides READ devices, and a token', async () => {
    const answer = await query({ deviceIds: [ids.press], paths: ['/count'], ...WHOLE }, tokens.noModels);
    expect(answer.statusCode).toBe(403);
    expect(answer.json().message).toContain('models');
    const anonymous = await call('POST', `${dataOf(tenants.orgA.id)}/query`, undefined, {
      deviceIds: [ids.press],
      paths: ['/count'],
      ...WHOLE,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a path the data roles do not open (403 naming it) and answers the open ones', async () => {
    const refused = await query(
      { deviceIds: [ids.press], paths: ['/motor/speed', '/secret/temp'], ...WHOLE },
      tokens.reader,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("body/paths/1: your data roles do not allow reading '/secret/temp'");
    const allowed = await query(
      { deviceIds: [ids.press], paths: ['/motor/speed', '/count'], ...WHOLE },
      tokens.reader,
    );
    expect(allowed.statusCode).toBe(200);
    expect((allowed.json().series as Series[]).map((s) => s.path)).toEqual(['/motor/speed', '/count']);
  });

  it.each([
    ['to before from', { from: iso(START + 1000), to: iso(START) }, 'body/to must be after body/from'],
    ['to equal to from', { from: iso(START), to: iso(START) }, 'body/to must be after body/from'],
    [
      'a span over 366 days',
      { from: iso(START), to: iso(START + 367 * 86_400_000) },
      'body/to must be at most 366 days after body/from',
    ],
    ['no device', { deviceIds: [] }, 'body/deviceIds'],
    ['21 devices', { deviceIds: Array.from({ length: 21 }, () => crypto.randomUUID()) }, 'body/deviceIds'],
    ['a device id that is no uuid', { deviceIds: ['press-01'] }, 'body/deviceIds/0'],
    ['no path', { paths: [] }, 'body/paths'],
    ['a path without slash', { paths: ['motor'] }, 'body/paths/0'],
    ['the same path twice', { paths: ['/count', '/count'] }, 'body/paths'],
    ['maxPoints too small', { maxPoints: 5 }, 'body/maxPoints'],
    ['maxPoints too large', { maxPoints: 20_001 }, 'body/maxPoints'],
    ['a date that is no date', { from: 'yesterday' }, 'body/from'],
    ['an unknown field', { limit: 3 }, 'limit'],
  ])('answers 400 for %s', async (_name, change, message) => {
    const answer = await query({ deviceIds: [ids.press], paths: ['/count'], ...WHOLE, ...change });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toContain(message);
  });
});

describe('GET data/paths', () => {
  const pathsOf = (deviceIds: string[], token = tokens.adminA, org = tenants.orgA.id) =>
    call('GET', `${dataOf(org)}/paths?${deviceIds.map((id) => `deviceIds=${id}`).join('&')}`, token);

  it("answers the union of the devices' model paths with type and unit, sorted", async () => {
    const answer = await pathsOf([ids.press, ids.bare]);
    expect(answer.statusCode).toBe(200);
    expect(answer.json().paths).toEqual([
      { path: '/count', type: 'integer', deviceIds: [ids.press] },
      { path: '/motor/running', type: 'boolean', deviceIds: [ids.press] },
      { path: '/motor/speed', type: 'number', unit: 'rpm', deviceIds: [ids.press] },
      { path: '/secret/temp', type: 'number', unit: '°C', deviceIds: [ids.press] },
      { path: '/state', type: 'string', deviceIds: [ids.press] },
    ]);
    const two = (await pathsOf([ids.press, ids.press2])).json().paths as { deviceIds: string[] }[];
    expect(two[0]?.deviceIds).toEqual([ids.press, ids.press2]);
    expect((await pathsOf([ids.bare])).json().paths).toEqual([]);
  });

  it('leaves out the paths the data roles do not open', async () => {
    const answer = await pathsOf([ids.press], tokens.reader);
    expect((answer.json().paths as { path: string }[]).map((p) => p.path)).toEqual([
      '/count',
      '/motor/running',
      '/motor/speed',
    ]);
  });

  it("answers 404 naming another organization's device, 400 for no device, 403/404 for another tenant", async () => {
    const foreign = await pathsOf([ids.press, ids.bDevice]);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain(ids.bDevice);
    expect((await call('GET', `${dataOf(tenants.orgA.id)}/paths`, tokens.adminA)).statusCode).toBe(400);
    expect((await pathsOf(['nope'])).statusCode).toBe(400);
    expect([403, 404]).toContain((await pathsOf([ids.press], tokens.adminB)).statusCode);
    expect((await pathsOf([ids.bDevice], tokens.adminB, tenants.orgB.id)).statusCode).toBe(403);
  });
});

describe('POST data/summary', () => {
  it("answers every device's count, extremes, average and newest value from the hourly rollups, its own only", async () => {
    const answer = await call('POST', `${dataOf(tenants.orgA.id)}/summary`, tokens.adminA, {
      path: '/count',
      ...WHOLE,
    });
    expect(answer.statusCode).toBe(200);
    const summary = answer.json() as platform.DataSummary;
    expect(summary).toMatchObject({ path: '/count', resolution: 'hour', from: iso(START - 3_600_000) });
    expect(summary.rows.map((row) => row.label)).toEqual(['press-01', 'twin']);
    expect(summary.rows[0]).toEqual({
      deviceId: ids.press,
      label: 'press-01',
      count: COUNT,
      min: 0,
      max: COUNT - 1,
      average: (COUNT - 1) / 2,
      last: COUNT - 1,
      lastAt: iso(START + (COUNT - 1) * 1000),
    });
    expect(summary.rows[1]).toMatchObject({ count: 6000, min: 0, max: 5999, average: 2999.5 });
    // Organization B's device stored /count too and is not among A's rows; B itself has no IoT and is refused.
    const asB = await call('POST', `${dataOf(tenants.orgB.id)}/summary`, tokens.adminB, {
      path: '/count',
      ...WHOLE,
    });
    expect(asB.statusCode).toBe(403);
  });

  it('refuses a path the data roles close, and a bad range', async () => {
    const closed = await call('POST', `${dataOf(tenants.orgA.id)}/summary`, tokens.reader, {
      path: '/secret/temp',
      ...WHOLE,
    });
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toBe("body/path: your data roles do not allow reading '/secret/temp'");
    const reversed = await call('POST', `${dataOf(tenants.orgA.id)}/summary`, tokens.adminA, {
      path: '/count',
      from: WHOLE.to,
      to: WHOLE.from,
    });
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('body/to must be after body/from');
  });
});

describe('GET data/export.csv', () => {
  const exportUrl = (deviceIds: string[], paths: string[], range = WHOLE, org = tenants.orgA.id) =>
    `${dataOf(org)}/export.csv?${[
      ...deviceIds.map((id) => `deviceIds=${id}`),
      ...paths.map((path) => `paths=${encodeURIComponent(path)}`),
      `from=${encodeURIComponent(range.from)}`,
      `to=${encodeURIComponent(range.to)}`,
    ].join('&')}`;

  const records = (body: string) =>
    body
      .replace(/^\uFEFF/, '')
      .split('\r\n')
      .slice(0, -1);

  /** The export through the service, with a batch size or row limit of the test's choosing. */
  async function exportText(
    query: { deviceIds: string[]; paths: string[]; from: string; to: string },
    options: { batch?: number; limit?: number },
  ) {
    const principal: Principal = {
      realm: 'acme',
      userId: tenants.adminA.id,
      token: decodePayload(tokens.adminA),
      organizationId: tenants.orgA.id,
    };
    const { body } = await exportData(server.database.db, principal, tenants.orgA.id, query, options);
    let text = '';
    for await (const chunk of body) text += chunk;
    return records(text);
  }

  it('streams a CSV with a header, one record per device, time and path, and a file name', async () => {
    const answer = await call(
      'GET',
      exportUrl([ids.press2, ids.press], ['/motor/speed', '/state', '/motor/running'], {
        from: iso(START),
        to: iso(START + 3000),
      }),
      tokens.adminA,
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="data-acme-a-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const lines = records(answer.body);
    expect(lines[0]).toBe('device,label,path,ts,value');
    expect(lines.slice(1, 4)).toEqual([
      `${ids.press2},press-02,/motor/speed,${iso(START + 500)},-12.5`,
      `${ids.press2},press-02,/motor/speed,${iso(START + 1500)},7`,
      // A value of another type (an older model version) is listed, quoted behind an apostrophe.
      `${ids.press2},press-02,/motor/speed,${iso(START + 2500)},"'n/a"`,
    ]);
    // Then press-01 path by path, 4 times (0..3 s) each; formula-like text starts with a quote.
    expect(lines.slice(4, 8)).toEqual(
      [0, 1, 2, 3].map((g) => `${ids.press},press-01,/motor/speed,${iso(START + g * 1000)},${g}`),
    );
    expect(lines.slice(8, 12)).toEqual([
      `${ids.press},press-01,/state,${iso(START)},"ok, fine"`,
      `${ids.press},press-01,/state,${iso(START + 1000)},"ok, fine"`,
      `${ids.press},press-01,/state,${iso(START + 2000)},"ok, fine"`,
      `${ids.press},press-01,/state,${iso(START + 3000)},"'=HYPERLINK(""x"")"`,
    ]);
    expect(lines.slice(12, 14)).toEqual([
      `${ids.press},press-01,/motor/running,${iso(START)},true`,
      `${ids.press},press-01,/motor/running,${iso(START + 1000)},false`,
    ]);
    expect(lines).toHaveLength(1 + 3 + 12);
  });

  it('pages through rows that share a time without losing or repeating one', async () => {
    const answer = await call('GET', exportUrl([ids.twin], ['/count']), tokens.adminA);
    const lines = records(answer.body).slice(1);
    expect(lines).toHaveLength(6000);
    expect(new Set(lines.map((line) => Number(line.split(',').at(-1)))).size).toBe(6000);
    // The same in batches of 1,000 rows: every batch boundary falls between rows of one time.
    const paged = await exportText({ deviceIds: [ids.twin], paths: ['/count'], ...WHOLE }, { batch: 1000 });
    expect(paged.slice(1)).toEqual(lines);
    // Text values travel row by row: batched the same way.
    const text = await exportText({ deviceIds: [ids.press], paths: ['/state'], ...WHOLE }, { batch: 999 });
    expect(text).toHaveLength(1 + COUNT);
    expect(new Set(text.map((line) => line.split(',')[3])).size).toBe(1 + COUNT);
  });

  it('stops at the row limit', async () => {
    const lines = await exportText(
      { deviceIds: [ids.press, ids.twin], paths: ['/count', '/motor/speed'], ...WHOLE },
      { limit: 7 },
    );
    expect(lines).toHaveLength(8);
    expect(lines[7]).toBe(`${ids.press},press-01,/count,${iso(START + 6000)},6`);
  });

  it('refuses what the query refuses: foreign devices, closed paths, bad ranges, another tenant', async () => {
    const foreign = await call('GET', exportUrl([ids.bDevice], ['/count']), tokens.adminA);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain(ids.bDevice);
    const closed = await call('GET', exportUrl([ids.press], ['/secret/temp']), tokens.reader);
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toContain("'/secret/temp'");
    const reversed = await call(
      'GET',
      exportUrl([ids.press], ['/count'], { from: WHOLE.to, to: WHOLE.from }),
      tokens.adminA,
    );
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe('querystring/to must be after querystring/from');
    const asB = await call('GET', exportUrl([ids.press], ['/count']), tokens.adminB);
    expect([403, 404]).toContain(asB.statusCode);
    const missing = await call(
      'GET',
      `${dataOf(tenants.orgA.id)}/export.csv?deviceIds=${ids.press}`,
      tokens.adminA,
    );
    expect(missing.statusCode).toBe(400);
  });
});

describe('after the values are compacted into blocks', () => {
  it('answers every query and export exactly as from the stored rows, and a late value joins them', async () => {
    const everyDevice = [ids.press, ids.press2, ids.twin];
    const exportOf = async (paths: string[]) => {
      const url = `${dataOf(tenants.orgA.id)}/export.csv?${[
        ...everyDevice.map((id) => `deviceIds=${id}`),
        ...paths.map((path) => `paths=${encodeURIComponent(path)}`),
        `from=${encodeURIComponent(WHOLE.from)}`,
        `to=${encodeURIComponent(WHOLE.to)}`,
      ].join('&')}`;
      return (await call('GET', url, tokens.adminA)).body;
    };
    const answers = async () => ({
      raw: (
        await query({
          deviceIds: everyDevice,
          paths: ['/motor/speed', '/count'],
          ...WHOLE,
          maxPoints: 20_000,
        })
      ).json(),
      reduced: (
        await query({
          deviceIds: everyDevice,
          paths: ['/motor/speed', '/motor/running'],
          ...WHOLE,
          maxPoints: 40,
        })
      ).json(),
      text: (await query({ deviceIds: [ids.press], paths: ['/state'], ...WHOLE, maxPoints: 50 })).json(),
      csv: await exportOf(['/motor/speed', '/count', '/state', '/motor/running']),
      summary: (
        await call('POST', `${dataOf(tenants.orgA.id)}/summary`, tokens.adminA, { path: '/count', ...WHOLE })
      ).json(),
    });
    const before = await answers();
    expect(before.csv.split('\r\n').length).toBeGreaterThan(COUNT * 3);
    const { db } = server.database;
    const run = await compactTelemetry(db, Date.now());
    expect(run.partitions).toContain(partitionName(dayOf(START)));
    expect((await db.select({ n: count() }).from(telemetry))[0]?.n).toBe(0);
    expect(await answers()).toEqual(before);

    // A value late by years makes its day's partition again; the next compaction merges it into the blocks.
    const late = START + 1500;
    const alsoLate = Array.from({ length: 11 }, (_, i) => ({
      deviceId: ids.press2,
      ts: START + 1000 + i * 250,
      values: { '/motor/speed': i * 100 },
    }));
    await insertTelemetry(db, [
      { deviceId: ids.press2, ts: late, values: { '/motor/speed': 3.25 } },
      ...alsoLate,
    ]);
    // Read from blocks and rows alike (raw, and reduced to buckets), and then from the blocks alone.
    const press2 = async () => ({
      raw: (await query({ deviceIds: [ids.press2], paths: ['/motor/speed'], ...WHOLE })).json().series[0],
      reduced: (
        await query({ deviceIds: [ids.press2], paths: ['/motor/speed'], ...WHOLE, maxPoints: 10 })
      ).json().series[0],
    });
    const fromBoth = await press2();
    expect(fromBoth.raw.points.t.slice(0, 5)).toEqual([
      START + 500,
      START + 1000,
      START + 1250,
      START + 1500,
      START + 1500,
    ]);
    expect(fromBoth.raw.points.v.slice(0, 5)).toEqual([-12.5, 0, 100, 7, 3.25]);
    expect(fromBoth.reduced).toMatchObject({ decimated: true, total: 14 });
    const merged = await compactTelemetry(db, Date.now());
    expect(merged.partitions).toEqual([partitionName(dayOf(START))]);
    expect(await press2()).toEqual(fromBoth);
  });
});

describe('helpers', () => {
  it('writes numbers as they are (a minus is no formula) and defuses formula-like text', () => {
    expect(valueCell(-5)).toBe('-5');
    expect(valueCell(1.25)).toBe('1.25');
    expect(valueCell(true)).toBe('true');
    expect(valueCell('-5')).toBe("'-5");
    expect(valueCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(valueCell('+1')).toBe("'+1");
    expect(valueCell('a "b", c')).toBe('"a ""b"", c"');
    expect(valueCell(null)).toBe('');
  });

  it('turns buckets into points: min at the first time, max at the last, one point where they coincide', () => {
    expect(
      pointsOfBuckets([
        { lo: 1, hi: 5, firstMs: 10, lastMs: 19, count: 4 },
        { lo: 3, hi: 3, firstMs: 20, lastMs: 20, count: 1 },
        { lo: 2, hi: 2, firstMs: 30, lastMs: 35, count: 2 },
      ]),
    ).toEqual({ t: [10, 19, 20, 30, 35], v: [1, 5, 3, 2, 2] });
  });
});
