import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, modelPaths, models, modelVersions, organizations } from '../../../db/schema.ts';
import { addDefaultRoles, addMember, createOrganization, createUser } from '../organizations/provisioning.ts';
import { MAX_REGISTERED_PATHS } from './service.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptAdminA: string;
let rptAdminB: string;

const pathsOf = (org: string) => `/svc/core/api/v1/organizations/${org}/modelPaths`;
const modelsOf = (org: string) => `/svc/mappings/api/v1/organizations/${org}/models`;

/** A fresh organization with an administrator, so each test sees only its own paths. */
async function tenant(slug: string) {
  const { db } = server.database;
  const org = await createOrganization(db, {
    realm: 'acme',
    name: `Org ${slug}`,
    resourceId: `acme-${slug}`,
  });
  const roles = await addDefaultRoles(db, org.id);
  const admin = await createUser(db, { realm: 'acme', email: `admin@acme-${slug}.test`, password: PASSWORD });
  await addMember(db, org.id, admin.id, [roles.administrator.id]);
  return { id: org.id, rpt: (await rptFor(server, 'acme', admin.email, org.resourceId)).rpt };
}

async function storedPaths(organizationId: string) {
  const rows = await server.database.db
    .select({ path: modelPaths.path, createdAt: modelPaths.createdAt })
    .from(modelPaths)
    .where(eq(modelPaths.organizationId, organizationId))
    .orderBy(modelPaths.path);
  return rows;
}

async function registrationsAudited(organizationId: string) {
  return server.database.db
    .select({ detail: auditLog.detail, actorEmail: auditLog.actorEmail })
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, organizationId), eq(auditLog.action, 'modelPaths.register')))
    .orderBy(auditLog.id);
}

/** A model stored directly: organization B has IoT off, so its models cannot be made through the API. */
async function storeModel(organizationId: string, name: string, paths: string[]) {
  const { db } = server.database;
  const [model] = await db.insert(models).values({ organizationId, name }).returning();
  if (!model) throw new Error('model insert returned nothing');
  await db.insert(modelVersions).values({
    modelId: model.id,
    version: 1,
    paths: paths.map((path) => ({ path, type: 'number' as const })),
  });
}

const registered = (path: string) => ({ path, source: 'registered' });
const fromModel = (path: string) => ({ path, source: 'model' });

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server, 'acme');
  rptAdminA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptAdminB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

