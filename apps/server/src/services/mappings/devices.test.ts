import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import {
  auditLog,
  deviceLicenses,
  deviceStatusHistory,
  devices,
  latestValues,
  organizations,
  telemetry,
} from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../core/organizations/provisioning.ts';
import { seedDemoModel } from './demo.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const rpt: Record<string, string> = {};
const ids = { press: '', pump: '', oven: '', cDevice: '' };
let orgC: { id: string; resourceId: string };
let presetA: string;
let presetC: string;

const api = (org: string) => `/svc/mappings/api/v1/organizations/${org}`;

async function stored(id: string) {
  const [row] = await server.database.db.select().from(devices).where(eq(devices.id, id));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const c = await createOrganization(db, { realm: 'acme', name: 'Org C', resourceId: 'acme-c' });
  orgC = c;
  const rolesC = await addDefaultRoles(db, c.id);
  const adminC = await createUser(db, { realm: 'acme', email: 'admin@acme-c.test', password: PASSWORD });
  await addMember(db, c.id, adminC.id, [rolesC.administrator.id]);
  presetA = (await seedDemoModel(db, tenants.orgA.id)).presetId;
  presetC = (await seedDemoModel(db, c.id)).presetId;
  ids.press = (
    await createDevice(db, tenants.orgA.id, 'press-01', {
      alias: 'Big press',
      serialNumber: 'SN-1',
      tags: ['hall-1', 'line'],
      status: 'ONLINE',
    })
  ).id;
  ids.pump = (
    await createDevice(db, tenants.orgA.id, 'pump-02', { serialNumber: 'SN-2', tags: ['hall-1'] })
  ).id;
  ids.oven = (
    await createDevice(db, tenants.orgA.id, 'oven-03', { alias: 'Hot one', serialNumber: 'X-3' })
  ).id;
  ids.cDevice = (await createDevice(db, c.id, 'c-gateway', { alias: 'Hot one' })).id;
  await db.update(devices).set({ presetId: presetA }).where(eq(devices.id, ids.press));
  await db.update(devices).set({ presetId: presetC }).where(eq(devices.id, ids.cDevice));
  rpt.A = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rpt.C = (await rptFor(server, 'acme', adminC.email, c.resourceId)).rpt;
  const operator = await userWithRole(server, 'acme', tenants.orgA.id, 'operator@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  rpt.operator = (await rptFor(server, 'acme', operator.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('listing and searching devices', () => {
  it('pages devices with their preset name', async () => {
    const response = await call('GET', `${api(tenants.orgA.id)}/devices?sort=label`, rpt.operator);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ total: 3, page: 0 });
    expect(page.items.map((d: { label: string }) => d.label)).toEqual(['oven-03', 'press-01', 'pump-02']);
    expect(page.items[1]).toMatchObject({
      id: ids.press,
      presetId: presetA,
      presetName: 'Packaging line PLC',
      tags: ['hall-1', 'line'],
      status: 'ONLINE',
      configuration: {},
      latitude: null,
      lastSeenAt: null,
    });
    expect(page.items[0].presetName).toBeNull();
    const searched = (await call('GET', `${api(tenants.orgA.id)}/devices?search=hot`, rpt.operator)).json();
    expect(searched.items.map((d: { id: string }) => d.id)).toEqual([ids.oven]);
    expect((await call('GET', `${api(tenants.orgA.id)}/devices?sort=secret`, rpt.operator)).statusCode).toBe(
      400,
    );
  });

  it('searches by text, preset (null: none), status and labelling tags', async () => {
    const search = async (body: Record<string, unknown>) => {
      const response = await call('POST', `${api(tenants.orgA.id)}/devices/search`, rpt.operator, body);
      expect(response.statusCode).toBe(200);
      return response.json().items.map((d: { label: string }) => d.label);
    };
    expect(await search({ text: 'sn-' })).toEqual(['press-01', 'pump-02']);
    expect(await search({ presetId: presetA })).toEqual(['press-01']);
    expect(await search({ presetId: null })).toEqual(['oven-03', 'pump-02']);
    expect(await search({ status: 'OFFLINE' })).toEqual(['oven-03', 'pump-02']);
    expect(await search({ tags: ['hall-1'] })).toEqual(['press-01', 'pump-02']);
    expect(await search({ tags: ['hall-1', 'line'], status: 'ONLINE' })).toEqual(['press-01']);
    expect(await search({ sort: 'label', order: 'desc', pageSize: 1 })).toEqual(['pump-02']);
    // C's preset finds nothing in A; bad bodies are refused.
    expect(await search({ presetId: presetC })).toEqual([]);
    for (const body of [{ status: 'BROKEN' }, { presetId: 'x' }, { extra: true }, { pageSize: 5000 }]) {
      expect(
        (await call('POST', `${api(tenants.orgA.id)}/devices/search`, rpt.operator, body)).statusCode,
      ).toBe(400);
    }
  });

  it("reads a device only in its own organization; another tenant's admin gets 403/404", async () => {
    const one = await call('GET', `${api(tenants.orgA.id)}/devices/${ids.press}`, rpt.operator);
    expect(one.json()).toMatchObject({ label: 'press-01', presetName: 'Packaging line PLC' });
    expect((await call('GET', `${api(orgC.id)}/devices/${ids.press}`, rpt.C)).statusCode).toBe(404);
    expect((await call('GET', `${api(tenants.orgA.id)}/devices/${ids.press}`, rpt.C)).statusCode).toBe(403);
    expect((await call('GET', `${api(tenants.orgA.id)}/devices`, rpt.C)).statusCode).toBe(403);
    const theirs = (await call('GET', `${api(orgC.id)}/devices`, rpt.C)).json();
    expect(theirs.items.map((d: { id: string }) => d.id)).toEqual([ids.cDevice]);
  });
});

