import { and, eq } from 'drizzle-orm';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { testPreset } from '../../../../test/support/devices.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  licenses,
  organizations,
  products,
  productVersions,
  type ResourceType,
  resourceJournal,
} from '../../../db/schema.ts';
import { createOrganization } from '../../core/organizations/provisioning.ts';
import { seedDemoLicenses } from '../demo.ts';
import { heldBy, recordUsage, recordVpnUsage } from './journal.ts';

const REALM = 'subs';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptA1: string;
let rptB: string;
let readerA: string;

const subs = (org: string) => `/svc/license/api/v1/organizations/${org}/subscriptions`;
const journalOf = (org: string, type: string) => `${subs(org)}/resource/${type}/journal`;

type Entry = { delta: number; reason: string; subjectId: string | null };

async function entries(organizationId: string, type: ResourceType): Promise<Entry[]> {
  return server.database.db
    .select({
      delta: resourceJournal.delta,
      reason: resourceJournal.reason,
      subjectId: resourceJournal.subjectId,
    })
    .from(resourceJournal)
    .where(and(eq(resourceJournal.organizationId, organizationId), eq(resourceJournal.resourceType, type)))
    .orderBy(resourceJournal.id);
}

async function journalSnapshot() {
  return (await server.database.db.select().from(resourceJournal)).length;
}

