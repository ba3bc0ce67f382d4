import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, devices, serviceClients } from '../../../db/schema.ts';
import { insertClient } from '../clients/store.ts';
import { createDevice } from './provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let operatorA: string;
const ids: Record<string, string> = {};

const deviceUrl = (org: string, id: string) => `/svc/core/api/v1/organizations/${org}/devices/${id}`;

async function storedClientId(id: string) {
  const [row] = await server.database.db
    .select({ serviceClientId: devices.serviceClientId })
    .from(devices)
    .where(eq(devices.id, id));
  return row?.serviceClientId;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  ids.device = (await createDevice(db, orgA.id, 'press-01')).id;
  ids.clientA = (await insertClient(db, orgA.id, 'integration-a')).id;
  ids.clientA2 = (await insertClient(db, orgA.id, 'integration-a2')).id;
  ids.clientB = (await insertClient(db, orgB.id, 'integration-b')).id;
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  const operator = await userWithRole(server, 'acme', orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  operatorA = (await rptFor(server, 'acme', operator.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('associating a device with a service account', () => {
  it('starts without one, sets one, changes it and audits the change', async () => {
    const url = deviceUrl(tenants.orgA.id, ids.device as string);
    expect((await call('GET', url, rptA)).json().serviceClientId).toBeNull();

    const set = await call('PATCH', url, rptA, { serviceClientId: ids.clientA });
    expect(set.statusCode).toBe(200);
    expect(await storedClientId(ids.device as string)).toBe(ids.clientA);
    expect((await call('GET', url, operatorA)).json().serviceClientId).toBe(ids.clientA);

    const changed = await call('PATCH', url, rptA, { serviceClientId: ids.clientA2 });
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', url, rptA)).json().serviceClientId).toBe(ids.clientA2);

    const [audit] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'devices.update'), eq(auditLog.resourceId, ids.device as string)))
      .orderBy(desc(auditLog.id))
      .limit(1);
    expect(audit?.detail).toMatchObject({
      changes: { serviceClientId: ids.clientA2 },
      before: { serviceClientId: ids.clientA },
    });
  });

  it('clears it with null (not an empty string)', async () => {
    const url = deviceUrl(tenants.orgA.id, ids.device as string);
    await call('PATCH', url, rptA, { serviceClientId: ids.clientA });
    const cleared = await call('PATCH', url, rptA, { serviceClientId: null });
    expect(cleared.statusCode).toBe(200);
    expect(await storedClientId(ids.device as string)).toBeNull();
    expect((await call('GET', url, rptA)).json().serviceClientId).toBeNull();

    const empty = await call('PATCH', url, rptA, { serviceClientId: '' });
    expect(empty.statusCode).toBe(400);
    const bad = await call('PATCH', url, rptA, { serviceClientId: 'not-a-uuid' });
    expect(bad.statusCode).toBe(400);
  });

  it("refuses another organization's client with 404 naming the field, changing nothing", async () => {
    const url = deviceUrl(tenants.orgA.id, ids.device as string);
    await call('PATCH', url, rptA, { serviceClientId: ids.clientA });
    const foreign = await call('PATCH', url, rptA, { serviceClientId: ids.clientB, label: 'renamed' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toContain('serviceClientId');
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.id, ids.device as string));
    expect(row?.serviceClientId).toBe(ids.clientA);
    expect(row?.label).toBe('press-01');
  });

  it("refuses another organization's admin and a reader without UPDATE devices", async () => {
    const url = deviceUrl(tenants.orgA.id, ids.device as string);
    await call('PATCH', url, rptA, { serviceClientId: ids.clientA });
    const other = await call('PATCH', url, rptB, { serviceClientId: null });
    expect([403, 404]).toContain(other.statusCode);
    const viaOwnOrg = await call('PATCH', deviceUrl(tenants.orgB.id, ids.device as string), rptB, {
      serviceClientId: ids.clientB,
    });
    expect(viaOwnOrg.statusCode).toBe(404);
    const reader = await call('PATCH', url, operatorA, { serviceClientId: null });
    expect(reader.statusCode).toBe(403);
    expect(await storedClientId(ids.device as string)).toBe(ids.clientA);
  });

  it('drops the association when the service client is deleted', async () => {
    const url = deviceUrl(tenants.orgA.id, ids.device as string);
    await call('PATCH', url, rptA, { serviceClientId: ids.clientA2 });
    await server.database.db.delete(serviceClients).where(eq(serviceClients.id, ids.clientA2 as string));
    expect(await storedClientId(ids.device as string)).toBeNull();
  });
});
