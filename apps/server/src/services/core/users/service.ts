import { core } from '@edgeport/contract';
import { type Config, realmOrigin } from '../../../config.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Db } from '../../../db/index.ts';
import { pageWindow, sortKey } from '../../../db/paging.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { findAccount, hashPassword } from '../../../identity/accounts.ts';
import {
  ACTION_TOKEN_TTL_HOURS,
  actionTokenLink,
  issueActionToken,
} from '../../../identity/action-tokens.ts';
import { invitationMail, passwordChangeMail } from '../../../mail/templates.ts';
import type { MailTransport } from '../../../mail/transport.ts';
import { recordAudit } from '../../audit/service.ts';
import { assertWithinLimit } from '../../limits/enforce.ts';
import { themeForRealm } from '../../theme/service.ts';
import { groupsAmong } from '../groups/service.ts';
import { inviteAccount, isInvited } from '../invitations/service.ts';
import { descendantIds } from '../organizations/admin-service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import { rolesAmong } from '../roles/service.ts';
import * as store from './store.ts';

/** What the users area needs from the composition root. */
export type UsersContext = { db: Db; config: Config; mail: MailTransport };

type Organization = Awaited<ReturnType<typeof authorizeInOrganization>>;

function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function toItem(
  account: store.AccountRow,
  roles: store.NamedRow[],
  groups: store.NamedRow[],
  shared: Set<string>,
): core.OrganizationUser {
  const pick = (rows: store.NamedRow[]) =>
    rows.filter((row) => row.userId === account.id).map(({ id, name }) => ({ id, name }));
  return {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    locale: account.locale,
    enabled: account.enabled,
    passwordChangeInvitation: account.passwordChangeInvitation,
    groupPoliciesEnabled: account.groupPoliciesEnabled,
    invitationPending: account.passwordHash === null,
    accountManaged: !shared.has(account.id),
    requiredActions: account.requiredActions,
    createdAt: account.createdAt.toISOString(),
    roles: pick(roles),
    groups: pick(groups),
  };
}

/** The organization and every organization below it: whose administrators manage an account only there. */
async function subtreeOf(db: Db, org: Organization): Promise<string[]> {
  return [org.id, ...(await descendantIds(db, org.id))];
}

async function itemsOf(db: Db, org: Organization, accounts: store.AccountRow[]) {
  const ids = accounts.map((account) => account.id);
  const [roles, groups, shared] = await Promise.all([
    store.rolesOfUsers(db, org.id, ids),
    store.groupsOfUsers(db, org.id, ids),
    subtreeOf(db, org).then((subtree) => store.membersElsewhere(db, ids, subtree)),
  ]);
  const elsewhere = new Set(shared);
  return accounts.map((account) => toItem(account, roles, groups, elsewhere));
}

/**
 * Issue 32 (F1), who owns an account: accounts are realm-wide, organizations are tenants. An organization's
 * administrators change an account's e-mail, password, names, language or enabled state, and give it sign-in
 * policies (they govern the realm-wide sign-in), only while it belongs to no organization outside their own (and its
 * sub-organizations). An account that also belongs to an unrelated organization is its owner's alone: they manage it
 * themselves (account page, set-password link), as in Keycloak, where only realm administrators manage credentials.
 * Roles, groups, API keys and the membership stay each organization's own.
 */
async function assertManagesAccount(
  db: Db,
  org: Organization,
  account: store.AccountRow,
  what: string,
): Promise<void> {
  const shared = await store.membersElsewhere(db, [account.id], await subtreeOf(db, org));
  if (shared.length > 0) {
    throw forbidden(
      `user '${account.id}' also belongs to another organization: only its owner ${what}; roles, groups and the membership here can still be changed`,
    );
  }
}

async function itemOf(db: Db, org: Organization, account: store.AccountRow) {
  const [item] = await itemsOf(db, org, [account]);
  if (!item) throw notFound(`user '${account.id}' not found in this organization`);
  return item;
}

async function memberOrNotFound(db: Db, org: Organization, userId: string) {
  const account = await store.findMember(db, org.id, userId);
  if (!account) throw notFound(`user '${userId}' not found in this organization`);
  return account;
}

