import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { passwordLogin, TestBrowser } from '../../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  actionTokens,
  auditLog,
  groupMembers,
  memberships,
  securityPolicies,
  userGroups,
  userRoles,
  userSecurityPolicies,
  users,
} from '../../../db/schema.ts';
import { recentMail } from '../../../mail/outbox.ts';
import { addMember, createOrganization, createUser } from '../organizations/provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let loginA: string;

const base = (org: string) => `/svc/core/api/v1/organizations/${org}/users`;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server, 'acme');
  const a = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
  rptA = a.rpt;
  loginA = a.accessToken;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

async function account(email: string) {
  const [row] = await server.database.db.select().from(users).where(eq(users.email, email));
  return row;
}

async function auditActions(resourceId: string) {
  const rows = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, resourceId));
  return rows.map((row) => row.action);
}

function linkIn(text: string): string {
  const match = /(http\S+\/login-actions\/action-token\?key=\S+)/.exec(text);
  if (!match?.[1]) throw new Error(`no action link in: ${text}`);
  return match[1];
}

describe('listing members: paging, search, sort', () => {
  let listOrg: Awaited<ReturnType<typeof createOrganization>>;
  let listRpt: string;

  beforeAll(async () => {
    const { db } = server.database;
    listOrg = await createOrganization(db, { realm: 'acme', name: 'Listing', resourceId: 'acme-list' });
    const lister = await userWithRole(server, 'acme', listOrg.id, 'lister@acme.test', [
      { rsname: 'users', scopes: ['READ'] },
    ]);
    const names = ['Zoe', 'Anna', 'Mario', 'Berta', 'Carl', 'Dora', 'Emil', 'Fritz', 'Gina', 'Hugo'];
    for (const [index, name] of names.entries()) {
      const user = await createUser(db, {
        realm: 'acme',
        email: `member${String(index).padStart(2, '0')}@list.test`,
        firstName: name,
        lastName: `Last${String(9 - index)}`,
      });
      await addMember(db, listOrg.id, user.id);
    }
    const [group] = await db
      .insert(userGroups)
      .values({ organizationId: listOrg.id, name: 'Night shift' })
      .returning();
    const zoe = await account('member00@list.test');
    if (!group || !zoe) throw new Error('seed failed');
    await db.insert(groupMembers).values({ groupId: group.id, userId: zoe.id });
    // A role of another organization held by the same person must not show up in this organization's list.
    await db.insert(userRoles).values({ userId: zoe.id, roleId: tenants.rolesA.operator.id });
    listRpt = (await rptFor(server, 'acme', lister.email, listOrg.resourceId)).rpt;
    expect(lister).toBeDefined();
  });

  it('pages sorted by email by default, with the total', async () => {
    const first = await call('GET', `${base(listOrg.id)}?pageSize=4`, listRpt);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.total).toBe(11);
    expect(body.pageSize).toBe(4);
    expect(body.items.map((item: { email: string }) => item.email)).toEqual([
      'lister@acme.test',
      'member00@list.test',
      'member01@list.test',
      'member02@list.test',
    ]);
    const last = (await call('GET', `${base(listOrg.resourceId)}?pageSize=4&page=2`, listRpt)).json();
    expect(last.items).toHaveLength(3);
    expect(last.page).toBe(2);
  });

  it('sorts by first name descending and searches names and e-mails case-insensitively', async () => {
    const sorted = (
      await call('GET', `${base(listOrg.id)}?sort=firstName&order=desc&pageSize=2`, listRpt)
    ).json();
    expect(sorted.items.map((item: { firstName: string }) => item.firstName)).toEqual(['Zoe', 'Mario']);
    const found = (await call('GET', `${base(listOrg.id)}?search=GINA`, listRpt)).json();
    expect(found.total).toBe(1);
    expect(found.items[0].email).toBe('member08@list.test');
    const byLast = (await call('GET', `${base(listOrg.id)}?search=last0`, listRpt)).json();
    expect(byLast.items.map((item: { firstName: string }) => item.firstName)).toEqual(['Hugo']);
    const beyond = (
      await call('GET', `${base(listOrg.id)}?search=list.test&page=5&pageSize=4`, listRpt)
    ).json();
    expect(beyond).toMatchObject({ items: [], total: 10, page: 5 });
    const searchedPage = (
      await call('GET', `${base(listOrg.id)}?search=LIST.test&page=2&pageSize=4`, listRpt)
    ).json();
    expect(searchedPage.total).toBe(10);
    expect(searchedPage.items.map((item: { email: string }) => item.email)).toEqual([
      'member08@list.test',
      'member09@list.test',
    ]);
    // LIKE wildcards are searched as text.
    expect((await call('GET', `${base(listOrg.id)}?search=%25`, listRpt)).json().total).toBe(0);
  });

  it("shows this organization's groups and only its own roles", async () => {
    const zoe = (await call('GET', `${base(listOrg.id)}?search=zoe`, listRpt)).json().items[0];
    expect(zoe.groups).toEqual([expect.objectContaining({ name: 'Night shift' })]);
    expect(zoe.roles).toEqual([]);
  });

  it('refuses an unknown sort field and too large pages, naming the parameter', async () => {
    const badSort = await call('GET', `${base(listOrg.id)}?sort=passwordHash`, listRpt);
    expect(badSort.statusCode).toBe(400);
    expect(badSort.json().message).toContain('sort');
    const big = await call('GET', `${base(listOrg.id)}?pageSize=5000`, listRpt);
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toContain('pageSize');
  });

  it('answers a page of an organization with 10,000 members quickly', async () => {
    const { db } = server.database;
    const big = await createOrganization(db, { realm: 'acme', name: 'Big', resourceId: 'acme-big' });
    const reader = await userWithRole(server, 'acme', big.id, 'big-reader@acme.test', [
      { rsname: 'users', scopes: ['READ'] },
    ]);
    for (let chunk = 0; chunk < 10; chunk++) {
      const rows = await db
        .insert(users)
        .values(
          Array.from({ length: 1000 }, (_, index) => ({
            realm: 'acme',
            email: `bulk${chunk * 1000 + index}@big.test`,
            firstName: `First${index}`,
            lastName: `Last${chunk}`,
          })),
        )
        .returning({ id: users.id });
      await db.insert(memberships).values(rows.map((row) => ({ organizationId: big.id, userId: row.id })));
    }
    const { rpt } = await rptFor(server, 'acme', reader.email, big.resourceId);
    const started = performance.now();
    const page = await call('GET', `${base(big.id)}?page=37&pageSize=100&sort=lastName&order=desc`, rpt);
    const searched = await call('GET', `${base(big.id)}?search=bulk9999`, rpt);
    const elapsed = performance.now() - started;
    expect(page.statusCode).toBe(200);
    expect(page.json().total).toBe(10_001);
    expect(page.json().items).toHaveLength(100);
    expect(searched.json().items.map((item: { email: string }) => item.email)).toEqual(['bulk9999@big.test']);
    expect(elapsed).toBeLessThan(2000);
  });
});

