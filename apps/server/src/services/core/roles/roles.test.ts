import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { decodePayload, rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, roles, userRoles } from '../../../db/schema.ts';
import { createDevice } from '../devices/provisioning.ts';
import { addMember, createRole, createUser } from '../organizations/provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let loginA: string;

const rolesOf = (org: string) => `/svc/core/api/v1/organizations/${org}/roles`;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const sessionA = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
  rptA = sessionA.rpt;
  loginA = sessionA.accessToken;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

async function storedRole(id: string) {
  const [row] = await server.database.db.select().from(roles).where(eq(roles.id, id));
  return row;
}

async function roleCount(organizationId: string) {
  return (await server.database.db.select().from(roles).where(eq(roles.organizationId, organizationId)))
    .length;
}

type Permission = { rsname: string; scopes: string[] };
function permissionsIn(rpt: string): Permission[] {
  const claims = decodePayload(rpt) as { authorization?: { permissions?: Permission[] } };
  return claims.authorization?.permissions ?? [];
}
const holds = (rpt: string, rsname: string, scope: string) =>
  permissionsIn(rpt).some((entry) => entry.rsname === rsname && entry.scopes.includes(scope));

describe('role list and reads', () => {
  it('lists the roles of the organization with usage, filters by kind and search, and checks the sort', async () => {
    const response = await call('GET', `${rolesOf(tenants.orgA.id)}?sort=name`, rptA);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.items.map((role: { name: string }) => role.name)).toEqual(['Administrator', 'Operator']);
    expect(page).toMatchObject({ total: 2, page: 0, pageSize: 50 });
    expect(page.items[0]).toMatchObject({ kind: 'general', usage: { users: 1, groups: 0 } });

    const searched = await call('GET', `${rolesOf(tenants.orgA.resourceId)}?search=oper`, rptA);
    expect(searched.json().items.map((role: { name: string }) => role.name)).toEqual(['Operator']);
    const devices = await call('GET', `${rolesOf(tenants.orgA.id)}?kind=device`, rptA);
    expect(devices.json().total).toBe(0);

    const badKind = await call('GET', `${rolesOf(tenants.orgA.id)}?kind=magic`, rptA);
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toContain('kind');
    const badSort = await call('GET', `${rolesOf(tenants.orgA.id)}?sort=secret`, rptA);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('sort');
  });

  it('answers exists by role NAME, and 400 for ids that are no uuid', async () => {
    expect((await call('GET', `${rolesOf(tenants.orgA.id)}/Operator/exists`, rptA)).json()).toEqual({
      exists: true,
    });
    expect((await call('GET', `${rolesOf(tenants.orgA.id)}/Nobody/exists`, rptA)).json()).toEqual({
      exists: false,
    });
    // Organization B's Operator is no role of A's for B's admin either way.
    expect((await call('GET', `${rolesOf(tenants.orgA.id)}/Operator/exists`, rptB)).statusCode).toBe(403);
    expect((await call('GET', `${rolesOf(tenants.orgA.id)}/not-a-uuid`, rptA)).statusCode).toBe(400);
  });
});

