export const RESOURCE_TYPES = [
  'users',
  'usergroups',
  'roles',
  'devices',
  'devicegroups',
  'organizations',
  'models',
  'dashboards',
  'products',
  'notifications',
  'alarms',
  'portal',
  'audit',
] as const;

export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const ACTIONS = [
  'READ',
  'CREATE',
  'DELETE',
  'UPDATE',
  'ACK',
  'RESET',
  'CLEAR',
  'ACCESS',
  'INHERIT',
] as const;

export type Action = (typeof ACTIONS)[number];

/** Spec 5: when the organization has no IoT, permissions on these resource types are ignored. */
export const IOT_ONLY_RESOURCES = [
  'models',
  'dashboards',
  'notifications',
  'alarms',
] as const satisfies readonly ResourceType[];

const resourceTypeSet: ReadonlySet<unknown> = new Set(RESOURCE_TYPES);
const actionSet: ReadonlySet<unknown> = new Set(ACTIONS);
const iotOnlySet: ReadonlySet<unknown> = new Set(IOT_ONLY_RESOURCES);

export function isResourceType(value: unknown): value is ResourceType {
  return resourceTypeSet.has(value);
}

export function isAction(value: unknown): value is Action {
  return actionSet.has(value);
}

export function isIotOnlyResource(resource: ResourceType): boolean {
  return iotOnlySet.has(resource);
}
