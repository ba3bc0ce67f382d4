import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { passwordLogin, TestBrowser } from '../../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  groupMembers,
  memberships,
  organizationInvitations,
  organizationLimits,
  roles,
  securityPolicies,
  userGroups,
  userRoles,
  users,
} from '../../../db/schema.ts';
import { recentMail } from '../../../mail/outbox.ts';
import { addMember, createRole, createUser } from '../organizations/provisioning.ts';

/**
 * Issue 32, F1: an organization's administrator adding an account of another organization (same realm) used to make
 * it a member at once and could then change its password, e-mail and enabled state: a takeover. Now an existing
 * account is only invited, its owner answers, and credentials are changed only by organizations owning the account.
 */

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;

const users$ = (org: string) => `/svc/core/api/v1/organizations/${org}/users`;
const invitations$ = (org: string) => `/svc/core/api/v1/organizations/${org}/invitations`;
const MINE = '/svc/core/api/v1/account/invitations';

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server, 'acme');
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

/** A member of organization A with a password, the victim of B's administrator. */
async function memberOfA(email: string) {
  const user = await createUser(server.database.db, { realm: 'acme', email, password: PASSWORD });
  await addMember(server.database.db, tenants.orgA.id, user.id, [tenants.rolesA.operator.id]);
  return user;
}

async function stored(id: string) {
  const [row] = await server.database.db.select().from(users).where(eq(users.id, id));
  return row;
}

async function isMember(organizationId: string, userId: string) {
  const rows = await server.database.db
    .select()
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)));
  return rows.length > 0;
}

async function loginToken(email: string, password = PASSWORD) {
  return (await passwordLogin(new TestBrowser(server.app, 'acme'), 'acme', email, password)).access_token;
}

async function auditActions(organizationId: string, resourceName: string) {
  const rows = await server.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.organizationId, organizationId), eq(auditLog.resourceName, resourceName)));
  return rows.map((row) => row.action);
}