describe('role create, update, delete', () => {
  let roleId: string;

  it('creates a role, audits it, and refuses a second role of the same name with 409', async () => {
    const created = await call('POST', rolesOf(tenants.orgA.id), rptA, {
      name: 'Viewer',
      description: 'reads things',
      permissions: [
        { rsname: 'portal', scopes: ['ACCESS'] },
        { rsname: 'devices', scopes: ['READ', 'READ'] },
        { rsname: 'users', scopes: ['DELETE'], inverted: true, conditions: { email: 'boss@acme.test' } },
      ],
      modelPathPermissions: [{ path: '/plant/line1', read: true, write: false }],
      applicationPermissionIds: ['data.export'],
      deviceAccess: { deviceGroupIds: [], deviceIds: [], vpn: false },
      owners: [tenants.adminA.id],
    });
    expect(created.statusCode).toBe(200);
    const role = created.json();
    roleId = role.id;
    expect(role).toMatchObject({
      name: 'Viewer',
      kind: 'general',
      applicationPermissionIds: ['data.export'],
      owners: [tenants.adminA.id],
      usage: { users: 0, groups: 0 },
    });
    expect(role.permissions[1]).toEqual({ rsname: 'devices', scopes: ['READ'] });
    expect(role.permissions[2]).toMatchObject({ inverted: true, conditions: { email: 'boss@acme.test' } });

    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'roles.create'), eq(auditLog.resourceId, roleId)));
    expect(record).toMatchObject({ organizationId: tenants.orgA.id, resourceName: 'Viewer' });

    const again = await call('POST', rolesOf(tenants.orgA.id), rptA, { name: 'Viewer' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain("'Viewer'");
    // The same name in another organization is fine.
    expect((await call('POST', rolesOf(tenants.orgB.id), rptB, { name: 'Viewer' })).statusCode).toBe(200);
  });

  it('refuses invalid content with 400 naming the field, and creates nothing', async () => {
    const before = await roleCount(tenants.orgA.id);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: 'X', permissions: [{ rsname: 'spaceships', scopes: ['READ'] }] }, 'rsname'],
      [{ name: 'X', permissions: [{ rsname: 'devices', scopes: ['FLY'] }] }, 'scopes'],
      [{ name: 'X', permissions: [{ rsname: 'devices', scopes: [] }] }, 'scopes'],
      [
        { name: 'X', permissions: [{ rsname: 'devices', scopes: ['READ'], conditions: 'yes' }] },
        'conditions',
      ],
      [{ name: 'X', permissions: [{ rsname: 'devices', scopes: ['READ'], conditions: [1] }] }, 'conditions'],
      [
        {
          name: 'X',
          permissions: [{ rsname: 'devices', scopes: ['READ'], conditions: { email: { $in: 5 } } }],
        },
        'conditions',
      ],
      [{ name: 'X', modelPathPermissions: [{ path: 'plant', read: true, write: false }] }, 'path'],
      [{ name: 'X', modelPathPermissions: [{ path: '', read: true, write: false }] }, 'path'],
      [{ name: 'X', applicationPermissionIds: ['no.such.thing'] }, 'applicationPermissionIds'],
      [{ name: 'X', deviceAccess: { deviceGroupIds: [], deviceIds: ['dev-1'], vpn: true } }, 'deviceIds'],
      [{ name: 'X', owners: [tenants.adminB.id] }, 'owners'],
      [{ name: 'X', kind: 'superuser' }, 'kind'],
      [{ name: 'X', extra: true }, "unknown property 'extra'"],
    ];
    for (const [body, field] of cases) {
      const response = await call('POST', rolesOf(tenants.orgA.id), rptA, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().message, JSON.stringify(body)).toContain(field);
    }
    expect(await roleCount(tenants.orgA.id)).toBe(before);
  });

  it('reads, updates and reads the model-path permissions of a role', async () => {
    const read = await call('GET', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA);
    expect(read.json().name).toBe('Viewer');
    const updated = await call('PUT', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA, {
      kind: 'data',
      modelPathPermissions: [
        { path: '/plant', read: true, write: true },
        { path: '/plant/line2', read: true, write: false },
      ],
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      name: 'Viewer',
      kind: 'data',
      applicationPermissionIds: ['data.export'],
    });
    const paths = await call('GET', `${rolesOf(tenants.orgA.id)}/${roleId}/modelPathPermissions`, rptA);
    expect(paths.json()).toEqual([
      { path: '/plant', read: true, write: true },
      { path: '/plant/line2', read: true, write: false },
    ]);
    const clash = await call('PUT', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA, { name: 'Operator' });
    expect(clash.statusCode).toBe(409);
    expect((await storedRole(roleId))?.name).toBe('Viewer');
    const twice = await call('PUT', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA, {
      modelPathPermissions: [
        { path: '/a', read: true, write: false },
        { path: '/a', read: false, write: false },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('modelPathPermissions');
  });

  it('refuses to delete a role in use with 409 counting users and groups, and deletes it once unused', async () => {
    const { db } = server.database;
    const user = await createUser(db, { realm: 'acme', email: 'holder@acme.test' });
    await addMember(db, tenants.orgA.id, user.id, [roleId]);
    const group = await call('POST', `/svc/core/api/v1/organizations/${tenants.orgA.id}/userGroups`, rptA, {
      name: 'Holders',
    });
    await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/userGroups/${group.json().id}/roles/${roleId}`,
      rptA,
    );
    const listed = await call('GET', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA);
    expect(listed.json().usage).toEqual({ users: 1, groups: 1 });

    const refused = await call('DELETE', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      "role 'Viewer' is used by 1 group and 1 user; remove it from them first",
    );
    expect(await storedRole(roleId)).toBeDefined();

    await call(
      'DELETE',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/userGroups/${group.json().id}/roles/${roleId}`,
      rptA,
    );
    await db.delete(userRoles).where(eq(userRoles.roleId, roleId));
    const deleted = await call('DELETE', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA);
    expect(deleted.statusCode).toBe(204);
    expect(await storedRole(roleId)).toBeUndefined();
    expect((await call('GET', `${rolesOf(tenants.orgA.id)}/${roleId}`, rptA)).statusCode).toBe(404);
    const records = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, roleId), eq(auditLog.action, 'roles.delete')));
    expect(records).toHaveLength(1);
  });
});

