import type { common, core } from '@edgeport/contract';
import { ACTIONS, buildAbility, isAction, isResourceType, RESOURCE_TYPES } from '@edgeport/permissions';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Db } from '../../../db/index.ts';
import { pageWindow, sortKey } from '../../../db/paging.ts';
import type { DeviceAccess, ModelPathPermission, StoredPermission } from '../../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../../http/errors.ts';
import { abilityIn, type Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { deviceInOrganization } from '../devices/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import { isOrganizationMember } from '../users/service.ts';
import { ensureCatalogue } from './catalogue.ts';
import * as store from './store.ts';

type Organization = Awaited<ReturnType<typeof authorizeInOrganization>>;

export function toRole(row: store.RoleRow, usage: store.Usage = { users: 0, groups: 0 }): core.Role {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    kind: row.kind,
    permissions: row.permissions,
    modelPathPermissions: row.modelPathPermissions,
    applicationPermissionIds: row.applicationPermissionIds,
    deviceAccess: row.deviceAccess,
    owners: row.owners,
    usage,
  };
}

function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export async function listRoles(db: Db, principal: Principal, ref: string, query: core.RoleListQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'roles');
  const { page, pageSize } = pageWindow(query);
  const sort = sortKey(query.sort, Object.keys(store.ROLE_SORTS) as store.RoleSort[], 'name');
  const { rows, total } = await store.listRoles(db, {
    organizationId: org.id,
    search: query.search?.trim() || undefined,
    kind: query.kind,
    sort,
    order: query.order ?? 'asc',
    page,
    pageSize,
  });
  const usage = await store.usageOf(
    db,
    rows.map((row) => row.id),
  );
  return { items: rows.map((row) => toRole(row, usage.get(row.id))), total, page, pageSize };
}

async function roleIn(db: Db, org: Organization, id: string): Promise<store.RoleRow> {
  const row = await store.findRole(db, org.id, id);
  if (!row) throw notFound(`role '${id}' not found in this organization`);
  return row;
}

async function withUsage(db: Db, row: store.RoleRow): Promise<core.Role> {
  return toRole(row, (await store.usageOf(db, [row.id])).get(row.id));
}

export async function getRole(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'roles');
  return withUsage(db, await roleIn(db, org, id));
}

export async function roleNameExists(db: Db, principal: Principal, ref: string, name: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'roles');
  return { exists: (await store.findRoleByName(db, org.id, name.trim())) !== undefined };
}

export async function modelPathPermissionsOf(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'roles');
  return (await roleIn(db, org, id)).modelPathPermissions;
}

// --- validation of a role's content -------------------------------------------------------------------------

/** Conditions CASL cannot compile would make the rule fail closed silently; refuse them instead. */
function conditionsCompile(rsname: string, conditions: Record<string, unknown>): boolean {
  if (!isResourceType(rsname)) return false;
  const ability = buildAbility([{ rsname, scopes: ['READ'], conditions }], { iot: true, vpn: true });
  return ability.rulesFor('READ', rsname).length > 0;
}

export function checkPermissions(entries: core.RolePermission[]): StoredPermission[] {
  return entries.map((entry, index) => {
    const at = `body/permissions/${index}`;
    if (!isResourceType(entry.rsname))
      throw badRequest(
        `${at}/rsname: unknown resource type '${entry.rsname}' (one of ${RESOURCE_TYPES.join(', ')})`,
      );
    if (entry.scopes.length === 0) throw badRequest(`${at}/scopes must name at least one action`);
    entry.scopes.forEach((scope, scopeIndex) => {
      if (!isAction(scope))
        throw badRequest(
          `${at}/scopes/${scopeIndex}: unknown action '${scope}' (one of ${ACTIONS.join(', ')})`,
        );
    });
    if (entry.conditions !== undefined && !conditionsCompile(entry.rsname, entry.conditions))
      throw badRequest(`${at}/conditions is not a valid condition object`);
    const stored: StoredPermission = { rsname: entry.rsname, scopes: [...new Set(entry.scopes)] };
    if (entry.inverted) stored.inverted = true;
    if (entry.conditions !== undefined && Object.keys(entry.conditions).length > 0)
      stored.conditions = entry.conditions;
    if (entry.fields !== undefined && entry.fields.length > 0) stored.fields = [...new Set(entry.fields)];
    return stored;
  });
}