/** Members of the organization, one page, with their direct roles and groups there. */
export async function listUsers(db: Db, principal: Principal, ref: string, query: core.UserListQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'users');
  const { page, pageSize, offset } = pageWindow(query);
  const { rows, total } = await store.membersPage(db, org, {
    search: query.search,
    sort: sortKey(query.sort, core.USER_SORT_FIELDS, 'email'),
    order: query.order ?? 'asc',
    limit: pageSize,
    offset,
  });
  return { items: await itemsOf(db, org, rows), total, page, pageSize };
}

export async function getUser(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'users');
  return itemOf(db, org, await memberOrNotFound(db, org, id));
}

export async function getUserByName(db: Db, principal: Principal, ref: string, name: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'users');
  const account = await store.findMemberByEmail(db, org.id, normalizeEmail(name));
  if (!account) throw notFound(`user '${name}' not found in this organization`);
  return itemOf(db, org, account);
}

/** Every id must name a role (group) of this organization; another tenant's id is as unknown as a made-up one. */
async function checkAssignments(db: Db, org: Organization, roleIds: string[], groupIds: string[]) {
  const roles = await rolesAmong(db, org.id, roleIds);
  const missingRole = roleIds.find((id) => !roles.some((role) => role.id === id));
  if (missingRole) throw notFound(`roleIds: role '${missingRole}' not found in this organization`);
  const groups = await groupsAmong(db, org.id, groupIds);
  const missingGroup = groupIds.find((id) => !groups.some((group) => group.id === id));
  if (missingGroup) throw notFound(`groupIds: group '${missingGroup}' not found in this organization`);
}

/**
 * An e-mail with a one-time link to set a password (72 h), in the account's language, naming the organization for
 * an invitation.
 */
async function sendPasswordLink(
  context: UsersContext,
  account: store.AccountRow,
  kind: { invitation: Organization } | { passwordChange: true },
): Promise<void> {
  const origin = realmOrigin(context.config, account.realm);
  const { token } = await issueActionToken(context.db, {
    userId: account.id,
    actions: ['UPDATE_PASSWORD'],
    redirectUri: `${origin}/`,
  });
  const link = actionTokenLink(origin, account.realm, token);
  const { brandName } = await themeForRealm(context.db, account.realm);
  const recipient = {
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    locale: account.locale,
  };
  const rendered =
    'invitation' in kind
      ? invitationMail({
          recipient,
          organizationName: kind.invitation.name,
          brandName,
          link,
          validHours: ACTION_TOKEN_TTL_HOURS,
        })
      : passwordChangeMail({ recipient, brandName, link, validHours: ACTION_TOKEN_TTL_HOURS });
  await context.mail.send({ realm: account.realm, to: account.email, ...rendered });
}

export type InviteOutcome =
  | { status: 201; body: core.OrganizationUser }
  | { status: 202; body: core.OrganizationInvitation };

/**
 * Invites someone into the organization. A new e-mail gets a new account without password that becomes a member
 * (201) and an e-mail whose link sets the password. An existing account of the realm is someone else's: it is only
 * invited (202) and becomes a member when its owner accepts (issue 32, F1).
 */
export async function inviteUser(
  context: UsersContext,
  principal: Principal,
  ref: string,
  input: core.UserInvite,
): Promise<InviteOutcome> {
  const { db } = context;
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'users');
  const email = normalizeEmail(input.email);
  const roleIds = [...new Set(input.roleIds ?? [])];
  const groupIds = [...new Set(input.groupIds ?? [])];
  await checkAssignments(db, org, roleIds, groupIds);

  const existing = await store.findAccountByEmail(db, principal.realm, email);
  if (existing && (await store.isMember(db, org.id, existing.id))) {
    throw conflict(`email: '${email}' is already a member of this organization`);
  }
  await assertWithinLimit(db, org.id, 'users');
  if (existing) {
    return {
      status: 202,
      body: await inviteAccount(context, principal, org, existing, { roleIds, groupIds }),
    };
  }
  let account: store.AccountRow;
  try {
    account = await db.transaction(async (tx) => {
      const txDb = tx as unknown as Db;
      const created = await store.insertAccount(txDb, {
        realm: principal.realm,
        email,
        firstName: input.firstName?.trim() ?? '',
        lastName: input.lastName?.trim() ?? '',
        locale: input.locale ?? null,
        requiredActions: ['UPDATE_PASSWORD'],
      });
      await store.addMembership(txDb, org.id, created.id, roleIds, groupIds);
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`email: '${email}' was invited at the same time by someone else`);
    throw error;
  }
  await sendPasswordLink(context, account, { invitation: org });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'users.invite',
    resourceType: 'users',
    resourceId: account.id,
    resourceName: account.email,
    detail: { newAccount: true, roleIds, groupIds },
  });
  return { status: 201, body: await itemOf(db, org, account) };
}

