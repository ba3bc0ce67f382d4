import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { decodePayload, rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, groupMembers, groupRoles, userGroups } from '../../../db/schema.ts';
import { addMember, createRole, createUser } from '../organizations/provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;

const groupsOf = (org: string) => `/svc/core/api/v1/organizations/${org}/userGroups`;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

async function storedGroup(id: string) {
  const [row] = await server.database.db.select().from(userGroups).where(eq(userGroups.id, id));
  return row;
}
async function storedGroupRoles(id: string) {
  const rows = await server.database.db.select().from(groupRoles).where(eq(groupRoles.groupId, id));
  return rows.map((row) => row.roleId).sort();
}
async function auditActions(resourceId: string) {
  const rows = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, resourceId));
  return rows.map((row) => row.action);
}

type Permission = { rsname: string; scopes: string[] };
function holds(rpt: string, rsname: string, scope: string): boolean {
  const claims = decodePayload(rpt) as { authorization?: { permissions?: Permission[] } };
  return (claims.authorization?.permissions ?? []).some(
    (entry) => entry.rsname === rsname && entry.scopes.includes(scope),
  );
}

async function newGroup(name: string, org = tenants.orgA.id, token = rptA) {
  const response = await call('POST', groupsOf(org), token, { name, description: `${name} people` });
  expect(response.statusCode).toBe(200);
  return response.json() as { id: string; name: string };
}