export function checkModelPaths(entries: core.RoleModelPathPermission[]): ModelPathPermission[] {
  const seen = new Set<string>();
  return entries.map((entry, index) => {
    const path = entry.path.trim();
    if (!path.startsWith('/'))
      throw badRequest(`body/modelPathPermissions/${index}/path must start with '/'`);
    if (seen.has(path)) throw badRequest(`body/modelPathPermissions/${index}/path '${path}' is listed twice`);
    seen.add(path);
    return { path, read: entry.read, write: entry.write };
  });
}

async function checkApplicationPermissions(db: Db, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  await ensureCatalogue(db);
  const known = new Set((await store.catalogueEntries(db, unique)).map((entry) => entry.id));
  const unknown = unique.find((id) => !known.has(id));
  if (unknown !== undefined)
    throw badRequest(`body/applicationPermissionIds: unknown application permission '${unknown}'`);
  return unique;
}

function checkDeviceAccess(access: core.RoleDeviceAccess): DeviceAccess {
  return {
    deviceGroupIds: [...new Set(access.deviceGroupIds)],
    deviceIds: [...new Set(access.deviceIds)],
    vpn: access.vpn,
  };
}

async function checkOwners(db: Db, org: Organization, owners: string[]): Promise<string[]> {
  const unique = [...new Set(owners)];
  const members = await store.membersAmong(db, org.id, unique);
  const stranger = unique.find((id) => !members.has(id));
  if (stranger !== undefined)
    throw badRequest(`body/owners: user '${stranger}' is not a member of this organization`);
  return unique;
}

async function checkedChanges(db: Db, org: Organization, input: core.RoleUpdate): Promise<store.RoleChanges> {
  const changes: store.RoleChanges = {};
  if (input.name !== undefined) changes.name = input.name.trim();
  if (input.description !== undefined) changes.description = input.description;
  if (input.kind !== undefined) changes.kind = input.kind;
  if (input.permissions !== undefined) changes.permissions = checkPermissions(input.permissions);
  if (input.modelPathPermissions !== undefined)
    changes.modelPathPermissions = checkModelPaths(input.modelPathPermissions);
  if (input.applicationPermissionIds !== undefined)
    changes.applicationPermissionIds = await checkApplicationPermissions(db, input.applicationPermissionIds);
  if (input.deviceAccess !== undefined) changes.deviceAccess = checkDeviceAccess(input.deviceAccess);
  if (input.owners !== undefined) changes.owners = await checkOwners(db, org, input.owners);
  return changes;
}

async function ensureNameFree(db: Db, org: Organization, name: string, except?: string) {
  const existing = await store.findRoleByName(db, org.id, name);
  if (existing && existing.id !== except)
    throw conflict(`a role named '${name}' already exists in this organization`);
}

// --- mutations ------------------------------------------------------------------------------------------------

export async function createRole(db: Db, principal: Principal, ref: string, input: core.RoleCreate) {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'roles');
  const changes = await checkedChanges(db, org, input);
  const name = changes.name ?? input.name.trim();
  await ensureNameFree(db, org, name);
  let row: store.RoleRow;
  try {
    row = await store.insertRole(db, { ...changes, name, organizationId: org.id });
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`a role named '${name}' already exists in this organization`);
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'roles.create',
    resourceType: 'roles',
    resourceId: row.id,
    resourceName: row.name,
    detail: {
      kind: row.kind,
      permissions: row.permissions,
      applicationPermissionIds: row.applicationPermissionIds,
    },
  });
  return toRole(row);
}

export async function updateRole(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: core.RoleUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'roles');
  const before = await roleIn(db, org, id);
  const changes = await checkedChanges(db, org, input);
  if (changes.name !== undefined) await ensureNameFree(db, org, changes.name, id);
  let row: store.RoleRow | undefined;
  try {
    row = await store.updateRole(db, org.id, id, changes);
  } catch (error) {
    if (isUniqueViolation(error))
      throw conflict(`a role named '${changes.name}' already exists in this organization`);
    throw error;
  }
  if (!row) throw notFound(`role '${id}' not found in this organization`);
  if (Object.keys(changes).length === 0) return withUsage(db, row);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'roles.update',
    resourceType: 'roles',
    resourceId: row.id,
    resourceName: row.name,
    detail: {
      changed: Object.keys(changes),
      ...(changes.name !== undefined && changes.name !== before.name && { previousName: before.name }),
      ...(changes.permissions !== undefined && { permissions: changes.permissions }),
    },
  });
  return withUsage(db, row);
}

