import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import {
  auditLog,
  deviceCredentials,
  deviceLicenses,
  devices,
  models,
  modelVersions,
  presets,
} from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import { seedDemoLicenses } from './demo.ts';
import { verifyDeviceSecret } from './device-credentials.ts';
import { brokerUrls } from './edge-config.ts';
import { generateActivationKey, maskActivationKey } from './keys.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
let keysA: string[];
let keysB: string[];
let presetA: string;
let presetB: string;

const licensesOf = (org: string) => `/svc/license/api/v1/organizations/${org}/deviceLicenses`;

async function licenceByKey(key: string) {
  const [row] = await server.database.db
    .select()
    .from(deviceLicenses)
    .where(eq(deviceLicenses.activationKey, key));
  return row;
}

async function deviceCount(organizationId: string) {
  return (await server.database.db.select().from(devices).where(eq(devices.organizationId, organizationId)))
    .length;
}

async function insertPreset(organizationId: string, name: string) {
  const { db } = server.database;
  const [model] = await db
    .insert(models)
    .values({ organizationId, name: `${name} model` })
    .returning();
  if (!model) throw new Error('no model');
  await db.insert(modelVersions).values({
    modelId: model.id,
    version: 1,
    paths: [
      { path: '/motor/speed', type: 'number', unit: 'rpm' },
      { path: '/motor/on', type: 'boolean', writable: true },
    ],
  });
  const [preset] = await db
    .insert(presets)
    .values({
      organizationId,
      name,
      modelId: model.id,
      modelVersion: 1,
      mappings: [
        { tag: 'spd', path: '/motor/speed' },
        { tag: 'run', path: '/motor/on' },
      ],
      deviceConfiguration: { sampleMs: 1000, network: { dhcp: true } },
    })
    .returning();
  if (!preset) throw new Error('no preset');
  return preset.id;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  keysA = await seedDemoLicenses(db, tenants.orgA.id, 5);
  keysB = await seedDemoLicenses(db, tenants.orgB.id, 2);
  presetA = await insertPreset(tenants.orgA.id, 'Motor');
  presetB = await insertPreset(tenants.orgB.id, 'B motor');
  await createDevice(db, tenants.orgA.id, 'taken-label');
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('activation keys', () => {
  it('are EP-XXXX-XXXX-XXXX of an unambiguous alphabet, and mask all but the last 4 characters', () => {
    const seen = new Set<string>();
    for (let index = 0; index < 200; index += 1) {
      const key = generateActivationKey();
      expect(key).toMatch(/^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$/);
      seen.add(key);
    }
    expect(seen.size).toBe(200);
    expect(maskActivationKey('EP-7KQM-3XRT-W9HC')).toBe('**-****-****-W9HC');
  });
});

describe('broker addresses', () => {
  const base = {
    publicScheme: 'http',
    publicPort: 8080,
    baseDomain: 'example.test',
    mqttPort: 1883,
  } as const;
  it('point at the embedded broker, its WebSocket, or an external broker without its credentials', () => {
    expect(brokerUrls({ ...base, mqttUrl: undefined })).toEqual({
      mqttUrl: 'mqtt://example.test:1883',
      mqttWebSocketUrl: 'ws://example.test:8080/mqtt',
    });
    expect(brokerUrls({ ...base, publicScheme: 'https', publicPort: 443, mqttUrl: undefined })).toEqual({
      mqttUrl: 'mqtt://example.test:1883',
      mqttWebSocketUrl: 'wss://example.test/mqtt',
    });
    expect(brokerUrls({ ...base, mqttPort: 0, mqttUrl: undefined }).mqttUrl).toBe(
      'ws://example.test:8080/mqtt',
    );
    expect(
      brokerUrls({ ...base, mqttUrl: 'mqtts://consumer:hunter2@broker.example.test:8883' }).mqttUrl,
    ).toBe('mqtts://broker.example.test:8883');
  });
});

describe('GET deviceLicenses and deviceLicenses/device', () => {
  it('lists the organization’s licences, masking keys for a caller who may not CREATE devices', async () => {
    const asAdmin = await call('GET', licensesOf(tenants.orgA.id), rptA);
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().total).toBe(5);
    expect(
      asAdmin
        .json()
        .items.map((l: { activationKey: string }) => l.activationKey)
        .sort(),
    ).toEqual([...keysA].sort());
    const asReader = await call('GET', licensesOf(tenants.orgA.id), readerA);
    expect(asReader.statusCode).toBe(200);
    for (const item of asReader.json().items as { activationKey: string; status: string }[]) {
      expect(item.activationKey).toMatch(/^\*\*-\*\*\*\*-\*\*\*\*-[2-9A-Z]{4}$/);
      expect(item.status).toBe('AVAILABLE');
    }
    // The reader cannot search masked keys character by character.
    const probe = await call(
      'GET',
      `${licensesOf(tenants.orgA.id)}?search=${keysA[0]?.slice(0, 5)}`,
      readerA,
    );
    expect(probe.json().total).toBe(0);
    const found = await call('GET', `${licensesOf(tenants.orgA.id)}?search=${keysA[0]}`, rptA);
    expect(found.json().total).toBe(1);
    expect((await call('GET', licensesOf(tenants.orgA.id), rptB)).statusCode).toBe(403);
  });

  it('looks a key up in the organization; unknown and foreign keys answer the same 404', async () => {
    const key = keysA[0] ?? '';
    const own = await call(
      'GET',
      `${licensesOf(tenants.orgA.id)}/device?activationKey=${key.toLowerCase()}`,
      readerA,
    );
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ activationKey: key, status: 'AVAILABLE', device: null, vpn: false });
    const unknown = await call(
      'GET',
      `${licensesOf(tenants.orgA.id)}/device?activationKey=EP-2222-3333-4444`,
      rptA,
    );
    const foreign = await call(
      'GET',
      `${licensesOf(tenants.orgA.id)}/device?activationKey=${keysB[0]}`,
      rptA,
    );
    expect(unknown.statusCode).toBe(404);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    expect(foreign.json().message).toBe('activation key not found');
    // B's admin cannot look up A's key through A's organization.
    expect(
      (await call('GET', `${licensesOf(tenants.orgA.id)}/device?activationKey=${key}`, rptB)).statusCode,
    ).toBe(403);
  });
});

