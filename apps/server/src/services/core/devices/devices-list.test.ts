import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, deviceGroupMembers, deviceGroups, devices, telemetry } from '../../../db/schema.ts';
import { createDevice } from './provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
let updaterA: string;
const ids: Record<string, string> = {};
let groupA: string;
let groupB: string;

const devicesOf = (org: string) => `/svc/core/api/v1/organizations/${org}/devices`;
const id = (key: string) => ids[key] ?? '';
type Listed = { id: string; label: string; tags: string[]; status: string };
const labels = (body: { items: Listed[] }) => body.items.map((device) => device.label);

async function stored(deviceId: string) {
  const [row] = await server.database.db.select().from(devices).where(eq(devices.id, deviceId));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  const hour = 3_600_000;
  const now = Date.now();
  ids.alpha = (
    await createDevice(db, orgA.id, 'alpha', {
      tags: ['hall-1', 'water'],
      status: 'ONLINE',
      latitude: 48.1,
      longitude: 11.5,
      lastSeenAt: new Date(now - hour),
      configuration: { sampling: 5 },
    })
  ).id;
  ids.bravo = (
    await createDevice(db, orgA.id, 'bravo', {
      alias: 'B',
      tags: ['hall-1'],
      status: 'OFFLINE',
      latitude: 52.5,
      longitude: 13.4,
      lastSeenAt: new Date(now - 3 * hour),
    })
  ).id;
  ids.charlie = (
    await createDevice(db, orgA.id, 'charlie', { tags: ['water'], status: 'ONLINE', serialNumber: 'SN-9' })
  ).id;
  ids.delta = (
    await createDevice(db, orgA.id, 'delta', {
      status: 'OFFLINE',
      lastSeenAt: new Date(now - 2 * hour),
      latitude: -33.9,
      longitude: 151.2,
    })
  ).id;
  ids.bOne = (await createDevice(db, orgB.id, 'b-one', { tags: ['water'], latitude: 1, longitude: 1 })).id;
  const [gA] = await db.insert(deviceGroups).values({ organizationId: orgA.id, name: 'North' }).returning();
  const [gB] = await db.insert(deviceGroups).values({ organizationId: orgB.id, name: 'B group' }).returning();
  groupA = gA?.id ?? '';
  groupB = gB?.id ?? '';
  await db.insert(deviceGroupMembers).values({ groupId: groupA, deviceId: id('bravo') });
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, orgA.resourceId)).rpt;
  const updater = await userWithRole(server, 'acme', orgA.id, 'updater@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ', 'UPDATE'] },
  ]);
  updaterA = (await rptFor(server, 'acme', updater.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('GET devices: filters and sorting', () => {
  it('carries preset, position and last seen, but no configuration', async () => {
    const page = (await call('GET', `${devicesOf(tenants.orgA.id)}?search=alpha`, readerA)).json();
    expect(page.items[0]).toMatchObject({
      label: 'alpha',
      presetId: null,
      latitude: 48.1,
      longitude: 11.5,
      status: 'ONLINE',
    });
    expect(typeof page.items[0].lastSeenAt).toBe('string');
    expect(page.items[0]).not.toHaveProperty('configuration');
  });

  it('filters by status, by every tag asked, by group and by position', async () => {
    const base = devicesOf(tenants.orgA.id);
    expect(labels((await call('GET', `${base}?status=ONLINE`, readerA)).json())).toEqual([
      'alpha',
      'charlie',
    ]);
    expect(labels((await call('GET', `${base}?tag=water`, readerA)).json())).toEqual(['alpha', 'charlie']);
    const both = (await call('GET', `${base}?tag=water&tag=hall-1`, readerA)).json();
    expect(labels(both)).toEqual(['alpha']);
    expect(both.total).toBe(1);
    expect(labels((await call('GET', `${base}?tag=water&status=OFFLINE`, readerA)).json())).toEqual([]);
    expect(labels((await call('GET', `${base}?groupId=${groupA}`, readerA)).json())).toEqual(['bravo']);
    // Another tenant's group matches nothing of A.
    expect((await call('GET', `${base}?groupId=${groupB}`, readerA)).json().total).toBe(0);
    expect(labels((await call('GET', `${base}?positioned=false`, readerA)).json())).toEqual(['charlie']);
    expect((await call('GET', `${base}?positioned=true`, readerA)).json().total).toBe(3);
    expect(labels((await call('GET', `${base}?search=sn-9&status=ONLINE`, readerA)).json())).toEqual([
      'charlie',
    ]);
    const bad = await call('GET', `${base}?status=SLEEPING`, readerA);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('status');
    expect((await call('GET', `${base}?groupId=nope`, readerA)).statusCode).toBe(400);
  });

  it('sorts by last seen (never seen counts as longest ago), and by status', async () => {
    const base = devicesOf(tenants.orgA.id);
    const recent = (await call('GET', `${base}?sort=lastSeenAt&order=desc`, readerA)).json();
    expect(labels(recent)).toEqual(['alpha', 'delta', 'bravo', 'charlie']);
    const oldest = (await call('GET', `${base}?sort=lastSeenAt&order=asc`, readerA)).json();
    expect(labels(oldest)).toEqual(['charlie', 'bravo', 'delta', 'alpha']);
    const byStatus = (await call('GET', `${base}?sort=status&order=asc&pageSize=2`, readerA)).json();
    expect(byStatus.items.map((device: Listed) => device.status)).toEqual(['OFFLINE', 'OFFLINE']);
    expect(byStatus.total).toBe(4);
    for (const key of ['alias', 'serialNumber', 'createdAt']) {
      expect((await call('GET', `${base}?sort=${key}`, readerA)).statusCode).toBe(200);
    }
    expect((await call('GET', `${base}?sort=configuration`, readerA)).statusCode).toBe(400);
  });

  it('shows one device with its configuration and groups, only inside its organization', async () => {
    const detail = await call('GET', `${devicesOf(tenants.orgA.id)}/${id('bravo')}`, readerA);
    expect(detail.json()).toMatchObject({
      label: 'bravo',
      configuration: {},
      groups: [{ id: groupA, name: 'North' }],
    });
    const alpha = (await call('GET', `${devicesOf(tenants.orgA.id)}/${id('alpha')}`, readerA)).json();
    expect(alpha.configuration).toEqual({ sampling: 5 });
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/${id('bOne')}`, rptA)).statusCode).toBe(404);
  });
});

describe('GET devices/tags', () => {
  it("lists the organization's labelling tags with device counts, not another tenant's", async () => {
    const tags = await call('GET', `${devicesOf(tenants.orgA.id)}/tags`, readerA);
    expect(tags.statusCode).toBe(200);
    expect(tags.json()).toEqual({
      items: [
        { tag: 'hall-1', devices: 2 },
        { tag: 'water', devices: 2 },
      ],
      truncated: false,
    });
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/tags`, rptB)).statusCode).toBe(403);
  });
});