describe('tenant boundaries', () => {
  it("refuses organization B's admin on A's roles (403 with B's token on A, 404 for A's ids under B), changing nothing", async () => {
    const operatorA = tenants.rolesA.operator.id;
    expect((await call('GET', rolesOf(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect(
      (await call('PUT', `${rolesOf(tenants.orgA.id)}/${operatorA}`, rptB, { name: 'pwned' })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${rolesOf(tenants.orgA.id)}/${operatorA}`, rptB)).statusCode).toBe(403);
    expect((await call('GET', `${rolesOf(tenants.orgB.id)}/${operatorA}`, rptB)).statusCode).toBe(404);
    expect(
      (await call('PUT', `${rolesOf(tenants.orgB.id)}/${operatorA}`, rptB, { name: 'pwned' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `${rolesOf(tenants.orgB.id)}/${operatorA}`, rptB)).statusCode).toBe(404);
    expect(
      (await call('GET', `${rolesOf(tenants.orgB.id)}/${operatorA}/modelPathPermissions`, rptB)).statusCode,
    ).toBe(404);
    expect((await storedRole(operatorA))?.name).toBe('Operator');
    // A plain login token is no RPT for any organization.
    expect((await call('GET', rolesOf(tenants.orgA.id), loginA)).statusCode).toBe(403);
  });

  it("keeps a sub-organization's administrator away from the parent's roles", async () => {
    const { db } = server.database;
    const subAdminRole = await createRole(db, tenants.orgA1.id, 'Sub admin', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'roles', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
    ]);
    const subAdmin = await createUser(db, {
      realm: 'acme',
      email: 'sub@acme.test',
      password: 'correct horse battery',
    });
    await addMember(db, tenants.orgA1.id, subAdmin.id, [subAdminRole.id]);
    const { rpt } = await rptFor(server, 'acme', subAdmin.email, tenants.orgA1.resourceId);
    const operatorA = tenants.rolesA.operator.id;
    expect((await call('GET', rolesOf(tenants.orgA1.id), rpt)).statusCode).toBe(200);
    expect((await call('GET', rolesOf(tenants.orgA.id), rpt)).statusCode).toBe(403);
    expect(
      (await call('PUT', `${rolesOf(tenants.orgA1.id)}/${operatorA}`, rpt, { name: 'mine' })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `${rolesOf(tenants.orgA1.id)}/${operatorA}`, rpt)).statusCode).toBe(404);
    expect((await storedRole(operatorA))?.name).toBe('Operator');
  });

  it('refuses callers without the permission in their own organization', async () => {
    const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'roles', scopes: ['READ'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId);
    expect((await call('GET', rolesOf(tenants.orgA.id), rpt)).statusCode).toBe(200);
    expect((await call('POST', rolesOf(tenants.orgA.id), rpt, { name: 'Mine' })).statusCode).toBe(403);
    expect(
      (await call('PUT', `${rolesOf(tenants.orgA.id)}/${tenants.rolesA.operator.id}`, rpt, { name: 'x' }))
        .statusCode,
    ).toBe(403);
  });
});

describe('roles are real: the next RPT follows them', () => {
  it('drops READ devices from the next RPT after the role loses it', async () => {
    const { db } = server.database;
    const role = await createRole(db, tenants.orgA.id, 'Field reader', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ'] },
    ]);
    const user = await createUser(db, {
      realm: 'acme',
      email: 'field@acme.test',
      password: 'correct horse battery',
    });
    await addMember(db, tenants.orgA.id, user.id, [role.id]);
    const before = await rptFor(server, 'acme', user.email, tenants.orgA.resourceId);
    expect(holds(before.rpt, 'devices', 'READ')).toBe(true);

    const changed = await call('PUT', `${rolesOf(tenants.orgA.id)}/${role.id}`, rptA, {
      permissions: [{ rsname: 'portal', scopes: ['ACCESS'] }],
    });
    expect(changed.statusCode).toBe(200);
    const after = await rptFor(server, 'acme', user.email, tenants.orgA.resourceId);
    expect(holds(after.rpt, 'devices', 'READ')).toBe(false);
    expect(holds(after.rpt, 'portal', 'ACCESS')).toBe(true);
  });
});

describe('application permissions', () => {
  it('lists the catalogue by name for any signed-in token, 500 a page at most', async () => {
    const response = await call('GET', '/svc/core/api/v1/applicationpermissions/all', loginA);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page.pageSize).toBe(500);
    const names = page.items.map((entry: { name: string }) => entry.name);
    expect(names).toContain('dashboards.designer');
    expect(names).toEqual([...names].sort());
    expect(page.items.find((entry: { id: string }) => entry.id === 'vpn.connect')).toMatchObject({
      application: 'Remote access',
    });
    const small = await call('GET', '/svc/core/api/v1/applicationpermissions/all?page=1&pageSize=2', rptB);
    expect(small.json()).toMatchObject({ page: 1, pageSize: 2, total: page.total });
    expect(small.json().items.map((entry: { name: string }) => entry.name)).toEqual(names.slice(2, 4));
    const tooMany = await call('GET', '/svc/core/api/v1/applicationpermissions/all?pageSize=501', loginA);
    expect(tooMany.statusCode).toBe(400);
    expect((await call('GET', '/svc/core/api/v1/applicationpermissions/all')).statusCode).toBe(401);
  });

  it('tells which application permissions a change of roles and groups adds, revokes and keeps', async () => {
    const { db } = server.database;
    const org = tenants.orgA.id;
    const exporter = (
      await call('POST', rolesOf(org), rptA, {
        name: 'Exporter',
        applicationPermissionIds: ['data.export', 'dashboards.share'],
      })
    ).json();
    const remote = (
      await call('POST', rolesOf(org), rptA, {
        name: 'Remote',
        applicationPermissionIds: ['vpn.connect', 'dashboards.share'],
      })
    ).json();
    const user = await createUser(db, { realm: 'acme', email: 'apps@acme.test' });
    await addMember(db, org, user.id, [exporter.id]);
    const group = (
      await call('POST', `/svc/core/api/v1/organizations/${org}/userGroups`, rptA, { name: 'Remote people' })
    ).json();
    await call(
      'POST',
      `/svc/core/api/v1/organizations/${org}/userGroups/${group.id}/roles/${remote.id}`,
      rptA,
    );

    const url = `${rolesOf(org)}/testApplicationPermissions`;
    const result = await call('POST', url, rptA, {
      userId: user.id,
      rolesToRemove: [exporter.id],
      groupsToAdd: [group.id],
      groupsToRemove: [],
      rolesToAdd: [],
      revokedOnly: false,
    });
    expect(result.statusCode).toBe(200);
    const byId = Object.fromEntries(
      result.json().map((entry: { id: string; change: string }) => [entry.id, entry.change]),
    );
    expect(byId).toEqual({ 'data.export': 'revoked', 'dashboards.share': 'kept', 'vpn.connect': 'added' });

    const revoked = await call('POST', url, rptA, {
      userId: user.id,
      rolesToRemove: [exporter.id],
      groupsToAdd: [group.id],
      revokedOnly: true,
    });
    expect(revoked.json().map((entry: { id: string }) => entry.id)).toEqual(['data.export']);

    // The caller by default: the administrator holds no application permission yet.
    const mine = await call('POST', url, rptA, { rolesToAdd: [remote.id] });
    expect(mine.json().every((entry: { change: string }) => entry.change === 'added')).toBe(true);

    // Ids of another organization answer 404; B's admin cannot test A's users.
    const foreign = await call('POST', url, rptA, {
      userId: user.id,
      rolesToAdd: [tenants.rolesB.operator.id],
    });
    expect(foreign.statusCode).toBe(404);
    expect(
      (
        await call('POST', `${rolesOf(tenants.orgB.id)}/testApplicationPermissions`, rptB, {
          userId: user.id,
        })
      ).statusCode,
    ).toBe(404);
  });
});

describe('device authorization', () => {
  let deviceA: string;
  let deviceB: string;
  let foreignDevice: string;
  beforeAll(async () => {
    deviceA = (await createDevice(server.database.db, tenants.orgA.id, 'Press 1')).id;
    deviceB = (await createDevice(server.database.db, tenants.orgA.id, 'Press 2')).id;
    foreignDevice = (await createDevice(server.database.db, tenants.orgB.id, 'Other press')).id;
  });
  const groupA = '5b3b4c7e-2222-4a7e-9d3c-000000000001';

  it('authorizes READ devices holders without device roles, and device roles only for what they cover', async () => {
    const { db } = server.database;
    const admin = await call(
      'GET',
      `${rolesOf(tenants.orgA.id)}/isAuthorized?deviceId=${deviceA}&vpnName=x`,
      rptA,
    );
    expect(admin.json()).toEqual({ authorized: true });
    for (const elsewhere of [foreignDevice, '00000000-0000-4000-8000-000000000000']) {
      const answer = await call(
        'GET',
        `${rolesOf(tenants.orgA.id)}/isAuthorized?deviceId=${elsewhere}`,
        rptA,
      );
      expect(answer.json(), 'a device of another organization or none at all').toEqual({ authorized: false });
    }

    const nobody = await userWithRole(server, 'acme', tenants.orgA.id, 'portal-only@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const nobodyRpt = (await rptFor(server, 'acme', nobody.email, tenants.orgA.resourceId)).rpt;
    expect(
      (await call('GET', `${rolesOf(tenants.orgA.id)}/isAuthorized?deviceId=${deviceA}`, nobodyRpt)).json(),
    ).toEqual({ authorized: false });

    const technician = await userWithRole(server, 'acme', tenants.orgA.id, 'tech@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'devices', scopes: ['READ'] },
    ]);
    const deviceRole = await createRole(db, tenants.orgA.id, 'Line 1 devices', []);
    await call('PUT', `${rolesOf(tenants.orgA.id)}/${deviceRole.id}`, rptA, {
      kind: 'device',
      deviceAccess: { deviceGroupIds: [groupA], deviceIds: [deviceA], vpn: false },
    });
    await addMember(db, tenants.orgA.id, technician.id, [deviceRole.id]);
    const techRpt = (await rptFor(server, 'acme', technician.email, tenants.orgA.resourceId)).rpt;
    const ask = (query: string) => call('GET', `${rolesOf(tenants.orgA.id)}/isAuthorized?${query}`, techRpt);
    expect((await ask(`deviceId=${deviceA}`)).json().authorized).toBe(true);
    expect((await ask(`deviceId=${deviceB}`)).json().authorized).toBe(false);
    expect((await ask(`deviceGroup=${groupA}`)).json().authorized).toBe(true);
    expect((await ask(`deviceId=${deviceA}&vpnName=plant-vpn`)).json().authorized).toBe(false);
    expect((await ask('deviceId=nope')).statusCode).toBe(400);

    const many = await call('POST', `${rolesOf(tenants.orgA.id)}/areAuthorized`, techRpt, [
      { deviceId: deviceA },
      { deviceId: deviceB },
      { deviceGroup: groupA, vpnName: 'plant-vpn' },
    ]);
    expect(many.json().map((entry: { authorized: boolean }) => entry.authorized)).toEqual([
      true,
      false,
      false,
    ]);
    expect(
      (await call('POST', `${rolesOf(tenants.orgA.id)}/areAuthorized`, rptB, [{ deviceId: deviceA }]))
        .statusCode,
    ).toBe(403);
  });
});
