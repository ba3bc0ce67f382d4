import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { passwordLogin, TestBrowser } from '../../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { auditLog, importTokens, memberships, organizations, roles, userRoles } from '../../../db/schema.ts';
import { UMA_GRANT_TYPE } from '../../../identity/rpt.ts';
import { createDevice } from '../devices/provisioning.ts';
import { hashImportToken } from './admin-service.ts';
import { addDefaultRoles, addMember, createOrganization, createUser } from './provisioning.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;

type Session = { accessToken: string; rpt: (resourceId: string) => Promise<string> };
const sessions = new Map<string, Session>();

/** Signs in once per user; exchanges the login token for permission tokens of any organization. */
async function sessionOf(email: string, realm = 'acme'): Promise<Session> {
  const known = sessions.get(`${realm}/${email}`);
  if (known) return known;
  const browser = new TestBrowser(server.app, realm);
  const tokens = await passwordLogin(browser, realm, email, PASSWORD);
  const session: Session = {
    accessToken: tokens.access_token,
    rpt: async (resourceId) => {
      const response = await browser.request(
        'POST',
        `/auth/realms/${realm}/protocol/openid-connect/token`,
        { grant_type: UMA_GRANT_TYPE, audience: 'platform', permission: resourceId },
        { authorization: `Bearer ${tokens.access_token}` },
      );
      if (response.statusCode !== 200)
        throw new Error(`RPT refused (${response.statusCode}): ${response.body}`);
      return response.json().access_token as string;
    },
  };
  sessions.set(`${realm}/${email}`, session);
  return session;
}

const url = (path: string) => `/svc/core/api/v1/organizations${path}`;

async function storedOrg(id: string) {
  const [row] = await server.database.db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

async function auditOf(action: string, resourceId: string) {
  return server.database.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.resourceId, resourceId)));
}

let rptA: string;
let rptB: string;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  rptA = await (await sessionOf(tenants.adminA.email)).rpt(tenants.orgA.resourceId);
  rptB = await (await sessionOf(tenants.adminB.email)).rpt(tenants.orgB.resourceId);
});
afterAll(() => server.close());

describe('POST /api/v1/organizations (a new top-level organization)', () => {
  it('creates it with default roles and makes the caller its Administrator, with a login token', async () => {
    const { accessToken } = await sessionOf(tenants.adminA.email);
    const response = await call('POST', url(''), accessToken, { name: '  Fresh Works ', vpnEnabled: false });
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      name: 'Fresh Works',
      parentId: null,
      iotEnabled: true,
      vpnEnabled: false,
    });
    const { db } = server.database;
    const roleRows = await db.select().from(roles).where(eq(roles.organizationId, created.id));
    expect(roleRows.map((role) => role.name).sort()).toEqual(['Administrator', 'Operator']);
    const administrator = roleRows.find((role) => role.name === 'Administrator');
    const member = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, created.id), eq(memberships.userId, tenants.adminA.id)));
    expect(member).toHaveLength(1);
    const held = await db
      .select()
      .from(userRoles)
      .where(and(eq(userRoles.userId, tenants.adminA.id), eq(userRoles.roleId, administrator?.id ?? '')));
    expect(held).toHaveLength(1);
    expect(await auditOf('organizations.create', created.id)).toHaveLength(1);
    // The creator can enter it right away.
    const rpt = await (await sessionOf(tenants.adminA.email)).rpt(created.resourceId);
    expect((await call('GET', url(`/${created.id}`), rpt)).statusCode).toBe(200);
  });

  it('validates the body and needs a token', async () => {
    const { accessToken } = await sessionOf(tenants.adminA.email);
    const before = (await server.database.db.select().from(organizations)).length;
    const empty = await call('POST', url(''), accessToken, { name: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('name');
    const extra = await call('POST', url(''), accessToken, { name: 'X', parentId: tenants.orgA.id });
    expect(extra.statusCode).toBe(400);
    const badFlag = await call('POST', url(''), accessToken, { name: 'X', iotEnabled: 'yes' });
    expect(badFlag.statusCode).toBe(400);
    expect(badFlag.json().message).toContain('iotEnabled');
    expect((await call('POST', url(''), undefined, { name: 'X' })).statusCode).toBe(401);
    expect((await server.database.db.select().from(organizations)).length).toBe(before);
  });
});

