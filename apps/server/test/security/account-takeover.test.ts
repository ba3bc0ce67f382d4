import { createHash, randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeys,
  memberships,
  organizationInvitations,
  roles,
  securityPolicies,
  statusIssues,
  userSecurityPolicies,
  users,
} from '../../src/db/schema.ts';
import { addMember, createUser } from '../../src/services/core/organizations/provisioning.ts';
import { PASSWORD, seedTenants } from '../support/fixtures.ts';
import { startLogin, submitForm, TestBrowser } from '../support/oidc-client.ts';
import { startTestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';
import { type Answer, send } from './support/requests.ts';
import { REALM, requestRpt, type SelfOnboarded, selfOnboard } from './support/setup.ts';
import { changedTables, snapshot } from './support/snapshot.ts';

/*
 * Issue 32, F1 and F7: accounts are realm-wide, organizations are tenants. A tenant anyone can make through public
 * self-onboarding in the realm (C) tries every account-level operation on accounts of organization A, the realm's
 * owner: add by e-mail, invite, change password, e-mail, enabled, the password-change e-mail and the OTP credential,
 * the existence check, reads, security policies and API keys; and the realm-shared status feed. Each is refused or
 * harmless: the victim's account row, memberships, policies and keys stay as they were and the victim still signs
 * in with their own password through the real login.
 */

const server = await startTestServer();
const { db } = server.database;
const core = '/svc/core/api/v1';

type Account = { id: string; email: string; firstName: string; lastName: string };

let seeded: Awaited<ReturnType<typeof seedTenants>>;
let C: SelfOnboarded;
/** C's administrator's RPT of C and plain access token (real sign-in). */
let rptC: string;
let accessC: string;
let rptB: string;
/** A member of A (Operator) with tagged names, an API key in A and A's security policy. */
let victim: Account;
/** A member of A with an OTP credential (never signs in here). */
let totpVictim: Account;
let policyA: string;
let policyC: string;
let victimKey: string;
let adminRoleC: string;

beforeAll(async () => {
  seeded = await seedTenants(server, REALM);
  C = await selfOnboard(server, 'mallory');
  const tag = randomBytes(4).toString('hex');
  const make = async (label: string) => {
    const account = await createUser(db, {
      realm: REALM,
      email: `${label}-${tag}@acme-a.test`,
      password: PASSWORD,
      firstName: `first-${label}-${tag}`,
      lastName: `last-${label}-${tag}`,
    });
    await addMember(db, seeded.orgA.id, account.id, [seeded.rolesA.operator.id]);
    return {
      id: account.id,
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
    };
  };
  victim = await make('victim');
  totpVictim = await make('totp-victim');
  await db.update(users).set({ totpSecret: 'JBSWY3DPEHPK3PXP' }).where(eq(users.id, totpVictim.id));
  const [policy] = await db
    .insert(securityPolicies)
    .values({ organizationId: seeded.orgA.id, name: `policy-a-${tag}` })
    .returning();
  const [trap] = await db
    .insert(securityPolicies)
    .values({
      organizationId: C.org.id,
      name: `policy-c-${tag}`,
      // Sign-in only from a documentation network: nobody here can meet it.
      rules: { allowedIpRanges: ['203.0.113.0/24'], requireTotp: false, maxSessionMinutes: 60 },
    })
    .returning();
  if (!policy || !trap) throw new Error('seeding returned nothing');
  policyA = policy.id;
  policyC = trap.id;
  await db.insert(userSecurityPolicies).values({ userId: victim.id, policyId: policyA });
  const [key] = await db
    .insert(apiKeys)
    .values({
      userId: victim.id,
      organizationId: seeded.orgA.id,
      name: `key-${tag}`,
      prefix: `ep_${tag.slice(0, 6)}`,
      secretHash: createHash('sha256').update(randomBytes(32)).digest('hex'),
    })
    .returning();
  if (!key) throw new Error('seeding returned nothing');
  victimKey = key.id;
  const signedIn = await rptFor(server, REALM, C.admin.email, C.org.resourceId);
  rptC = signedIn.rpt;
  accessC = signedIn.accessToken;
  rptB = (await rptFor(server, REALM, seeded.adminB.email, seeded.orgB.resourceId)).rpt;
  const [role] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.organizationId, C.org.id), eq(roles.name, 'Administrator')));
  if (!role) throw new Error("C's Administrator role not found");
  adminRoleC = role.id;
});
afterAll(() => server.close());

