import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, serviceClients } from '../../../db/schema.ts';
import { hashClientSecret } from './service.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
let clientId = '';

const clients = (org: string) => `/svc/core/api/v1/organizations/${org}/clients`;

async function stored(id: string) {
  const [row] = await server.database.db.select().from(serviceClients).where(eq(serviceClients.id, id));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'organizations', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('service-account clients', () => {
  it('creates a client without a secret and lists it', async () => {
    const created = await call('POST', clients(tenants.orgA.id), rptA, { name: 'SCADA bridge' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'SCADA bridge', hasSecret: false, secretCreatedAt: null });
    clientId = created.json().id;
    expect(created.json().clientId).toBe(clientId);
    await call('POST', clients(tenants.orgA.id), rptA, { name: 'ERP export' });
    const list = await call('GET', `${clients(tenants.orgA.id)}?sort=name`, readerA);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((c: { name: string }) => c.name)).toEqual(['ERP export', 'SCADA bridge']);
    expect((await call('GET', `${clients(tenants.orgA.id)}?search=scada`, readerA)).json().total).toBe(1);
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'clients.create'), eq(auditLog.resourceId, clientId)));
    expect(record?.organizationId).toBe(tenants.orgA.id);
  });

  it('refuses a taken name (409) and bad names (400)', async () => {
    expect((await call('POST', clients(tenants.orgA.id), rptA, { name: 'SCADA bridge' })).statusCode).toBe(
      409,
    );
    const blank = await call('POST', clients(tenants.orgA.id), rptA, { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('name');
    expect((await call('POST', clients(tenants.orgA.id), rptA, {})).statusCode).toBe(400);
  });

  it('generates a secret shown once, stored as a hash; GET only tells whether there is one', async () => {
    const before = await call('GET', `${clients(tenants.orgA.id)}/${clientId}/secret`, readerA);
    expect(before.json()).toEqual({ clientId, hasSecret: false, createdAt: null });
    const generated = await call('POST', `${clients(tenants.orgA.id)}/${clientId}/secret`, rptA);
    expect(generated.statusCode).toBe(200);
    expect(generated.headers['cache-control']).toBe('no-store');
    const { secret, createdAt } = generated.json();
    expect(secret.length).toBeGreaterThanOrEqual(40);
    const row = await stored(clientId);
    expect(row?.secretHash).toBe(hashClientSecret(secret));
    const after = await call('GET', `${clients(tenants.orgA.id)}/${clientId}/secret`, readerA);
    expect(after.json()).toEqual({ clientId, hasSecret: true, createdAt });
    expect(after.body).not.toContain(secret);
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'clients.secret'), eq(auditLog.resourceId, clientId)));
    expect(JSON.stringify(record)).not.toContain(secret);
    const again = (await call('POST', `${clients(tenants.orgA.id)}/${clientId}/secret`, rptA)).json();
    expect(again.secret).not.toBe(secret);
    expect((await stored(clientId))?.secretHash).toBe(hashClientSecret(again.secret));
  });

  it('keeps other tenants and readers out, changing nothing', async () => {
    const hash = (await stored(clientId))?.secretHash;
    expect((await call('GET', clients(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect((await call('POST', clients(tenants.orgA.id), rptB, { name: 'x' })).statusCode).toBe(403);
    expect((await call('POST', `${clients(tenants.orgB.id)}/${clientId}/secret`, rptB)).statusCode).toBe(404);
    expect((await call('GET', `${clients(tenants.orgB.id)}/${clientId}/secret`, rptB)).statusCode).toBe(404);
    expect((await call('DELETE', `${clients(tenants.orgB.id)}/${clientId}`, rptB)).statusCode).toBe(404);
    expect((await call('POST', `${clients(tenants.orgA.id)}/${clientId}/secret`, readerA)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `${clients(tenants.orgA.id)}/${clientId}`, readerA)).statusCode).toBe(403);
    expect((await call('POST', clients(tenants.orgA.id), readerA, { name: 'x' })).statusCode).toBe(403);
    expect((await stored(clientId))?.secretHash).toBe(hash);
  });

  it('deletes a client', async () => {
    expect((await call('DELETE', `${clients(tenants.orgA.id)}/${clientId}`, rptA)).statusCode).toBe(204);
    expect(await stored(clientId)).toBeUndefined();
    expect((await call('DELETE', `${clients(tenants.orgA.id)}/${clientId}`, rptA)).statusCode).toBe(404);
    expect((await call('GET', `${clients(tenants.orgA.id)}/${clientId}/secret`, rptA)).statusCode).toBe(404);
  });
});