/** A product of the seller with one version, and an ACTIVE licence of it held by `holder`. */
async function grant(
  seller: string,
  holder: string,
  resourceType: ResourceType,
  perUnit: number,
  units: number,
  extra: Partial<typeof licenses.$inferInsert> = {},
) {
  const { db } = server.database;
  const code = `P-${resourceType}-${Math.random().toString(36).slice(2, 8)}`;
  const [product] = await db
    .insert(products)
    .values({ organizationId: seller, code, name: code, resourceType })
    .returning();
  if (!product) throw new Error('no product');
  await db.insert(productVersions).values({
    productId: product.id,
    version: 1,
    quantity: perUnit,
    termDays: 365,
    priceMinor: 1000,
    currency: 'EUR',
  });
  const [licence] = await db
    .insert(licenses)
    .values({
      organizationId: holder,
      issuerOrganizationId: seller,
      productId: product.id,
      productVersion: 1,
      licenseCode: `L-${code}`,
      quantity: units,
      status: 'ACTIVE',
      activatedAt: new Date(),
      expiresAt: new Date(Date.now() + 365 * 86_400_000),
      ...extra,
    })
    .returning();
  if (!licence) throw new Error('no licence');
  return licence;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  rptA = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptA1 = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA1.resourceId)).rpt;
  rptB = (await rptFor(server, REALM, tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, REALM, tenants.orgA.id, 'reader@subs-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, REALM, reader.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('metering from the services', () => {
  it('counts a user joining (provisioning and invitation) and leaving an organization', async () => {
    // seedTenants made adminA a member of A, userWithRole added the reader: both joined.
    const before = await entries(tenants.orgA.id, 'users');
    expect(before.map((entry) => [entry.delta, entry.reason])).toEqual([
      [1, 'user.joined'],
      [1, 'user.joined'],
    ]);
    const invited = await call('POST', `/svc/core/api/v1/organizations/${tenants.orgA.id}/users`, rptA, {
      email: 'metered@example.test',
    });
    expect(invited.statusCode).toBe(201);
    const userId = invited.json().id as string;
    expect(await heldBy(server.database.db, tenants.orgA.id, 'users', userId)).toBe(1);
    const removed = await call(
      'DELETE',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/users/${userId}`,
      rptA,
    );
    expect(removed.statusCode).toBe(204);
    const after = await entries(tenants.orgA.id, 'users');
    expect(after.slice(-2)).toEqual([
      { delta: 1, reason: 'user.joined', subjectId: userId },
      { delta: -1, reason: 'user.removed', subjectId: userId },
    ]);
    const sum = (await call('GET', `${journalOf(tenants.orgA.id, 'users')}/sum`, rptA)).json();
    expect(sum).toMatchObject({ resourceType: 'users', sum: 2, count: 4 });
  });

  it('counts a device activated, moved to another organization and deleted, in the same transaction', async () => {
    const { db } = server.database;
    const [key] = await seedDemoLicenses(db, tenants.orgA.id, 1);
    const activation = await call(
      'POST',
      `/svc/license/api/v1/organizations/${tenants.orgA.id}/deviceLicenses/activate`,
      rptA,
      { activationKey: key, label: 'metered-1' },
    );
    expect(activation.statusCode).toBe(201);
    const deviceId = activation.json().device.id as string;
    expect(await entries(tenants.orgA.id, 'devices')).toEqual([
      { delta: 1, reason: 'device.activated', subjectId: deviceId },
    ]);
    // A refused activation (the key is in use now) meters nothing.
    const again = await call(
      'POST',
      `/svc/license/api/v1/organizations/${tenants.orgA.id}/deviceLicenses/activate`,
      rptA,
      { activationKey: key, label: 'metered-2' },
    );
    expect(again.statusCode).toBe(409);
    expect(await entries(tenants.orgA.id, 'devices')).toHaveLength(1);

    // Moved into A1: -1 in A, +1 in A1.
    const token = (
      await call('POST', `/svc/core/api/v1/organizations/${tenants.orgA1.id}/importToken`, rptA1)
    ).json().token as string;
    const moved = await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/devices/${deviceId}/move`,
      rptA,
      { organizationImportToken: token },
    );
    expect(moved.statusCode).toBe(200);
    expect((await entries(tenants.orgA.id, 'devices')).at(-1)).toEqual({
      delta: -1,
      reason: 'device.movedOut',
      subjectId: deviceId,
    });
    expect(await entries(tenants.orgA1.id, 'devices')).toEqual([
      { delta: 1, reason: 'device.movedIn', subjectId: deviceId },
    ]);

    // Deleted (bulk delete of core): -1 in A1.
    const deleted = await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgA1.id}/devices/bulk`,
      rptA1,
      {
        ids: [deviceId],
        action: 'delete',
      },
    );
    expect(deleted.statusCode).toBe(200);
    expect((await entries(tenants.orgA1.id, 'devices')).at(-1)).toEqual({
      delta: -1,
      reason: 'device.deleted',
      subjectId: deviceId,
    });
    expect((await call('GET', `${journalOf(tenants.orgA.id, 'devices')}/sum`, rptA)).json().sum).toBe(0);
    expect((await call('GET', `${journalOf(tenants.orgA1.id, 'devices')}/sum`, rptA1)).json().sum).toBe(0);
  });

  it('meters the single device delete of the mappings service, and nothing for a device never counted', async () => {
    const { db } = server.database;
    const [key] = await seedDemoLicenses(db, tenants.orgA.id, 1);
    const activation = await call(
      'POST',
      `/svc/license/api/v1/organizations/${tenants.orgA.id}/deviceLicenses/activate`,
      rptA,
      { activationKey: key, label: 'metered-3' },
    );
    const deviceId = activation.json().device.id as string;
    const response = await call(
      'DELETE',
      `/svc/mappings/api/v1/organizations/${tenants.orgA.id}/devices/${deviceId}`,
      rptA,
    );
    expect(response.statusCode).toBe(204);
    expect((await entries(tenants.orgA.id, 'devices')).at(-1)).toEqual({
      delta: -1,
      reason: 'device.deleted',
      subjectId: deviceId,
    });
    // A device created without activation (fixtures) was never counted: deleting it gives nothing back.
    const { createDevice } = await import('../../core/devices/provisioning.ts');
    const fixture = await createDevice(db, tenants.orgA.id, 'fixture-device');
    const count = (await entries(tenants.orgA.id, 'devices')).length;
    const bulk = await call('POST', `/svc/core/api/v1/organizations/${tenants.orgA.id}/devices/bulk`, rptA, {
      ids: [fixture.id],
      action: 'delete',
    });
    expect(bulk.statusCode).toBe(200);
    expect(await entries(tenants.orgA.id, 'devices')).toHaveLength(count);
  });

  it('meters data points ingested over MQTT when the meter flushes, one entry per organization', async () => {
    const { db } = server.database;
    const orgC = await createOrganization(db, { realm: REALM, name: 'Org C', resourceId: 'subs-c' });
    const preset = await testPreset(server, orgC.id);
    const { activatedDevice } = await import('../../../../test/support/devices.ts');
    const device = await activatedDevice(server, orgC.id, 'Ingesting', preset.id);
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
    await publish({ LineSpeed: 2, Running: false, Batch: 7 });
    await client.endAsync();
    // Ingest also flushes every second by itself. One running when a flush is asked for has taken the points already:
    // the flush asked for still returns only once they are journaled.
    void server.app.ingest.pipeline.flushHot();
    await server.app.ingest.flush();
    // One entry per flush that had data, 5 points in all.
    const metered = await entries(orgC.id, 'dataPoints');
    expect(metered.length).toBeGreaterThanOrEqual(1);
    expect(metered.reduce((sum, entry) => sum + entry.delta, 0)).toBe(5);
    expect(new Set(metered.map((entry) => entry.reason))).toEqual(new Set(['dataPoints.ingested']));
    await server.app.ingest.flush(); // nothing new: no entry
    expect(await entries(orgC.id, 'dataPoints')).toHaveLength(metered.length);
  });

  it('records VPN minutes of a session and refuses fractions', async () => {
    const { db } = server.database;
    await recordVpnUsage(db, tenants.orgB.id, 42, 'session-1');
    expect(await entries(tenants.orgB.id, 'vpnMinutes')).toEqual([
      { delta: 42, reason: 'vpn.session', subjectId: 'session-1' },
    ]);
    await expect(recordVpnUsage(db, tenants.orgB.id, 1.5, 'session-2')).rejects.toThrow(/whole/);
    await expect(
      recordUsage(db, { organizationId: tenants.orgB.id, resourceType: 'devices', delta: 0.5, reason: 'x' }),
    ).rejects.toThrow(/whole/);
  });
});

describe('GET subscriptions/resource/{type}/journal and /sum', () => {
  let orgJ: string;
  let rptJ: string;
  beforeAll(async () => {
    const { db } = server.database;
    orgJ = tenants.orgA1.id;
    rptJ = rptA1;
    // Entries at known instants in A1's dataPoints journal.
    for (const [at, delta] of [
      ['2024-03-01T00:00:00.000Z', 10],
      ['2024-03-01T23:59:59.999Z', 20],
      ['2024-03-02T00:00:00.000Z', 30],
      ['2024-03-05T12:00:00.000Z', -4],
    ] as const) {
      await recordUsage(db, {
        organizationId: orgJ,
        resourceType: 'dataPoints',
        delta,
        reason: 'test.entry',
        at: new Date(at),
      });
    }
  });

  it('pages newest first with from inclusive and to exclusive', async () => {
    const all = (await call('GET', `${journalOf(orgJ, 'dataPoints')}?pageSize=2`, rptJ)).json();
    expect(all).toMatchObject({ total: 4, page: 0, pageSize: 2 });
    expect(all.items.map((item: { delta: number }) => item.delta)).toEqual([-4, 30]);
    const second = (await call('GET', `${journalOf(orgJ, 'dataPoints')}?pageSize=2&page=1`, rptJ)).json();
    expect(second.items.map((item: { delta: number }) => item.delta)).toEqual([20, 10]);
    const day = (
      await call(
        'GET',
        `${journalOf(orgJ, 'dataPoints')}?from=2024-03-01T00:00:00.000Z&to=2024-03-02T00:00:00.000Z`,
        rptJ,
      )
    ).json();
    expect(day.items.map((item: { delta: number }) => item.delta)).toEqual([20, 10]);
    expect(day.items[0]).toMatchObject({ resourceType: 'dataPoints', reason: 'test.entry', subjectId: null });
  });

  it('sums exactly over the same filters', async () => {
    const sum = (await call('GET', `${journalOf(orgJ, 'dataPoints')}/sum`, rptJ)).json();
    expect(sum).toEqual({ resourceType: 'dataPoints', sum: 56, count: 4, from: null, to: null });
    const ranged = (
      await call(
        'GET',
        `${journalOf(orgJ, 'dataPoints')}/sum?from=2024-03-01T12:00:00Z&to=2024-03-05T12:00:00Z`,
        rptJ,
      )
    ).json();
    expect(ranged).toEqual({
      resourceType: 'dataPoints',
      sum: 50,
      count: 2,
      from: '2024-03-01T12:00:00.000Z',
      to: '2024-03-05T12:00:00.000Z',
    });
  });

  it('answers 400 naming the field for a bad type, date, range or page size', async () => {
    const cases: [string, string][] = [
      [journalOf(orgJ, 'bananas'), 'type'],
      [`${journalOf(orgJ, 'devices')}?from=yesterday`, 'from'],
      [`${journalOf(orgJ, 'devices')}/sum?to=2024-13-01`, 'to'],
      [`${journalOf(orgJ, 'devices')}?from=2024-03-02T00:00:00Z&to=2024-03-01T00:00:00Z`, 'to'],
      [`${journalOf(orgJ, 'devices')}?pageSize=5000`, 'pageSize'],
      [`${journalOf(orgJ, 'devices')}?secret=1`, 'secret'],
    ];
    for (const [url, field] of cases) {
      const response = await call('GET', url, rptJ);
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toContain(field);
    }
  });

  it("refuses another organization's administrator and a caller without READ organizations", async () => {
    expect((await call('GET', journalOf(orgJ, 'dataPoints'), rptB)).statusCode).toBe(403);
    expect([403, 404]).toContain(
      (await call('GET', journalOf(tenants.orgB.id, 'dataPoints'), rptA)).statusCode,
    );
    expect([403, 404]).toContain(
      (await call('GET', `${journalOf(tenants.orgB.id, 'vpnMinutes')}/sum`, rptA)).statusCode,
    );
    expect((await call('GET', journalOf('no-such-org', 'dataPoints'), rptA)).statusCode).toBe(404);
    expect((await call('GET', journalOf(tenants.orgA.id, 'users'), readerA)).statusCode).toBe(403);
    expect((await call('GET', `${subs(tenants.orgA.id)}/summary`, readerA)).statusCode).toBe(403);
  });
});

describe('summary, summaryByOrg and pooling', () => {
  it('grants Σ quantity × version quantity of ACTIVE licences; null without; pooled sub-organizations draw on the parent', async () => {
    const { db } = server.database;
    const seller = tenants.orgB.id; // a seller elsewhere: the holder is what counts
    const orgP = await createOrganization(db, {
      realm: REALM,
      name: 'Pool parent',
      resourceId: 'subs-p',
      parentId: tenants.orgA.id,
    });
    const pooled = await createOrganization(db, {
      realm: REALM,
      name: 'Pooled child',
      resourceId: 'subs-pc',
      parentId: orgP.id,
    });
    await db.update(organizations).set({ hasOwnResources: false }).where(eq(organizations.id, pooled.id));
    const own = await createOrganization(db, {
      realm: REALM,
      name: 'Own child',
      resourceId: 'subs-oc',
      parentId: orgP.id,
    });
    await grant(seller, orgP.id, 'devices', 5, 3); // 15 devices
    await grant(seller, orgP.id, 'devices', 2, 1); // +2
    await grant(seller, orgP.id, 'dataPoints', 1_000_000_000, 5_000_000); // 5e15, exact
    await grant(seller, orgP.id, 'users', 10, 1, { status: 'EXPIRED' }); // not ACTIVE: no allowance
    await grant(seller, orgP.id, 'vpnMinutes', 60, 1, { expiresAt: new Date(Date.now() - 1000) }); // past expiry
    await grant(seller, own.id, 'users', 4, 1);
    for (const [org, delta] of [
      [orgP.id, 3],
      [pooled.id, 4],
      [own.id, 7],
    ] as const) {
      await recordUsage(db, { organizationId: org, resourceType: 'devices', delta, reason: 'test.entry' });
    }

    const rptP = (await rptFor(server, REALM, tenants.adminA.email, orgP.resourceId)).rpt;
    const parent = (await call('GET', `${subs(orgP.id)}/summary`, rptP)).json();
    expect(parent).toMatchObject({ organizationId: orgP.id, hasOwnResources: true, pooledWith: null });
    const byType = (summary: { resources: { resourceType: string }[] }) =>
      Object.fromEntries(summary.resources.map((resource) => [resource.resourceType, resource]));
    expect(byType(parent)).toEqual({
      devices: { resourceType: 'devices', allowance: 17, used: 7, ownUsed: 3, available: 10 },
      users: { resourceType: 'users', allowance: null, used: 0, ownUsed: 0, available: null },
      dataPoints: {
        resourceType: 'dataPoints',
        allowance: 5_000_000_000_000_000,
        used: 0,
        ownUsed: 0,
        available: 5_000_000_000_000_000,
      },
      vpnMinutes: { resourceType: 'vpnMinutes', allowance: null, used: 0, ownUsed: 0, available: null },
    });

    const rptPooled = (await rptFor(server, REALM, tenants.adminA.email, pooled.resourceId)).rpt;
    const child = (await call('GET', `${subs(pooled.id)}/summary`, rptPooled)).json();
    expect(child).toMatchObject({ hasOwnResources: false, pooledWith: orgP.id });
    expect(byType(child).devices).toEqual({
      resourceType: 'devices',
      allowance: 17,
      used: 7,
      ownUsed: 4,
      available: 10,
    });

    const byOrg = (await call('GET', `${subs(orgP.id)}/summaryByOrg`, rptP)).json();
    expect(byOrg.organizationId).toBe(orgP.id);
    expect(byOrg.items.map((item: { name: string }) => item.name)).toEqual(['Own child', 'Pooled child']);
    const [ownSummary, pooledSummary] = byOrg.items;
    expect(byType(ownSummary).devices).toEqual({
      resourceType: 'devices',
      allowance: null,
      used: 7,
      ownUsed: 7,
      available: null,
    });
    expect(byType(ownSummary).users).toMatchObject({ allowance: 4, available: 4 });
    expect(pooledSummary.pooledWith).toBe(orgP.id);

    // B sees none of it.
    expect((await call('GET', `${subs(orgP.id)}/summaryByOrg`, rptB)).statusCode).toBe(403);
    expect((await call('GET', `${subs(orgP.id)}/summary`, rptB)).statusCode).toBe(403);
  });
});

describe('aggregated and aggregatedByOrg', () => {
  it('sums per UTC day with running totals (all time) at each bucket end, and per month', async () => {
    const { db } = server.database;
    const org = await createOrganization(db, {
      realm: REALM,
      name: 'Charts',
      resourceId: 'subs-ch',
      parentId: tenants.orgA.id,
    });
    const kid = await createOrganization(db, {
      realm: REALM,
      name: 'Charts kid',
      resourceId: 'subs-chk',
      parentId: org.id,
    });
    for (const [at, delta, organizationId] of [
      ['2024-01-31T10:00:00Z', 2, org.id], // before the range: counts in the running total only
      ['2024-02-01T00:00:00Z', 1, org.id],
      ['2024-02-01T23:59:59Z', 1, org.id],
      ['2024-02-03T08:00:00Z', -1, org.id],
      ['2024-02-04T00:00:00Z', 9, org.id], // at `to`: excluded
      ['2024-02-02T05:00:00Z', 5, kid.id],
    ] as const) {
      await recordUsage(db, {
        organizationId,
        resourceType: 'devices',
        delta,
        reason: 'test.entry',
        at: new Date(at),
      });
    }
    const rpt = (await rptFor(server, REALM, tenants.adminA.email, org.resourceId)).rpt;
    const range = 'from=2024-02-01T00:00:00Z&to=2024-02-04T00:00:00Z';
    const daily = await call('GET', `${subs(org.id)}/aggregated?${range}&type=devices`, rpt);
    expect(daily.statusCode, daily.body).toBe(200);
    expect(daily.json()).toEqual({
      organizationId: org.id,
      bucket: 'day',
      from: '2024-02-01T00:00:00.000Z',
      to: '2024-02-04T00:00:00.000Z',
      series: [
        {
          resourceType: 'devices',
          points: [
            {
              start: '2024-02-01T00:00:00.000Z',
              end: '2024-02-02T00:00:00.000Z',
              sum: 2,
              count: 2,
              total: 4,
            },
            {
              start: '2024-02-02T00:00:00.000Z',
              end: '2024-02-03T00:00:00.000Z',
              sum: 0,
              count: 0,
              total: 4,
            },
            {
              start: '2024-02-03T00:00:00.000Z',
              end: '2024-02-04T00:00:00.000Z',
              sum: -1,
              count: 1,
              total: 3,
            },
          ],
        },
      ],
    });
    const all = (await call('GET', `${subs(org.id)}/aggregated?${range}`, rpt)).json();
    expect(all.series.map((series: { resourceType: string }) => series.resourceType)).toEqual([
      'devices',
      'users',
      'dataPoints',
      'vpnMinutes',
    ]);

    const monthly = (
      await call(
        'GET',
        `${subs(org.id)}/aggregated?from=2024-01-15T00:00:00Z&to=2024-03-01T00:00:00Z&bucket=month&type=devices`,
        rpt,
      )
    ).json();
    expect(monthly.series[0].points).toEqual([
      { start: '2024-01-15T00:00:00.000Z', end: '2024-02-01T00:00:00.000Z', sum: 2, count: 1, total: 2 },
      { start: '2024-02-01T00:00:00.000Z', end: '2024-03-01T00:00:00.000Z', sum: 10, count: 4, total: 12 },
    ]);

    const byOrg = (await call('GET', `${subs(org.id)}/aggregatedByOrg?${range}&type=devices`, rpt)).json();
    expect(byOrg.organizations.map((entry: { name: string }) => entry.name)).toEqual([
      'Charts',
      'Charts kid',
    ]);
    expect(byOrg.organizations[1].series[0].points.map((point: { total: number }) => point.total)).toEqual([
      0, 5, 5,
    ]);
    expect((await call('GET', `${subs(org.id)}/aggregatedByOrg?${range}`, rptB)).statusCode).toBe(403);
    expect((await call('GET', `${subs(org.id)}/aggregated?${range}`, rptB)).statusCode).toBe(403);
  });

  it('defaults to the last 30 days and answers 400 for a bad bucket, type or too long a range', async () => {
    const fine = (await call('GET', `${subs(tenants.orgA.id)}/aggregated?type=users`, rptA)).json();
    expect(fine.series[0].points.length).toBeGreaterThanOrEqual(30);
    expect(fine.series[0].points.at(-1).total).toBe(
      (await call('GET', `${journalOf(tenants.orgA.id, 'users')}/sum`, rptA)).json().sum,
    );
    const cases: [string, string][] = [
      ['bucket=week', 'bucket'],
      ['type=cats', 'type'],
      ['from=2000-01-01T00:00:00Z&to=2024-01-01T00:00:00Z', 'from'],
      ['from=2024-01-02T00:00:00Z&to=2024-01-01T00:00:00Z', 'to'],
    ];
    for (const [query, field] of cases) {
      const response = await call('GET', `${subs(tenants.orgA.id)}/aggregated?${query}`, rptA);
      expect(response.statusCode, query).toBe(400);
      expect(response.json().message, query).toContain(field);
    }
  });

  it('changes nothing when read, by anyone', async () => {
    const before = await journalSnapshot();
    await call('GET', `${subs(tenants.orgA.id)}/summary`, rptA);
    await call('GET', `${subs(tenants.orgA.id)}/aggregatedByOrg`, rptB);
    expect(await journalSnapshot()).toBe(before);
  });
});
