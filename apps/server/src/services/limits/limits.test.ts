import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { activatedDevice, testPreset } from '../../../test/support/devices.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import {
  auditLog,
  deviceIngestStats,
  deviceLicenses,
  devices,
  limitUsage,
  memberships,
  organizationLimits,
  telemetry,
  users,
} from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../core/organizations/provisioning.ts';
import { generateActivationKey } from '../license/keys.ts';
import { assertWithinLimit, consumeDaily } from './enforce.ts';
import { utcDay } from './store.ts';

const REALM = 'limits';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptA1: string;
let rptB: string;

const url = (organization: string) => `/svc/limits/api/v1/limits?organization=${organization}`;

async function storedLimits(organizationId: string) {
  const [row] = await server.database.db
    .select()
    .from(organizationLimits)
    .where(eq(organizationLimits.organizationId, organizationId));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  rptA = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptA1 = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA1.resourceId)).rpt;
  rptB = (await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

describe('GET /limits', () => {
  it('answers no limits and the current usage before any were created', async () => {
    const response = await call('GET', url(tenants.orgB.resourceId), rptB);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      organizationId: tenants.orgB.id,
      defined: false,
      limits: {
        devices: null,
        users: null,
        dashboards: null,
        dataPointsPerDay: null,
        notificationsPerDay: null,
        telemetryRetentionDays: null,
      },
      retention: { days: 365, defaultDays: 365, maxDays: 3650, rollupDays: 1825 },
      usage: { devices: 0, users: 1, dashboards: 0, dataPointsPerDay: 0, notificationsPerDay: 0 },
      updatedAt: null,
    });
  });

  it("refuses another organization's administrator", async () => {
    expect((await call('GET', url(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect((await call('GET', url('no-such-org'), rptB)).statusCode).toBe(404);
  });
});

describe('POST and PUT /limits', () => {
  it("refuses a body without any value with 'undefined limits'", async () => {
    for (const method of ['POST', 'PUT'] as const) {
      const response = await call(method, url(tenants.orgA.id), rptA, {});
      expect(response.statusCode).toBe(400);
      expect(response.json().message).toBe('undefined limits');
    }
    expect(await storedLimits(tenants.orgA.id)).toBeUndefined();
  });

  it('lets a top-level organization set its own, once with POST, then replaced with PUT; audited', async () => {
    const created = await call('POST', url(tenants.orgA.id), rptA, { devices: 10, users: null });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      organizationId: tenants.orgA.id,
      defined: true,
      limits: {
        devices: 10,
        users: null,
        dashboards: null,
        dataPointsPerDay: null,
        notificationsPerDay: null,
      },
      usage: { users: 1 },
    });
    const again = await call('POST', url(tenants.orgA.id), rptA, { devices: 5 });
    expect(again.statusCode).toBe(409);
    expect((await storedLimits(tenants.orgA.id))?.limits).toEqual({ devices: 10, users: null });

    const replaced = await call('PUT', url(tenants.orgA.resourceId), rptA, { dashboards: 3 });
    expect(replaced.statusCode).toBe(200);
    expect(replaced.json().limits).toEqual({
      devices: null,
      users: null,
      dashboards: 3,
      dataPointsPerDay: null,
      notificationsPerDay: null,
      telemetryRetentionDays: null,
    });
    const read = await call('GET', url(tenants.orgA.id), rptA);
    expect(read.json()).toMatchObject({ defined: true, limits: { dashboards: 3, devices: null } });
    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.organizationId, tenants.orgA.id), eq(auditLog.resourceId, tenants.orgA.id)));
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(['limits.create', 'limits.update']),
    );
  });

  it('keeps a retention of raw values from one day to the server maximum; refuses others and changes nothing', async () => {
    const set = await call('PUT', url(tenants.orgA.id), rptA, { dashboards: 3, telemetryRetentionDays: 30 });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toMatchObject({
      limits: { dashboards: 3, telemetryRetentionDays: 30 },
      retention: { days: 30, defaultDays: 365, maxDays: 3650 },
    });
    const refusals: [unknown, RegExp][] = [
      [0, /telemetryRetentionDays must be >= 1/],
      [-3, /telemetryRetentionDays must be >= 1/],
      [1.5, /telemetryRetentionDays must be integer/],
      [3651, /telemetryRetentionDays must be at most 3650 days/],
    ];
    for (const [days, message] of refusals) {
      for (const method of ['POST', 'PUT'] as const) {
        const refused = await call(method, url(tenants.orgA.id), rptA, {
          dashboards: 3,
          telemetryRetentionDays: days,
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().message).toMatch(message);
      }
    }
    expect((await storedLimits(tenants.orgA.id))?.limits).toEqual({
      dashboards: 3,
      telemetryRetentionDays: 30,
    });
    const back = await call('PUT', url(tenants.orgA.id), rptA, {
      dashboards: 3,
      telemetryRetentionDays: null,
    });
    expect(back.json().retention.days).toBe(365);
    await call('PUT', url(tenants.orgA.id), rptA, { dashboards: 3 });
  });

  it("refuses another organization's administrator and changes nothing", async () => {
    for (const method of ['POST', 'PUT'] as const) {
      expect((await call(method, url(tenants.orgA.id), rptB, { devices: 1 })).statusCode).toBe(403);
      expect((await call(method, url(tenants.orgA1.id), rptB, { devices: 1 })).statusCode).toBe(403);
    }
    expect((await storedLimits(tenants.orgA.id))?.limits).toEqual({ dashboards: 3 });
    expect(await storedLimits(tenants.orgA1.id)).toBeUndefined();
  });

  it("sets a sub-organization's limits from its parent, never from inside", async () => {
    const { db } = server.database;
    // A1's own administrator (a member of A1 only) holds UPDATE organizations there, but not from above.
    const rolesA1 = await addDefaultRoles(db, tenants.orgA1.id);
    const inside = await createUser(db, {
      realm: REALM,
      email: 'admin@limits-a1.test',
      password: 'correct horse battery',
    });
    await addMember(db, tenants.orgA1.id, inside.id, [rolesA1.administrator.id]);
    const insideRpt = (await rptFor(server, REALM, inside.email, tenants.orgA1.resourceId)).rpt;
    const refused = await call('POST', url(tenants.orgA1.id), insideRpt, { devices: 100 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe("an organization's limits are set from an organization above it");
    expect((await call('GET', url(tenants.orgA1.id), insideRpt)).statusCode).toBe(200);
    expect(await storedLimits(tenants.orgA1.id)).toBeUndefined();

    // A's token is for A: it does not reach A1; A's administrator with a token for A1 (inherited) may.
    expect((await call('POST', url(tenants.orgA1.id), rptA, { devices: 1 })).statusCode).toBe(403);
    const created = await call('POST', url(tenants.orgA1.id), rptA1, { devices: 1, users: 2 });
    expect(created.statusCode).toBe(201);
    expect(created.json().usage).toMatchObject({ devices: 0, users: 1 });
  });
});

describe('enforcement', () => {
  it('refuses a device activation over the devices limit, creating nothing', async () => {
    const { db } = server.database;
    const keys = [generateActivationKey(), generateActivationKey()];
    await db
      .insert(deviceLicenses)
      .values(keys.map((activationKey) => ({ organizationId: tenants.orgA1.id, activationKey })));
    const activate = (activationKey: string, label: string) =>
      call('POST', `/svc/license/api/v1/organizations/${tenants.orgA1.id}/deviceLicenses/activate`, rptA1, {
        activationKey,
        label,
      });
    expect((await activate(keys[0] ?? '', 'first')).statusCode).toBe(201);
    const refused = await activate(keys[1] ?? '', 'second');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('organization limit reached: devices (1)');
    const rows = await db.select().from(devices).where(eq(devices.organizationId, tenants.orgA1.id));
    expect(rows.map((row) => row.label)).toEqual(['first']);
    const [licence] = await db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.activationKey, keys[1] ?? ''));
    expect(licence?.status).toBe('AVAILABLE');
    expect(licence?.deviceId).toBeNull();
    await expect(assertWithinLimit(db, tenants.orgA1.id, 'devices')).rejects.toThrow(
      'organization limit reached: devices (1)',
    );
  });

  it('refuses to move a device into an organization at its devices limit', async () => {
    const { db } = server.database;
    const device = await createDevice(db, tenants.orgA.id, 'mover');
    const token = await call('POST', `/svc/core/api/v1/organizations/${tenants.orgA1.id}/importToken`, rptA1);
    expect(token.statusCode).toBe(200);
    const moved = await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/devices/${device.id}/move`,
      rptA,
      { organizationImportToken: token.json().token },
    );
    expect(moved.statusCode).toBe(409);
    expect(moved.json().message).toBe('organization limit reached: devices (1)');
    const [row] = await db.select().from(devices).where(eq(devices.id, device.id));
    expect(row?.organizationId).toBe(tenants.orgA.id);
  });

  it('refuses an invitation over the users limit, creating no account', async () => {
    const { db } = server.database;
    const invite = (email: string) =>
      call('POST', `/svc/core/api/v1/organizations/${tenants.orgA1.id}/users`, rptA1, { email });
    // A1 has its own administrator: one member of two.
    expect((await invite('second@limits.test')).statusCode).toBe(201);
    const refused = await invite('third@limits.test');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('organization limit reached: users (2)');
    expect(await db.select().from(users).where(eq(users.email, 'third@limits.test'))).toEqual([]);
    expect(
      await db.select().from(memberships).where(eq(memberships.organizationId, tenants.orgA1.id)),
    ).toHaveLength(2);
    const usage = (await call('GET', url(tenants.orgA1.id), rptA1)).json().usage;
    expect(usage).toMatchObject({ devices: 1, users: 2 });
  });

  it('uses up notifications per day atomically and shows them as usage', async () => {
    const { db } = server.database;
    expect((await call('PUT', url(tenants.orgA1.id), rptA1, { notificationsPerDay: 3 })).statusCode).toBe(
      200,
    );
    expect(await consumeDaily(db, tenants.orgA1.id, 'notificationsPerDay', 2)).toBe(true);
    expect(await consumeDaily(db, tenants.orgA1.id, 'notificationsPerDay', 2)).toBe(false);
    expect(await consumeDaily(db, tenants.orgA1.id, 'notificationsPerDay', 1)).toBe(true);
    expect(await consumeDaily(db, tenants.orgA1.id, 'notificationsPerDay', 1)).toBe(false);
    const results = await Promise.all(
      [1, 2, 3].map(() => consumeDaily(db, tenants.orgA.id, 'notificationsPerDay', 1)),
    );
    expect(results).toEqual([true, true, true]); // A has no notifications limit
    const usage = (await call('GET', url(tenants.orgA1.id), rptA1)).json().usage;
    expect(usage.notificationsPerDay).toBe(3);
  });
});

describe('data points per day in ingest', () => {
  it('stores messages under the limit and refuses, and counts, the ones over it', async () => {
    const { db } = server.database;
    const orgC = await createOrganization(db, { realm: REALM, name: 'Org C', resourceId: 'limits-c' });
    const rolesC = await addDefaultRoles(db, orgC.id);
    const adminC = await createUser(db, {
      realm: REALM,
      email: 'admin@limits-c.test',
      password: 'correct horse battery',
    });
    await addMember(db, orgC.id, adminC.id, [rolesC.administrator.id]);
    const rptC = (await rptFor(server, REALM, adminC.email, orgC.resourceId)).rpt;
    expect((await call('POST', url(orgC.id), rptC, { dataPointsPerDay: 3 })).statusCode).toBe(201);
    const preset = await testPreset(server, orgC.id);
    const device = await activatedDevice(server, orgC.id, 'Metered', preset.id);
    const port = await server.app.ingest.listen(0, '127.0.0.1');
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.password,
      reconnectPeriod: 0,
    });
    const publish = (values: Record<string, unknown>) =>
      client.publishAsync(`devices/${device.deviceId}/data`, JSON.stringify({ values }), { qos: 1 });
    await publish({ LineSpeed: 1, Running: true });
    await publish({ LineSpeed: 2, Running: false }); // 4 > 3: refused
    await publish({ LineSpeed: 3 }); // 3: fits
    await client.endAsync();
    const rows = await db.select().from(telemetry).where(eq(telemetry.deviceId, device.deviceId));
    expect(rows.map((row) => row.values['/line/speed']).sort()).toEqual([1, 3]);
    expect(server.app.ingest.pipeline.meter.refusedToday(orgC.id)).toBe(1);
    await server.app.ingest.flush();
    const [stats] = await db
      .select()
      .from(deviceIngestStats)
      .where(eq(deviceIngestStats.deviceId, device.deviceId));
    expect(stats?.accepted).toBe(2);
    expect(stats?.lastError).toContain('organization limit reached: dataPointsPerDay (3)');
    const [usage] = await db
      .select()
      .from(limitUsage)
      .where(and(eq(limitUsage.organizationId, orgC.id), eq(limitUsage.day, utcDay())));
    expect(usage?.dataPoints).toBe(3);
    expect((await call('GET', url(orgC.id), rptC)).json().usage.dataPointsPerDay).toBe(3);

    // Raising the limit applies at once.
    expect((await call('PUT', url(orgC.id), rptC, { dataPointsPerDay: null })).statusCode).toBe(200);
    const again = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.password,
      reconnectPeriod: 0,
    });
    await again.publishAsync(
      `devices/${device.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: 4, Running: true } }),
      { qos: 1 },
    );
    await again.endAsync();
    expect(await db.select().from(telemetry).where(eq(telemetry.deviceId, device.deviceId))).toHaveLength(3);
  });
});
