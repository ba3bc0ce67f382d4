import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  deviceSecurityPolicies,
  devices,
  importTokens,
  securityPolicies,
} from '../../../db/schema.ts';
import { hashImportToken } from '../organizations/admin-service.ts';
import { createDevice } from './provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let operatorA: string;
const ids: Record<string, string> = {};

const devicesOf = (org: string) => `/svc/core/api/v1/organizations/${org}/devices`;

async function stored(id: string) {
  const [row] = await server.database.db.select().from(devices).where(eq(devices.id, id));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  ids.press = (
    await createDevice(db, orgA.id, 'press-01', { alias: 'Big press', serialNumber: 'SN-1001' })
  ).id;
  ids.pump = (await createDevice(db, orgA.id, 'pump-02', { serialNumber: 'SN-2002', tags: ['water'] })).id;
  ids.oven = (await createDevice(db, orgA.id, 'oven-03', { alias: 'Hot one', serialNumber: 'X-77' })).id;
  ids.bDevice = (await createDevice(db, orgB.id, 'b-gateway', { serialNumber: 'B-1' })).id;
  ids.bClash = (await createDevice(db, orgB.id, 'oven-03')).id;
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  const operator = await userWithRole(server, 'acme', orgA.id, 'operator@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  operatorA = (await rptFor(server, 'acme', operator.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('listing and finding devices', () => {
  it('pages, sorts and searches label, alias and serial number', async () => {
    const all = await call(
      'GET',
      `${devicesOf(tenants.orgA.id)}?pageSize=2&sort=label&order=desc`,
      operatorA,
    );
    expect(all.statusCode).toBe(200);
    const page = all.json();
    expect(page).toMatchObject({ total: 3, page: 0, pageSize: 2 });
    expect(page.items.map((d: { label: string }) => d.label)).toEqual(['pump-02', 'press-01']);
    const second = (
      await call('GET', `${devicesOf(tenants.orgA.id)}?pageSize=2&page=1&sort=label`, rptA)
    ).json();
    expect(second.items.map((d: { label: string }) => d.label)).toEqual(['pump-02']);

    const byAlias = (await call('GET', `${devicesOf(tenants.orgA.id)}?search=big`, rptA)).json();
    expect(byAlias.items.map((d: { id: string }) => d.id)).toEqual([ids.press]);
    const bySerial = (await call('GET', `${devicesOf(tenants.orgA.id)}?search=sn-`, rptA)).json();
    expect(bySerial.total).toBe(2);
    const literal = (await call('GET', `${devicesOf(tenants.orgA.id)}?search=%25`, rptA)).json();
    expect(literal.total).toBe(0);
  });

  it('refuses a bad sort, page size, another tenant and a caller without READ devices', async () => {
    const badSort = await call('GET', `${devicesOf(tenants.orgA.id)}?sort=secret`, rptA);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('sort');
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}?pageSize=5000`, rptA)).statusCode).toBe(400);
    expect((await call('GET', devicesOf(tenants.orgA.id), rptB)).statusCode).toBe(403);
    const noRead = await userWithRole(server, 'acme', tenants.orgA.id, 'nodevices@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', noRead.email, tenants.orgA.resourceId);
    expect((await call('GET', devicesOf(tenants.orgA.id), rpt)).statusCode).toBe(403);
  });

  it('searches with q and finds by label and id, only inside the organization', async () => {
    const found = await call('GET', `${devicesOf(tenants.orgA.id)}/search?q=hot`, rptA);
    expect(found.statusCode).toBe(200);
    expect(found.json().items.map((d: { label: string }) => d.label)).toEqual(['oven-03']);
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/search`, rptA)).statusCode).toBe(400);

    const byLabel = await call('GET', `${devicesOf(tenants.orgA.id)}/label/pump-02`, rptA);
    expect(byLabel.json()).toMatchObject({ id: ids.pump, tags: ['water'], organizationId: tenants.orgA.id });
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/label/nothing`, rptA)).statusCode).toBe(404);
    // B's own device is not found through A, and A's not through B.
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/label/b-gateway`, rptA)).statusCode).toBe(404);
    expect((await call('GET', `${devicesOf(tenants.orgB.id)}/${ids.press}`, rptB)).statusCode).toBe(404);
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/${ids.press}`, rptA)).statusCode).toBe(200);
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/not-a-uuid`, rptA)).statusCode).toBe(400);
  });
});

