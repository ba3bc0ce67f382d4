import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { auditLog, models, modelVersions, presets } from '../../db/schema.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../core/organizations/provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const rpt: Record<string, string> = {};
let orgC: { id: string; resourceId: string };

const modelsOf = (org: string) => `/svc/mappings/api/v1/organizations/${org}/models`;

const LINE = [
  { path: '/line/speed', type: 'number', unit: 'pcs/min', min: 0, max: 250 },
  { path: '/line/running', type: 'boolean' },
  { path: '/motor/temperature', type: 'number', unit: '°C' },
  { path: '/setpoints/speed', type: 'number', writable: true, min: 0, max: 200 },
];

async function auditOf(resourceId: string) {
  return server.database.db
    .select({ action: auditLog.action, detail: auditLog.detail })
    .from(auditLog)
    .where(eq(auditLog.resourceId, resourceId))
    .orderBy(auditLog.at);
}

async function countModels(organizationId: string) {
  return (await server.database.db.select().from(models).where(eq(models.organizationId, organizationId)))
    .length;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  // B has IoT off; C is another tenant with IoT on, whose administrator holds every models permission.
  const c = await createOrganization(db, { realm: 'acme', name: 'Org C', resourceId: 'acme-c' });
  orgC = c;
  const rolesC = await addDefaultRoles(db, c.id);
  const adminC = await createUser(db, {
    realm: 'acme',
    email: 'admin@acme-c.test',
    password: 'correct horse battery',
  });
  await addMember(db, c.id, adminC.id, [rolesC.administrator.id]);
  rpt.A = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rpt.B = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  rpt.C = (await rptFor(server, 'acme', adminC.email, c.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'models', scopes: ['READ'] },
  ]);
  rpt.reader = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
  const subAdmin = await userWithRole(server, 'acme', tenants.orgA1.id, 'modeller@acme-a1.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'models', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  ]);
  rpt.A1 = (await rptFor(server, 'acme', subAdmin.email, tenants.orgA1.resourceId)).rpt;
});
afterAll(() => server.close());

