import {
  ACTIONS,
  type Action,
  isResourceType,
  RESOURCE_TYPES,
  type ResourceType,
} from '@edgeport/permissions';
import type { ModelPathPermission, Role, RoleInput, RoleKind, RolePermission } from './api.ts';

/** One row of the permission grid: the actions granted (or, inverted, denied) on one resource type. */
export type GridRow = {
  rsname: ResourceType;
  actions: Record<Action, boolean>;
  /** A "cannot" row: the checked actions are forbidden, whatever other roles grant. */
  inverted: boolean;
  /** CASL conditions as JSON text; empty for none. */
  conditions: string;
  /** Field restrictions are kept as they are (the grid does not edit them). */
  fields: string[];
};

export type RoleFormValues = {
  name: string;
  description: string;
  kind: RoleKind;
  grid: GridRow[];
  /** Entries the grid cannot show (a second entry for a resource type): kept unchanged. */
  extraPermissions: RolePermission[];
  applicationPermissionIds: string[];
  modelPathPermissions: ModelPathPermission[];
  deviceGroupIds: string[];
  deviceIds: string[];
  vpn: boolean;
  owners: string[];
};

function noActions(): Record<Action, boolean> {
  return Object.fromEntries(ACTIONS.map((action) => [action, false])) as Record<Action, boolean>;
}

function emptyRow(rsname: ResourceType): GridRow {
  return { rsname, actions: noActions(), inverted: false, conditions: '', fields: [] };
}

export function emptyRoleForm(kind: RoleKind): RoleFormValues {
  return {
    name: '',
    description: '',
    kind,
    grid: RESOURCE_TYPES.map(emptyRow),
    extraPermissions: [],
    applicationPermissionIds: [],
    modelPathPermissions: [],
    deviceGroupIds: [],
    deviceIds: [],
    vpn: false,
    owners: [],
  };
}

/** Spreads a role's permission entries over the grid: the first entry of each resource type is its row. */
export function permissionsToGrid(permissions: readonly RolePermission[]): {
  grid: GridRow[];
  extra: RolePermission[];
} {
  const rows = new Map<ResourceType, GridRow>(RESOURCE_TYPES.map((rsname) => [rsname, emptyRow(rsname)]));
  const filled = new Set<ResourceType>();
  const extra: RolePermission[] = [];
  for (const entry of permissions) {
    const row = isResourceType(entry.rsname) ? rows.get(entry.rsname) : undefined;
    if (!row || filled.has(row.rsname)) {
      extra.push(entry);
      continue;
    }
    filled.add(row.rsname);
    for (const scope of entry.scopes) if (scope in row.actions) row.actions[scope as Action] = true;
    row.inverted = entry.inverted === true;
    row.conditions =
      entry.conditions && Object.keys(entry.conditions).length > 0
        ? JSON.stringify(entry.conditions, null, 0)
        : '';
    row.fields = entry.fields ?? [];
  }
  return { grid: [...rows.values()], extra };
}

/** The grid back as permission entries: one per row with at least one action, then the kept entries. */
export function gridToPermissions(
  grid: readonly GridRow[],
  extra: readonly RolePermission[],
): RolePermission[] {
  const entries: RolePermission[] = [];
  for (const row of grid) {
    const scopes = ACTIONS.filter((action) => row.actions[action]);
    if (scopes.length === 0) continue;
    const entry: RolePermission = { rsname: row.rsname, scopes: [...scopes] };
    if (row.inverted) entry.inverted = true;
    const conditions = parseConditions(row.conditions);
    if (conditions.ok && conditions.value) entry.conditions = conditions.value;
    if (row.fields.length > 0) entry.fields = [...row.fields];
    entries.push(entry);
  }
  return [...entries, ...extra];
}

export type ConditionsResult =
  | { ok: true; value: Record<string, unknown> | undefined }
  | { ok: false; error: 'notJson' | 'notObject' };

/** Conditions are a JSON object (CASL/Mongo query); empty text means none. */
export function parseConditions(text: string): ConditionsResult {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    return { ok: false, error: 'notJson' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, error: 'notObject' };
  return {
    ok: true,
    value: Object.keys(parsed).length > 0 ? (parsed as Record<string, unknown>) : undefined,
  };
}

export function roleToForm(role: Role): RoleFormValues {
  const { grid, extra } = permissionsToGrid(role.permissions);
  return {
    name: role.name,
    description: role.description,
    kind: role.kind,
    grid,
    extraPermissions: extra,
    applicationPermissionIds: [...role.applicationPermissionIds],
    modelPathPermissions: role.modelPathPermissions.map((entry) => ({ ...entry })),
    deviceGroupIds: [...role.deviceAccess.deviceGroupIds],
    deviceIds: [...role.deviceAccess.deviceIds],
    vpn: role.deviceAccess.vpn,
    owners: [...role.owners],
  };
}

export function formToRole(values: RoleFormValues): RoleInput {
  return {
    name: values.name.trim(),
    description: values.description,
    kind: values.kind,
    permissions: gridToPermissions(values.grid, values.extraPermissions),
    modelPathPermissions: values.modelPathPermissions.map((entry) => ({
      path: entry.path.trim(),
      read: entry.read,
      write: entry.write,
    })),
    applicationPermissionIds: values.applicationPermissionIds,
    deviceAccess: {
      deviceGroupIds: values.deviceGroupIds.map((id) => id.trim().toLowerCase()),
      deviceIds: values.deviceIds.map((id) => id.trim().toLowerCase()),
      vpn: values.vpn,
    },
    owners: values.owners,
  };
}

export type ModelPathError = 'required' | 'slash' | 'duplicate';

/** A model path must start with '/' and appear once. */
export function modelPathError(path: string, all: readonly { path: string }[]): ModelPathError | undefined {
  const trimmed = path.trim();
  if (trimmed === '') return 'required';
  if (!trimmed.startsWith('/')) return 'slash';
  if (all.filter((entry) => entry.path.trim() === trimmed).length > 1) return 'duplicate';
  return undefined;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The first entry that is no device (group) id, if any. */
export function firstInvalidId(ids: readonly string[]): string | undefined {
  return ids.find((id) => !UUID.test(id.trim()));
}

/** How many actions the role grants or denies, for the list. */
export function grantCount(permissions: readonly RolePermission[]): number {
  return permissions.reduce((sum, entry) => sum + entry.scopes.length, 0);
}