describe("an administrator adding another organization's account", () => {
  it('only invites it (202): not a member, nothing of it changes through the inviting organization', async () => {
    const victim = await memberOfA('victim@acme-a.test');
    const before = await stored(victim.id);

    const added = await call('POST', users$(tenants.orgB.id), rptB, {
      email: 'Victim@acme-a.test',
      roleIds: [tenants.rolesB.administrator.id],
    });
    expect(added.statusCode).toBe(202);
    const invitation = added.json();
    expect(invitation).toMatchObject({
      email: 'victim@acme-a.test',
      invitedBy: tenants.adminB.email,
      roles: [{ id: tenants.rolesB.administrator.id, name: 'Administrator' }],
      groups: [],
    });
    // The answer names no id or name of the account: it is A's, not B's.
    expect(JSON.stringify(invitation)).not.toContain(victim.id);
    expect(await isMember(tenants.orgB.id, victim.id)).toBe(false);

    // Nothing of the account can be read or changed through B: it answers like any non-member.
    const user = `${users$(tenants.orgB.id)}/${victim.id}`;
    for (const body of [
      { password: 'taken over 123' },
      { email: 'attacker@evil.test' },
      { enabled: false },
    ]) {
      expect((await call('PUT', user, rptB, body)).statusCode).toBe(404);
    }
    expect((await call('PUT', user, rptB, { passwordChangeInvitation: true })).statusCode).toBe(404);
    expect((await call('GET', user, rptB)).statusCode).toBe(404);
    expect((await call('GET', `${user}/securityPolicies`, rptB)).statusCode).toBe(404);
    expect((await call('DELETE', user, rptB)).statusCode).toBe(404);
    const list = (await call('GET', `${users$(tenants.orgB.id)}?search=victim`, rptB)).json();
    expect(list.total).toBe(0);
    expect(await stored(victim.id)).toEqual(before);
    // The owner still signs in with their own password, and gets no permission token for B.
    expect(await loginToken('victim@acme-a.test')).toBeTruthy();
    await expect(rptFor(server, 'acme', 'victim@acme-a.test', tenants.orgB.resourceId)).rejects.toThrow();

    // The owner is told by e-mail, in their language, with a link to the portal (no token in it).
    const [mail] = await recentMail(server.database.db, 'victim@acme-a.test');
    expect(mail?.subject).toBe('Org B invites you to join on Edgeport');
    expect(mail?.text).toContain('http://acme.app.localhost:8080/#/organization');
    expect(mail?.text).not.toContain('action-token');

    // A second invitation is refused; the organization sees the pending one and the audit log has it.
    const again = await call('POST', users$(tenants.orgB.id), rptB, { email: 'victim@acme-a.test' });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already invited');
    const pending = (await call('GET', invitations$(tenants.orgB.id), rptB)).json();
    expect(pending).toMatchObject({ total: 1, items: [{ id: invitation.id, email: 'victim@acme-a.test' }] });
    expect((await call('GET', `${invitations$(tenants.orgB.id)}/${invitation.id}`, rptB)).statusCode).toBe(
      200,
    );
    expect(await auditActions(tenants.orgB.id, 'victim@acme-a.test')).toEqual(['invitations.create']);
  });

  it('gets no answer from /users/{name}/exists about accounts of other organizations', async () => {
    await memberOfA('quiet@acme-a.test');
    const exists = (email: string, token: string) =>
      call('GET', `/svc/core/api/v1/users/${encodeURIComponent(email)}/exists`, token);
    expect((await exists('quiet@acme-a.test', rptB)).json()).toEqual({ exists: false });
    expect((await exists(tenants.adminA.email, rptB)).json()).toEqual({ exists: false });
    expect((await exists('quiet@acme-a.test', rptA)).json()).toEqual({ exists: true });
    expect((await exists(tenants.adminB.email, rptB)).json()).toEqual({ exists: true });
    // Once B invited it, B knows about it (it typed the e-mail itself).
    expect(
      (await call('POST', users$(tenants.orgB.id), rptB, { email: 'quiet@acme-a.test' })).statusCode,
    ).toBe(202);
    expect((await exists('quiet@acme-a.test', rptB)).json()).toEqual({ exists: true });
  });
});

