import { core } from '@edgeport/contract';
import { type Config, realmOrigin } from '../../../config.ts';
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

/** A unique index said no (two requests raced for the same e-mail). */
function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

function toItem(
  account: store.AccountRow,
  roles: store.NamedRow[],
  groups: store.NamedRow[],
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
    requiredActions: account.requiredActions,
    createdAt: account.createdAt.toISOString(),
    roles: pick(roles),
    groups: pick(groups),
  };
}

async function itemsOf(db: Db, org: Organization, accounts: store.AccountRow[]) {
  const ids = accounts.map((account) => account.id);
  const [roles, groups] = await Promise.all([
    store.rolesOfUsers(db, org.id, ids),
    store.groupsOfUsers(db, org.id, ids),
  ]);
  return accounts.map((account) => toItem(account, roles, groups));
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

/**
 * Invites someone into the organization. An account of the realm with that e-mail becomes a member; otherwise a new
 * account without password is created and gets an invitation e-mail whose link sets the password.
 */
export async function inviteUser(
  context: UsersContext,
  principal: Principal,
  ref: string,
  input: core.UserInvite,
) {
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
  let account: store.AccountRow;
  try {
    account = await db.transaction(async (tx) => {
      const txDb = tx as unknown as Db;
      const target =
        existing ??
        (await store.insertAccount(txDb, {
          realm: principal.realm,
          email,
          firstName: input.firstName?.trim() ?? '',
          lastName: input.lastName?.trim() ?? '',
          locale: input.locale ?? null,
          requiredActions: ['UPDATE_PASSWORD'],
        }));
      await store.addMembership(txDb, org.id, target.id, roleIds, groupIds);
      return target;
    });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`email: '${email}' was invited at the same time by someone else`);
    throw error;
  }
  if (!existing) await sendPasswordLink(context, account, { invitation: org });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'users.invite',
    resourceType: 'users',
    resourceId: account.id,
    resourceName: account.email,
    detail: { newAccount: !existing, roleIds, groupIds },
  });
  return itemOf(db, org, account);
}

/** Changes an account of the organization (spec 7: email, password, passwordChangeInvitation, groupPoliciesEnabled). */
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
  const changes: Parameters<typeof store.updateAccount>[2] = {};
  if (input.firstName !== undefined) changes.firstName = input.firstName.trim();
  if (input.lastName !== undefined) changes.lastName = input.lastName.trim();
  if (input.locale !== undefined) changes.locale = input.locale;
  if (input.enabled !== undefined) changes.enabled = input.enabled;
  if (input.groupPoliciesEnabled !== undefined) changes.groupPoliciesEnabled = input.groupPoliciesEnabled;
  if (input.email !== undefined) {
    const email = normalizeEmail(input.email);
    if (email !== account.email) {
      const holder = await store.findAccountByEmail(db, account.realm, email);
      if (holder) throw conflict(`email: another account of this realm already uses '${email}'`);
      changes.email = email;
    }
  }
  if (input.password !== undefined) changes.passwordHash = await hashPassword(input.password);
  if (input.passwordChangeInvitation !== undefined) {
    changes.passwordChangeInvitation = input.passwordChangeInvitation;
    if (input.passwordChangeInvitation && !account.requiredActions.includes('UPDATE_PASSWORD')) {
      changes.requiredActions = [...account.requiredActions, 'UPDATE_PASSWORD'];
    }
  }
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

/** Whether the realm has an account with this e-mail (for the invite form). */
export async function userExists(db: Db, principal: Principal, name: string) {
  await tokenOrganization(db, principal);
  return {
    exists: (await store.findAccountByEmail(db, principal.realm, normalizeEmail(name))) !== undefined,
  };
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
  if (change === 'assign') await store.assignPolicies(db, account.id, ids);
  else await store.unassignPolicies(db, account.id, ids);
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