export async function deleteRole(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'roles');
  const row = await roleIn(db, org, id);
  const usage = (await store.usageOf(db, [id])).get(id) ?? { users: 0, groups: 0 };
  if (usage.users > 0 || usage.groups > 0)
    throw conflict(
      `role '${row.name}' is used by ${plural(usage.groups, 'group', 'groups')} and ${plural(usage.users, 'user', 'users')}; remove it from them first`,
    );
  if (!(await store.deleteRole(db, org.id, id)))
    throw notFound(`role '${id}' not found in this organization`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'roles.delete',
    resourceType: 'roles',
    resourceId: row.id,
    resourceName: row.name,
    detail: { kind: row.kind },
  });
}

// --- what a user holds ------------------------------------------------------------------------------------------

/** Every role of the organization the user holds: directly, through their groups' roles and as member role. */
async function heldRoles(db: Db, org: Organization, userId: string): Promise<store.RoleRow[]> {
  const holdings = await store.holdingsIn(db, org.id, userId);
  const ids = new Set([
    ...holdings.directRoleIds,
    ...(await store.roleIdsOfGroups(db, [...holdings.groups.keys()])),
    ...[...holdings.groups.values()].filter((roleId): roleId is string => roleId !== null),
  ]);
  return store.rolesOfOrganization(db, org.id, [...ids]);
}

async function requireAllInOrganization(
  kind: 'group' | 'role',
  wanted: string[],
  found: (ids: string[]) => Promise<Set<string>>,
) {
  if (wanted.length === 0) return;
  const known = await found(wanted);
  const missing = wanted.find((id) => !known.has(id));
  if (missing !== undefined) throw notFound(`${kind} '${missing}' not found in this organization`);
}

/** Spec 7: the application permissions a user holds now compared with after a change of groups and roles. */
export async function testApplicationPermissions(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.ApplicationPermissionTest,
): Promise<core.ApplicationPermissionChange[]> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'roles');
  const userId = input.userId ?? principal.userId;
  if (userId !== principal.userId && !abilityIn(principal, org).can('READ', 'users'))
    throw forbidden('READ on users is needed to test another user');
  if (!(await isOrganizationMember(db, org.id, userId)))
    throw notFound(`user '${userId}' is not a member of this organization`);
  const groupsToAdd = input.groupsToAdd ?? [];
  const groupsToRemove = input.groupsToRemove ?? [];
  const rolesToAdd = input.rolesToAdd ?? [];
  const rolesToRemove = input.rolesToRemove ?? [];
  await requireAllInOrganization('group', [...new Set([...groupsToAdd, ...groupsToRemove])], (ids) =>
    store.groupsOfOrganization(db, org.id, ids),
  );
  await requireAllInOrganization('role', [...new Set([...rolesToAdd, ...rolesToRemove])], async (ids) => {
    return new Set((await store.rolesOfOrganization(db, org.id, ids)).map((row) => row.id));
  });

  const holdings = await store.holdingsIn(db, org.id, userId);
  const groupsBefore = [...holdings.groups.keys()];
  const groupsAfter = [
    ...new Set([...groupsBefore.filter((id) => !groupsToRemove.includes(id)), ...groupsToAdd]),
  ];
  const memberRoles = (groups: string[]) =>
    groups.map((id) => holdings.groups.get(id)).filter((id): id is string => typeof id === 'string');
  const before = new Set([
    ...holdings.directRoleIds,
    ...(await store.roleIdsOfGroups(db, groupsBefore)),
    ...memberRoles(groupsBefore),
  ]);
  const after = new Set([
    ...holdings.directRoleIds.filter((id) => !rolesToRemove.includes(id)),
    ...rolesToAdd,
    ...(await store.roleIdsOfGroups(db, groupsAfter)),
    ...memberRoles(groupsAfter),
  ]);
  const rows = await store.rolesOfOrganization(db, org.id, [...new Set([...before, ...after])]);
  const permissionsOf = (roleIds: Set<string>) =>
    new Set(rows.filter((row) => roleIds.has(row.id)).flatMap((row) => row.applicationPermissionIds));
  const held = permissionsOf(before);
  const future = permissionsOf(after);
  const entries = await store.catalogueEntries(db, [...new Set([...held, ...future])]);
  const changes = entries.map((entry): core.ApplicationPermissionChange => {
    const change = !held.has(entry.id) ? 'added' : future.has(entry.id) ? 'kept' : 'revoked';
    return { id: entry.id, name: entry.name, application: entry.application, change };
  });
  return input.revokedOnly ? changes.filter((entry) => entry.change === 'revoked') : changes;
}

