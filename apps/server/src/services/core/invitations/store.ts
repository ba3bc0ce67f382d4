import { and, asc, count, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/index.ts';
import { groupMembers, organizationInvitations, organizations, users } from '../../../db/schema.ts';

export type InvitationRow = typeof organizationInvitations.$inferSelect;

const inviter = alias(users, 'inviter');

export type NewInvitation = {
  organizationId: string;
  userId: string;
  invitedBy: string | null;
  roleIds: string[];
  groupIds: string[];
};

/** The new invitation, or undefined when the account already has one from this organization. */
export async function insertInvitation(db: Db, invitation: NewInvitation) {
  const [row] = await db.insert(organizationInvitations).values(invitation).onConflictDoNothing().returning();
  return row;
}

export async function pendingFor(db: Db, organizationId: string, userId: string) {
  const [row] = await db
    .select()
    .from(organizationInvitations)
    .where(
      and(
        eq(organizationInvitations.organizationId, organizationId),
        eq(organizationInvitations.userId, userId),
      ),
    );
  return row;
}

/** An invitation with the invited account's e-mail and the inviter's e-mail, as the organization sees it. */
const organizationView = {
  invitation: organizationInvitations,
  email: users.email,
  invitedBy: inviter.email,
};

export type OrganizationViewRow = { invitation: InvitationRow; email: string; invitedBy: string | null };

export async function organizationPage(
  db: Db,
  organizationId: string,
  limit: number,
  offset: number,
): Promise<{ rows: OrganizationViewRow[]; total: number }> {
  const where = eq(organizationInvitations.organizationId, organizationId);
  const [rows, [total]] = await Promise.all([
    db
      .select(organizationView)
      .from(organizationInvitations)
      .innerJoin(users, eq(users.id, organizationInvitations.userId))
      .leftJoin(inviter, eq(inviter.id, organizationInvitations.invitedBy))
      .where(where)
      .orderBy(asc(organizationInvitations.createdAt), asc(organizationInvitations.id))
      .limit(limit)
      .offset(offset),
    db.select({ value: count() }).from(organizationInvitations).where(where),
  ]);
  return { rows, total: total?.value ?? 0 };
}

export async function findInOrganization(
  db: Db,
  organizationId: string,
  id: string,
): Promise<OrganizationViewRow | undefined> {
  const [row] = await db
    .select(organizationView)
    .from(organizationInvitations)
    .innerJoin(users, eq(users.id, organizationInvitations.userId))
    .leftJoin(inviter, eq(inviter.id, organizationInvitations.invitedBy))
    .where(
      and(eq(organizationInvitations.organizationId, organizationId), eq(organizationInvitations.id, id)),
    );
  return row;
}

/** Deletes the organization's invitation; answers it, or undefined when there was none (already gone). */
export async function deleteInOrganization(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .delete(organizationInvitations)
    .where(
      and(eq(organizationInvitations.organizationId, organizationId), eq(organizationInvitations.id, id)),
    )
    .returning();
  return row;
}

/** The account's pending invitations with the inviting organization (of the account's realm only), oldest first. */
export async function ofAccount(db: Db, realm: string, userId: string) {
  return db
    .select({
      invitation: organizationInvitations,
      organization: { id: organizations.id, resourceId: organizations.resourceId, name: organizations.name },
      inviter: { email: inviter.email, firstName: inviter.firstName, lastName: inviter.lastName },
    })
    .from(organizationInvitations)
    .innerJoin(organizations, eq(organizations.id, organizationInvitations.organizationId))
    .leftJoin(inviter, eq(inviter.id, organizationInvitations.invitedBy))
    .where(and(eq(organizationInvitations.userId, userId), eq(organizations.realm, realm)))
    .orderBy(asc(organizationInvitations.createdAt), asc(organizationInvitations.id));
}

/**
 * Deletes the account's own invitation and answers it: one statement, so of two concurrent answers (accept and
 * decline, or accept twice, or accept and a revocation) exactly one finds it.
 */
export async function takeOfAccount(db: Db, userId: string, id: string) {
  const [row] = await db
    .delete(organizationInvitations)
    .where(and(eq(organizationInvitations.userId, userId), eq(organizationInvitations.id, id)))
    .returning();
  return row;
}

export async function organizationOf(db: Db, id: string) {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
  return row;
}

export async function accountOf(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Puts the user in the groups (as a plain member, no member role). */
export async function joinGroups(db: Db, userId: string, groupIds: string[]): Promise<void> {
  if (groupIds.length === 0) return;
  await db
    .insert(groupMembers)
    .values(groupIds.map((groupId) => ({ groupId, userId, roleId: null })))
    .onConflictDoNothing();
}