type Rows = { rows: Array<Record<string, unknown>> };

/**
 * Everything of an account another organization could change: its row (password hash, e-mail, enabled, OTP secret,
 * required actions, names...), its memberships, group memberships, security policies and API keys. Invitations are
 * left out: a pending one is what adding an existing account is allowed to make.
 */
async function accountState(userId: string): Promise<Record<string, string>> {
  const parts = {
    account: sql`select row_to_json(t)::text as v from users t where t.id = ${userId}`,
    memberships: sql`select organization_id::text as v from memberships where user_id = ${userId} order by 1`,
    groups: sql`select group_id::text || ':' || coalesce(role_id::text, '') as v from group_members where user_id = ${userId} order by 1`,
    policies: sql`select policy_id::text as v from user_security_policies where user_id = ${userId} order by 1`,
    apiKeys: sql`select row_to_json(t)::text as v from api_keys t where t.user_id = ${userId} order by t.id`,
  };
  const state: Record<string, string> = {};
  for (const [name, query] of Object.entries(parts)) {
    const result = (await db.execute(query)) as unknown as Rows;
    state[name] = result.rows.map((row) => String(row.v)).join('\n');
  }
  return state;
}

/** Signs in through the real login form; whether the login reached the application with a code. */
async function signsIn(email: string, password: string): Promise<boolean> {
  const start = await startLogin(new TestBrowser(server.app, REALM), REALM);
  const result = await submitForm(start, start.action, { username: email, password });
  return result.code !== undefined;
}

async function isMember(organizationId: string, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(sql`${memberships.organizationId} = ${organizationId} and ${memberships.userId} = ${userId}`);
  return rows.length > 0;
}

async function invitationsOf(organizationId: string, userId: string) {
  return db
    .select()
    .from(organizationInvitations)
    .where(
      sql`${organizationInvitations.organizationId} = ${organizationId} and ${organizationInvitations.userId} = ${userId}`,
    );
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string, payload?: unknown) =>
  send(server, { method, url, ...(payload === undefined ? {} : { payload }) }, token);

/** The victim's personal data the attacker did not send: id, names (and the e-mail unless it was sent). */
function victimDataIn(answer: Answer, account: Account, sentText: string): string[] {
  return [account.id, account.email, account.firstName, account.lastName].filter(
    (marker) => marker !== '' && answer.body.includes(marker) && !sentText.includes(marker),
  );
}

const refused = (answer: Answer) => answer.status >= 400 && answer.status < 500;

