import { and, eq, inArray, or } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { groupMembers, groupRoles, type ModelPathPermission, roles, userRoles } from '../../../db/schema.ts';

/** Which model paths a user may read and write in an organization, from the data roles they hold there. */
export type DataAccess = {
  /** False when the user holds no data role with path entries: every path is open (their device rights decide). */
  restricted: boolean;
  canRead(path: string): boolean;
  canWrite(path: string): boolean;
};

/** `/motor` covers `/motor` and `/motor/speed`, not `/motorbike`. */
function covers(entry: string, path: string): boolean {
  return entry === '/' || path === entry || path.startsWith(`${entry}/`);
}

export function dataAccessFrom(entries: ModelPathPermission[]): DataAccess {
  if (entries.length === 0) return { restricted: false, canRead: () => true, canWrite: () => true };
  return {
    restricted: true,
    canRead: (path) => entries.some((entry) => entry.read && covers(entry.path, path)),
    canWrite: (path) => entries.some((entry) => entry.write && covers(entry.path, path)),
  };
}

/** The data roles (kind 'data') the user holds in the organization: directly, through groups, or as group member. */
export async function dataAccessOf(db: Db, userId: string, organizationId: string): Promise<DataAccess> {
  const direct = db.select({ id: userRoles.roleId }).from(userRoles).where(eq(userRoles.userId, userId));
  const viaGroups = db
    .select({ id: groupRoles.roleId })
    .from(groupRoles)
    .innerJoin(groupMembers, eq(groupMembers.groupId, groupRoles.groupId))
    .where(eq(groupMembers.userId, userId));
  const asMember = db
    .select({ id: groupMembers.roleId })
    .from(groupMembers)
    .where(eq(groupMembers.userId, userId));
  const held = await db
    .select({ entries: roles.modelPathPermissions })
    .from(roles)
    .where(
      and(
        eq(roles.organizationId, organizationId),
        eq(roles.kind, 'data'),
        or(inArray(roles.id, direct), inArray(roles.id, viaGroups), inArray(roles.id, asMember)),
      ),
    );
  return dataAccessFrom(held.flatMap((role) => role.entries));
}