describe('PUT /devices/{id}: the preset of a device', () => {
  it('binds a preset of the organization, and null takes it away, recording both', async () => {
    const bound = await call('PUT', `${api(tenants.orgA.id)}/devices/${ids.pump}`, rpt.A, {
      presetId: presetA,
    });
    expect(bound.statusCode).toBe(200);
    expect(bound.json()).toMatchObject({ presetId: presetA, presetName: 'Packaging line PLC' });
    expect((await stored(ids.pump))?.presetId).toBe(presetA);
    const unbound = await call('PUT', `${api(tenants.orgA.id)}/devices/${ids.pump}`, rpt.A, {
      presetId: null,
    });
    expect(unbound.json()).toMatchObject({ presetId: null, presetName: null });
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, ids.pump));
    expect(audit.map((entry) => entry.action)).toEqual(['devices.preset', 'devices.preset']);
    expect(audit[1]?.detail).toMatchObject({ presetId: null, before: { presetId: presetA } });
  });

  it("refuses another organization's preset, a reader, and another tenant; nothing changes", async () => {
    const foreign = await call('PUT', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, {
      presetId: presetC,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain('presetId');
    expect(
      (await call('PUT', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.operator, { presetId: presetA }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `${api(orgC.id)}/devices/${ids.oven}`, rpt.C, { presetId: presetC })).statusCode,
    ).toBe(404);
    expect((await call('PUT', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, {})).statusCode).toBe(
      400,
    );
    expect((await stored(ids.oven))?.presetId).toBeNull();
  });
});

describe('PATCH /devices/{id}', () => {
  it('changes label, alias, description and configuration and records the change', async () => {
    const response = await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, {
      label: ' oven-03b ',
      alias: 'Oven',
      description: 'bakery',
      configuration: { publishIntervalMs: 500, channels: [1, 2] },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      label: 'oven-03b',
      alias: 'Oven',
      description: 'bakery',
      configuration: { publishIntervalMs: 500, channels: [1, 2] },
    });
    const [entry] = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, ids.oven));
    expect(entry).toMatchObject({ action: 'devices.update', resourceName: 'oven-03b' });
    expect(entry?.detail).toMatchObject({ before: { label: 'oven-03', alias: 'Hot one' } });
  });

  it('refuses a label or alias another device has (409), blank labels and strangers', async () => {
    const label = await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, {
      label: 'pump-02',
    });
    expect(label.statusCode).toBe(409);
    expect(label.json().message).toContain('label');
    const alias = await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, {
      alias: 'Big press',
    });
    expect(alias.statusCode).toBe(409);
    expect(alias.json().message).toContain('alias');
    // The same alias in another organization is no clash.
    expect(
      (await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, { alias: 'Hot one' }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, { label: '  ' })).statusCode,
    ).toBe(400);
    expect((await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.A, {})).statusCode).toBe(
      400,
    );
    expect(
      (await call('PATCH', `${api(tenants.orgA.id)}/devices/${ids.oven}`, rpt.operator, { description: 'x' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `${api(orgC.id)}/devices/${ids.oven}`, rpt.C, { description: 'x' })).statusCode,
    ).toBe(404);
    expect(await stored(ids.oven)).toMatchObject({
      label: 'oven-03b',
      alias: 'Hot one',
      description: 'bakery',
    });
  });
});

