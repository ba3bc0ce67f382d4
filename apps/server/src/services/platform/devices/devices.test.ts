import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  deviceDataTags,
  deviceGroupMembers,
  deviceGroups,
  deviceIngestStats,
  deviceStatusHistory,
  devices,
  models,
  modelVersions,
  presets,
} from '../../../db/schema.ts';
import { createDevice } from '../../core/devices/provisioning.ts';
import { mergeConfiguration } from './configuration.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
const ids: Record<string, string> = {};

const orgPath = (org: string) => `/svc/platform/api/v1/organizations/${org}`;

async function tagsOf(id: string) {
  const [row] = await server.database.db
    .select({ tags: devices.tags })
    .from(devices)
    .where(eq(devices.id, id));
  return row?.tags;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  const [model] = await db.insert(models).values({ organizationId: orgA.id, name: 'Motor' }).returning();
  await db.insert(modelVersions).values({
    modelId: model?.id ?? '',
    version: 1,
    paths: [{ path: '/motor/speed', type: 'number' }],
  });
  const [preset] = await db
    .insert(presets)
    .values({
      organizationId: orgA.id,
      name: 'Motor preset',
      modelId: model?.id ?? '',
      modelVersion: 1,
      mappings: [
        { tag: 'spd', path: '/motor/speed' },
        { tag: 'tmp', path: '/motor/temperature' },
      ],
      deviceConfiguration: { sampleMs: 1000, network: { dhcp: true, mtu: 1500 }, list: [1, 2] },
    })
    .returning();
  ids.preset = preset?.id ?? '';
  ids.press = (
    await createDevice(db, orgA.id, 'press-01', { alias: 'Big press', tags: ['hall-1', 'hot'] })
  ).id;
  ids.pump = (await createDevice(db, orgA.id, 'pump-02', { tags: ['hall-1', 'water'], status: 'ONLINE' })).id;
  ids.oven = (await createDevice(db, orgA.id, 'oven-03', { tags: ['hot'] })).id;
  ids.bDevice = (await createDevice(db, orgB.id, 'b-gateway', { alias: 'Big press', tags: ['hall-1'] })).id;
  await db
    .update(devices)
    .set({
      presetId: ids.preset,
      configuration: { network: { mtu: 9000 }, list: [3], label: 'x' },
      latitude: 48.1,
      longitude: 11.5,
    })
    .where(eq(devices.id, ids.press));
  await db.insert(deviceDataTags).values([
    { deviceId: ids.press, name: 'spd', type: 'number' },
    { deviceId: ids.press, name: 'extra', type: 'string' },
  ]);
  const base = Date.parse('2025-01-01T00:00:00Z');
  await db.insert(deviceStatusHistory).values(
    Array.from({ length: 1005 }, (_, index) => ({
      deviceId: ids.pump ?? '',
      status: index % 2 === 0 ? ('ONLINE' as const) : ('OFFLINE' as const),
      detail: `change ${index}`,
      at: new Date(base + index * 60_000),
    })),
  );
  await db.insert(deviceIngestStats).values({
    deviceId: ids.pump,
    accepted: 42,
    malformed: 2,
    unknownPath: 1,
    wrongType: 3,
    lastError: 'wrong type for /motor/speed',
    lastErrorAt: new Date(base),
  });
  const [group] = await db
    .insert(deviceGroups)
    .values({ organizationId: orgA.id, name: 'Hall 1' })
    .returning();
  const [bGroup] = await db
    .insert(deviceGroups)
    .values({ organizationId: orgB.id, name: 'B hall' })
    .returning();
  ids.group = group?.id ?? '';
  ids.bGroup = bGroup?.id ?? '';
  await db.insert(deviceGroupMembers).values([
    { groupId: ids.group, deviceId: ids.press },
    { groupId: ids.group, deviceId: ids.pump },
    { groupId: ids.bGroup, deviceId: ids.bDevice },
  ]);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('mergeConfiguration', () => {
  it('merges objects key by key and lets the device replace values and lists', () => {
    expect(mergeConfiguration({ a: 1, n: { x: 1, y: 2 }, l: [1] }, { n: { y: 3 }, l: [2], b: null })).toEqual(
      {
        a: 1,
        n: { x: 1, y: 3 },
        l: [2],
        b: null,
      },
    );
    expect(
      Object.getPrototypeOf(mergeConfiguration({}, JSON.parse('{"__proto__": {"polluted": true}}'))),
    ).toBe(Object.prototype);
  });
});

describe('data tags and labelling tags', () => {
  it("answers the device's reported data tags and which its preset maps", async () => {
    const response = await call(
      'GET',
      `${orgPath(tenants.orgA.id)}/devices/${ids.press}/availableTags`,
      readerA,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      deviceId: ids.press,
      presetId: ids.preset,
      tags: [
        { name: 'extra', type: 'string', mapped: false, path: null },
        { name: 'spd', type: 'number', mapped: true, path: '/motor/speed' },
      ],
      missing: [{ name: 'tmp', path: '/motor/temperature' }],
    });
    const none = await call('GET', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/availableTags`, readerA);
    expect(none.json()).toMatchObject({ presetId: null, tags: [], missing: [] });
    expect(
      (await call('GET', `${orgPath(tenants.orgB.id)}/devices/${ids.press}/availableTags`, rptB)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `${orgPath(tenants.orgA.id)}/devices/${ids.press}/availableTags`, rptB)).statusCode,
    ).toBe(403);
  });

  it('reads and replaces labelling tags (UPDATE devices), audited; other tenants change nothing', async () => {
    const read = await call('GET', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/tags`, readerA);
    expect(read.json()).toEqual({ deviceId: ids.oven, label: 'oven-03', tags: ['hot'] });
    const replaced = await call('POST', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/tags`, rptA, {
      tags: [' bakery ', 'hot', 'bakery'],
    });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().tags).toEqual(['bakery', 'hot']);
    expect(await tagsOf(ids.oven ?? '')).toEqual(['bakery', 'hot']);
    const records = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'devices.update'), eq(auditLog.resourceId, ids.oven ?? '')));
    expect(records[0]?.detail).toMatchObject({
      changes: { tags: ['bakery', 'hot'] },
      before: { tags: ['hot'] },
    });

    expect(
      (await call('POST', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/tags`, readerA, { tags: [] }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${orgPath(tenants.orgB.id)}/devices/${ids.oven}/tags`, rptB, { tags: [] }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/tags`, rptA, { tags: ['  '] }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/tags`, rptA, {
          tags: { hot: true },
        })
      ).statusCode,
    ).toBe(400);
    expect(await tagsOf(ids.oven ?? '')).toEqual(['bakery', 'hot']);

    const byName = await call('GET', `${orgPath(tenants.orgA.id)}/devicesByName/pump-02/tags`, readerA);
    expect(byName.json()).toEqual({ deviceId: ids.pump, label: 'pump-02', tags: ['hall-1', 'water'] });
    expect(
      (await call('GET', `${orgPath(tenants.orgA.id)}/devicesByName/b-gateway/tags`, rptA)).statusCode,
    ).toBe(404);
  });

  it('finds devices by any or all tags, paged, only in the organization', async () => {
    const any = await call('POST', `${orgPath(tenants.orgA.id)}/devices/tags/query?sort=label`, readerA, {
      tags: ['water', 'bakery'],
    });
    expect(any.statusCode).toBe(200);
    expect(any.json().items.map((d: { label: string }) => d.label)).toEqual(['oven-03', 'pump-02']);
    const all = await call('POST', `${orgPath(tenants.orgA.id)}/devices/tags/query`, readerA, {
      tags: ['hall-1', 'hot'],
      match: 'all',
    });
    expect(all.json().items.map((d: { id: string }) => d.id)).toEqual([ids.press]);
    const paged = await call(
      'POST',
      `${orgPath(tenants.orgA.id)}/devices/tags/query?pageSize=1&page=1`,
      readerA,
      {
        tags: ['hall-1'],
      },
    );
    expect(paged.json()).toMatchObject({ total: 2, page: 1, pageSize: 1 });
    // B's device carries hall-1 too, but is not in A's answer; quotes inside a tag are data, not JSON.
    expect(JSON.stringify(paged.json())).not.toContain(ids.bDevice);
    const odd = await call('POST', `${orgPath(tenants.orgA.id)}/devices/tags/query`, readerA, {
      tags: ['a"]', "b'"],
    });
    expect(odd.json().total).toBe(0);
    expect(
      (await call('POST', `${orgPath(tenants.orgA.id)}/devices/tags/query`, readerA, { tags: [] }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${orgPath(tenants.orgA.id)}/devices/tags/query`, rptB, { tags: ['hall-1'] }))
        .statusCode,
    ).toBe(403);
  });

  it("answers the union of a group's device tags", async () => {
    const response = await call('GET', `${orgPath(tenants.orgA.id)}/deviceGroups/${ids.group}/tags`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ groupId: ids.group, name: 'Hall 1', tags: ['hall-1', 'hot', 'water'] });
    // The reader has READ devices but not READ devicegroups.
    expect(
      (await call('GET', `${orgPath(tenants.orgA.id)}/deviceGroups/${ids.group}/tags`, readerA)).statusCode,
    ).toBe(403);
    expect(
      (await call('GET', `${orgPath(tenants.orgA.id)}/deviceGroups/${ids.bGroup}/tags`, rptA)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `${orgPath(tenants.orgB.id)}/deviceGroups/${ids.group}/tags`, rptB)).statusCode,
    ).toBe(404);
  });
});