describe('Model paths (spec 7 Core "Model paths: GET/POST /modelPaths")', () => {
  it('registers paths idempotently, answers 201 with the rows and audits what was new', async () => {
    const org = await tenant('register');
    const first = await call('POST', pathsOf(org.id), org.rpt, { paths: ['/plant/b', ' /plant/a '] });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual([registered('/plant/a'), registered('/plant/b')]);
    const before = await storedPaths(org.id);
    expect(before.map((row) => row.path)).toEqual(['/plant/a', '/plant/b']);

    const again = await call('POST', pathsOf(org.id), org.rpt, { paths: ['/plant/c', '/plant/a'] });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual([registered('/plant/a'), registered('/plant/c')]);
    const after = await storedPaths(org.id);
    expect(after.map((row) => row.path)).toEqual(['/plant/a', '/plant/b', '/plant/c']);
    expect(after[0]?.createdAt).toEqual(before[0]?.createdAt);

    expect((await call('POST', pathsOf(org.id), org.rpt, { paths: ['/plant/b'] })).statusCode).toBe(201);
    const audits = await registrationsAudited(org.id);
    expect(audits.map((audit) => audit.detail)).toEqual([
      { added: expect.arrayContaining(['/plant/a', '/plant/b']), kept: [] },
      { added: ['/plant/c'], kept: ['/plant/a'] },
    ]);
    expect(audits[0]?.actorEmail).toBe('admin@acme-register.test');
  });

  it('refuses a bad body with 400 naming the field and stores nothing', async () => {
    const org = await tenant('invalid');
    const cases: [unknown, string][] = [
      [{ paths: ['/valid/first', '/b', 'c'] }, "body/paths/2 must start with '/'"],
      [{ paths: ['/valid/first', '  '] }, "body/paths/1 must start with '/'"],
      [{ paths: ['/valid/first', ' /valid/first'] }, "body/paths/1 '/valid/first' is listed twice"],
      [{ paths: ['/valid/first', `/${'x'.repeat(500)}`] }, 'body/paths/1'],
      [{ paths: [] }, 'body/paths'],
      [{ paths: Array.from({ length: 101 }, (_, index) => `/p/${index}`) }, 'body/paths'],
      [{}, 'paths'],
      [{ paths: ['/valid/first'], extra: true }, 'extra'],
      [{ paths: ['/valid/first', { path: '/x' }] }, 'body/paths/1'],
    ];
    for (const [body, message] of cases) {
      const response = await call('POST', pathsOf(org.id), org.rpt, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message).toContain(message);
    }
    expect(await storedPaths(org.id)).toEqual([]);
    expect(await registrationsAudited(org.id)).toEqual([]);
  });

  it("lists the registered paths and those of the current versions of the organization's models, sorted, with their source", async () => {
    const org = await tenant('lister');
    const line = await call('POST', modelsOf(org.id), org.rpt, {
      name: 'Line',
      paths: [
        { path: '/line/speed', type: 'number' },
        { path: '/line/running', type: 'boolean' },
      ],
    });
    expect(line.statusCode).toBe(200);
    const changed = await call('PUT', `${modelsOf(org.id)}/${line.json().id}`, org.rpt, {
      paths: [
        { path: '/line/speed', type: 'number' },
        { path: '/motor/temperature', type: 'number' },
      ],
    });
    expect(changed.statusCode).toBe(200);
    await storeModel(org.id, 'Pump', ['/motor/temperature', '/pump/pressure']);
    await call('POST', pathsOf(org.id), org.rpt, { paths: ['/zone/a', '/line/speed'] });

    const all = await call('GET', pathsOf(org.id), org.rpt);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual({
      items: [
        registered('/line/speed'),
        fromModel('/motor/temperature'),
        fromModel('/pump/pressure'),
        registered('/zone/a'),
      ],
      total: 4,
      page: 0,
      pageSize: 100,
    });

    const second = await call('GET', `${pathsOf(org.id)}?page=1&pageSize=3`, org.rpt);
    expect(second.json()).toEqual({ items: [registered('/zone/a')], total: 4, page: 1, pageSize: 3 });
    const searched = await call('GET', `${pathsOf(org.id)}?search=MOTOR`, org.rpt);
    expect(searched.json()).toMatchObject({ items: [fromModel('/motor/temperature')], total: 1 });
    const literal = await call('GET', `${pathsOf(org.id)}?search=%25`, org.rpt);
    expect(literal.json()).toMatchObject({ items: [], total: 0 });
    const tooLarge = await call('GET', `${pathsOf(org.id)}?pageSize=1001`, org.rpt);
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().message).toContain('pageSize');
  });

  it('lets READ roles list and needs UPDATE roles to register', async () => {
    const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'role-reader@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'roles', scopes: ['READ'] },
    ]);
    const outsider = await userWithRole(server, 'acme', tenants.orgA.id, 'no-roles@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const rptReader = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
    const rptOutsider = (await rptFor(server, 'acme', outsider.email, tenants.orgA.resourceId)).rpt;

    expect((await call('GET', pathsOf(tenants.orgA.id), rptReader)).statusCode).toBe(200);
    const refused = await call('POST', pathsOf(tenants.orgA.id), rptReader, { paths: ['/reader/path'] });
    expect(refused.statusCode).toBe(403);
    expect((await call('GET', pathsOf(tenants.orgA.id), rptOutsider)).statusCode).toBe(403);
    expect((await storedPaths(tenants.orgA.id)).map((row) => row.path)).not.toContain('/reader/path');
    expect((await call('GET', pathsOf(tenants.orgA.id))).statusCode).toBe(401);
    expect((await call('GET', pathsOf('no-such-organization'), rptAdminA)).statusCode).toBe(404);
  });

  it("keeps organizations apart: one organization's token can neither read nor register another's paths", async () => {
    await call('POST', pathsOf(tenants.orgA.id), rptAdminA, { paths: ['/secret/a'] });
    await call('POST', pathsOf(tenants.orgB.id), rptAdminB, { paths: ['/secret/b'] });
    await storeModel(tenants.orgB.id, 'B line', ['/secret/b-model']);

    expect((await call('GET', pathsOf(tenants.orgA.id), rptAdminB)).statusCode).toBe(403);
    expect((await call('GET', pathsOf(tenants.orgB.id), rptAdminA)).statusCode).toBe(403);
    const intrusion = await call('POST', pathsOf(tenants.orgA.id), rptAdminB, { paths: ['/intruder'] });
    expect(intrusion.statusCode).toBe(403);
    expect((await call('POST', pathsOf(tenants.orgB.id), rptAdminA, { paths: ['/x'] })).statusCode).toBe(403);

    const ownA = await call('GET', `${pathsOf(tenants.orgA.id)}?search=secret`, rptAdminA);
    expect(ownA.json()).toMatchObject({ items: [registered('/secret/a')], total: 1 });
    const ownB = await call('GET', `${pathsOf(tenants.orgB.id)}?search=secret`, rptAdminB);
    expect(ownB.json()).toMatchObject({
      items: [registered('/secret/b'), fromModel('/secret/b-model')],
      total: 2,
    });
    expect((await storedPaths(tenants.orgA.id)).map((row) => row.path)).not.toContain('/intruder');
    expect((await storedPaths(tenants.orgB.id)).map((row) => row.path)).toEqual(['/secret/b']);
  });

  it('refuses more than the cap with 409 and removes the paths with their organization', async () => {
    const org = await tenant('capped');
    const { db } = server.database;
    await db.insert(modelPaths).values(
      Array.from({ length: MAX_REGISTERED_PATHS }, (_, index) => ({
        organizationId: org.id,
        path: `/n/${index}`,
      })),
    );
    const over = await call('POST', pathsOf(org.id), org.rpt, { paths: ['/one/more'] });
    expect(over.statusCode).toBe(409);
    expect((await storedPaths(org.id)).map((row) => row.path)).not.toContain('/one/more');

    await db.delete(organizations).where(eq(organizations.id, org.id));
    expect(await storedPaths(org.id)).toEqual([]);
  });
});