describe('DELETE /devices/{id}', () => {
  it('deletes the device with its stored values and history; its licence stays, unbound', async () => {
    const { db } = server.database;
    await db.insert(telemetry).values([
      { deviceId: ids.pump, ts: new Date(), values: { '/line/speed': 10 } },
      { deviceId: ids.press, ts: new Date(), values: { '/line/speed': 12 } },
    ]);
    await db
      .insert(latestValues)
      .values({ deviceId: ids.pump, path: '/line/speed', value: 10, ts: new Date() });
    await db.insert(deviceStatusHistory).values({ deviceId: ids.pump, status: 'ONLINE' });
    const [licence] = await db
      .insert(deviceLicenses)
      .values({
        organizationId: tenants.orgA.id,
        activationKey: 'KEY-PUMP',
        deviceId: ids.pump,
        status: 'ACTIVE',
      })
      .returning();

    expect((await call('DELETE', `${api(orgC.id)}/devices/${ids.pump}`, rpt.C)).statusCode).toBe(404);
    expect(
      (await call('DELETE', `${api(tenants.orgA.id)}/devices/${ids.pump}`, rpt.operator)).statusCode,
    ).toBe(403);
    expect(await stored(ids.pump)).toBeDefined();

    const response = await call('DELETE', `${api(tenants.orgA.id)}/devices/${ids.pump}`, rpt.A);
    expect(response.statusCode).toBe(204);
    expect(await stored(ids.pump)).toBeUndefined();
    expect(await db.select().from(telemetry).where(eq(telemetry.deviceId, ids.pump))).toEqual([]);
    expect(await db.select().from(telemetry).where(eq(telemetry.deviceId, ids.press))).toHaveLength(1);
    expect(await db.select().from(latestValues).where(eq(latestValues.deviceId, ids.pump))).toEqual([]);
    expect(
      await db.select().from(deviceStatusHistory).where(eq(deviceStatusHistory.deviceId, ids.pump)),
    ).toEqual([]);
    const [kept] = await db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.id, licence?.id ?? ''));
    expect(kept?.deviceId).toBeNull();
    expect((await call('GET', `${api(tenants.orgA.id)}/devices/${ids.pump}`, rpt.A)).statusCode).toBe(404);
    const audit = await db.select().from(auditLog).where(eq(auditLog.resourceId, ids.pump));
    expect(audit.find((entry) => entry.action === 'devices.delete')).toMatchObject({
      resourceName: 'pump-02',
    });
  });

  it('an organization with devices still cannot be deleted; once they are gone it can, models and presets too', async () => {
    const { db } = server.database;
    const d = await createOrganization(db, { realm: 'acme', name: 'Org D', resourceId: 'acme-d' });
    const rolesD = await addDefaultRoles(db, d.id);
    const adminD = await createUser(db, { realm: 'acme', email: 'admin@acme-d.test', password: PASSWORD });
    await addMember(db, d.id, adminD.id, [rolesD.administrator.id]);
    const { presetId } = await seedDemoModel(db, d.id);
    const device = await createDevice(db, d.id, 'd-device');
    await db.update(devices).set({ presetId }).where(eq(devices.id, device.id));
    const token = (await rptFor(server, 'acme', adminD.email, d.resourceId)).rpt;
    const refused = await call('DELETE', `/svc/core/api/v1/organizations/${d.id}`, token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('1 device');
    expect((await call('DELETE', `${api(d.id)}/devices/${device.id}`, token)).statusCode).toBe(204);
    const deleted = await call('DELETE', `/svc/core/api/v1/organizations/${d.id}`, token);
    expect(deleted.statusCode).toBe(204);
    expect(await db.select().from(organizations).where(eq(organizations.id, d.id))).toEqual([]);
  });
});