describe('POST deviceLicenses/activate', () => {
  it('creates the device with preset and credentials, activates the licence for a year, in one go', async () => {
    const key = keysA[1] ?? '';
    const response = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: key,
      label: ' line-1-press ',
      presetId: presetA,
      serialNumber: 'SN-77',
      description: 'the big one',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.device).toMatchObject({
      label: 'line-1-press',
      serialNumber: 'SN-77',
      description: 'the big one',
      presetId: presetA,
      organizationId: tenants.orgA.id,
    });
    const deviceId = body.device.id as string;
    expect(body.credentials).toMatchObject({
      username: deviceId,
      mqttUrl: 'mqtt://localhost:1883',
      mqttWebSocketUrl: 'ws://localhost:8080/mqtt',
    });
    expect(body.credentials.password).toMatch(/^eps_[A-Za-z0-9_-]{43}$/);
    expect(body.license).toMatchObject({ status: 'ACTIVE', device: { id: deviceId, label: 'line-1-press' } });
    const year = new Date(body.license.expiresAt).getTime() - new Date(body.license.activatedAt).getTime();
    expect(year).toBe(365 * 24 * 3600 * 1000);
    expect(body.edgeConfiguration).toMatchObject({
      device: { id: deviceId, label: 'line-1-press' },
      mqtt: { clientId: deviceId, username: deviceId, url: 'mqtt://localhost:1883' },
      topics: { data: `devices/${deviceId}/data`, setpoints: `devices/${deviceId}/setpoints` },
      preset: { id: presetA, name: 'Motor' },
      dataTags: [
        { tag: 'spd', path: '/motor/speed', type: 'number', unit: 'rpm', writable: false },
        { tag: 'run', path: '/motor/on', type: 'boolean', unit: null, writable: true },
      ],
      configuration: { sampleMs: 1000, network: { dhcp: true } },
    });
    expect(JSON.stringify(body.edgeConfiguration)).not.toContain(body.credentials.password);

    // Stored: the device bound to the preset, the licence ACTIVE, only the secret's hash.
    const [device] = await server.database.db.select().from(devices).where(eq(devices.id, deviceId));
    expect(device?.presetId).toBe(presetA);
    const licence = await licenceByKey(key);
    expect(licence).toMatchObject({ status: 'ACTIVE', deviceId });
    const [credential] = await server.database.db
      .select()
      .from(deviceCredentials)
      .where(eq(deviceCredentials.deviceId, deviceId));
    expect(credential?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(credential?.secretHash).not.toContain(body.credentials.password);
    expect(await verifyDeviceSecret(server.database.db, deviceId, body.credentials.password)).toEqual({
      deviceId,
      organizationId: tenants.orgA.id,
    });
    expect(
      await verifyDeviceSecret(server.database.db, deviceId, `${body.credentials.password}x`),
    ).toBeUndefined();
    expect(await verifyDeviceSecret(server.database.db, 'nobody', body.credentials.password)).toBeUndefined();

    const records = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'deviceLicenses.activate'), eq(auditLog.resourceId, licence?.id ?? '')));
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records[0])).not.toContain(body.credentials.password);
    expect(JSON.stringify(records[0])).not.toContain(key);

    // The key lookup now shows the device; activating it again is refused.
    const lookup = await call('GET', `${licensesOf(tenants.orgA.id)}/device?activationKey=${key}`, rptA);
    expect(lookup.json()).toMatchObject({
      status: 'ACTIVE',
      device: { id: deviceId, label: 'line-1-press' },
    });
    const again = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: key,
      label: 'another',
    });
    expect(again.statusCode).toBe(409);
  });

  it('refuses unknown and foreign keys (404), taken labels and foreign presets, changing nothing', async () => {
    const before = await deviceCount(tenants.orgA.id);
    const unknown = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: 'EP-2222-3333-4444',
      label: 'x1',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('activation key not found');
    const foreign = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: keysB[0],
      label: 'x2',
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toBe(unknown.body);
    const key = keysA[2] ?? '';
    const taken = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: key,
      label: 'taken-label',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('taken-label');
    const foreignPreset = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: key,
      label: 'x3',
      presetId: presetB,
    });
    expect(foreignPreset.statusCode).toBe(404);
    expect(foreignPreset.json().message).toContain('presetId');
    expect(
      (
        await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
          activationKey: key,
          label: '  ',
        })
      ).statusCode,
    ).toBe(400);
    expect(
      (
        await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
          activationKey: key,
          label: 'x',
          extra: 1,
        })
      ).statusCode,
    ).toBe(400);
    // Callers without CREATE devices, and B's admin, are refused.
    expect(
      (
        await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, readerA, {
          activationKey: key,
          label: 'x4',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptB, {
          activationKey: key,
          label: 'x5',
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', `${licensesOf(tenants.orgB.id)}/activate`, rptB, {
          activationKey: key,
          label: 'x6',
        })
      ).statusCode,
    ).toBe(404);
    expect(await deviceCount(tenants.orgA.id)).toBe(before);
    expect(await deviceCount(tenants.orgB.id)).toBe(0);
    expect((await licenceByKey(key))?.status).toBe('AVAILABLE');
  });

  it('refuses an expired licence and a VPN licence through the plain call (409)', async () => {
    const { db } = server.database;
    const expiredKey = keysA[3] ?? '';
    await db
      .update(deviceLicenses)
      .set({ status: 'EXPIRED' })
      .where(eq(deviceLicenses.activationKey, expiredKey));
    const expired = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: expiredKey,
      label: 'late',
    });
    expect(expired.statusCode).toBe(409);
    expect(expired.json().message).toContain('expired');
    const [vpnKey] = await seedDemoLicenses(db, tenants.orgA.id, 1, { vpn: true });
    const plain = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: vpnKey,
      label: 'vpn-box',
    });
    expect(plain.statusCode).toBe(409);
    const viaVpn = await call('POST', `${licensesOf(tenants.orgA.id)}/vpn/activate`, rptA, {
      activationKey: vpnKey,
      label: 'vpn-box',
    });
    expect(viaVpn.statusCode).toBe(201);
    expect(viaVpn.json().license).toMatchObject({ vpn: true, status: 'ACTIVE' });
    expect(viaVpn.json().edgeConfiguration).toMatchObject({ preset: null, dataTags: [], configuration: {} });
    const notVpn = await call('POST', `${licensesOf(tenants.orgA.id)}/vpn/activate`, rptA, {
      activationKey: keysA[2],
      label: 'not-vpn',
    });
    expect(notVpn.statusCode).toBe(409);
  });
});