describe("the invited account's owner", () => {
  it('sees the invitation and alone answers it; accepting joins with the roles and groups that still exist', async () => {
    const { db } = server.database;
    const invitee = await memberOfA('joiner@acme-a.test');
    const outsider = await memberOfA('outsider@acme-a.test');
    const [keptGroup, goneGroup] = await db
      .insert(userGroups)
      .values([
        { organizationId: tenants.orgB.id, name: 'Kept group' },
        { organizationId: tenants.orgB.id, name: 'Gone group' },
      ])
      .returning();
    const goneRole = await createRole(db, tenants.orgB.id, 'Gone role', []);
    const invited = await call('POST', users$(tenants.orgB.id), rptB, {
      email: 'joiner@acme-a.test',
      roleIds: [tenants.rolesB.operator.id, goneRole.id],
      groupIds: [keptGroup?.id, goneGroup?.id],
    });
    expect(invited.statusCode).toBe(202);
    const { id } = invited.json();
    await db.delete(roles).where(eq(roles.id, goneRole.id));
    await db.delete(userGroups).where(eq(userGroups.id, goneGroup?.id ?? ''));

    const own = await loginToken('joiner@acme-a.test');
    const mine = await call('GET', MINE, own);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual([
      {
        id,
        organization: { id: tenants.orgB.id, resourceId: tenants.orgB.resourceId, name: 'Org B' },
        invitedBy: tenants.adminB.email,
        createdAt: expect.any(String),
      },
    ]);

    // Another account (even an administrator of either organization) neither sees nor answers it.
    const other = await loginToken('outsider@acme-a.test');
    expect((await call('GET', MINE, other)).json()).toEqual([]);
    for (const token of [other, rptB, rptA]) {
      expect((await call('POST', `${MINE}/${id}/accept`, token)).statusCode).toBe(404);
      expect((await call('POST', `${MINE}/${id}/decline`, token)).statusCode).toBe(404);
    }
    expect((await call('GET', MINE)).statusCode).toBe(401);
    expect(await isMember(tenants.orgB.id, outsider.id)).toBe(false);
    expect(await isMember(tenants.orgB.id, invitee.id)).toBe(false);

    const accepted = await call('POST', `${MINE}/${id}/accept`, own);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ id: tenants.orgB.id, name: 'Org B' });
    expect(await isMember(tenants.orgB.id, invitee.id)).toBe(true);
    const heldRoles = await db.select().from(userRoles).where(eq(userRoles.userId, invitee.id));
    expect(heldRoles.map((row) => row.roleId).sort()).toEqual(
      [tenants.rolesA.operator.id, tenants.rolesB.operator.id].sort(),
    );
    const heldGroups = await db.select().from(groupMembers).where(eq(groupMembers.userId, invitee.id));
    expect(heldGroups.map((row) => row.groupId)).toEqual([keptGroup?.id]);
    const organizations = (await call('GET', '/svc/core/api/v1/organizations/mine', own)).json();
    expect(organizations.map((org: { id: string }) => org.id)).toContain(tenants.orgB.id);
    expect((await rptFor(server, 'acme', 'joiner@acme-a.test', tenants.orgB.resourceId)).rpt).toBeTruthy();

    expect((await call('GET', MINE, own)).json()).toEqual([]);
    expect((await call('POST', `${MINE}/${id}/accept`, own)).statusCode).toBe(404);
    expect((await call('GET', invitations$(tenants.orgB.id), rptB)).json().items).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ id })]),
    );
    expect(await auditActions(tenants.orgB.id, 'joiner@acme-a.test')).toEqual([
      'invitations.create',
      'invitations.accept',
    ]);
  });

  it('declines; the organization revokes; either way nothing joins and the other answer finds nothing', async () => {
    const decliner = await memberOfA('decliner@acme-a.test');
    const revoked = await memberOfA('revoked@acme-a.test');
    const first = (await call('POST', users$(tenants.orgB.id), rptB, { email: decliner.email })).json();
    const second = (await call('POST', users$(tenants.orgB.id), rptB, { email: revoked.email })).json();

    const declinerToken = await loginToken(decliner.email);
    expect((await call('POST', `${MINE}/${first.id}/decline`, declinerToken)).statusCode).toBe(204);
    expect((await call('POST', `${MINE}/${first.id}/accept`, declinerToken)).statusCode).toBe(404);
    expect((await call('DELETE', `${invitations$(tenants.orgB.id)}/${first.id}`, rptB)).statusCode).toBe(404);

    // Revoking needs DELETE on users in the inviting organization: A's administrator cannot touch B's invitation.
    expect((await call('DELETE', `${invitations$(tenants.orgB.id)}/${second.id}`, rptA)).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `${invitations$(tenants.orgA.id)}/${second.id}`, rptA)).statusCode).toBe(
      404,
    );
    expect((await call('GET', `${invitations$(tenants.orgA.id)}/${second.id}`, rptA)).statusCode).toBe(404);
    expect((await call('DELETE', `${invitations$(tenants.orgB.id)}/${second.id}`, rptB)).statusCode).toBe(
      204,
    );
    const revokedToken = await loginToken(revoked.email);
    expect((await call('GET', MINE, revokedToken)).json()).toEqual([]);
    expect((await call('POST', `${MINE}/${second.id}/accept`, revokedToken)).statusCode).toBe(404);

    expect(await isMember(tenants.orgB.id, decliner.id)).toBe(false);
    expect(await isMember(tenants.orgB.id, revoked.id)).toBe(false);
    expect(await auditActions(tenants.orgB.id, decliner.email)).toEqual([
      'invitations.create',
      'invitations.decline',
    ]);
    expect(await auditActions(tenants.orgB.id, revoked.email)).toEqual([
      'invitations.create',
      'invitations.revoke',
    ]);
    // After a decline the organization may ask again.
    expect((await call('POST', users$(tenants.orgB.id), rptB, { email: decliner.email })).statusCode).toBe(
      202,
    );
  });

  it('accepts once when two answers race', async () => {
    const racer = await memberOfA('racer@acme-a.test');
    const { id } = (await call('POST', users$(tenants.orgB.id), rptB, { email: racer.email })).json();
    const token = await loginToken(racer.email);
    const answers = await Promise.all([
      call('POST', `${MINE}/${id}/accept`, token),
      call('POST', `${MINE}/${id}/accept`, token),
      call('POST', `${MINE}/${id}/decline`, token),
    ]);
    const codes = answers.map((answer) => answer.statusCode).sort();
    expect(codes.filter((code) => code === 404)).toHaveLength(2);
    const rows = await server.database.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.userId, racer.id));
    expect(rows).toEqual([]);
  });

  it("stays pending when the organization's users limit is reached by the time it is accepted", async () => {
    const { db } = server.database;
    const late = await memberOfA('late.joiner@acme-a.test');
    const { id } = (await call('POST', users$(tenants.orgB.id), rptB, { email: late.email })).json();
    const [members] = await db
      .select({ value: count() })
      .from(memberships)
      .where(eq(memberships.organizationId, tenants.orgB.id));
    await db
      .insert(organizationLimits)
      .values({ organizationId: tenants.orgB.id, limits: { users: members?.value } });
    try {
      const token = await loginToken(late.email);
      const refused = await call('POST', `${MINE}/${id}/accept`, token);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('limit');
      expect(await isMember(tenants.orgB.id, late.id)).toBe(false);
      expect((await call('GET', MINE, token)).json()).toEqual([expect.objectContaining({ id })]);
      const another = await call('POST', users$(tenants.orgB.id), rptB, { email: 'nobody.yet@acme-b.test' });
      expect(another.statusCode).toBe(409);
    } finally {
      await db.delete(organizationLimits).where(eq(organizationLimits.organizationId, tenants.orgB.id));
    }
  });

  it('cannot be answered, nor the account changed, with a personal API key', async () => {
    const keyed = await memberOfA('keyed@acme-a.test');
    const created = await call('POST', `/svc/core/api/v1/organizations/${tenants.orgA.id}/apiKeys`, rptA, {
      name: 'automation',
      username: keyed.email,
    });
    expect(created.statusCode).toBe(201);
    const key = created.json().secret as string;
    const { id } = (await call('POST', users$(tenants.orgB.id), rptB, { email: keyed.email })).json();
    expect((await call('GET', MINE, key)).statusCode).toBe(403);
    expect((await call('POST', `${MINE}/${id}/accept`, key)).statusCode).toBe(403);
    expect((await call('PATCH', '/svc/core/api/v1/account', key, { firstName: 'Keyed' })).statusCode).toBe(
      403,
    );
    expect(await isMember(tenants.orgB.id, keyed.id)).toBe(false);
    expect((await stored(keyed.id))?.firstName).toBe('');
  });
});