describe('status and configuration', () => {
  it('answers the connection history newest first, bounded by since/to, at most 1000', async () => {
    const url = `${orgPath(tenants.orgA.id)}/devices/${ids.pump}/status`;
    const all = await call('GET', url, readerA);
    expect(all.statusCode).toBe(200);
    expect(all.json().items).toHaveLength(1000);
    expect(all.json()).toMatchObject({ limit: 1000, truncated: true });
    expect(all.json().items[0]).toMatchObject({ detail: 'change 1004', status: 'ONLINE' });
    const window = await call(
      'GET',
      `${url}?since=2025-01-01T00:10:00Z&to=2025-01-01T00:12:00.000Z&limit=2`,
      readerA,
    );
    expect(window.json().items.map((item: { detail: string }) => item.detail)).toEqual([
      'change 12',
      'change 11',
    ]);
    expect(window.json().truncated).toBe(true);
    expect((await call('GET', `${url}?limit=1001`, readerA)).statusCode).toBe(400);
    expect((await call('GET', `${url}?since=yesterday`, readerA)).statusCode).toBe(400);
    const reversed = await call('GET', `${url}?since=2025-01-02T00:00:00Z&to=2025-01-01T00:00:00Z`, readerA);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toContain('since');
    expect(
      (await call('GET', `${orgPath(tenants.orgB.id)}/devices/${ids.pump}/status`, rptB)).statusCode,
    ).toBe(404);
  });

  it('answers the current status with the ingest counters', async () => {
    const sync = await call('GET', `${orgPath(tenants.orgA.id)}/devices/${ids.pump}/status/sync`, readerA);
    expect(sync.json()).toMatchObject({
      deviceId: ids.pump,
      status: 'ONLINE',
      lastSeenAt: null,
      since: new Date(Date.parse('2025-01-01T00:00:00Z') + 1004 * 60_000).toISOString(),
      ingest: {
        accepted: 42,
        malformed: 2,
        unknownPath: 1,
        wrongType: 3,
        lastError: 'wrong type for /motor/speed',
      },
    });
    const quiet = await call('GET', `${orgPath(tenants.orgA.id)}/devices/${ids.oven}/status/sync`, readerA);
    expect(quiet.json()).toMatchObject({
      status: 'OFFLINE',
      since: null,
      ingest: { accepted: 0, malformed: 0, lastError: null },
    });
  });

  it("merges the device's configuration over its preset's", async () => {
    const response = await call(
      'GET',
      `${orgPath(tenants.orgA.id)}/devices/${ids.press}/configuration`,
      readerA,
    );
    expect(response.json()).toEqual({
      deviceId: ids.press,
      presetId: ids.preset,
      configuration: { sampleMs: 1000, network: { dhcp: true, mtu: 9000 }, list: [3], label: 'x' },
      presetConfiguration: { sampleMs: 1000, network: { dhcp: true, mtu: 1500 }, list: [1, 2] },
      deviceConfiguration: { network: { mtu: 9000 }, list: [3], label: 'x' },
    });
    expect(
      (await call('GET', `${orgPath(tenants.orgB.id)}/devices/${ids.press}/configuration`, rptB)).statusCode,
    ).toBe(404);
  });
});