describe('POST /models/validate', () => {
  it('answers valid for a good model and stores nothing', async () => {
    const response = await call('POST', `${modelsOf(tenants.orgA.id)}/validate`, rpt.reader, {
      name: 'Line',
      paths: LINE,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ valid: true, errors: [] });
    expect(await countModels(tenants.orgA.id)).toBe(0);
  });

  it('reports every problem with where it is', async () => {
    const response = await call('POST', `${modelsOf(tenants.orgA.id)}/validate`, rpt.A, {
      name: '  ',
      paths: [
        { path: 'motor/speed', type: 'number' },
        { path: '/a b/c', type: 'number' },
        { path: '/x//y', type: 'number' },
        { path: '/tank/level', type: 'float' },
        { path: '/tank/level', type: 'number' },
        { path: '/limits', type: 'number', min: 10, max: 1 },
        { path: '/flag', type: 'boolean', min: 0 },
        { path: '/count', type: 'integer', max: 2.5 },
        { path: '/motor', type: 'number' },
        { path: '/motor/current', type: 'number' },
      ],
    });
    expect(response.statusCode).toBe(200);
    const { valid, errors } = response.json() as {
      valid: boolean;
      errors: { path: string; message: string }[];
    };
    expect(valid).toBe(false);
    const at = (path: string) => errors.filter((error) => error.path === path).map((error) => error.message);
    expect(at('name')).toEqual(['must not be blank']);
    expect(at('paths/0/path')[0]).toContain("must start with '/'");
    expect(at('paths/1/path')[0]).toContain("segment 'a b'");
    expect(at('paths/2/path')[0]).toContain('empty segment');
    expect(at('paths/3/type')).toEqual(['must be one of number, integer, boolean, string']);
    expect(at('paths/4/path')[0]).toContain('listed twice (also paths/3)');
    expect(at('paths/5/min')[0]).toContain('min (10) is greater than max (1)');
    expect(at('paths/6/min')[0]).toContain('number and integer paths only');
    expect(at('paths/7/max')[0]).toContain('whole number');
    expect(at('paths/8/path')[0]).toContain(
      "'/motor' holds a value and is also the parent of '/motor/current'",
    );
    expect(errors).toHaveLength(10);
  });

  it('refuses a body that is not a model, a caller without READ models and another tenant', async () => {
    expect(
      (await call('POST', `${modelsOf(tenants.orgA.id)}/validate`, rpt.A, { paths: 'x' })).statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${modelsOf(tenants.orgA.id)}/validate`, rpt.A, { paths: [], extra: 1 }))
        .statusCode,
    ).toBe(400);
    expect(
      (await call('POST', `${modelsOf(tenants.orgA.id)}/validate`, rpt.C, { paths: [] })).statusCode,
    ).toBe(403);
    expect((await call('POST', `${modelsOf(orgC.id)}/validate`, undefined, { paths: [] })).statusCode).toBe(
      401,
    );
  });
});

let lineId: string;

describe('creating and changing models', () => {
  it('creates a model as version 1 and records it', async () => {
    const response = await call('POST', modelsOf(tenants.orgA.id), rpt.A, {
      name: ' Line ',
      description: 'packaging',
      paths: LINE,
    });
    expect(response.statusCode).toBe(200);
    const model = response.json();
    lineId = model.id;
    expect(model).toMatchObject({
      name: 'Line',
      description: 'packaging',
      currentVersion: 1,
      organizationId: tenants.orgA.id,
      inherited: false,
      subOrgsEnabledToView: false,
      presetCount: 0,
    });
    expect(model.paths).toEqual(LINE);
    expect((await auditOf(lineId)).map((entry) => entry.action)).toEqual(['models.create']);
  });

  it('refuses a taken name (409), bad paths (400 naming the field) and a caller without CREATE models', async () => {
    const taken = await call('POST', modelsOf(tenants.orgA.id), rpt.A, { name: 'Line', paths: LINE });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('name');
    const bad = await call('POST', modelsOf(tenants.orgA.id), rpt.A, {
      name: 'Bad',
      paths: [
        { path: '/a', type: 'number' },
        { path: '/a/b', type: 'number' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('body/paths/0/path');
    const badType = await call('POST', modelsOf(tenants.orgA.id), rpt.A, {
      name: 'Bad',
      paths: [{ path: '/a', type: 'float' }],
    });
    expect(badType.statusCode).toBe(400);
    expect(badType.json().message).toContain('type');
    const empty = await call('POST', modelsOf(tenants.orgA.id), rpt.A, { name: 'Empty', paths: [] });
    expect(empty.statusCode).toBe(400);
    expect(
      (await call('POST', modelsOf(tenants.orgA.id), rpt.reader, { name: 'R', paths: LINE })).statusCode,
    ).toBe(403);
    expect(await countModels(tenants.orgA.id)).toBe(1);
  });

  it('a rename or a new description makes no version; new paths make version 2 current', async () => {
    const renamed = await call('PUT', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A, {
      name: 'Packaging line',
      description: 'hall 3',
      paths: [...LINE].reverse(),
    });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      name: 'Packaging line',
      description: 'hall 3',
      currentVersion: 1,
    });

    const changed = await call('PUT', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A, {
      paths: [...LINE, { path: '/tank/level', type: 'number', unit: '%' }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().currentVersion).toBe(2);
    expect(changed.json().paths).toHaveLength(5);

    const versions = await call('GET', `${modelsOf(tenants.orgA.id)}/${lineId}/versions`, rpt.reader);
    expect(versions.statusCode).toBe(200);
    expect(versions.json().map((v: { version: number; current: boolean }) => [v.version, v.current])).toEqual(
      [
        [2, true],
        [1, false],
      ],
    );
    expect(versions.json()[1].paths).toEqual(LINE);
    const audit = await auditOf(lineId);
    expect(audit.map((entry) => entry.action)).toEqual(['models.create', 'models.update', 'models.update']);
    expect(audit[1]?.detail).toMatchObject({ changes: { name: 'Packaging line', description: 'hall 3' } });
    expect(audit[1]?.detail).not.toHaveProperty('newVersion');
    expect(audit[2]?.detail).toMatchObject({ newVersion: 2, pathCount: 5 });
  });

  it('refuses bad updates and changes nothing', async () => {
    await call('POST', modelsOf(tenants.orgA.id), rpt.A, {
      name: 'Other',
      paths: [{ path: '/x', type: 'string' }],
    });
    const clash = await call('PUT', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A, { name: 'Other' });
    expect(clash.statusCode).toBe(409);
    const bad = await call('PUT', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A, {
      paths: [{ path: '/x', type: 'string', min: 1 }],
    });
    expect(bad.statusCode).toBe(400);
    expect((await call('PUT', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A, {})).statusCode).toBe(400);
    expect(
      (await call('PUT', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.reader, { name: 'R' })).statusCode,
    ).toBe(403);
    const [row] = await server.database.db.select().from(models).where(eq(models.id, lineId));
    expect(row).toMatchObject({ name: 'Packaging line', currentVersion: 2 });
  });
});

describe('reading models', () => {
  it('pages and searches the list with path counts, and lists names', async () => {
    const page = await call('GET', `${modelsOf(tenants.orgA.id)}?search=pack`, rpt.reader);
    expect(page.statusCode).toBe(200);
    expect(page.json()).toMatchObject({ total: 1, page: 0 });
    expect(page.json().items[0]).toMatchObject({ id: lineId, pathCount: 5, currentVersion: 2 });
    const sorted = await call(
      'GET',
      `${modelsOf(tenants.orgA.id)}?sort=name&order=desc&pageSize=1`,
      rpt.reader,
    );
    expect(sorted.json()).toMatchObject({ total: 2, pageSize: 1 });
    expect(sorted.json().items[0].name).toBe('Packaging line');
    expect((await call('GET', `${modelsOf(tenants.orgA.id)}?sort=secret`, rpt.reader)).statusCode).toBe(400);
    const names = await call('GET', `${modelsOf(tenants.orgA.id)}/names`, rpt.reader);
    expect(names.json().map((n: { name: string }) => n.name)).toEqual(['Other', 'Packaging line']);
  });

  it('searches paths across the models, paged (default size 100)', async () => {
    const all = await call('POST', `${modelsOf(tenants.orgA.id)}/paths/search`, rpt.reader, {
      query: 'SPEED',
    });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toMatchObject({ total: 2, page: 0, pageSize: 100 });
    expect(all.json().items).toEqual([
      {
        modelId: lineId,
        modelName: 'Packaging line',
        path: '/line/speed',
        type: 'number',
        unit: 'pcs/min',
        writable: false,
      },
      {
        modelId: lineId,
        modelName: 'Packaging line',
        path: '/setpoints/speed',
        type: 'number',
        unit: null,
        writable: true,
      },
    ]);
    const everything = await call('POST', `${modelsOf(tenants.orgA.id)}/paths/search`, rpt.reader, {
      pageSize: 2,
      page: 2,
    });
    expect(everything.json()).toMatchObject({ total: 6, page: 2, pageSize: 2 });
    expect(everything.json().items.map((hit: { path: string }) => hit.path)).toEqual([
      '/setpoints/speed',
      '/tank/level',
    ]);
    const literal = await call('POST', `${modelsOf(tenants.orgA.id)}/paths/search`, rpt.reader, {
      query: '%',
    });
    expect(literal.json().total).toBe(0);
    expect(
      (await call('POST', `${modelsOf(tenants.orgA.id)}/paths/search`, rpt.reader, { pageSize: 1001 }))
        .statusCode,
    ).toBe(400);
    // Another tenant's search never finds A's paths.
    const fromC = await call('POST', `${modelsOf(orgC.id)}/paths/search`, rpt.C, { query: 'speed' });
    expect(fromC.json().total).toBe(0);
    const scoped = await call('POST', `${modelsOf(orgC.id)}/paths/search`, rpt.C, { modelId: lineId });
    expect(scoped.json().total).toBe(0);
  });

  it("another tenant's administrator gets 403/404 and changes nothing", async () => {
    expect((await call('GET', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.C)).statusCode).toBe(403);
    expect((await call('GET', `${modelsOf(orgC.id)}/${lineId}`, rpt.C)).statusCode).toBe(404);
    expect((await call('GET', `${modelsOf(orgC.id)}/${lineId}/versions`, rpt.C)).statusCode).toBe(404);
    expect((await call('PUT', `${modelsOf(orgC.id)}/${lineId}`, rpt.C, { name: 'Stolen' })).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${modelsOf(orgC.id)}/${lineId}`, rpt.C)).statusCode).toBe(404);
    expect((await call('DELETE', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.C)).statusCode).toBe(403);
    expect(
      (
        await call('PUT', `${modelsOf(orgC.id)}/name/Packaging%20line/subOrgsEnabledToView`, rpt.C, {
          enabled: true,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('GET', modelsOf(orgC.id), rpt.C)).json().total).toBe(0);
    // B's organization has IoT off: models are out of reach even for its administrator.
    expect((await call('GET', modelsOf(tenants.orgB.id), rpt.B)).statusCode).toBe(403);
    const [row] = await server.database.db.select().from(models).where(eq(models.id, lineId));
    expect(row).toMatchObject({ name: 'Packaging line', subOrgsEnabledToView: false });
    expect((await call('GET', `${modelsOf(tenants.orgA.id)}/not-a-uuid`, rpt.A)).statusCode).toBe(400);
  });
});