describe("the self-onboarded tenant's administrator against accounts of organization A", () => {
  it("signed up through self-onboarding in A's realm and gets nothing in A", async () => {
    const rows = await db.select().from(memberships).where(eq(memberships.userId, C.admin.id));
    expect(rows.map((row) => row.organizationId)).toEqual([C.org.id]);
    const inA = await requestRpt(server, C.admin.email, seeded.orgA.resourceId);
    if (inA.status === 200) expect(inA.permissions).toEqual([]);
    else expect(inA.status).toBe(403);
    const read = await call('GET', `${core}/organizations/${seeded.orgA.id}/users`, rptC);
    expect([403, 404]).toContain(read.status);
  });

  it('adding an account of A by e-mail makes it no member of C: at most a pending invitation', async () => {
    for (const target of [victim, { ...seeded.adminA, firstName: '', lastName: '' }]) {
      const before = await accountState(target.id);
      const payload = { email: target.email.toUpperCase(), roleIds: [adminRoleC] };
      const added = await call('POST', `${core}/organizations/${C.org.id}/users`, rptC, payload);
      expect(added.status, added.body).toBeLessThan(500);
      expect(victimDataIn(added, target, JSON.stringify(payload).toLowerCase()), added.body).toEqual([]);
      expect(await isMember(C.org.id, target.id), `${target.email} became a member of C`).toBe(false);
      expect((await invitationsOf(C.org.id, target.id)).length).toBeLessThanOrEqual(1);
      expect(await accountState(target.id)).toEqual(before);
      // Until the owner accepts, the account has no permissions in C and keeps its own in A.
      const inC = await requestRpt(server, target.email, C.org.resourceId);
      if (inC.status === 200) expect(inC.permissions).toEqual([]);
      else expect(inC.status).toBe(403);
      const inA = await requestRpt(server, target.email, seeded.orgA.resourceId);
      expect(inA.status).toBe(200);
      expect(inA.permissions.length).toBeGreaterThan(0);
    }
  });

  it("changes neither the password, the e-mail, the enabled state nor the names of A's account", async () => {
    const before = await accountState(victim.id);
    const tables = await snapshot(db);
    const stolen = `mallory-${randomBytes(4).toString('hex')}`;
    const changes = [
      { password: stolen },
      { email: `taken-${randomBytes(3).toString('hex')}@evil.test` },
      { enabled: false },
      { firstName: 'Mallory', lastName: 'Owned' },
      { locale: 'de-DE' },
      { groupPoliciesEnabled: true },
    ];
    for (const change of changes) {
      for (const org of [C.org.id, seeded.orgA.id]) {
        const answer = await call('PUT', `${core}/organizations/${org}/users/${victim.id}`, rptC, change);
        expect([403, 404], `${org} ${JSON.stringify(change)} -> ${answer.body}`).toContain(answer.status);
      }
    }
    expect(changedTables(tables, await snapshot(db)), 'a refused request changed the database').toEqual([]);
    expect(await accountState(victim.id)).toEqual(before);
    expect(await signsIn(victim.email, PASSWORD)).toBe(true);
    expect(await signsIn(victim.email, stolen)).toBe(false);
  });

  it("resets neither the OTP credential nor the required actions of A's account", async () => {
    const before = { victim: await accountState(victim.id), totp: await accountState(totpVictim.id) };
    const tables = await snapshot(db);
    for (const target of [victim, totpVictim]) {
      for (const org of [C.org.id, seeded.orgA.id]) {
        const answer = await call('PUT', `${core}/organizations/${org}/users/${target.id}`, rptC, {
          passwordChangeInvitation: true,
        });
        expect([403, 404], answer.body).toContain(answer.status);
      }
    }
    // The account endpoints act on the caller's own account only, whatever they name.
    for (const token of [rptC, accessC]) {
      const otp = await call('DELETE', `${core}/account/credentials/otp`, token);
      expect(otp.status, otp.body).toBe(404);
    }
    expect(changedTables(tables, await snapshot(db)), 'a refused request changed the database').toEqual([]);
    expect(await accountState(victim.id)).toEqual(before.victim);
    expect(await accountState(totpVictim.id)).toEqual(before.totp);
    // No required action was added: the victim's sign-in goes straight through.
    expect(await signsIn(victim.email, PASSWORD)).toBe(true);
  });

  it("answers the existence check for another organization's account exactly as for an unknown one", async () => {
    // Accounts C never invited: one of A (the realm's owner) and B's administrator.
    const unknown = `nobody-${randomBytes(4).toString('hex')}@acme-a.test`;
    const exists = (email: string) => call('GET', `${core}/users/${encodeURIComponent(email)}/exists`, rptC);
    const forVictim = await exists(totpVictim.email);
    const forAdmin = await exists(seeded.adminB.email);
    const forNobody = await exists(unknown);
    expect(forVictim.body).not.toMatch(/"exists"\s*:\s*true/);
    expect([forVictim.status, forVictim.body]).toEqual([forNobody.status, forNobody.body]);
    expect([forAdmin.status, forAdmin.body]).toEqual([forNobody.status, forNobody.body]);
    // A's own administrator still learns that A's member exists (the check works).
    const rptA = (await rptFor(server, REALM, seeded.adminA.email, seeded.orgA.resourceId)).rpt;
    const own = await call('GET', `${core}/users/${encodeURIComponent(victim.email)}/exists`, rptA);
    expect(own.status).toBe(200);
    expect(own.json).toEqual({ exists: true });
  });

  it("reads nothing of A's account", async () => {
    const tables = await snapshot(db);
    const email = encodeURIComponent(victim.email);
    const reads = [
      `${core}/organizations/${C.org.id}/users/${victim.id}`,
      `${core}/organizations/${C.org.id}/users/username/${email}`,
      `${core}/organizations/${C.org.id}/users/${victim.id}/securityPolicies`,
      `${core}/organizations/${seeded.orgA.id}/users/${victim.id}`,
      `${core}/organizations/${seeded.orgA.id}/users/username/${email}`,
      `${core}/organizations/${seeded.orgA.id}/users/${victim.id}/securityPolicies`,
    ];
    for (const url of reads) {
      const answer = await call('GET', url, rptC);
      expect([403, 404], `${url} -> ${answer.body}`).toContain(answer.status);
      expect(victimDataIn(answer, victim, decodeURIComponent(url))).toEqual([]);
    }
    const searches = [
      `${core}/organizations/${C.org.id}/users?search=${email}`,
      `${core}/organizations/users?search=${email}`,
      `${core}/organizations/${C.org.id}/apiKeys?username=${email}`,
    ];
    for (const url of searches) {
      const answer = await call('GET', url, rptC);
      expect(answer.status, answer.body).toBeLessThan(500);
      expect(victimDataIn(answer, victim, decodeURIComponent(url)), `${url} -> ${answer.body}`).toEqual([]);
    }
    expect(changedTables(tables, await snapshot(db))).toEqual([]);
  });

  it("removes, restricts and keys nothing of A's account (membership, security policies, API keys)", async () => {
    const before = await accountState(victim.id);
    const tables = await snapshot(db);
    const attempts: Array<[Method, string, unknown?]> = [
      ['DELETE', `${core}/organizations/${C.org.id}/users/${victim.id}`],
      ['POST', `${core}/organizations/${C.org.id}/users/${victim.id}/securityPolicies/${policyC}`],
      ['DELETE', `${core}/organizations/${C.org.id}/users/${victim.id}/securityPolicies/${policyA}`],
      ['POST', `${core}/organizations/${seeded.orgA.id}/users/${victim.id}/securityPolicies/${policyC}`],
      ['POST', `${core}/organizations/${C.org.id}/apiKeys`, { name: 'mallory', username: victim.email }],
      ['DELETE', `${core}/organizations/${C.org.id}/apiKeys/${victimKey}`],
      ['DELETE', `${core}/organizations/${seeded.orgA.id}/apiKeys/${victimKey}`],
    ];
    for (const [method, url, payload] of attempts) {
      const answer = await call(method, url, rptC, payload);
      expect(refused(answer), `${method} ${url} -> ${answer.status} ${answer.body}`).toBe(true);
    }
    expect(changedTables(tables, await snapshot(db)), 'a refused request changed the database').toEqual([]);
    expect(await accountState(victim.id)).toEqual(before);
    expect(await signsIn(victim.email, PASSWORD)).toBe(true);
  });
});