describe('sub-organizations', () => {
  it('creates a sub-organization with default roles; the creator does not become a member', async () => {
    const response = await call('POST', url(`/${tenants.orgA.id}?waitLicenseManager=true`), rptA, {
      name: 'Plant North',
    });
    expect(response.statusCode).toBe(201);
    const child = response.json();
    expect(child).toMatchObject({ name: 'Plant North', parentId: tenants.orgA.id, iotEnabled: true });
    const { db } = server.database;
    const roleRows = await db.select().from(roles).where(eq(roles.organizationId, child.id));
    expect(roleRows.map((role) => role.name).sort()).toEqual(['Administrator', 'Operator']);
    expect(await db.select().from(memberships).where(eq(memberships.organizationId, child.id))).toEqual([]);
    const [record] = await auditOf('organizations.create', child.id);
    expect(record?.organizationId).toBe(tenants.orgA.id);
  });

  it('takes the parent flags by default and can skip the default roles', async () => {
    const response = await call('POST', url(`/${tenants.orgB.resourceId}?addDefaultRoles=false`), rptB, {
      name: 'B child',
    });
    expect(response.statusCode).toBe(201);
    const child = response.json();
    expect(child).toMatchObject({ parentId: tenants.orgB.id, iotEnabled: false, vpnEnabled: true });
    const roleRows = await server.database.db.select().from(roles).where(eq(roles.organizationId, child.id));
    expect(roleRows).toEqual([]);
  });

  it('refuses another tenant, a caller without CREATE and a bad body, creating nothing', async () => {
    const { db } = server.database;
    const count = async () => (await db.select().from(organizations)).length;
    const before = await count();
    expect((await call('POST', url(`/${tenants.orgA.id}`), rptB, { name: 'taken' })).statusCode).toBe(403);
    const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'organizations', scopes: ['READ'] },
    ]);
    const readerRpt = await (await sessionOf(reader.email)).rpt(tenants.orgA.resourceId);
    expect((await call('POST', url(`/${tenants.orgA.id}`), readerRpt, { name: 'no' })).statusCode).toBe(403);
    const bad = await call('POST', url(`/${tenants.orgA.id}?addDefaultRoles=maybe`), rptA, { name: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('addDefaultRoles');
    const unknown = await call('POST', url('/00000000-0000-4000-8000-000000000000'), rptA, { name: 'x' });
    expect(unknown.statusCode).toBe(404);
    expect(await count()).toBe(before);
  });

  it('lists direct children, or every descendant with recursive=true', async () => {
    const direct = await call('GET', url(`/${tenants.orgA.id}/organizations`), rptA);
    expect(direct.statusCode).toBe(200);
    const names = (direct.json() as Array<{ name: string }>).map((org) => org.name);
    expect(names).toContain('Org A1');
    expect(names).toContain('Plant North');
    const grandchild = await createOrganization(server.database.db, {
      realm: 'acme',
      name: 'A1 line',
      parentId: tenants.orgA1.id,
    });
    const shallow = (await call('GET', url(`/${tenants.orgA.id}/organizations`), rptA)).json() as Array<{
      id: string;
    }>;
    expect(shallow.map((org) => org.id)).not.toContain(grandchild.id);
    const deep = await call('GET', url(`/${tenants.orgA.id}/organizations?recursive=true`), rptA);
    const all = deep.json() as Array<{ id: string; parentId: string }>;
    expect(all.find((org) => org.id === grandchild.id)?.parentId).toBe(tenants.orgA1.id);
    expect((await call('GET', url(`/${tenants.orgA.id}/organizations`), rptB)).statusCode).toBe(403);
  });
});