type AccountChanges = Parameters<typeof store.updateAccount>[2];

/** What the update would change on the account, the password aside (a new one always changes it). */
function accountChanges(account: store.AccountRow, input: core.UserUpdate): AccountChanges {
  const changes: AccountChanges = {};
  const differs = <Value>(value: Value | undefined, current: Value): value is Value =>
    value !== undefined && value !== current;
  const firstName = input.firstName?.trim();
  const lastName = input.lastName?.trim();
  const email = input.email === undefined ? undefined : normalizeEmail(input.email);
  if (differs(firstName, account.firstName)) changes.firstName = firstName;
  if (differs(lastName, account.lastName)) changes.lastName = lastName;
  if (differs(input.locale, account.locale)) changes.locale = input.locale;
  if (differs(input.enabled, account.enabled)) changes.enabled = input.enabled;
  if (differs(input.groupPoliciesEnabled, account.groupPoliciesEnabled))
    changes.groupPoliciesEnabled = input.groupPoliciesEnabled;
  if (differs(email, account.email)) changes.email = email;
  if (input.passwordChangeInvitation !== undefined) {
    if (input.passwordChangeInvitation !== account.passwordChangeInvitation)
      changes.passwordChangeInvitation = input.passwordChangeInvitation;
    if (input.passwordChangeInvitation && !account.requiredActions.includes('UPDATE_PASSWORD')) {
      changes.requiredActions = [...account.requiredActions, 'UPDATE_PASSWORD'];
    }
  }
  return changes;
}

/**
 * Changes an account of the organization (spec 7: email, password, passwordChangeInvitation, groupPoliciesEnabled).
 * A change of an account that also belongs to another organization is refused (403, see assertManagesAccount).
 */
export async function updateUser(
  context: UsersContext,
  principal: Principal,
  ref: string,
  id: string,
  input: core.UserUpdate,
) {
  const { db } = context;
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'users');
  const account = await memberOrNotFound(db, org, id);
  if (input.enabled === false && account.id === principal.userId) {
    throw conflict('enabled: you cannot disable your own account');
  }
  const changes = accountChanges(account, input);
  if (Object.keys(changes).length > 0 || input.password !== undefined || input.passwordChangeInvitation) {
    await assertManagesAccount(
      db,
      org,
      account,
      'changes its e-mail, password, names, language or enabled state',
    );
  }
  if (changes.email && (await store.findAccountByEmail(db, account.realm, changes.email))) {
    throw conflict(`email: another account of this realm already uses '${changes.email}'`);
  }
  if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
  try {
    await store.updateAccount(db, account.id, changes);
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`email: another account of this realm already uses '${changes.email}'`);
    throw error;
  }
  const updated = { ...account, ...changes } as store.AccountRow;
  if (input.passwordChangeInvitation) await sendPasswordLink(context, updated, { passwordChange: true });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'users.update',
    resourceType: 'users',
    resourceId: account.id,
    resourceName: updated.email,
    detail: {
      fields: Object.keys(input).sort(),
      ...(changes.email ? { previousEmail: account.email } : {}),
      ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
      ...(input.passwordChangeInvitation ? { passwordChangeEmailSent: true } : {}),
    },
  });
  return getUserAfterChange(db, org, account.id);
}

async function getUserAfterChange(db: Db, org: Organization, id: string) {
  return itemOf(db, org, await memberOrNotFound(db, org, id));
}