describe('PATCH devices/{id}', () => {
  it('changes label, alias, description and tags and records it', async () => {
    const response = await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptA, {
      label: ' pump-02b ',
      alias: 'Main pump',
      description: 'north hall',
      tags: ['water', 'hall-n'],
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      label: 'pump-02b',
      alias: 'Main pump',
      description: 'north hall',
      tags: ['water', 'hall-n'],
    });
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'devices.update'), eq(auditLog.resourceId, ids.pump ?? '')));
    expect(record?.organizationId).toBe(tenants.orgA.id);
    const cleared = await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptA, { alias: null });
    expect(cleared.json().alias).toBeNull();
  });

  it('refuses a label in use (409), bad bodies (400) and callers without UPDATE, changing nothing', async () => {
    const taken = await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptA, {
      label: 'press-01',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('press-01');
    expect((await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptA, {})).statusCode).toBe(400);
    const unknownField = await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptA, {
      status: 'ON',
    });
    expect(unknownField.statusCode).toBe(400);
    const badTags = await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptA, { tags: [''] });
    expect(badTags.statusCode).toBe(400);
    expect(badTags.json().message).toContain('tags');
    expect(
      (await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, operatorA, { label: 'x' }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `${devicesOf(tenants.orgA.id)}/${ids.pump}`, rptB, { label: 'x' })).statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `${devicesOf(tenants.orgB.id)}/${ids.pump}`, rptB, { label: 'x' })).statusCode,
    ).toBe(404);
    expect((await stored(ids.pump ?? ''))?.label).toBe('pump-02b');
  });
});

describe('POST devices/{id}/move', () => {
  async function tokenOf(org: string, rpt: string): Promise<string> {
    return (await call('POST', `/svc/core/api/v1/organizations/${org}/importToken`, rpt)).json().token;
  }

  it("moves a device into the token's organization, uses the token up and drops policy assignments", async () => {
    const { db } = server.database;
    const [policy] = await db
      .insert(securityPolicies)
      .values({ organizationId: tenants.orgA.id, name: 'Strict' })
      .returning();
    await db.insert(deviceSecurityPolicies).values({ deviceId: ids.press ?? '', policyId: policy?.id ?? '' });
    const token = await tokenOf(tenants.orgB.id, rptB);

    // B's administrator cannot take A's device, with or without the token.
    expect(
      (
        await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.press}/move`, rptB, {
          organizationImportToken: token,
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (
        await call('POST', `${devicesOf(tenants.orgB.id)}/${ids.press}/move`, rptB, {
          organizationImportToken: token,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.press}/move`, operatorA, {
          organizationImportToken: token,
        })
      ).statusCode,
    ).toBe(403);
    expect((await stored(ids.press ?? ''))?.organizationId).toBe(tenants.orgA.id);

    const moved = await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.press}/move`, rptA, {
      organizationImportToken: token,
    });
    expect(moved.statusCode).toBe(200);
    expect(moved.json()).toMatchObject({ id: ids.press, organizationId: tenants.orgB.id });
    expect(
      await db
        .select()
        .from(deviceSecurityPolicies)
        .where(eq(deviceSecurityPolicies.deviceId, ids.press ?? '')),
    ).toEqual([]);
    expect(
      await db
        .select()
        .from(importTokens)
        .where(eq(importTokens.tokenHash, hashImportToken(token))),
    ).toEqual([]);
    const records = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'devices.move'), eq(auditLog.resourceId, ids.press ?? '')));
    expect(records.map((record) => record.organizationId).sort()).toEqual(
      [tenants.orgA.id, tenants.orgB.id].sort(),
    );
    // Now B reads it and A does not.
    expect((await call('GET', `${devicesOf(tenants.orgB.id)}/${ids.press}`, rptB)).statusCode).toBe(200);
    expect((await call('GET', `${devicesOf(tenants.orgA.id)}/${ids.press}`, rptA)).statusCode).toBe(404);
    // The used token does not work twice.
    const again = await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.oven}/move`, rptA, {
      organizationImportToken: token,
    });
    expect(again.statusCode).toBe(400);
  });

  it('refuses a label the target already has (409) and a token of the same organization, keeping the token', async () => {
    const token = await tokenOf(tenants.orgB.id, rptB);
    const clash = await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.oven}/move`, rptA, {
      organizationImportToken: token,
    });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toContain('oven-03');
    expect((await stored(ids.oven ?? ''))?.organizationId).toBe(tenants.orgA.id);
    const { db } = server.database;
    expect(
      await db
        .select()
        .from(importTokens)
        .where(eq(importTokens.tokenHash, hashImportToken(token))),
    ).toHaveLength(1);
    const own = await tokenOf(tenants.orgA.id, rptA);
    const same = await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.oven}/move`, rptA, {
      organizationImportToken: own,
    });
    expect(same.statusCode).toBe(400);
    expect(
      (
        await call('POST', `${devicesOf(tenants.orgA.id)}/${ids.oven}/move`, rptA, {
          organizationImportToken: 'eit_x',
        })
      ).statusCode,
    ).toBe(400);
  });
});
