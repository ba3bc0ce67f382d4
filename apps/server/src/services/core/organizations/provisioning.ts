import { randomBytes } from 'node:crypto';
import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import {
  memberships,
  organizations,
  realms,
  roles,
  type StoredPermission,
  userRoles,
  users,
} from '../../../db/schema.ts';
import { hashPassword } from '../../../identity/accounts.ts';
import { recordUsage } from '../../license/subscriptions/journal.ts';

export type NewOrganization = {
  realm: string;
  name: string;
  resourceId?: string;
  parentId?: string | null;
  iotEnabled?: boolean;
  vpnEnabled?: boolean;
  dealer?: boolean;
  /**
   * The operator's organization: it becomes the realm's owner if the realm has none yet (root organizations only).
   * Self-onboarded and user-created organizations never claim a realm.
   */
  ownsRealm?: boolean;
};

const everything: StoredPermission[] = RESOURCE_TYPES.map((rsname) => ({ rsname, scopes: [...ACTIONS] }));

/** The roles `addDefaultRoles` gives a new organization. */
export const DEFAULT_ROLES: Record<'Administrator' | 'Operator', StoredPermission[]> = {
  Administrator: everything,
  Operator: [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
    { rsname: 'devicegroups', scopes: ['READ'] },
    { rsname: 'models', scopes: ['READ'] },
    { rsname: 'dashboards', scopes: ['READ'] },
    { rsname: 'alarms', scopes: ['READ', 'ACK'] },
    { rsname: 'notifications', scopes: ['READ'] },
  ],
};

export async function createOrganization(db: Db, input: NewOrganization) {
  const [row] = await db
    .insert(organizations)
    .values({
      realm: input.realm,
      name: input.name,
      resourceId: input.resourceId ?? `org-${randomBytes(6).toString('hex')}`,
      parentId: input.parentId ?? null,
      iotEnabled: input.iotEnabled ?? true,
      vpnEnabled: input.vpnEnabled ?? true,
      dealer: input.dealer ?? false,
    })
    .returning();
  if (!row) throw new Error('organization insert returned nothing');
  if (input.ownsRealm && row.parentId === null) {
    await db
      .update(realms)
      .set({ ownerOrganizationId: row.id })
      .where(and(eq(realms.name, input.realm), isNull(realms.ownerOrganizationId)));
  }
  return row;
}

export async function createRole(
  db: Db,
  organizationId: string,
  name: string,
  permissions: StoredPermission[],
) {
  const [row] = await db.insert(roles).values({ organizationId, name, permissions }).returning();
  if (!row) throw new Error('role insert returned nothing');
  return row;
}

export async function addDefaultRoles(db: Db, organizationId: string) {
  return {
    administrator: await createRole(db, organizationId, 'Administrator', DEFAULT_ROLES.Administrator),
    operator: await createRole(db, organizationId, 'Operator', DEFAULT_ROLES.Operator),
  };
}

export type NewUser = {
  realm: string;
  email: string;
  password?: string;
  firstName?: string;
  lastName?: string;
  requiredActions?: string[];
};

export async function createUser(db: Db, input: NewUser) {
  const [row] = await db
    .insert(users)
    .values({
      realm: input.realm,
      email: input.email.trim().toLowerCase(),
      passwordHash: input.password ? await hashPassword(input.password) : null,
      firstName: input.firstName ?? '',
      lastName: input.lastName ?? '',
      requiredActions: input.requiredActions ?? [],
    })
    .returning();
  if (!row) throw new Error('user insert returned nothing');
  return row;
}

/** Makes the user a member of the organization holding the given roles there. */
export async function addMember(db: Db, organizationId: string, userId: string, roleIds: string[] = []) {
  const joined = await db
    .insert(memberships)
    .values({ organizationId, userId })
    .onConflictDoNothing()
    .returning({ userId: memberships.userId });
  if (joined.length > 0) {
    await recordUsage(db, {
      organizationId,
      resourceType: 'users',
      delta: 1,
      reason: 'user.joined',
      subjectId: userId,
    });
  }
  for (const roleId of roleIds) await db.insert(userRoles).values({ userId, roleId }).onConflictDoNothing();
}

/** A password a person can type: 20 characters from an unambiguous alphabet (about 115 bits). */
export function generatePassword(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(20);
  return Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join('');
}