/** Whether the caller may reach a device, device group or VPN (spec 7 `roles/isAuthorized`). */
function authorizes(
  devicesReadable: boolean,
  deviceRoles: store.RoleRow[],
  ask: core.DeviceAuthorizationQuery,
) {
  if (!devicesReadable) return false;
  if (deviceRoles.length === 0) return true;
  return deviceRoles.some(({ deviceAccess }) => {
    const named = ask.deviceId !== undefined || ask.deviceGroup !== undefined;
    const reaches =
      !named ||
      (ask.deviceId !== undefined && deviceAccess.deviceIds.includes(ask.deviceId)) ||
      (ask.deviceGroup !== undefined && deviceAccess.deviceGroupIds.includes(ask.deviceGroup));
    return reaches && (ask.vpnName === undefined || deviceAccess.vpn);
  });
}

async function deviceAuthorizer(db: Db, principal: Principal, ref: string) {
  // Every portal user holds ACCESS on portal (spec 6); the answer itself depends on READ devices and device roles.
  const org = await authorizeInOrganization(db, principal, ref, 'ACCESS', 'portal');
  const readable = abilityIn(principal, org).can('READ', 'devices');
  const deviceRoles = readable
    ? (await heldRoles(db, org, principal.userId)).filter((row) => row.kind === 'device')
    : [];
  // A device is only ever authorized inside its own organization: another tenant's or an unknown id never is.
  return async (ask: core.DeviceAuthorizationQuery) =>
    authorizes(readable, deviceRoles, ask) &&
    (ask.deviceId === undefined || (await deviceInOrganization(db, org.id, ask.deviceId)) !== undefined);
}

export async function isAuthorized(
  db: Db,
  principal: Principal,
  ref: string,
  ask: core.DeviceAuthorizationQuery,
) {
  const check = await deviceAuthorizer(db, principal, ref);
  return { authorized: await check(ask) };
}

export async function areAuthorized(
  db: Db,
  principal: Principal,
  ref: string,
  asks: core.DeviceAuthorizationQuery[],
) {
  const check = await deviceAuthorizer(db, principal, ref);
  const answers: (core.DeviceAuthorizationQuery & { authorized: boolean })[] = [];
  for (const ask of asks) answers.push({ ...ask, authorized: await check(ask) });
  return answers;
}

// --- the catalogue --------------------------------------------------------------------------------------------

export const CATALOGUE_PAGE_SIZE = 500;

export async function listApplicationPermissions(
  db: Db,
  query: { page?: number; pageSize?: number },
): Promise<common.PageOf<core.ApplicationPermission>> {
  await ensureCatalogue(db);
  const page = query.page ?? 0;
  const pageSize = Math.min(query.pageSize ?? CATALOGUE_PAGE_SIZE, CATALOGUE_PAGE_SIZE);
  const { rows, total } = await store.catalogue(db, page, pageSize);
  return { items: rows, total, page, pageSize };
}

/** Of `ids`, the roles of the organization, by id and name (for other areas: users, groups). */
export async function rolesAmong(
  db: Db,
  organizationId: string,
  ids: string[],
): Promise<{ id: string; name: string }[]> {
  const rows = await store.rolesOfOrganization(db, organizationId, ids);
  return rows.map(({ id, name }) => ({ id, name }));
}
