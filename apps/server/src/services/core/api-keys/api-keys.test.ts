import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { apiKeys, auditLog, roles, type StoredPermission } from '../../../db/schema.ts';
import { addMember } from '../organizations/provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptAdminA: string;
let rptAdminB: string;
let worker: { id: string; email: string };
let rptWorker: string;
let workerRoleId: string;

const WORKER_PERMISSIONS: StoredPermission[] = [
  { rsname: 'portal', scopes: ['ACCESS'] },
  { rsname: 'users', scopes: ['READ'] },
];
const keysOf = (org: string) => `/svc/core/api/v1/organizations/${org}/apiKeys`;
const usersOf = (org: string) => `/svc/core/api/v1/organizations/${org}/users`;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server, 'acme');
  rptAdminA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptAdminB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  worker = await userWithRole(server, 'acme', tenants.orgA.id, 'worker@acme.test', WORKER_PERMISSIONS);
  rptWorker = (await rptFor(server, 'acme', worker.email, tenants.orgA.resourceId)).rpt;
  const [role] = await server.database.db
    .select()
    .from(roles)
    .where(eq(roles.name, `role for ${worker.email}`));
  workerRoleId = role?.id ?? '';
});
afterAll(() => server.close());

async function createKey(token: string, body: Record<string, unknown>, org = tenants.orgA.id) {
  return call('POST', keysOf(org), token, body);
}