/**
 * Removes the user from the organization (membership, direct roles, groups, security policies and API keys there).
 * An account left in no organization is deleted. Nobody removes themselves.
 */
export async function removeUser(db: Db, principal: Principal, ref: string, id: string): Promise<void> {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'users');
  const account = await memberOrNotFound(db, org, id);
  if (account.id === principal.userId) {
    throw conflict('you cannot remove yourself from the organization; ask another administrator');
  }
  const accountDeleted = await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const left = await store.removeMember(txDb, org.id, account.id);
    if (left === 0) await store.deleteAccount(txDb, account.id);
    return left === 0;
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'users.delete',
    resourceType: 'users',
    resourceId: account.id,
    resourceName: account.email,
    detail: { accountDeleted },
  });
}

/** The organization of the caller's permission token, where they need READ on users. */
async function tokenOrganization(db: Db, principal: Principal): Promise<Organization> {
  if (!principal.organizationId) {
    throw forbidden('a permission token (RPT) of an organization is required');
  }
  return authorizeInOrganization(db, principal, principal.organizationId, 'READ', 'users');
}

/** Members of the caller's organization and all its sub-organizations matching the search. */
export async function deepSearch(db: Db, principal: Principal, query: core.UserDeepSearchQuery) {
  const org = await tokenOrganization(db, principal);
  const { page, pageSize, offset } = pageWindow(query);
  const { rows, total } = await store.searchMembers(
    db,
    [org.id, ...(await descendantIds(db, org.id))],
    query.search,
    pageSize,
    offset,
  );
  return { items: rows, total, page, pageSize };
}

/**
 * Whether the e-mail is a member of the caller's organization or has a pending invitation there (for the invite form).
 * Accounts of other organizations are not this organization's business: for them the answer is false (issue 32, F1).
 */
export async function userExists(db: Db, principal: Principal, name: string) {
  const org = await tokenOrganization(db, principal);
  const account = await store.findAccountByEmail(db, principal.realm, normalizeEmail(name));
  const known =
    account !== undefined &&
    ((await store.isMember(db, org.id, account.id)) || (await isInvited(db, org.id, account.id)));
  return { exists: known };
}

export async function myUser(db: Db, principal: Principal): Promise<core.MyUser> {
  const account = await findAccount(db, principal.realm, principal.userId);
  if (!account) throw unauthorized('the account no longer exists');
  return {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    locale: account.locale,
    enabled: account.enabled,
    groupPoliciesEnabled: account.groupPoliciesEnabled,
  };
}

export async function userSecurityPolicies(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'users');
  const account = await memberOrNotFound(db, org, id);
  return store.policiesOfUser(db, org.id, account.id);
}

function policyIds(list: string): string[] {
  return [...new Set(list.split(',').map((id) => id.toLowerCase()))];
}

/** Assigns (or removes) security policy groups of the organization; one unknown id changes nothing. */
export async function changeUserSecurityPolicies(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  list: string,
  change: 'assign' | 'unassign',
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'users');
  const account = await memberOrNotFound(db, org, id);
  const ids = policyIds(list);
  const known = await store.policiesInOrganization(db, org.id, ids);
  const missing = ids.find((candidate) => !known.some((policy) => policy.id === candidate));
  if (missing) throw notFound(`ids: security policy '${missing}' not found in this organization`);
  if (change === 'assign') {
    // A policy restricts the account's sign-in everywhere (address ranges, second factor), not only here.
    await assertManagesAccount(db, org, account, "restricts its sign-in, which is every organization's");
    await store.assignPolicies(db, account.id, ids);
  } else await store.unassignPolicies(db, account.id, ids);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: change === 'assign' ? 'users.assignSecurityPolicies' : 'users.unassignSecurityPolicies',
    resourceType: 'users',
    resourceId: account.id,
    resourceName: account.email,
    detail: { securityPolicyIds: ids },
  });
  return store.policiesOfUser(db, org.id, account.id);
}

/** Whether the account is a member of the organization (for other areas: groups, roles). */
export async function isOrganizationMember(db: Db, organizationId: string, userId: string): Promise<boolean> {
  return store.isMember(db, organizationId, userId);
}