describe('sharing models with sub-organizations', () => {
  it('a shared model is listed and readable in the sub-organization, marked inherited, never writable there', async () => {
    const before = await call('GET', modelsOf(tenants.orgA1.id), rpt.A1);
    expect(before.json().total).toBe(0);
    expect((await call('GET', `${modelsOf(tenants.orgA1.id)}/${lineId}`, rpt.A1)).statusCode).toBe(404);

    const shared = await call(
      'PUT',
      `${modelsOf(tenants.orgA.id)}/name/${encodeURIComponent('Packaging line')}/subOrgsEnabledToView`,
      rpt.A,
      { enabled: true },
    );
    expect(shared.statusCode).toBe(200);
    expect(shared.json().subOrgsEnabledToView).toBe(true);
    expect((await auditOf(lineId)).at(-1)?.action).toBe('models.share');

    const list = (await call('GET', modelsOf(tenants.orgA1.id), rpt.A1)).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: lineId, inherited: true, organizationId: tenants.orgA.id });
    const one = await call('GET', `${modelsOf(tenants.orgA1.id)}/${lineId}`, rpt.A1);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ inherited: true, currentVersion: 2 });
    const names = (await call('GET', `${modelsOf(tenants.orgA1.id)}/names`, rpt.A1)).json();
    expect(names).toEqual([{ id: lineId, name: 'Packaging line', inherited: true }]);
    const hits = (
      await call('POST', `${modelsOf(tenants.orgA1.id)}/paths/search`, rpt.A1, { query: 'tank' })
    ).json();
    expect(hits.items.map((hit: { path: string }) => hit.path)).toEqual(['/tank/level']);

    expect(
      (await call('PUT', `${modelsOf(tenants.orgA1.id)}/${lineId}`, rpt.A1, { name: 'Mine' })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${modelsOf(tenants.orgA1.id)}/${lineId}`, rpt.A1)).statusCode).toBe(403);
    expect(
      (
        await call(
          'PUT',
          `${modelsOf(tenants.orgA1.id)}/name/${encodeURIComponent('Packaging line')}/subOrgsEnabledToView`,
          rpt.A1,
          { enabled: false },
        )
      ).statusCode,
    ).toBe(404);
    // The other model of A is not shared.
    expect(list.items.map((m: { name: string }) => m.name)).not.toContain('Other');
    // The parent does not see the sub-organization's models.
    const own = await call('POST', modelsOf(tenants.orgA1.id), rpt.A1, {
      name: 'Sub model',
      paths: [{ path: '/s', type: 'integer' }],
    });
    expect(own.statusCode).toBe(200);
    expect((await call('GET', `${modelsOf(tenants.orgA.id)}/${own.json().id}`, rpt.A)).statusCode).toBe(404);

    await call('PUT', `${modelsOf(tenants.orgA.id)}/name/Packaging%20line/subOrgsEnabledToView`, rpt.A, {
      enabled: false,
    });
    expect((await call('GET', `${modelsOf(tenants.orgA1.id)}/${lineId}`, rpt.A1)).statusCode).toBe(404);
  });
});

describe('DELETE /models/{id}', () => {
  it('is refused with the count while presets use the model, then deletes it with its versions', async () => {
    const { db } = server.database;
    await db.insert(presets).values([
      { organizationId: tenants.orgA.id, name: 'P1', modelId: lineId, modelVersion: 1 },
      { organizationId: tenants.orgA.id, name: 'P2', modelId: lineId, modelVersion: 2 },
    ]);
    const refused = await call('DELETE', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('used by 2 presets');
    expect((await call('GET', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A)).json().presetCount).toBe(2);

    await db.delete(presets).where(eq(presets.modelId, lineId));
    expect((await call('DELETE', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.reader)).statusCode).toBe(403);
    const deleted = await call('DELETE', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A);
    expect(deleted.statusCode).toBe(204);
    expect(await db.select().from(modelVersions).where(eq(modelVersions.modelId, lineId))).toEqual([]);
    expect((await call('GET', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A)).statusCode).toBe(404);
    expect((await call('DELETE', `${modelsOf(tenants.orgA.id)}/${lineId}`, rpt.A)).statusCode).toBe(404);
    const [entry] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, lineId), eq(auditLog.action, 'models.delete')));
    expect(entry?.resourceName).toBe('Packaging line');
  });
});