describe('presets of a parent organization', () => {
  it('binds a preset the parent shares with the sub-organization, and refuses one it does not share', async () => {
    const { db } = server.database;
    const [key, second] = await seedDemoLicenses(db, tenants.orgA1.id, 2);
    const rptA1 = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA1.resourceId)).rpt;
    const hidden = await call('POST', `${licensesOf(tenants.orgA1.id)}/activate`, rptA1, {
      activationKey: key,
      label: 'child-device',
      presetId: presetA,
    });
    expect(hidden.statusCode).toBe(404);
    await db.update(presets).set({ subOrgsEnabledToView: true }).where(eq(presets.id, presetA));
    const shared = await call('POST', `${licensesOf(tenants.orgA1.id)}/activate`, rptA1, {
      activationKey: key,
      label: 'child-device',
      presetId: presetA,
    });
    expect(shared.statusCode).toBe(201);
    expect(shared.json().device).toMatchObject({ presetId: presetA, organizationId: tenants.orgA1.id });
    expect(shared.json().edgeConfiguration.dataTags).toHaveLength(2);
    // The child's preset is not the parent's to use.
    await db.update(presets).set({ subOrgsEnabledToView: false }).where(eq(presets.id, presetA));
    const childPreset = await insertPreset(tenants.orgA1.id, 'Child preset');
    const upward = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: keysA[4],
      label: 'parent-device',
      presetId: childPreset,
    });
    expect(upward.statusCode).toBe(404);
    expect((await licenceByKey(second ?? ''))?.status).toBe('AVAILABLE');
  });
});

