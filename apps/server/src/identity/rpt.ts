import { and, eq, inArray, or } from 'drizzle-orm';
import { importJWK, type JWK, SignJWT } from 'jose';
import type { Db } from '../db/index.ts';
import {
  groupMembers,
  groupRoles,
  memberships,
  organizations,
  roles,
  type StoredPermission,
  userGroups,
  userRoles,
} from '../db/schema.ts';
import { PLATFORM_AUDIENCE, TOKEN_TTL } from './provider.ts';

export const UMA_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:uma-ticket';

export type Organization = typeof organizations.$inferSelect;

export type EffectivePermissions = {
  /** Whether the user may enter the organization: a member, or holding inherited entries from an ancestor. */
  member: boolean;
  permissions: StoredPermission[];
  /** Whether the user is a member of the organization itself. */
  memberOfOrganization: boolean;
  /** The merged entries of the roles held in the organization itself (the rest of `permissions` is inherited). */
  own: StoredPermission[];
  /** The merged INHERIT entries that come from roles held in the organization's ancestors. */
  inherited: StoredPermission[];
};

/** Keycloak's `permission` parameter is `resource[#scope]`; the resource here is the organization's resourceId. */
export async function findPermissionOrganization(
  db: Db,
  realm: string,
  permission: string,
): Promise<Organization | undefined> {
  const resourceId = permission.split('#')[0] ?? '';
  const [org] = await db
    .select()
    .from(organizations)
    .where(and(eq(organizations.realm, realm), eq(organizations.resourceId, resourceId)));
  return org;
}

/** The organization and its ancestors, nearest first. */
export async function ancestry(db: Db, org: Organization): Promise<Organization[]> {
  const chain = [org];
  let parentId = org.parentId;
  while (parentId && chain.length < 32) {
    const [parent] = await db.select().from(organizations).where(eq(organizations.id, parentId));
    if (!parent) break;
    chain.push(parent);
    parentId = parent.parentId;
  }
  return chain;
}

/**
 * What a user may do in an organization: the roles given to them directly, through their groups and as group
 * members in that organization, plus every permission entry carrying INHERIT from roles in its ancestors.
 */
export async function effectivePermissions(
  db: Db,
  userId: string,
  org: Organization,
): Promise<EffectivePermissions> {
  const chain = await ancestry(db, org);
  const chainIds = chain.map((o) => o.id);
  const memberOf = new Set(
    (
      await db
        .select({ organizationId: memberships.organizationId })
        .from(memberships)
        .where(and(eq(memberships.userId, userId), inArray(memberships.organizationId, chainIds)))
    ).map((row) => row.organizationId),
  );
  const direct = db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  const viaGroups = db
    .select({ id: groupRoles.roleId })
    .from(groupRoles)
    .innerJoin(groupMembers, eq(groupMembers.groupId, groupRoles.groupId))
    .innerJoin(userGroups, eq(userGroups.id, groupRoles.groupId))
    .where(eq(groupMembers.userId, userId));
  const asMember = db
    .select({ id: groupMembers.roleId })
    .from(groupMembers)
    .where(eq(groupMembers.userId, userId));
  const held = await db
    .select({ organizationId: roles.organizationId, permissions: roles.permissions })
    .from(roles)
    .where(
      and(
        inArray(roles.organizationId, chainIds),
        or(inArray(roles.id, direct), inArray(roles.id, viaGroups), inArray(roles.id, asMember)),
      ),
    );

  const entries: StoredPermission[] = [];
  const ownEntries: StoredPermission[] = [];
  const inheritedEntries: StoredPermission[] = [];
  for (const role of held) {
    const own = role.organizationId === org.id;
    if (!memberOf.has(role.organizationId)) continue;
    for (const entry of role.permissions) {
      if (own) {
        entries.push(entry);
        ownEntries.push(entry);
      } else if (entry.scopes.includes('INHERIT')) {
        entries.push(entry);
        inheritedEntries.push(entry);
      }
    }
  }
  return {
    member: memberOf.has(org.id) || inheritedEntries.length > 0,
    permissions: mergePermissions(entries),
    memberOfOrganization: memberOf.has(org.id),
    own: mergePermissions(ownEntries),
    inherited: mergePermissions(inheritedEntries),
  };
}

/** One entry per resource and polarity; scopes are unioned, conditional entries are kept apart. */
export function mergePermissions(entries: StoredPermission[]): StoredPermission[] {
  const merged = new Map<string, StoredPermission>();
  const conditional: StoredPermission[] = [];
  for (const entry of entries) {
    if (entry.conditions || entry.fields) {
      conditional.push(entry);
      continue;
    }
    const key = `${entry.inverted ? '!' : ''}${entry.rsname}`;
    const current = merged.get(key);
    merged.set(key, {
      ...entry,
      scopes: [...new Set([...(current?.scopes ?? []), ...entry.scopes])].sort(),
    });
  }
  return [...merged.values(), ...conditional];
}

export function organizationScope(org: Pick<Organization, 'id'>): string {
  return `org:${org.id} app:*`;
}

export type RptInput = {
  issuer: string;
  signingKey: JWK;
  subject: string;
  clientId: string | undefined;
  sessionId: string;
  email: string | undefined;
  org: Organization;
  permissions: StoredPermission[];
};

export async function signRpt(input: RptInput): Promise<{ token: string; expiresIn: number }> {
  const key = await importJWK(input.signingKey, 'RS256');
  const expiresIn = TOKEN_TTL.AccessToken;
  const token = await new SignJWT({
    typ: 'Bearer',
    azp: input.clientId,
    sid: input.sessionId,
    scope: organizationScope(input.org),
    email: input.email,
    preferred_username: input.email,
    authorization: {
      permissions: input.permissions.map((entry) => ({ ...entry, resource_id: input.org.resourceId })),
    },
  })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: input.signingKey.kid })
    .setIssuer(input.issuer)
    .setSubject(input.subject)
    .setAudience(PLATFORM_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(`${expiresIn}s`)
    .setJti(crypto.randomUUID())
    .sign(key);
  return { token, expiresIn };
}