/** The pending invitation of C to the victim (made by adding the victim by e-mail), if the add makes one. */
async function pendingInvitation(): Promise<string> {
  const added = await call('POST', `${core}/organizations/${C.org.id}/users`, rptC, {
    email: victim.email,
    roleIds: [adminRoleC],
  });
  expect(added.status, added.body).toBeLessThan(500);
  const [invitation] = await invitationsOf(C.org.id, victim.id);
  expect(invitation, 'adding an existing account of the realm makes a pending invitation').toBeDefined();
  return invitation?.id ?? '';
}

describe('an invitation of C to an account of A', () => {
  const invitations = `${core}/account/invitations`;

  it("is accepted only by the account's owner, never by C's administrator", async () => {
    const id = await pendingInvitation();
    const before = await accountState(victim.id);
    const tables = await snapshot(db);
    for (const token of [rptC, accessC]) {
      for (const verb of ['accept', 'decline']) {
        const answer = await call('POST', `${invitations}/${id}/${verb}`, token);
        expect([403, 404], `${verb} -> ${answer.body}`).toContain(answer.status);
      }
      const listed = await call('GET', invitations, token);
      expect(listed.body).not.toContain(id);
    }
    expect(changedTables(tables, await snapshot(db)), 'a refused request changed the database').toEqual([]);
    expect(await accountState(victim.id)).toEqual(before);
    expect(await isMember(C.org.id, victim.id)).toBe(false);
    expect((await invitationsOf(C.org.id, victim.id)).map((row) => row.id)).toEqual([id]);
    // C sees its invitation by the e-mail it typed, and nothing more of the account (not its names, not its id).
    const outgoing = await call('GET', `${core}/organizations/${C.org.id}/invitations`, rptC);
    expect(outgoing.status, outgoing.body).toBe(200);
    expect(outgoing.body).toContain(id);
    expect(victimDataIn(outgoing, victim, victim.email)).toEqual([]);
  });

  it('is shown to its owner, who can decline it and stays no member', async () => {
    const [invitation] = await invitationsOf(C.org.id, victim.id);
    expect(invitation).toBeDefined();
    const owner = await rptFor(server, REALM, victim.email, seeded.orgA.resourceId);
    const listed = await call('GET', invitations, owner.accessToken);
    expect(listed.status, listed.body).toBe(200);
    expect(listed.body).toContain(invitation?.id ?? 'none');
    expect(listed.body).toContain(C.org.name);
    const declined = await call('POST', `${invitations}/${invitation?.id}/decline`, owner.accessToken);
    expect(declined.status, declined.body).toBeLessThan(300);
    expect(await invitationsOf(C.org.id, victim.id)).toEqual([]);
    expect(await isMember(C.org.id, victim.id)).toBe(false);
  });

  it("once accepted, still gives C no hold on the credentials, e-mail or enabled state of A's account", async () => {
    const id = await pendingInvitation();
    const owner = await rptFor(server, REALM, victim.email, seeded.orgA.resourceId);
    const accepted = await call('POST', `${invitations}/${id}/accept`, owner.accessToken);
    expect(accepted.status, accepted.body).toBeLessThan(300);
    expect(await isMember(C.org.id, victim.id)).toBe(true);

    const before = await accountState(victim.id);
    const tables = await snapshot(db);
    const stolen = `mallory-${randomBytes(4).toString('hex')}`;
    const changes = [
      { password: stolen },
      { email: `taken-${randomBytes(3).toString('hex')}@evil.test` },
      { enabled: false },
      { passwordChangeInvitation: true },
    ];
    for (const change of changes) {
      const answer = await call('PUT', `${core}/organizations/${C.org.id}/users/${victim.id}`, rptC, change);
      expect(refused(answer), `${JSON.stringify(change)} -> ${answer.status} ${answer.body}`).toBe(true);
    }
    expect(changedTables(tables, await snapshot(db)), 'a refused request changed the database').toEqual([]);
    expect(await accountState(victim.id)).toEqual(before);
    expect(await signsIn(victim.email, PASSWORD)).toBe(true);
    expect(await signsIn(victim.email, stolen)).toBe(false);

    // Whatever C demands of its members, it cannot lock A's account out of signing in: either C may not assign its
    // sign-in policy to an account that is not C's, or the policy does not govern the sign-in to A.
    const restricted = await call(
      'POST',
      `${core}/organizations/${C.org.id}/users/${victim.id}/securityPolicies/${policyC}`,
      rptC,
    );
    expect(restricted.status, restricted.body).toBeLessThan(500);
    const inA = await requestRpt(server, victim.email, seeded.orgA.resourceId).catch((error: Error) => error);
    expect(inA instanceof Error ? inA.message : inA.status, "C locked A's account out").toBe(200);

    // C may end its own membership; the account, A's member, stays.
    const removed = await call('DELETE', `${core}/organizations/${C.org.id}/users/${victim.id}`, rptC);
    expect(removed.status, removed.body).toBe(204);
    expect(await isMember(C.org.id, victim.id)).toBe(false);
    expect(await isMember(seeded.orgA.id, victim.id)).toBe(true);
    expect(await signsIn(victim.email, PASSWORD)).toBe(true);
  });
});