describe('device lists and lookups', () => {
  it('pages devices, with details on request, filtered by status and tag', async () => {
    const plain = await call('GET', `${orgPath(tenants.orgA.id)}/devices?sort=label`, readerA);
    expect(plain.statusCode).toBe(200);
    expect(plain.json().items.map((d: { label: string }) => d.label)).toEqual([
      'oven-03',
      'press-01',
      'pump-02',
    ]);
    expect(plain.json().items[0].groups).toBeUndefined();
    const detailed = await call(
      'GET',
      `${orgPath(tenants.orgA.id)}/devices?details=true&search=press`,
      readerA,
    );
    expect(detailed.json().items).toEqual([
      expect.objectContaining({
        id: ids.press,
        presetName: 'Motor preset',
        latitude: 48.1,
        longitude: 11.5,
        groups: [{ id: ids.group, name: 'Hall 1' }],
      }),
    ]);
    const online = await call('GET', `${orgPath(tenants.orgA.id)}/devices?status=ONLINE`, readerA);
    expect(online.json().items.map((d: { id: string }) => d.id)).toEqual([ids.pump]);
    const hot = await call('GET', `${orgPath(tenants.orgA.id)}/devices?tag=hot&sort=label`, readerA);
    expect(hot.json().items.map((d: { label: string }) => d.label)).toEqual(['oven-03', 'press-01']);
    expect((await call('GET', `${orgPath(tenants.orgA.id)}/devices?sort=secret`, readerA)).statusCode).toBe(
      400,
    );
    expect((await call('GET', `${orgPath(tenants.orgA.id)}/devices`, rptB)).statusCode).toBe(403);
  });

  it('finds a device by alias inside the organization only', async () => {
    const found = await call('GET', `${orgPath(tenants.orgA.id)}/deviceByAlias?alias=Big%20press`, readerA);
    expect(found.statusCode).toBe(200);
    expect(found.json()).toMatchObject({ id: ids.press, presetName: 'Motor preset' });
    const inB = await call('GET', `${orgPath(tenants.orgB.id)}/deviceByAlias?alias=Big%20press`, rptB);
    expect(inB.json().id).toBe(ids.bDevice);
    expect(
      (await call('GET', `${orgPath(tenants.orgA.id)}/deviceByAlias?alias=nobody`, readerA)).statusCode,
    ).toBe(404);
    expect((await call('GET', `${orgPath(tenants.orgA.id)}/deviceByAlias`, readerA)).statusCode).toBe(400);
  });
});