describe('API keys', () => {
  it('creates a key whose secret is shown once and stored only as a hash', async () => {
    const response = await createKey(rptWorker, { name: 'CI export' });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created.secret).toMatch(/^ep_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: 'CI export',
      username: worker.email,
      expiresAt: null,
      lastUsedAt: null,
    });
    expect(created.secret.startsWith(created.prefix)).toBe(true);
    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row?.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(created.secret);

    const list = await call('GET', keysOf(tenants.orgA.id), rptWorker);
    expect(list.json()).toEqual([expect.objectContaining({ id: created.id, prefix: created.prefix })]);
    expect(list.body).not.toContain(created.secret);
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, created.id));
    expect(audit.map((record) => record.action)).toEqual(['apiKeys.create']);
    expect(JSON.stringify(audit[0]?.detail)).not.toContain(created.secret);
  });

  it("acts as its owner's RPT in its organization, loses rights with the role and stops after DELETE", async () => {
    const { secret, id } = (await createKey(rptWorker, { name: 'script' })).json();
    const listed = await call('GET', usersOf(tenants.orgA.id), secret);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().total).toBeGreaterThan(1);
    const [used] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, id));
    expect(used?.lastUsedAt).toBeInstanceOf(Date);

    // Only in the key's organization.
    expect((await call('GET', usersOf(tenants.orgB.id), secret)).statusCode).toBe(403);
    expect((await call('GET', usersOf(tenants.orgA1.id), secret)).statusCode).toBe(403);
    // Not in another realm's host.
    await server.app.realms.create('other', 'Other');
    expect((await caller(server, 'other')('GET', usersOf(tenants.orgA.id), secret)).statusCode).toBe(401);

    await server.database.db
      .update(roles)
      .set({ permissions: [{ rsname: 'portal', scopes: ['ACCESS'] }] })
      .where(eq(roles.id, workerRoleId));
    expect((await call('GET', usersOf(tenants.orgA.id), secret)).statusCode).toBe(403);
    await server.database.db
      .update(roles)
      .set({ permissions: WORKER_PERMISSIONS })
      .where(eq(roles.id, workerRoleId));
    expect((await call('GET', usersOf(tenants.orgA.id), secret)).statusCode).toBe(200);

    // A key cannot mint keys.
    expect((await createKey(secret, { name: 'child' })).statusCode).toBe(403);

    const removed = await call('DELETE', `${keysOf(tenants.orgA.id)}/${id}`, rptWorker);
    expect(removed.statusCode).toBe(204);
    const after = await call('GET', usersOf(tenants.orgA.id), secret);
    expect(after.statusCode).toBe(401);
    expect((await call('GET', usersOf(tenants.orgA.id), `${secret}x`)).statusCode).toBe(401);
  });

  it('stops at its expiry, refuses past expiry dates, and dies with a disabled owner', async () => {
    const past = await createKey(rptWorker, { name: 'old', expiresAt: '2001-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json().message).toContain('expiresAt');
    const bad = await createKey(rptWorker, { name: 'x', expiresAt: 'tomorrow' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('expiresAt');
    const noName = await createKey(rptWorker, { name: '  ' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json().message).toContain('name');

    const soon = new Date(Date.now() + 3600_000).toISOString();
    const { secret, id } = (await createKey(rptWorker, { name: 'short-lived', expiresAt: soon })).json();
    expect((await call('GET', usersOf(tenants.orgA.id), secret)).statusCode).toBe(200);
    await server.database.db
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiKeys.id, id));
    expect((await call('GET', usersOf(tenants.orgA.id), secret)).statusCode).toBe(401);

    const { secret: second } = (await createKey(rptWorker, { name: 'disabled later' })).json();
    await call('PUT', `${usersOf(tenants.orgA.id)}/${worker.id}`, rptAdminA, { enabled: false });
    expect((await call('GET', usersOf(tenants.orgA.id), second)).statusCode).toBe(401);
    await call('PUT', `${usersOf(tenants.orgA.id)}/${worker.id}`, rptAdminA, { enabled: true });
    expect((await call('GET', usersOf(tenants.orgA.id), second)).statusCode).toBe(200);
  });

  it("needs READ users to list another member's keys and UPDATE users to create or delete them", async () => {
    const forWorker = await createKey(rptAdminA, { name: 'made by admin', username: worker.email });
    expect(forWorker.statusCode).toBe(201);
    expect(forWorker.json().username).toBe(worker.email);

    const adminKeys = await call(
      'GET',
      `${keysOf(tenants.orgA.id)}?username=${tenants.adminA.email}`,
      rptWorker,
    );
    expect(adminKeys.statusCode).toBe(200);
    const ownAdminKey = (await createKey(rptAdminA, { name: 'admin own' })).json();
    expect(
      (await call('GET', `${keysOf(tenants.orgA.id)}?username=${tenants.adminA.email}`, rptWorker)).json(),
    ).toEqual([expect.objectContaining({ id: ownAdminKey.id })]);
    expect(
      (await createKey(rptWorker, { name: 'for admin', username: tenants.adminA.email })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${keysOf(tenants.orgA.id)}/${ownAdminKey.id}`, rptWorker)).statusCode).toBe(
      403,
    );
    expect(
      (await call('GET', `${keysOf(tenants.orgA.id)}?username=nobody@acme.test`, rptAdminA)).statusCode,
    ).toBe(404);
    expect((await createKey(rptAdminA, { name: 'x', username: tenants.adminB.email })).statusCode).toBe(404);

    const deleted = await call('DELETE', `${keysOf(tenants.orgA.id)}/${forWorker.json().id}`, rptAdminA);
    expect(deleted.statusCode).toBe(204);
  });

  it("keeps organizations apart: B's admin cannot see, create or delete A's keys", async () => {
    const key = (await createKey(rptWorker, { name: 'private' })).json();
    expect((await call('GET', keysOf(tenants.orgA.id), rptAdminB)).statusCode).toBe(403);
    expect((await createKey(rptAdminB, { name: 'intrude', username: worker.email })).statusCode).toBe(403);
    expect((await call('DELETE', `${keysOf(tenants.orgA.id)}/${key.id}`, rptAdminB)).statusCode).toBe(403);
    expect((await call('DELETE', `${keysOf(tenants.orgB.id)}/${key.id}`, rptAdminB)).statusCode).toBe(404);
    expect(
      (await call('GET', `${keysOf(tenants.orgB.id)}?username=${worker.email}`, rptAdminB)).statusCode,
    ).toBe(404);
    const [row] = await server.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row).toBeDefined();
    expect((await call('GET', keysOf(tenants.orgA.id))).statusCode).toBe(401);
  });

  it('removing the member from the organization removes their keys there', async () => {
    const temp = await userWithRole(server, 'acme', tenants.orgA.id, 'temp@acme.test', WORKER_PERMISSIONS);
    await addMember(server.database.db, tenants.orgB.id, temp.id);
    const { rpt } = await rptFor(server, 'acme', temp.email, tenants.orgA.resourceId);
    const { secret } = (await createKey(rpt, { name: 'temp' })).json();
    expect((await call('DELETE', `${usersOf(tenants.orgA.id)}/${temp.id}`, rptAdminA)).statusCode).toBe(204);
    expect((await call('GET', usersOf(tenants.orgA.id), secret)).statusCode).toBe(401);
    expect(await server.database.db.select().from(apiKeys).where(eq(apiKeys.userId, temp.id))).toEqual([]);
  });
});