describe('an account of two organizations', () => {
  it("is its owner's: neither organization changes its credentials, e-mail or state; roles and membership stay theirs", async () => {
    const shared = await memberOfA('shared.owner@acme-a.test');
    const { id } = (await call('POST', users$(tenants.orgB.id), rptB, { email: shared.email })).json();
    expect((await call('POST', `${MINE}/${id}/accept`, await loginToken(shared.email))).statusCode).toBe(200);
    const before = await stored(shared.id);

    for (const [org, rpt] of [
      [tenants.orgB.id, rptB],
      [tenants.orgA.id, rptA],
    ] as const) {
      const user = `${users$(org)}/${shared.id}`;
      const shown = (await call('GET', user, rpt)).json();
      expect(shown.accountManaged).toBe(false);
      for (const body of [
        { password: 'taken over 123' },
        { email: 'attacker@evil.test' },
        { enabled: false },
        { passwordChangeInvitation: true },
        { firstName: 'Renamed' },
      ]) {
        const refused = await call('PUT', user, rpt, body);
        expect(refused.statusCode).toBe(403);
        expect(refused.json().message).toContain('another organization');
      }
      // A PUT that changes nothing is still fine.
      expect((await call('PUT', user, rpt, { firstName: '' })).statusCode).toBe(200);
    }
    expect(await stored(shared.id)).toEqual(before);
    expect(await loginToken(shared.email)).toBeTruthy();

    // Organization-local things stay allowed: groups, and removing the membership (the account stays, A's). A
    // sign-in policy is not organization-local (it restricts the one sign-in to every organization): refused.
    const { db } = server.database;
    const [group] = await db
      .insert(userGroups)
      .values({ organizationId: tenants.orgB.id, name: 'Shift' })
      .returning();
    const [policy] = await db
      .insert(securityPolicies)
      .values({
        organizationId: tenants.orgB.id,
        name: 'B office only',
        rules: { allowedIpRanges: ['203.0.113.0/24'], requireTotp: false, maxSessionMinutes: 0 },
      })
      .returning();
    const joined = await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgB.id}/userGroups/${group?.id}/members/${shared.id}?role=${tenants.rolesB.operator.id}`,
      rptB,
    );
    expect(joined.statusCode).toBe(200);
    const policies = `${users$(tenants.orgB.id)}/${shared.id}/securityPolicies`;
    const restricted = await call('POST', `${policies}/${policy?.id}`, rptB);
    expect(restricted.statusCode).toBe(403);
    expect(restricted.json().message).toContain('sign-in');
    expect((await call('GET', policies, rptB)).json()).toEqual([]);
    expect(await loginToken(shared.email)).toBeTruthy();
    expect((await call('DELETE', `${users$(tenants.orgB.id)}/${shared.id}`, rptB)).statusCode).toBe(204);
    expect(await stored(shared.id)).toBeDefined();
    expect(await isMember(tenants.orgA.id, shared.id)).toBe(true);
    // A owns it alone again.
    const renamed = await call('PUT', `${users$(tenants.orgA.id)}/${shared.id}`, rptA, { firstName: 'Back' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json().accountManaged).toBe(true);
  });

  it("is managed by a parent organization over its sub-organizations, not by a sub-organization over its parent's", async () => {
    const { db } = server.database;
    const both = await memberOfA('both.levels@acme-a.test');
    await addMember(db, tenants.orgA1.id, both.id);
    const onlyA1 = await createUser(db, { realm: 'acme', email: 'only.a1@acme-a.test', password: PASSWORD });
    await addMember(db, tenants.orgA1.id, onlyA1.id);
    const adminA1 = await userWithRole(server, 'acme', tenants.orgA1.id, 'admin@acme-a1.test', [
      { rsname: 'users', scopes: ['READ', 'UPDATE'] },
    ]);
    const rptA1 = (await rptFor(server, 'acme', adminA1.email, tenants.orgA1.resourceId)).rpt;

    const fromA1 = await call('PUT', `${users$(tenants.orgA1.id)}/${both.id}`, rptA1, { enabled: false });
    expect(fromA1.statusCode).toBe(403);
    expect((await stored(both.id))?.enabled).toBe(true);
    expect(
      (await call('PUT', `${users$(tenants.orgA1.id)}/${onlyA1.id}`, rptA1, { lastName: 'Sub' })).statusCode,
    ).toBe(200);
    const fromA = await call('PUT', `${users$(tenants.orgA.id)}/${both.id}`, rptA, { lastName: 'Parent' });
    expect(fromA.statusCode).toBe(200);
    expect(fromA.json().accountManaged).toBe(true);
  });
});