describe('group CRUD', () => {
  it('creates, lists with paging and search, reads, renames and deletes groups, auditing each change', async () => {
    const maintenance = await newGroup('Maintenance');
    await newGroup('Operators');
    await newGroup('Quality');
    expect((await call('POST', groupsOf(tenants.orgA.id), rptA, { name: 'Maintenance' })).statusCode).toBe(
      409,
    );
    expect((await call('POST', groupsOf(tenants.orgB.id), rptB, { name: 'Maintenance' })).statusCode).toBe(
      200,
    );

    const page = (
      await call('GET', `${groupsOf(tenants.orgA.id)}?pageSize=2&sort=name&order=desc`, rptA)
    ).json();
    expect(page).toMatchObject({ total: 3, page: 0, pageSize: 2 });
    expect(page.items.map((group: { name: string }) => group.name)).toEqual(['Quality', 'Operators']);
    const searched = (await call('GET', `${groupsOf(tenants.orgA.resourceId)}?search=maint`, rptA)).json();
    expect(searched.items).toEqual([
      {
        id: maintenance.id,
        name: 'Maintenance',
        description: 'Maintenance people',
        memberCount: 0,
        roles: [],
      },
    ]);
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}?sort=password`, rptA)).statusCode).toBe(400);

    const renamed = await call('PUT', `${groupsOf(tenants.orgA.id)}/${maintenance.id}`, rptA, {
      name: 'Service',
    });
    expect(renamed.json()).toMatchObject({ name: 'Service', description: 'Maintenance people' });
    const clash = await call('PUT', `${groupsOf(tenants.orgA.id)}/${maintenance.id}`, rptA, {
      name: 'Quality',
    });
    expect(clash.statusCode).toBe(409);
    expect((await storedGroup(maintenance.id))?.name).toBe('Service');
    const empty = await call('PUT', `${groupsOf(tenants.orgA.id)}/${maintenance.id}`, rptA, { name: ' ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('name');

    expect((await call('DELETE', `${groupsOf(tenants.orgA.id)}/${maintenance.id}`, rptA)).statusCode).toBe(
      204,
    );
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/${maintenance.id}`, rptA)).statusCode).toBe(404);
    expect(await auditActions(maintenance.id)).toEqual([
      'usergroups.create',
      'usergroups.update',
      'usergroups.delete',
    ]);
  });

  it('validates bodies and ids, naming the field', async () => {
    const missing = await call('POST', groupsOf(tenants.orgA.id), rptA, { description: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('name');
    const long = await call('POST', groupsOf(tenants.orgA.id), rptA, { name: 'x'.repeat(121) });
    expect(long.statusCode).toBe(400);
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/123`, rptA)).statusCode).toBe(400);
  });
});

describe('members and roles of a group', () => {
  let group: { id: string };
  let worker: { id: string; email: string };

  beforeAll(async () => {
    group = await newGroup('Shift A');
    worker = await createUser(server.database.db, {
      realm: 'acme',
      email: 'worker@acme.test',
      password: PASSWORD,
      firstName: 'Wanda',
      lastName: 'Worker',
    });
    await addMember(server.database.db, tenants.orgA.id, worker.id, [
      (
        await createRole(server.database.db, tenants.orgA.id, 'Portal only', [
          { rsname: 'portal', scopes: ['ACCESS'] },
        ])
      ).id,
    ]);
  });

  it('adds an organization member with a role, changes the role by posting again, lists and removes members', async () => {
    const url = `${groupsOf(tenants.orgA.id)}/${group.id}/members/${worker.id}`;
    const added = await call('POST', `${url}?role=${tenants.rolesA.operator.id}`, rptA);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({
      userId: worker.id,
      email: 'worker@acme.test',
      firstName: 'Wanda',
      lastName: 'Worker',
      role: { id: tenants.rolesA.operator.id, name: 'Operator' },
    });
    const changed = await call('POST', url, rptA);
    expect(changed.json().role).toBeNull();
    await call('POST', `${url}?role=${tenants.rolesA.operator.id}`, rptA);

    const members = (
      await call('GET', `${groupsOf(tenants.orgA.id)}/${group.id}/members?search=wanda`, rptA)
    ).json();
    expect(members).toMatchObject({ total: 1, items: [{ userId: worker.id, role: { name: 'Operator' } }] });
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/${group.id}`, rptA)).json().memberCount).toBe(1);

    // Someone outside the organization, a role of another organization, and a group of another organization: 404.
    const outsider = await call(
      'POST',
      `${groupsOf(tenants.orgA.id)}/${group.id}/members/${tenants.adminB.id}`,
      rptA,
    );
    expect(outsider.statusCode).toBe(404);
    const foreignRole = await call('POST', `${url}?role=${tenants.rolesB.operator.id}`, rptA);
    expect(foreignRole.statusCode).toBe(404);
    const [stored] = await server.database.db
      .select()
      .from(groupMembers)
      .where(and(eq(groupMembers.groupId, group.id), eq(groupMembers.userId, worker.id)));
    expect(stored?.roleId).toBe(tenants.rolesA.operator.id);
    expect((await call('POST', `${url}?role=not-a-uuid`, rptA)).statusCode).toBe(400);

    expect(await auditActions(group.id)).toEqual(
      expect.arrayContaining(['usergroups.addMember', 'usergroups.changeMemberRole']),
    );
  });

  it('shows the members of the groups the caller belongs to', async () => {
    const { rpt } = await rptFor(server, 'acme', worker.email, tenants.orgA.resourceId);
    const mine = await call('GET', `${groupsOf(tenants.orgA.id)}/mine/members`, rpt);
    expect(mine.statusCode).toBe(200);
    expect(mine.json().items).toEqual([
      expect.objectContaining({ groupId: group.id, groupName: 'Shift A', userId: worker.id }),
    ]);
    // The administrator is in no group.
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/mine/members`, rptA)).json().total).toBe(0);
  });

  it('adds and removes roles (comma-joined); a foreign role among them changes nothing', async () => {
    const base = `${groupsOf(tenants.orgA.id)}/${group.id}/roles`;
    const both = `${tenants.rolesA.operator.id},${tenants.rolesA.administrator.id}`;
    const added = await call('POST', `${base}/${both}`, rptA);
    expect(added.statusCode).toBe(200);
    expect(added.json().roles.map((role: { name: string }) => role.name)).toEqual([
      'Administrator',
      'Operator',
    ]);

    const mixed = await call(
      'DELETE',
      `${base}/${tenants.rolesA.operator.id},${tenants.rolesB.operator.id}`,
      rptA,
    );
    expect(mixed.statusCode).toBe(404);
    expect(await storedGroupRoles(group.id)).toEqual(
      [tenants.rolesA.operator.id, tenants.rolesA.administrator.id].sort(),
    );
    const mixedAdd = await call('POST', `${base}/${tenants.rolesB.administrator.id}`, rptA);
    expect(mixedAdd.statusCode).toBe(404);
    expect((await call('POST', `${base}/nonsense`, rptA)).statusCode).toBe(400);

    const removed = await call('DELETE', `${base}/${tenants.rolesA.administrator.id}`, rptA);
    expect(removed.json().roles).toEqual([{ id: tenants.rolesA.operator.id, name: 'Operator' }]);
    expect(await auditActions(group.id)).toEqual(
      expect.arrayContaining(['usergroups.addRoles', 'usergroups.removeRoles']),
    );

    const listed = (await call('GET', `${groupsOf(tenants.orgA.id)}?search=Shift`, rptA)).json();
    expect(listed.items[0].roles).toEqual([{ id: tenants.rolesA.operator.id, name: 'Operator' }]);
  });

  it('removes a member; removing again answers 404', async () => {
    const url = `${groupsOf(tenants.orgA.id)}/${group.id}/members/${worker.id}`;
    expect((await call('DELETE', url, rptA)).statusCode).toBe(204);
    expect((await call('DELETE', url, rptA)).statusCode).toBe(404);
    expect(await auditActions(group.id)).toContain('usergroups.removeMember');
  });
});

describe('groups are real: the next RPT follows them', () => {
  it("gives a group member the group's new role, and the member role, with the next token", async () => {
    const { db } = server.database;
    const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'member@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const alarmRole = await createRole(db, tenants.orgA.id, 'Alarm handler', [
      { rsname: 'alarms', scopes: ['ACK'] },
    ]);
    const auditRole = await createRole(db, tenants.orgA.id, 'Auditor', [
      { rsname: 'audit', scopes: ['ACCESS'] },
    ]);
    const group = await newGroup('Alarm team');
    await call('POST', `${groupsOf(tenants.orgA.id)}/${group.id}/members/${reader.id}`, rptA);
    const before = await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId);
    expect(holds(before.rpt, 'alarms', 'ACK')).toBe(false);

    await call('POST', `${groupsOf(tenants.orgA.id)}/${group.id}/roles/${alarmRole.id}`, rptA);
    const withGroupRole = await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId);
    expect(holds(withGroupRole.rpt, 'alarms', 'ACK')).toBe(true);
    expect(holds(withGroupRole.rpt, 'audit', 'ACCESS')).toBe(false);

    await call(
      'POST',
      `${groupsOf(tenants.orgA.id)}/${group.id}/members/${reader.id}?role=${auditRole.id}`,
      rptA,
    );
    const withMemberRole = await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId);
    expect(holds(withMemberRole.rpt, 'audit', 'ACCESS')).toBe(true);

    await call('DELETE', `${groupsOf(tenants.orgA.id)}/${group.id}/members/${reader.id}`, rptA);
    const after = await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId);
    expect(holds(after.rpt, 'alarms', 'ACK')).toBe(false);
    expect(holds(after.rpt, 'audit', 'ACCESS')).toBe(false);
  });
});

describe('tenant boundaries', () => {
  it("refuses organization B's admin on A's groups: 403 on A, 404 for A's ids under B, nothing changes", async () => {
    const group = await newGroup('Private');
    const aUrl = `${groupsOf(tenants.orgA.id)}/${group.id}`;
    const bUrl = `${groupsOf(tenants.orgB.id)}/${group.id}`;
    expect((await call('GET', groupsOf(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect((await call('PUT', aUrl, rptB, { name: 'Taken' })).statusCode).toBe(403);
    expect((await call('DELETE', aUrl, rptB)).statusCode).toBe(403);
    expect((await call('GET', bUrl, rptB)).statusCode).toBe(404);
    expect((await call('PUT', bUrl, rptB, { name: 'Taken' })).statusCode).toBe(404);
    expect((await call('DELETE', bUrl, rptB)).statusCode).toBe(404);
    expect((await call('GET', `${bUrl}/members`, rptB)).statusCode).toBe(404);
    expect((await call('POST', `${bUrl}/members/${tenants.adminB.id}`, rptB)).statusCode).toBe(404);
    expect((await call('POST', `${bUrl}/roles/${tenants.rolesB.operator.id}`, rptB)).statusCode).toBe(404);
    expect((await storedGroup(group.id))?.name).toBe('Private');
    expect(await storedGroupRoles(group.id)).toEqual([]);
  });

  it('refuses a caller lacking UPDATE usergroups in their own organization', async () => {
    const viewer = await userWithRole(server, 'acme', tenants.orgA.id, 'groupviewer@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'usergroups', scopes: ['READ'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', viewer.email, tenants.orgA.resourceId);
    const group = await newGroup('Locked');
    expect((await call('GET', `${groupsOf(tenants.orgA.id)}/${group.id}`, rpt)).statusCode).toBe(200);
    expect((await call('POST', groupsOf(tenants.orgA.id), rpt, { name: 'Mine' })).statusCode).toBe(403);
    expect(
      (
        await call(
          'POST',
          `${groupsOf(tenants.orgA.id)}/${group.id}/roles/${tenants.rolesA.administrator.id}`,
          rpt,
        )
      ).statusCode,
    ).toBe(403);
    expect(await storedGroupRoles(group.id)).toEqual([]);
    expect(
      (await call('POST', `${groupsOf(tenants.orgA.id)}/${group.id}/members/${viewer.id}`, rpt)).statusCode,
    ).toBe(403);
  });
});