describe('DELETE /api/v1/organizations/{org}', () => {
  it('refuses an organization with sub-organizations, naming the reason, and keeps it', async () => {
    const response = await call('DELETE', url(`/${tenants.orgA.id}`), rptA);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toMatch(/has \d+ sub-organizations/);
    expect(await storedOrg(tenants.orgA.id)).toBeDefined();
  });

  it('refuses an organization with devices', async () => {
    const { db } = server.database;
    const org = await createOrganization(db, {
      realm: 'acme',
      name: 'With devices',
      parentId: tenants.orgA.id,
    });
    await createDevice(db, org.id, 'press-1');
    const rpt = await (await sessionOf(tenants.adminA.email)).rpt(org.resourceId);
    const response = await call('DELETE', url(`/${org.id}`), rpt);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe("organization 'With devices' has 1 device; move or delete it first");
    expect(await storedOrg(org.id)).toBeDefined();
  });

  it("deletes an empty sub-organization with a parent administrator's inherited token; others are refused", async () => {
    const { db } = server.database;
    const org = await createOrganization(db, { realm: 'acme', name: 'Empty', parentId: tenants.orgA.id });
    await addDefaultRoles(db, org.id);
    // B's administrator, and A's token used for the child, are refused.
    expect((await call('DELETE', url(`/${org.id}`), rptB)).statusCode).toBe(403);
    expect((await call('DELETE', url(`/${org.id}`), rptA)).statusCode).toBe(403);
    expect(await storedOrg(org.id)).toBeDefined();

    const rpt = await (await sessionOf(tenants.adminA.email)).rpt(org.resourceId);
    expect((await call('DELETE', url(`/${org.id}`), rpt)).statusCode).toBe(204);
    expect(await storedOrg(org.id)).toBeUndefined();
    expect(await db.select().from(roles).where(eq(roles.organizationId, org.id))).toEqual([]);
    const [record] = await auditOf('organizations.delete', org.id);
    expect(record?.organizationId).toBe(tenants.orgA.id);
  });

  it('keeps the last top-level organization of a realm', async () => {
    const { db } = server.database;
    await server.app.realms.create('solo', 'Solo');
    const only = await createOrganization(db, { realm: 'solo', name: 'Only one' });
    const soloRoles = await addDefaultRoles(db, only.id);
    const owner = await createUser(db, { realm: 'solo', email: 'owner@solo.test', password: PASSWORD });
    await addMember(db, only.id, owner.id, [soloRoles.administrator.id]);
    const rpt = await (await sessionOf(owner.email, 'solo')).rpt(only.resourceId);
    const refused = await caller(server, 'solo')('DELETE', url(`/${only.id}`), rpt);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('last top-level organization');
    const [rows] = await db
      .select()
      .from(organizations)
      .where(and(eq(organizations.realm, 'solo'), isNull(organizations.parentId)));
    expect(rows?.id).toBe(only.id);
  });
});

