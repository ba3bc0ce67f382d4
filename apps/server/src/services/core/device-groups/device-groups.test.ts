import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, deviceGroupMembers, deviceGroups } from '../../../db/schema.ts';
import { createDevice } from '../devices/provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
const ids: Record<string, string> = {};

const groupsOf = (org: string) => `/svc/core/api/v1/organizations/${org}/deviceGroups`;

async function membersOf(groupId: string) {
  const rows = await server.database.db
    .select({ deviceId: deviceGroupMembers.deviceId })
    .from(deviceGroupMembers)
    .where(eq(deviceGroupMembers.groupId, groupId));
  return rows.map((row) => row.deviceId).sort();
}

async function auditCount(action: string, resourceId: string) {
  const rows = await server.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.resourceId, resourceId)));
  return rows.length;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  ids.press = (await createDevice(db, tenants.orgA.id, 'press-01', { tags: ['hall-1', 'hot'] })).id;
  ids.pump = (await createDevice(db, tenants.orgA.id, 'pump-02', { tags: ['hall-1', 'water'] })).id;
  ids.oven = (await createDevice(db, tenants.orgA.id, 'oven-03')).id;
  ids.bDevice = (await createDevice(db, tenants.orgB.id, 'b-gateway')).id;
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
    { rsname: 'devicegroups', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('device group CRUD', () => {
  it('creates, lists, reads, renames and audits; names are unique per organization', async () => {
    const created = await call('POST', groupsOf(tenants.orgA.id), rptA, {
      name: ' Hall 1 ',
      description: 'north',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Hall 1', description: 'north', deviceCount: 0 });
    ids.hall = created.json().id;
    expect(await auditCount('devicegroups.create', ids.hall ?? '')).toBe(1);

    const second = await call('POST', groupsOf(tenants.orgA.id), rptA, { name: 'Ovens' });
    ids.ovens = second.json().id;
    const taken = await call('POST', groupsOf(tenants.orgA.id), rptA, { name: 'Hall 1' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('Hall 1');
    // The same name in another organization is fine.
    const inB = await call('POST', groupsOf(tenants.orgB.id), rptB, { name: 'Hall 1' });
    expect(inB.statusCode).toBe(201);
    ids.bGroup = inB.json().id;

    const list = await call('GET', `${groupsOf(tenants.orgA.id)}?sort=name&order=desc`, readerA);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((g: { name: string }) => g.name)).toEqual(['Ovens', 'Hall 1']);
    expect(list.json().total).toBe(2);
    const searched = await call('GET', `${groupsOf(tenants.orgA.id)}?search=nor`, readerA);
    expect(searched.json().items.map((g: { id: string }) => g.id)).toEqual([ids.hall]);

    const renamed = await call('PUT', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, rptA, { name: 'Hall one' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().name).toBe('Hall one');
    expect(await auditCount('devicegroups.update', ids.hall ?? '')).toBe(1);
    const clash = await call('PUT', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, rptA, { name: 'Ovens' });
    expect(clash.statusCode).toBe(409);
    expect((await call('PUT', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, rptA, {})).statusCode).toBe(400);
    expect(
      (await call('PUT', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, rptA, { name: '   ' })).statusCode,
    ).toBe(400);
    const read = await call('GET', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, readerA);
    expect(read.json()).toMatchObject({ id: ids.hall, name: 'Hall one' });
  });

  it('refuses callers without the right and other tenants, changing nothing', async () => {
    expect((await call('POST', groupsOf(tenants.orgA.id), readerA, { name: 'x' })).statusCode).toBe(403);
    expect(
      (await call('PUT', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, readerA, { name: 'x' })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, readerA)).statusCode).toBe(403);
    // B's admin: in A's organization 403, A's group through B's organization 404.
    expect((await call('GET', groupsOf(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect((await call('GET', `${groupsOf(tenants.orgB.id)}/${ids.hall}`, rptB)).statusCode).toBe(404);
    expect(
      (await call('PUT', `${groupsOf(tenants.orgB.id)}/${ids.hall}`, rptB, { name: 'stolen' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `${groupsOf(tenants.orgB.id)}/${ids.hall}`, rptB)).statusCode).toBe(404);
    const [row] = await server.database.db
      .select()
      .from(deviceGroups)
      .where(eq(deviceGroups.id, ids.hall ?? ''));
    expect(row?.name).toBe('Hall one');
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/not-a-uuid`, rptA)).statusCode).toBe(400);
  });
});

describe('device group members', () => {
  it('adds and removes devices by comma-joined ids, pages members and audits', async () => {
    const added = await call(
      'POST',
      `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/${ids.press},${ids.pump}`,
      rptA,
    );
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ changed: 2, group: { deviceCount: 2 } });
    expect(await auditCount('devicegroups.addDevices', ids.hall ?? '')).toBe(1);
    // Adding again changes nothing and writes no record.
    const again = await call('POST', `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/${ids.press}`, rptA);
    expect(again.json().changed).toBe(0);
    expect(await auditCount('devicegroups.addDevices', ids.hall ?? '')).toBe(1);

    const page = await call('GET', `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices?pageSize=1`, readerA);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 2, pageSize: 1 });
    expect(page.json().items[0]).toMatchObject({
      label: 'press-01',
      tags: ['hall-1', 'hot'],
      status: 'OFFLINE',
    });
    const searched = await call(
      'GET',
      `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices?search=pump`,
      readerA,
    );
    expect(searched.json().items.map((d: { id: string }) => d.id)).toEqual([ids.pump]);

    const removed = await call(
      'DELETE',
      `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/${ids.pump}`,
      rptA,
    );
    expect(removed.json()).toMatchObject({ changed: 1, group: { deviceCount: 1 } });
    expect(await auditCount('devicegroups.removeDevices', ids.hall ?? '')).toBe(1);
    expect(await membersOf(ids.hall ?? '')).toEqual([ids.press]);
  });

  it("refuses another organization's device (404 naming it) and changes nothing", async () => {
    const mixed = await call(
      'POST',
      `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/${ids.oven},${ids.bDevice}`,
      rptA,
    );
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json().message).toContain(ids.bDevice);
    expect(await membersOf(ids.hall ?? '')).toEqual([ids.press]);
    // B's admin cannot put its device into A's group, nor A's device into its own group.
    expect(
      (await call('POST', `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/${ids.bDevice}`, rptB))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `${groupsOf(tenants.orgB.id)}/${ids.bGroup}/devices/${ids.press}`, rptB))
        .statusCode,
    ).toBe(404);
    expect(await membersOf(ids.bGroup ?? '')).toEqual([]);
    expect(
      (await call('DELETE', `${groupsOf(tenants.orgB.id)}/${ids.hall}/devices/${ids.press}`, rptB))
        .statusCode,
    ).toBe(404);
    expect(await membersOf(ids.hall ?? '')).toEqual([ids.press]);
    expect(
      (await call('POST', `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/nope`, rptA)).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${groupsOf(tenants.orgA.id)}/${ids.hall}/devices/${ids.press}`, readerA))
        .statusCode,
    ).toBe(403);
  });

  it('deletes a group and its memberships but keeps the devices', async () => {
    const deleted = await call('DELETE', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, rptA);
    expect(deleted.statusCode).toBe(204);
    expect(await membersOf(ids.hall ?? '')).toEqual([]);
    expect(await auditCount('devicegroups.delete', ids.hall ?? '')).toBe(1);
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/${ids.hall}`, rptA)).statusCode).toBe(404);
    const device = await call(
      'GET',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/devices/${ids.press}`,
      rptA,
    );
    expect(device.statusCode).toBe(200);
  });
});