describe('GET devices/positions and mapSettings', () => {
  it('answers the positioned devices inside a box, wrapping the antimeridian', async () => {
    const base = `${devicesOf(tenants.orgA.id)}/positions`;
    const all = (await call('GET', base, readerA)).json();
    expect(all.items.map((device: Listed) => device.label).sort()).toEqual(['alpha', 'bravo', 'delta']);
    expect(all.truncated).toBe(false);
    expect(all.items.find((device: Listed) => device.label === 'alpha')).toEqual({
      id: id('alpha'),
      label: 'alpha',
      alias: null,
      status: 'ONLINE',
      latitude: 48.1,
      longitude: 11.5,
    });
    const europe = (await call('GET', `${base}?south=40&west=0&north=60&east=20`, readerA)).json();
    expect(europe.items.map((device: Listed) => device.label).sort()).toEqual(['alpha', 'bravo']);
    // A map panned one world east: longitudes 360..380 are 0..20.
    const wrapped = (await call('GET', `${base}?south=40&west=360&north=60&east=380`, readerA)).json();
    expect(wrapped.items.map((device: Listed) => device.label).sort()).toEqual(['alpha', 'bravo']);
    const limited = (await call('GET', `${base}?limit=1`, readerA)).json();
    expect(limited).toMatchObject({ truncated: true });
    expect(limited.items).toHaveLength(1);
    expect((await call('GET', `${base}?status=OFFLINE`, readerA)).json().items).toHaveLength(2);
    const half = await call('GET', `${base}?south=40&west=0`, readerA);
    expect(half.statusCode).toBe(400);
    expect(half.json().message).toContain('south');
    expect((await call('GET', `${base}?south=60&west=0&north=40&east=20`, readerA)).statusCode).toBe(400);
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/positions`, rptB)).statusCode).toBe(403);
  });

  it('names the tile server (OpenStreetMap unless MAP_TILE_URL is set)', async () => {
    const settings = await call('GET', `${devicesOf(tenants.orgA.id)}/mapSettings`, readerA);
    expect(settings.json()).toEqual({
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '© OpenStreetMap contributors',
      maxZoom: 19,
    });
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/mapSettings`, rptB)).statusCode).toBe(403);
  });
});

