import type { core } from '@edgeport/contract';
import { type Config, realmOrigin } from '../../../config.ts';
import type { Db } from '../../../db/index.ts';
import { pageWindow } from '../../../db/paging.ts';
import { conflict, forbidden, notFound, unauthorized } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { findAccount } from '../../../identity/accounts.ts';
import { joinInvitationMail } from '../../../mail/templates.ts';
import type { MailTransport } from '../../../mail/transport.ts';
import { recordAudit } from '../../audit/service.ts';
import { assertWithinLimit } from '../../limits/enforce.ts';
import { themeForRealm } from '../../theme/service.ts';
import { groupsAmong } from '../groups/service.ts';
import { addMember } from '../organizations/provisioning.ts';
import { authorizeInOrganization, toOrganization } from '../organizations/service.ts';
import { rolesAmong } from '../roles/service.ts';
import * as store from './store.ts';

/** What inviting needs from the composition root (the notice goes out by e-mail). */
export type InvitationsContext = { db: Db; config: Config; mail: MailTransport };

type Organization = Awaited<ReturnType<typeof authorizeInOrganization>>;
type Account = NonNullable<Awaited<ReturnType<typeof findAccount>>>;

async function namedAssignments(db: Db, organizationId: string, invitation: store.InvitationRow) {
  const [roles, groups] = await Promise.all([
    rolesAmong(db, organizationId, invitation.roleIds),
    groupsAmong(db, organizationId, invitation.groupIds),
  ]);
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return {
    roles: roles.map(({ id, name }) => ({ id, name })).sort(byName),
    groups: groups.map(({ id, name }) => ({ id, name })).sort(byName),
  };
}

async function toOrganizationInvitation(
  db: Db,
  row: store.OrganizationViewRow,
): Promise<core.OrganizationInvitation> {
  const { invitation } = row;
  return {
    id: invitation.id,
    email: row.email,
    invitedBy: row.invitedBy,
    createdAt: invitation.createdAt.toISOString(),
    ...(await namedAssignments(db, invitation.organizationId, invitation)),
  };
}

/** The e-mail telling the account's owner which organization invites them, with a link to the portal. */
async function notifyInvited(context: InvitationsContext, org: Organization, account: Account) {
  const { brandName } = await themeForRealm(context.db, account.realm);
  const rendered = joinInvitationMail({
    recipient: account,
    organizationName: org.name,
    brandName,
    link: `${realmOrigin(context.config, account.realm)}/#/organization`,
  });
  await context.mail.send({ realm: account.realm, to: account.email, ...rendered });
}

/**
 * Asks an existing account of the realm to join the organization (the caller already holds CREATE users there and
 * checked the roles and groups). The account does not become a member: its owner accepts or declines.
 */
export async function inviteAccount(
  context: InvitationsContext,
  principal: Principal,
  org: Organization,
  account: Account,
  assignments: { roleIds: string[]; groupIds: string[] },
): Promise<core.OrganizationInvitation> {
  const { db } = context;
  const created = await store.insertInvitation(db, {
    organizationId: org.id,
    userId: account.id,
    // The inviter's account may be gone while their token still lives: then nobody is named.
    invitedBy: (await findAccount(db, principal.realm, principal.userId))?.id ?? null,
    ...assignments,
  });
  if (!created) throw conflict(`email: '${account.email}' is already invited to this organization`);
  await notifyInvited(context, org, account);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'invitations.create',
    resourceType: 'users',
    resourceId: created.id,
    resourceName: account.email,
    detail: assignments,
  });
  const row = await store.findInOrganization(db, org.id, created.id);
  if (!row) throw notFound(`invitation '${created.id}' not found in this organization`);
  return toOrganizationInvitation(db, row);
}

/** Whether the account has a pending invitation from the organization (for the users area). */
export async function isInvited(db: Db, organizationId: string, userId: string): Promise<boolean> {
  return (await store.pendingFor(db, organizationId, userId)) !== undefined;
}

export async function listOrganizationInvitations(
  db: Db,
  principal: Principal,
  ref: string,
  query: core.InvitationListQuery,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'users');
  const { page, pageSize, offset } = pageWindow(query);
  const { rows, total } = await store.organizationPage(db, org.id, pageSize, offset);
  const items = await Promise.all(rows.map((row) => toOrganizationInvitation(db, row)));
  return { items, total, page, pageSize };
}