describe('import tokens and moves', () => {
  it('creates a 24 h one-time token stored as a hash and tells where it leads', async () => {
    const response = await call('POST', url(`/${tenants.orgB.id}/importToken`), rptB);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { token, expiresAt } = response.json();
    const hours = (new Date(expiresAt).getTime() - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(23.9);
    expect(hours).toBeLessThanOrEqual(24);
    const stored = await server.database.db
      .select()
      .from(importTokens)
      .where(eq(importTokens.organizationId, tenants.orgB.id));
    expect(stored.map((row) => row.tokenHash)).toContain(hashImportToken(token));
    expect(stored.map((row) => row.tokenHash)).not.toContain(token);

    // Any signed-in user of the realm may look it up (a login token of A's administrator here).
    const { accessToken } = await sessionOf(tenants.adminA.email);
    const info = await call('GET', url(`/importToken/${token}`), accessToken);
    expect(info.json()).toEqual({ organization: { id: tenants.orgB.id, name: 'Org B' }, expiresAt });
    expect((await call('GET', url('/importToken/eit_nope'), accessToken)).statusCode).toBe(404);
    expect((await call('GET', url(`/importToken/${token}`))).statusCode).toBe(401);
    // A's administrator cannot make tokens for B.
    expect((await call('POST', url(`/${tenants.orgB.id}/importToken`), rptA)).statusCode).toBe(403);
  });

  it('hides expired tokens and tokens of other realms', async () => {
    const { db } = server.database;
    const created = (await call('POST', url(`/${tenants.orgB.id}/importToken`), rptB)).json();
    const { accessToken } = await sessionOf(tenants.adminA.email);
    await server.app.realms.create('other', 'Other');
    const stranger = await createUser(db, { realm: 'other', email: 'x@other.test', password: PASSWORD });
    const strangerOrg = await createOrganization(db, { realm: 'other', name: 'Other org' });
    await addMember(db, strangerOrg.id, stranger.id);
    const strangerLogin = (await sessionOf(stranger.email, 'other')).accessToken;
    const foreign = await caller(server, 'other')('GET', url(`/importToken/${created.token}`), strangerLogin);
    expect(foreign.statusCode).toBe(404);
    await db
      .update(importTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(importTokens.tokenHash, hashImportToken(created.token)));
    expect((await call('GET', url(`/importToken/${created.token}`), accessToken)).statusCode).toBe(404);
  });

  it("moves an organization under the token's organization; the new parent's administrator reaches it", async () => {
    const { db } = server.database;
    const moving = (await call('POST', url(`/${tenants.orgA.id}`), rptA, { name: 'Moving plant' })).json();
    const adminA = await sessionOf(tenants.adminA.email);
    const adminB = await sessionOf(tenants.adminB.email);
    await expect(adminB.rpt(moving.resourceId)).rejects.toThrow(/403/);
    const movingRpt = await adminA.rpt(moving.resourceId);
    const { token } = (await call('POST', url(`/${tenants.orgB.id}/importToken`), rptB)).json();

    // B's administrator cannot move A's organization, even with a valid token.
    expect(
      (await call('POST', url(`/${moving.id}/move`), rptB, { organizationImportToken: token })).statusCode,
    ).toBe(403);
    expect((await storedOrg(moving.id))?.parentId).toBe(tenants.orgA.id);

    const response = await call('POST', url(`/${moving.id}/move`), movingRpt, {
      organizationImportToken: token,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: moving.id, parentId: tenants.orgB.id });
    expect((await storedOrg(moving.id))?.parentId).toBe(tenants.orgB.id);
    expect(
      await db
        .select()
        .from(importTokens)
        .where(eq(importTokens.tokenHash, hashImportToken(token))),
    ).toEqual([]);
    expect(await auditOf('organizations.move', moving.id)).toHaveLength(2);

    // B's administrator now reaches it through INHERIT; A's administrator no longer does.
    const inherited = await adminB.rpt(moving.resourceId);
    expect((await call('GET', url(`/${moving.id}`), inherited)).statusCode).toBe(200);
    await expect(adminA.rpt(moving.resourceId)).rejects.toThrow(/403/);

    // The token was used up.
    const again = await call('POST', url(`/${moving.id}/move`), inherited, {
      organizationImportToken: token,
    });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toContain('organizationImportToken');
  });

  it('refuses moving an organization into itself or below itself, keeping the token', async () => {
    const self = (await call('POST', url(`/${tenants.orgA.id}/importToken`), rptA)).json().token;
    const intoSelf = await call('POST', url(`/${tenants.orgA.id}/move`), rptA, {
      organizationImportToken: self,
    });
    expect(intoSelf.statusCode).toBe(400);
    expect(intoSelf.json().message).toContain('itself');

    const a1Rpt = await (await sessionOf(tenants.adminA.email)).rpt(tenants.orgA1.resourceId);
    const below = (await call('POST', url(`/${tenants.orgA1.id}/importToken`), a1Rpt)).json().token;
    const cycle = await call('POST', url(`/${tenants.orgA.id}/move`), rptA, {
      organizationImportToken: below,
    });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toContain('sub-organization');
    expect((await storedOrg(tenants.orgA.id))?.parentId).toBeNull();
    const { accessToken } = await sessionOf(tenants.adminA.email);
    expect((await call('GET', url(`/importToken/${below}`), accessToken)).statusCode).toBe(200);

    const missing = await call('POST', url(`/${tenants.orgA.id}/move`), rptA, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('organizationImportToken');
  });
});

describe('inheritance boundaries', () => {
  it('a sub-organization administrator cannot reach the parent', async () => {
    const { db } = server.database;
    const childRoles = await addDefaultRoles(db, tenants.orgA1.id);
    const childAdmin = await createUser(db, {
      realm: 'acme',
      email: 'admin@acme-a1.test',
      password: PASSWORD,
    });
    await addMember(db, tenants.orgA1.id, childAdmin.id, [childRoles.administrator.id]);
    const session = await sessionOf(childAdmin.email);
    const childRpt = await session.rpt(tenants.orgA1.resourceId);
    expect((await call('GET', url(`/${tenants.orgA1.id}`), childRpt)).statusCode).toBe(200);
    expect((await call('GET', url(`/${tenants.orgA.id}`), childRpt)).statusCode).toBe(403);
    expect((await call('PUT', url(`/${tenants.orgA.id}`), childRpt, { name: 'mine' })).statusCode).toBe(403);
    expect((await call('DELETE', url(`/${tenants.orgA.id}`), childRpt)).statusCode).toBe(403);
    await expect(session.rpt(tenants.orgA.resourceId)).rejects.toThrow(/403/);
    expect((await call('GET', url(`/${tenants.orgA.id}/grants`), session.accessToken)).statusCode).toBe(404);
    expect((await storedOrg(tenants.orgA.id))?.name).toBe('Org A');
  });

  it('a parent role without INHERIT gives no permissions in a child', async () => {
    const manager = await userWithRole(server, 'acme', tenants.orgA.id, 'manager@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'organizations', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
    ]);
    const session = await sessionOf(manager.email);
    const rpt = await session.rpt(tenants.orgA.resourceId);
    expect((await call('GET', url(`/${tenants.orgA.id}/organizations`), rpt)).statusCode).toBe(200);
    await expect(session.rpt(tenants.orgA1.resourceId)).rejects.toThrow(/403/);
    expect((await call('GET', url(`/${tenants.orgA1.id}`), rpt)).statusCode).toBe(403);
  });

  it('answers the grants of the caller, marking inherited entries', async () => {
    const { accessToken } = await sessionOf(tenants.adminA.email);
    const own = await call('GET', url(`/${tenants.orgA.id}/grants`), accessToken);
    expect(own.statusCode).toBe(200);
    const ownBody = own.json();
    expect(ownBody).toMatchObject({ organizationId: tenants.orgA.id, member: true });
    expect(ownBody.permissions.length).toBeGreaterThan(0);
    expect(ownBody.permissions.every((entry: { inherited: boolean }) => !entry.inherited)).toBe(true);

    const child = await call('GET', url(`/${tenants.orgA1.resourceId}/grants`), rptA);
    const childBody = child.json();
    expect(childBody).toMatchObject({ organizationId: tenants.orgA1.id, member: false });
    const organizationsEntry = childBody.permissions.find(
      (entry: { rsname: string }) => entry.rsname === 'organizations',
    );
    expect(organizationsEntry).toMatchObject({ inherited: true, inverted: false });
    expect(organizationsEntry.scopes).toContain('INHERIT');

    expect((await call('GET', url(`/${tenants.orgB.id}/grants`), accessToken)).statusCode).toBe(404);
    expect((await call('GET', url('/no-such-org/grants'), accessToken)).statusCode).toBe(404);
  });

  it('answers the caller address', async () => {
    const response = await call('GET', url('/myIp'), rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json().ip).toBe('127.0.0.1');
  });
});