describe('PATCH devices/{id}: position and alias', () => {
  it('sets and removes the position together, refusing half of it and out-of-range values', async () => {
    const url = `${devicesOf(tenants.orgA.id)}/${id('charlie')}`;
    const placed = await call('PATCH', url, updaterA, { latitude: 45.5, longitude: -73.6 });
    expect(placed.statusCode).toBe(200);
    expect(placed.json()).toMatchObject({ latitude: 45.5, longitude: -73.6 });
    for (const body of [
      { latitude: 91, longitude: 0 },
      { latitude: 0, longitude: -181 },
      { latitude: 10 },
      { latitude: null, longitude: 3 },
    ]) {
      const refused = await call('PATCH', url, updaterA, body);
      expect(refused.statusCode, JSON.stringify(body)).toBe(400);
      expect(refused.json().message).toMatch(/latitude|longitude/);
    }
    expect(await stored(id('charlie'))).toMatchObject({ latitude: 45.5, longitude: -73.6 });
    // The equator and the prime meridian are a position, not "none".
    const origin = await call('PATCH', url, updaterA, { latitude: 0, longitude: 0 });
    expect(origin.json()).toMatchObject({ latitude: 0, longitude: 0 });
    const removed = await call('PATCH', url, updaterA, { latitude: null, longitude: null });
    expect(removed.json()).toMatchObject({ latitude: null, longitude: null });
    expect((await call('PATCH', url, readerA, { latitude: 1, longitude: 1 })).statusCode).toBe(403);
    expect((await call('PATCH', url, rptB, { latitude: 1, longitude: 1 })).statusCode).toBe(403);
    expect(
      (
        await call('PATCH', `${devicesOf(tenants.orgB.id)}/${id('charlie')}`, rptB, {
          latitude: 1,
          longitude: 1,
        })
      ).statusCode,
    ).toBe(404);
    expect(await stored(id('charlie'))).toMatchObject({ latitude: null, longitude: null });
  });

  it('refuses an alias another device has (409)', async () => {
    const taken = await call('PATCH', `${devicesOf(tenants.orgA.id)}/${id('alpha')}`, updaterA, {
      alias: 'B',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('alias');
    expect((await stored(id('alpha')))?.alias).toBeNull();
  });
});

describe('POST devices/bulk', () => {
  const bulk = (org: string) => `${devicesOf(org)}/bulk`;

  it('adds and removes tags on every device named, auditing each change', async () => {
    const added = await call('POST', bulk(tenants.orgA.id), updaterA, {
      ids: [id('alpha'), id('bravo')],
      action: 'addTags',
      tags: ['water', 'line-2'],
    });
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({ action: 'addTags', changed: 2, requested: 2 });
    expect((await stored(id('alpha')))?.tags).toEqual(['hall-1', 'water', 'line-2']);
    expect((await stored(id('bravo')))?.tags).toEqual(['hall-1', 'water', 'line-2']);
    const records = await server.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.action, 'devices.update'), inArray(auditLog.resourceId, [id('alpha'), id('bravo')])),
      );
    expect(records).toHaveLength(2);
    expect(records[0]?.detail).toMatchObject({ bulk: 'addTags', tags: ['water', 'line-2'] });

    const removed = await call('POST', bulk(tenants.orgA.id), updaterA, {
      ids: [id('alpha'), id('bravo'), id('delta')],
      action: 'removeTags',
      tags: ['line-2'],
    });
    expect(removed.json()).toEqual({ action: 'removeTags', changed: 2, requested: 3 });
    expect((await stored(id('alpha')))?.tags).toEqual(['hall-1', 'water']);
  });

  it('refuses the whole request when one id is not a device of the organization, naming it', async () => {
    for (const foreign of [id('bOne'), '00000000-0000-4000-8000-000000000000']) {
      const refused = await call('POST', bulk(tenants.orgA.id), rptA, {
        ids: [id('alpha'), foreign],
        action: 'addTags',
        tags: ['stolen'],
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().message).toContain(foreign);
    }
    expect((await stored(id('alpha')))?.tags).not.toContain('stolen');
    expect((await stored(id('bOne')))?.tags).toEqual(['water']);
    const deleted = await call('POST', bulk(tenants.orgA.id), rptA, { ids: [id('bOne')], action: 'delete' });
    expect(deleted.statusCode).toBe(404);
    expect(await stored(id('bOne'))).toBeDefined();
    // B's administrator cannot act in A, and A's devices are not found through B.
    expect(
      (await call('POST', bulk(tenants.orgA.id), rptB, { ids: [id('alpha')], action: 'delete' })).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', bulk(tenants.orgB.id), rptB, { ids: [id('alpha')], action: 'delete' })).statusCode,
    ).toBe(404);
    expect(await stored(id('alpha'))).toBeDefined();
  });

  it('checks the body and the permissions of each action', async () => {
    const url = bulk(tenants.orgA.id);
    const cases: [unknown, string][] = [
      [{ ids: [id('alpha')], action: 'addTags' }, 'tags'],
      [{ ids: [id('alpha')], action: 'setGroup' }, 'groupId'],
      [{ ids: [], action: 'delete' }, 'ids'],
      [{ ids: [id('alpha')], action: 'explode' }, 'action'],
      [{ ids: ['x'], action: 'delete' }, 'ids'],
      [{ ids: Array.from({ length: 1001 }, () => id('alpha')), action: 'delete' }, 'ids'],
      [{ ids: [id('alpha')], action: 'addTags', tags: [' '] }, 'tags'],
    ];
    for (const [body, field] of cases) {
      const refused = await call('POST', url, rptA, body);
      expect(refused.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(refused.json().message).toContain(field);
    }
    expect(
      (await call('POST', url, readerA, { ids: [id('alpha')], action: 'addTags', tags: ['x'] })).statusCode,
    ).toBe(403);
    // UPDATE devices is not DELETE devices, nor UPDATE devicegroups.
    expect((await call('POST', url, updaterA, { ids: [id('alpha')], action: 'delete' })).statusCode).toBe(
      403,
    );
    expect(
      (await call('POST', url, updaterA, { ids: [id('alpha')], action: 'setGroup', groupId: groupA }))
        .statusCode,
    ).toBe(403);
    expect(await stored(id('alpha'))).toBeDefined();
  });

  it('adds devices to a group of the organization only', async () => {
    const url = bulk(tenants.orgA.id);
    const foreign = await call('POST', url, rptA, {
      ids: [id('alpha')],
      action: 'setGroup',
      groupId: groupB,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain(groupB);
    const added = await call('POST', url, rptA, {
      ids: [id('alpha'), id('bravo')],
      action: 'setGroup',
      groupId: groupA,
    });
    expect(added.json()).toEqual({ action: 'setGroup', changed: 1, requested: 2 });
    const members = await server.database.db
      .select()
      .from(deviceGroupMembers)
      .where(eq(deviceGroupMembers.groupId, groupA));
    expect(members.map((member) => member.deviceId).sort()).toEqual([id('alpha'), id('bravo')].sort());
    expect(
      await server.database.db
        .select()
        .from(deviceGroupMembers)
        .where(eq(deviceGroupMembers.groupId, groupB)),
    ).toEqual([]);
  });

  it('deletes devices with their stored values and audits each', async () => {
    const { db } = server.database;
    await db.insert(telemetry).values({ deviceId: id('delta'), ts: new Date(), values: { '/t': 1 } });
    await db.insert(telemetry).values({ deviceId: id('bOne'), ts: new Date(), values: { '/t': 2 } });
    const deleted = await call('POST', bulk(tenants.orgA.id), rptA, { ids: [id('delta')], action: 'delete' });
    expect(deleted.json()).toEqual({ action: 'delete', changed: 1, requested: 1 });
    expect(await stored(id('delta'))).toBeUndefined();
    expect(
      await db
        .select()
        .from(telemetry)
        .where(eq(telemetry.deviceId, id('delta'))),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(telemetry)
        .where(eq(telemetry.deviceId, id('bOne'))),
    ).toHaveLength(1);
    const [record] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'devices.delete'), eq(auditLog.resourceId, id('delta'))));
    expect(record).toMatchObject({ organizationId: tenants.orgA.id, resourceName: 'delta' });
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/${id('delta')}`, rptA)).statusCode).toBe(404);
  });
});