describe('inviting', () => {
  it('creates a new account without password, mails a working one-time link in its language', async () => {
    const response = await call('POST', base(tenants.orgA.id), rptA, {
      email: 'New.Person@Example.test',
      firstName: 'Nina',
      lastName: 'Neu',
      roleIds: [tenants.rolesA.operator.id],
      locale: 'de-DE',
    });
    expect(response.statusCode).toBe(201);
    const item = response.json();
    expect(item).toMatchObject({
      email: 'new.person@example.test',
      firstName: 'Nina',
      invitationPending: true,
      requiredActions: ['UPDATE_PASSWORD'],
      roles: [{ id: tenants.rolesA.operator.id, name: 'Operator' }],
    });
    const stored = await account('new.person@example.test');
    expect(stored?.passwordHash).toBeNull();

    const [mail] = await recentMail(server.database.db, 'new.person@example.test');
    expect(mail?.subject).toBe('Einladung zu Org A auf Edgeport');
    expect(mail?.sentAt).not.toBeNull();
    const link = linkIn(mail?.text ?? '');
    expect(
      link.startsWith('http://acme.app.localhost:8080/auth/realms/acme/login-actions/action-token?key='),
    ).toBe(true);
    expect(mail?.html).toContain('Passwort festlegen');

    const browser = new TestBrowser(server.app, 'acme');
    const page = await browser.request('GET', link);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Passwort aktualisieren');
    expect(page.body).toContain('new.person@example.test');
    const short = await browser.request('POST', link, {
      'password-new': 'short',
      'password-confirm': 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('Mindestlänge 8');
    const mismatch = await browser.request('POST', link, {
      'password-new': 'a long password',
      'password-confirm': 'another long one',
      lang: 'en',
    });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.body).toContain('Passwords don&#39;t match.');

    const done = await browser.request('POST', link, {
      'password-new': 'my new password',
      'password-confirm': 'my new password',
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('http://acme.app.localhost:8080/');
    const after = await account('new.person@example.test');
    expect(after?.requiredActions).toEqual([]);
    expect(after?.passwordChangeInvitation).toBe(false);

    const again = await browser.request('GET', link);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('kc-error-message');
    const replay = await browser.request('POST', link, {
      'password-new': 'hijacked password',
      'password-confirm': 'hijacked password',
    });
    expect(replay.statusCode).toBe(400);

    const tokens = await passwordLogin(
      new TestBrowser(server.app, 'acme'),
      'acme',
      'new.person@example.test',
      'my new password',
    );
    expect(tokens.access_token).toBeTruthy();
    expect(await auditActions(item.id)).toContain('users.invite');
  });

  it('answers 400 for unknown, expired and other-realm links', async () => {
    const browser = new TestBrowser(server.app, 'acme');
    const unknown = await browser.request('GET', '/auth/realms/acme/login-actions/action-token?key=nope');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('This link is invalid');
    expect((await browser.request('GET', '/auth/realms/acme/login-actions/action-token')).statusCode).toBe(
      400,
    );

    await call('POST', base(tenants.orgA.id), rptA, { email: 'late@example.test' });
    const [mail] = await recentMail(server.database.db, 'late@example.test');
    const link = linkIn(mail?.text ?? '');
    const late = await account('late@example.test');
    await server.database.db
      .update(actionTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(actionTokens.userId, late?.id ?? ''));
    expect((await browser.request('GET', link)).statusCode).toBe(400);

    await server.app.realms.create('elsewhere', 'Elsewhere');
    const other = new TestBrowser(server.app, 'elsewhere');
    const key = new URL(link).searchParams.get('key') ?? '';
    const foreign = await other.request(
      'GET',
      `/auth/realms/elsewhere/login-actions/action-token?key=${key}`,
    );
    expect(foreign.statusCode).toBe(400);
  });

  it('only invites an existing account of the realm (202), mailing its owner, and refuses a second invitation', async () => {
    const response = await call('POST', base(tenants.orgA.id), rptA, {
      email: tenants.adminB.email,
      groupIds: [],
    });
    expect(response.statusCode).toBe(202);
    expect(response.json()).toMatchObject({ email: tenants.adminB.email, roles: [], groups: [] });
    expect((await call('GET', `${base(tenants.orgA.id)}/${tenants.adminB.id}`, rptA)).statusCode).toBe(404);
    const [mail] = await recentMail(server.database.db, tenants.adminB.email);
    expect(mail?.subject).toBe('Org A invites you to join on Edgeport');
    const again = await call('POST', base(tenants.orgA.id), rptA, { email: tenants.adminB.email });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain('already invited');
    const revoked = await call(
      'DELETE',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/invitations/${response.json().id}`,
      rptA,
    );
    expect(revoked.statusCode).toBe(204);
    const member = await call('POST', base(tenants.orgA.id), rptA, { email: tenants.adminA.email });
    expect(member.statusCode).toBe(409);
    expect(member.json().message).toContain('already a member');
  });

  it('puts the invited user into groups of the organization only', async () => {
    const { db } = server.database;
    const [groupA] = await db
      .insert(userGroups)
      .values({ organizationId: tenants.orgA.id, name: 'Ops' })
      .returning();
    const [groupB] = await db
      .insert(userGroups)
      .values({ organizationId: tenants.orgB.id, name: 'Ops B' })
      .returning();
    const foreign = await call('POST', base(tenants.orgA.id), rptA, {
      email: 'grouped@example.test',
      groupIds: [groupA?.id, groupB?.id],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toContain('groupIds');
    expect(await account('grouped@example.test')).toBeUndefined();
    const ok = await call('POST', base(tenants.orgA.id), rptA, {
      email: 'grouped@example.test',
      groupIds: [groupA?.id],
    });
    expect(ok.json().groups).toEqual([{ id: groupA?.id, name: 'Ops' }]);
  });

  it('refuses bad bodies naming the field, and roles of another organization, changing nothing', async () => {
    const badEmail = await call('POST', base(tenants.orgA.id), rptA, { email: 'not-an-email' });
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().message).toContain('email');
    const extra = await call('POST', base(tenants.orgA.id), rptA, { email: 'x@example.test', admin: true });
    expect(extra.statusCode).toBe(400);
    const badRole = await call('POST', base(tenants.orgA.id), rptA, {
      email: 'x@example.test',
      roleIds: [tenants.rolesB.administrator.id],
    });
    expect(badRole.statusCode).toBe(404);
    expect(badRole.json().message).toContain('roleIds');
    const badLocale = await call('POST', base(tenants.orgA.id), rptA, {
      email: 'x@example.test',
      locale: 'xx',
    });
    expect(badLocale.statusCode).toBe(400);
    expect(badLocale.json().message).toContain('locale');
    expect(await account('x@example.test')).toBeUndefined();
  });
});

describe('reading, changing and removing one user', () => {
  let target: { id: string; email: string };

  beforeAll(async () => {
    const created = await call('POST', base(tenants.orgA.id), rptA, {
      email: 'target@example.test',
      firstName: 'Tom',
      lastName: 'Target',
    });
    target = created.json();
  });

  it('reads a member by id and by e-mail; 404 outside the organization', async () => {
    const byId = await call('GET', `${base(tenants.orgA.id)}/${target.id}`, rptA);
    expect(byId.json()).toMatchObject({ email: 'target@example.test', lastName: 'Target' });
    const byName = await call('GET', `${base(tenants.orgA.id)}/username/TARGET@example.test`, rptA);
    expect(byName.json().id).toBe(target.id);
    expect(
      (await call('GET', `${base(tenants.orgA.id)}/username/nobody@example.test`, rptA)).statusCode,
    ).toBe(404);
    expect((await call('GET', `${base(tenants.orgA.id)}/${tenants.adminB.id}`, rptA)).statusCode).toBe(404);
    expect((await call('GET', `${base(tenants.orgA.id)}/not-a-uuid`, rptA)).statusCode).toBe(400);
  });

  it('changes names, flags and the password; the password works at once', async () => {
    const response = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, {
      firstName: 'Thomas',
      groupPoliciesEnabled: true,
      password: 'set by admin 1',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      firstName: 'Thomas',
      groupPoliciesEnabled: true,
      invitationPending: false,
    });
    const stored = await account('target@example.test');
    expect(stored?.passwordHash).toMatch(/^\$argon2/);
    const audit = await server.database.db.select().from(auditLog).where(eq(auditLog.resourceId, target.id));
    const update = audit.find((row) => row.action === 'users.update');
    expect(update?.detail).toMatchObject({ fields: ['firstName', 'groupPoliciesEnabled', 'password'] });
    expect(JSON.stringify(update?.detail)).not.toContain('set by admin 1');
  });

  it('sends a password-change e-mail that clears the flag once used', async () => {
    const response = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, {
      passwordChangeInvitation: true,
    });
    expect(response.json()).toMatchObject({
      passwordChangeInvitation: true,
      requiredActions: ['UPDATE_PASSWORD'],
    });
    const [mail] = await recentMail(server.database.db, 'target@example.test');
    expect(mail?.subject).toBe('Set a new password for Edgeport');
    const browser = new TestBrowser(server.app, 'acme');
    const done = await browser.request('POST', linkIn(mail?.text ?? ''), {
      'password-new': 'chosen by tom',
      'password-confirm': 'chosen by tom',
    });
    expect(done.statusCode).toBe(303);
    const stored = await account('target@example.test');
    expect(stored).toMatchObject({ passwordChangeInvitation: false, requiredActions: [] });
    await passwordLogin(new TestBrowser(server.app, 'acme'), 'acme', 'target@example.test', 'chosen by tom');
  });

  it('keeps e-mails unique in the realm (409) and validates the body', async () => {
    const taken = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, {
      email: tenants.adminB.email,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('email');
    const short = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, { password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('password');
    const unknown = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, { realm: 'other' });
    expect(unknown.statusCode).toBe(400);
    const renamed = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, {
      email: 'Tom@Example.test',
    });
    expect(renamed.json().email).toBe('tom@example.test');
    target.email = 'tom@example.test';
  });

  it('disables and enables; a disabled account cannot sign in; nobody disables themselves', async () => {
    const off = await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, { enabled: false });
    expect(off.json().enabled).toBe(false);
    await expect(
      passwordLogin(new TestBrowser(server.app, 'acme'), 'acme', target.email, 'chosen by tom'),
    ).rejects.toThrow(/login failed: 403/);
    await call('PUT', `${base(tenants.orgA.id)}/${target.id}`, rptA, { enabled: true });
    const self = await call('PUT', `${base(tenants.orgA.id)}/${tenants.adminA.id}`, rptA, { enabled: false });
    expect(self.statusCode).toBe(409);
    expect((await account(tenants.adminA.email))?.enabled).toBe(true);
  });

  it('removes a member: the account goes when it has no membership left, stays otherwise', async () => {
    const self = await call('DELETE', `${base(tenants.orgA.id)}/${tenants.adminA.id}`, rptA);
    expect(self.statusCode).toBe(409);

    const { db } = server.database;
    const shared = await createUser(db, { realm: 'acme', email: 'shared@example.test', password: PASSWORD });
    await addMember(db, tenants.orgA.id, shared.id, [tenants.rolesA.operator.id]);
    await addMember(db, tenants.orgB.id, shared.id, [tenants.rolesB.operator.id]);
    const removed = await call('DELETE', `${base(tenants.orgA.id)}/${shared.id}`, rptA);
    expect(removed.statusCode).toBe(204);
    expect(await account('shared@example.test')).toBeDefined();
    const roles = await db.select().from(userRoles).where(eq(userRoles.userId, shared.id));
    expect(roles.map((row) => row.roleId)).toEqual([tenants.rolesB.operator.id]);

    const gone = await call('DELETE', `${base(tenants.orgA.id)}/${target.id}`, rptA);
    expect(gone.statusCode).toBe(204);
    expect(await account(target.email)).toBeUndefined();
    expect(await auditActions(target.id)).toContain('users.delete');
    expect((await call('DELETE', `${base(tenants.orgA.id)}/${target.id}`, rptA)).statusCode).toBe(404);
  });
});

describe('deep search, exists, mine', () => {
  it('searches the token organization and its sub-organizations, naming the organization', async () => {
    const { db } = server.database;
    const deep = await createUser(db, { realm: 'acme', email: 'deep.diver@example.test', firstName: 'Deep' });
    await addMember(db, tenants.orgA1.id, deep.id);
    const elsewhere = await createUser(db, { realm: 'acme', email: 'deep.other@example.test' });
    await addMember(db, tenants.orgB.id, elsewhere.id);
    const response = await call('GET', '/svc/core/api/v1/organizations/users?search=deep', rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      total: 1,
      items: [{ email: 'deep.diver@example.test', organization: { id: tenants.orgA1.id, name: 'Org A1' } }],
    });
    const missing = await call('GET', '/svc/core/api/v1/organizations/users', rptA);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('search');
    expect((await call('GET', '/svc/core/api/v1/organizations/users?search=deep', loginA)).statusCode).toBe(
      403,
    );
    const fromB = (await call('GET', '/svc/core/api/v1/organizations/users?search=deep', rptB)).json();
    expect(fromB.items.map((item: { email: string }) => item.email)).toEqual(['deep.other@example.test']);
  });

  it('tells whether an e-mail is a member of the organization, never about accounts of other organizations', async () => {
    const yes = await call(
      'GET',
      `/svc/core/api/v1/users/${encodeURIComponent(tenants.adminA.email)}/exists`,
      rptA,
    );
    expect(yes.json()).toEqual({ exists: true });
    const foreign = await call(
      'GET',
      `/svc/core/api/v1/users/${encodeURIComponent(tenants.adminB.email)}/exists`,
      rptA,
    );
    expect(foreign.json()).toEqual({ exists: false });
    const no = await call('GET', '/svc/core/api/v1/users/ghost@example.test/exists', rptA);
    expect(no.json()).toEqual({ exists: false });
    expect((await call('GET', '/svc/core/api/v1/users/ghost@example.test/exists', loginA)).statusCode).toBe(
      403,
    );
  });

  it("answers the caller's own account with any token", async () => {
    const mine = await call('GET', '/svc/core/api/v1/users/mine', loginA);
    expect(mine.json()).toMatchObject({ id: tenants.adminA.id, email: tenants.adminA.email, enabled: true });
    expect((await call('GET', '/svc/core/api/v1/users/mine')).statusCode).toBe(401);
  });
});

describe('user security policies', () => {
  it('assigns and removes policy groups of the organization; a foreign id changes nothing', async () => {
    const { db } = server.database;
    const [p1, p2] = await db
      .insert(securityPolicies)
      .values([
        { organizationId: tenants.orgA.id, name: 'Office network' },
        { organizationId: tenants.orgA.id, name: 'TOTP required' },
      ])
      .returning();
    const [foreign] = await db
      .insert(securityPolicies)
      .values({ organizationId: tenants.orgB.id, name: 'B policy' })
      .returning();
    const member = await userWithRole(server, 'acme', tenants.orgA.id, 'policed@example.test', []);
    const url = `${base(tenants.orgA.id)}/${member.id}/securityPolicies`;

    const assigned = await call('POST', `${url}/${p1?.id},${p2?.id}`, rptA);
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().map((policy: { name: string }) => policy.name)).toEqual([
      'Office network',
      'TOTP required',
    ]);

    const mixed = await call('DELETE', `${url}/${p1?.id},${foreign?.id}`, rptA);
    expect(mixed.statusCode).toBe(404);
    expect((await call('GET', url, rptA)).json()).toHaveLength(2);
    const assignForeign = await call('POST', `${url}/${foreign?.id}`, rptA);
    expect(assignForeign.statusCode).toBe(404);

    const removed = await call('DELETE', `${url}/${p1?.id}`, rptA);
    expect(removed.json().map((policy: { name: string }) => policy.name)).toEqual(['TOTP required']);
    expect((await call('POST', `${url}/not-uuids`, rptA)).statusCode).toBe(400);
    expect(await auditActions(member.id)).toEqual(
      expect.arrayContaining(['users.assignSecurityPolicies', 'users.unassignSecurityPolicies']),
    );
    const rows = await db
      .select()
      .from(userSecurityPolicies)
      .where(eq(userSecurityPolicies.userId, member.id));
    expect(rows).toHaveLength(1);
  });
});

describe('tenant boundaries and permissions', () => {
  it("refuses organization B's admin on organization A (403) and A's users through B's path (404), changing nothing", async () => {
    const member = await userWithRole(server, 'acme', tenants.orgA.id, 'protected@example.test', []);
    expect((await call('GET', base(tenants.orgA.id), rptB)).statusCode).toBe(403);
    expect(
      (await call('POST', base(tenants.orgA.id), rptB, { email: 'intruder@example.test' })).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `${base(tenants.orgA.id)}/${member.id}`, rptB, { firstName: 'Hacked' })).statusCode,
    ).toBe(403);
    expect((await call('GET', `${base(tenants.orgB.id)}/${member.id}`, rptB)).statusCode).toBe(404);
    expect(
      (
        await call('PUT', `${base(tenants.orgB.id)}/${member.id}`, rptB, {
          firstName: 'Hacked',
          enabled: false,
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `${base(tenants.orgB.id)}/${member.id}`, rptB)).statusCode).toBe(404);
    expect(
      (await call('GET', `${base(tenants.orgB.id)}/${member.id}/securityPolicies`, rptB)).statusCode,
    ).toBe(404);
    const stored = await account('protected@example.test');
    expect(stored).toMatchObject({ firstName: '', enabled: true });
    const still = await server.database.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, member.id), eq(memberships.organizationId, tenants.orgA.id)));
    expect(still).toHaveLength(1);
    expect(await account('intruder@example.test')).toBeUndefined();
  });

  it('needs READ to list, CREATE to invite, UPDATE to change, DELETE to remove', async () => {
    const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@example.test', [
      { rsname: 'users', scopes: ['READ'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId);
    expect((await call('GET', base(tenants.orgA.id), rpt)).statusCode).toBe(200);
    expect((await call('POST', base(tenants.orgA.id), rpt, { email: 'nope@example.test' })).statusCode).toBe(
      403,
    );
    expect(
      (await call('PUT', `${base(tenants.orgA.id)}/${tenants.adminA.id}`, rpt, { firstName: 'x' }))
        .statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${base(tenants.orgA.id)}/${tenants.adminA.id}`, rpt)).statusCode).toBe(403);
    const nobody = await userWithRole(server, 'acme', tenants.orgA.id, 'nobody@example.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const none = await rptFor(server, 'acme', nobody.email, tenants.orgA.resourceId);
    expect((await call('GET', base(tenants.orgA.id), none.rpt)).statusCode).toBe(403);
    expect((await call('GET', '/svc/core/api/v1/organizations/users?search=a', none.rpt)).statusCode).toBe(
      403,
    );
  });
});