describe("the realm's status feed belongs to the organization that owns the realm (A)", () => {
  let incident: string;
  const title = 'Scheduled maintenance of the A data centre';

  beforeAll(async () => {
    const [row] = await db
      .insert(statusIssues)
      .values({ realm: REALM, type: 'maintenance', status: 'planned', title })
      .returning();
    if (!row) throw new Error('seeding returned nothing');
    incident = row.id;
  });

  const feedRow = async () =>
    db.select().from(statusIssues).where(eq(statusIssues.realm, REALM)).orderBy(statusIssues.id);

  it("refuses other tenants' administrators (C, self-onboarded, and B) creating, editing or deleting notices", async () => {
    const before = await feedRow();
    const tables = await snapshot(db);
    const phishing = {
      type: 'incident',
      status: 'investigating',
      title: 're-enter your password at https://evil.example/login',
    };
    for (const [name, token] of [
      ['C', rptC],
      ['B', rptB],
    ] as const) {
      const attempts = [
        await call('POST', `${core}/status/issues`, token, phishing),
        await call('PUT', `${core}/status/issues/${incident}`, token, phishing),
        await call('DELETE', `${core}/status/issues/${incident}`, token),
      ];
      for (const answer of attempts)
        expect(answer.status, `${name}: ${answer.status} ${answer.body}`).toBe(403);
    }
    expect(changedTables(tables, await snapshot(db))).toEqual([]);
    expect(await feedRow()).toEqual(before);
    const feed = await send(server, { method: 'GET', url: `${core}/status/issues` }, undefined);
    expect(feed.body).toContain(title);
    expect(feed.body).not.toContain('evil.example');
  });

  it("lets the realm owner's administrator edit a notice (the refusals above are the ownership check)", async () => {
    const [own] = await db
      .insert(statusIssues)
      .values({ realm: REALM, type: 'maintenance', status: 'planned', title })
      .returning();
    const rptA = (await rptFor(server, REALM, seeded.adminA.email, seeded.orgA.resourceId)).rpt;
    const edited = await call('PUT', `${core}/status/issues/${own?.id}`, rptA, {
      type: 'maintenance',
      status: 'completed',
      title,
    });
    expect(edited.status, edited.body).toBe(200);
    const [row] = await db
      .select()
      .from(statusIssues)
      .where(eq(statusIssues.id, own?.id ?? ''));
    expect(row?.status).toBe('completed');
  });
});

describe("the realm's public theme (login page, e-mails) is the owner's", () => {
  it('is not taken over by a self-onboarded tenant saving its own theme while the owner has none', async () => {
    const brand = `Mallory Bank ${randomBytes(3).toString('hex')}`;
    const before = await send(server, { method: 'GET', url: '/svc/theme/theme' }, undefined);
    expect(before.status).toBe(200);
    const saved = await call('PUT', `/svc/theme/${C.org.id}/theme`, rptC, {
      brandName: brand,
      primaryColor: '#ff0000',
      logoUrl: 'https://evil.example/logo.png',
      colorScheme: 'light',
    });
    // C may brand its own portal...
    expect(saved.status, saved.body).toBe(200);
    const own = await call('GET', `/svc/theme/${C.org.id}/theme`, rptC);
    expect((own.json as { brandName?: string }).brandName).toBe(brand);
    // ...but the realm's sign-in page, shown to A's users too, stays as it was.
    const after = await send(server, { method: 'GET', url: '/svc/theme/theme' }, undefined);
    expect(after.body).not.toContain(brand);
    expect(after.body).not.toContain('evil.example');
    expect(after.json).toEqual(before.json);
  });
});