describe('autorenew, deletion and issuing', () => {
  it('sets autorenew on VPN licences only, and only in the organization', async () => {
    const { db } = server.database;
    const [vpnKey] = await seedDemoLicenses(db, tenants.orgA.id, 1, { vpn: true });
    const vpnLicence = await licenceByKey(vpnKey ?? '');
    const plainLicence = await licenceByKey(keysA[4] ?? '');
    const bLicence = await licenceByKey(keysB[1] ?? '');
    const set = await call('PUT', `${licensesOf(tenants.orgA.id)}/vpn/autorenew`, rptA, {
      ids: [vpnLicence?.id],
      autorenew: true,
    });
    expect(set.statusCode).toBe(200);
    expect(set.json().items).toMatchObject([{ id: vpnLicence?.id, autorenew: true }]);
    expect((await licenceByKey(vpnKey ?? ''))?.autorenew).toBe(true);
    const notVpn = await call('PUT', `${licensesOf(tenants.orgA.id)}/vpn/autorenew`, rptA, {
      ids: [plainLicence?.id],
      autorenew: true,
    });
    expect(notVpn.statusCode).toBe(409);
    const foreign = await call('PUT', `${licensesOf(tenants.orgA.id)}/vpn/autorenew`, rptA, {
      ids: [vpnLicence?.id, bLicence?.id],
      autorenew: false,
    });
    expect(foreign.statusCode).toBe(404);
    expect((await licenceByKey(vpnKey ?? ''))?.autorenew).toBe(true);
    expect(
      (
        await call('PUT', `${licensesOf(tenants.orgA.id)}/vpn/autorenew`, readerA, {
          ids: [vpnLicence?.id],
          autorenew: false,
        })
      ).statusCode,
    ).toBe(403);
  });

  it("deletes an ACTIVE licence and revokes the device's credentials; another tenant cannot", async () => {
    const key = keysA[2] ?? '';
    const activated = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: key,
      label: 'to-revoke',
    });
    expect(activated.statusCode).toBe(201);
    const { device, credentials, license } = activated.json();
    expect(await verifyDeviceSecret(server.database.db, device.id, credentials.password)).toBeDefined();

    expect((await call('DELETE', `${licensesOf(tenants.orgB.id)}/${license.id}`, rptB)).statusCode).toBe(404);
    expect((await call('DELETE', `${licensesOf(tenants.orgA.id)}/${license.id}`, rptB)).statusCode).toBe(403);
    expect((await call('DELETE', `${licensesOf(tenants.orgA.id)}/${license.id}`, readerA)).statusCode).toBe(
      403,
    );
    expect(await licenceByKey(key)).toBeDefined();

    const deleted = await call('DELETE', `${licensesOf(tenants.orgA.id)}/${license.id}`, rptA);
    expect(deleted.statusCode).toBe(204);
    expect(await licenceByKey(key)).toBeUndefined();
    expect(await verifyDeviceSecret(server.database.db, device.id, credentials.password)).toBeUndefined();
    const [stillThere] = await server.database.db.select().from(devices).where(eq(devices.id, device.id));
    expect(stillThere?.label).toBe('to-revoke');
    const records = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'deviceLicenses.delete'), eq(auditLog.resourceId, license.id)));
    expect(records[0]?.detail).toMatchObject({ status: 'ACTIVE', credentialsRevoked: true });
    expect((await call('DELETE', `${licensesOf(tenants.orgA.id)}/${license.id}`, rptA)).statusCode).toBe(404);
  });

  it('issues new AVAILABLE keys to the organization (CREATE devices)', async () => {
    const issued = await call('POST', licensesOf(tenants.orgA.id), rptA, { count: 3 });
    expect(issued.statusCode).toBe(201);
    const items = issued.json().items as { activationKey: string; status: string; vpn: boolean }[];
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(item).toMatchObject({ status: 'AVAILABLE', vpn: false });
      expect((await licenceByKey(item.activationKey))?.organizationId).toBe(tenants.orgA.id);
    }
    expect((await call('POST', licensesOf(tenants.orgA.id), rptA, { count: 0 })).statusCode).toBe(400);
    expect((await call('POST', licensesOf(tenants.orgA.id), rptA, { count: 101 })).statusCode).toBe(400);
    expect((await call('POST', licensesOf(tenants.orgA.id), readerA, { count: 1 })).statusCode).toBe(403);
    expect((await call('POST', licensesOf(tenants.orgA.id), rptB, { count: 1 })).statusCode).toBe(403);
    const records = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'deviceLicenses.issue'));
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records[0])).not.toContain(items[0]?.activationKey);
  });

  it('shows an ACTIVE licence past its expiry as EXPIRED, also when filtering', async () => {
    const { db } = server.database;
    const [key] = await seedDemoLicenses(db, tenants.orgA.id, 1);
    const activated = await call('POST', `${licensesOf(tenants.orgA.id)}/activate`, rptA, {
      activationKey: key,
      label: 'old-one',
    });
    await db
      .update(deviceLicenses)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(deviceLicenses.id, activated.json().license.id));
    const expired = await call('GET', `${licensesOf(tenants.orgA.id)}?status=EXPIRED`, rptA);
    expect(expired.json().items.map((l: { activationKey: string }) => l.activationKey)).toContain(key);
    const active = await call('GET', `${licensesOf(tenants.orgA.id)}?status=ACTIVE`, rptA);
    expect(active.json().items.map((l: { activationKey: string }) => l.activationKey)).not.toContain(key);
    const lookup = await call('GET', `${licensesOf(tenants.orgA.id)}/device?activationKey=${key}`, rptA);
    expect(lookup.json().status).toBe('EXPIRED');
  });
});