export async function getOrganizationInvitation(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'users');
  const row = await store.findInOrganization(db, org.id, id);
  if (!row) throw notFound(`invitation '${id}' not found in this organization`);
  return toOrganizationInvitation(db, row);
}

/** Withdraws a pending invitation (DELETE users: the invited account is not told). */
export async function revokeInvitation(db: Db, principal: Principal, ref: string, id: string): Promise<void> {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'users');
  const row = await store.findInOrganization(db, org.id, id);
  if (!row || !(await store.deleteInOrganization(db, org.id, id))) {
    throw notFound(`invitation '${id}' not found in this organization`);
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'invitations.revoke',
    resourceType: 'users',
    resourceId: id,
    resourceName: row.email,
    detail: { userId: row.invitation.userId },
  });
}

/**
 * The account the call is about is the caller's own, signed in: a personal API key acts for its owner inside one
 * organization and is handed out by that organization's administrators, so it never answers for the account.
 */
async function signedInAccount(db: Db, principal: Principal): Promise<Account> {
  if (principal.apiKeyId) throw forbidden('sign in to answer invitations; an API key cannot');
  const account = await findAccount(db, principal.realm, principal.userId);
  if (!account) throw unauthorized('the account no longer exists');
  return account;
}

function inviterName(inviter: { email: string; firstName: string; lastName: string } | null) {
  if (!inviter) return null;
  return `${inviter.firstName} ${inviter.lastName}`.trim() || inviter.email;
}

/** The caller's pending invitations (any token of theirs; realm-wide, so only ever their own). */
export async function myInvitations(db: Db, principal: Principal): Promise<core.AccountInvitation[]> {
  const account = await signedInAccount(db, principal);
  const rows = await store.ofAccount(db, account.realm, account.id);
  return rows.map(({ invitation, organization, inviter }) => ({
    id: invitation.id,
    organization,
    invitedBy: inviterName(inviter),
    createdAt: invitation.createdAt.toISOString(),
  }));
}

/**
 * Accepts the caller's invitation: the account becomes a member with the invited roles and groups that still exist
 * (checked now, in this organization). Taking the invitation, the limit check and the membership are one transaction:
 * of two concurrent answers only one finds the invitation, and a refused limit leaves it pending.
 */
export async function acceptInvitation(db: Db, principal: Principal, id: string): Promise<core.Organization> {
  const account = await signedInAccount(db, principal);
  const accepted = await db.transaction(async (tx) => {
    const txDb = tx as unknown as Db;
    const invitation = await store.takeOfAccount(txDb, account.id, id);
    const org = invitation && (await store.organizationOf(txDb, invitation.organizationId));
    if (!invitation || !org || org.realm !== account.realm) throw notFound(`invitation '${id}' not found`);
    await assertWithinLimit(txDb, org.id, 'users');
    const { roles, groups } = await namedAssignments(txDb, org.id, invitation);
    await addMember(
      txDb,
      org.id,
      account.id,
      roles.map((role) => role.id),
    );
    await store.joinGroups(
      txDb,
      account.id,
      groups.map((group) => group.id),
    );
    return { invitation, org, roles, groups };
  });
  await recordAudit(db, principal, {
    organizationId: accepted.org.id,
    action: 'invitations.accept',
    resourceType: 'users',
    resourceId: accepted.invitation.id,
    resourceName: account.email,
    detail: {
      userId: account.id,
      roleIds: accepted.roles.map((role) => role.id),
      groupIds: accepted.groups.map((group) => group.id),
    },
  });
  return toOrganization(accepted.org);
}

/** Declines the caller's invitation; the organization may invite again later. */
export async function declineInvitation(db: Db, principal: Principal, id: string): Promise<void> {
  const account = await signedInAccount(db, principal);
  const invitation = await store.takeOfAccount(db, account.id, id);
  if (!invitation) throw notFound(`invitation '${id}' not found`);
  await recordAudit(db, principal, {
    organizationId: invitation.organizationId,
    action: 'invitations.decline',
    resourceType: 'users',
    resourceId: invitation.id,
    resourceName: account.email,
    detail: { userId: account.id },
  });
}
