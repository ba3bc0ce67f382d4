import { type Static, Type } from 'typebox';
import { PageQuery } from './common.ts';

/** `general` roles grant actions on resource types; `data` roles rights on model paths; `device` roles device reach. */
export const RoleKind = Type.Union([Type.Literal('general'), Type.Literal('data'), Type.Literal('device')]);
export type RoleKind = Static<typeof RoleKind>;

/**
 * One grant of a role as stored and as carried into the RPT (spec 6): an action list on a resource type, possibly
 * inverted (a "cannot") and restricted by CASL conditions and fields. The service checks names against the
 * permission catalogue of `@edgeport/permissions`.
 */
export const RolePermission = Type.Object(
  {
    rsname: Type.String({ minLength: 1, maxLength: 40 }),
    scopes: Type.Array(Type.String({ minLength: 1, maxLength: 20 }), { maxItems: 20 }),
    inverted: Type.Optional(Type.Boolean()),
    conditions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    fields: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 50 })),
  },
  { additionalProperties: false },
);
export type RolePermission = Static<typeof RolePermission>;

/** A data role's right on a model path and everything below it. */
export const RoleModelPathPermission = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 500, pattern: '^/' }),
    read: Type.Boolean(),
    write: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RoleModelPathPermission = Static<typeof RoleModelPathPermission>;

/** A device role's reach: device groups, single devices, and whether VPN access to them is allowed. */
export const RoleDeviceAccess = Type.Object(
  {
    deviceGroupIds: Type.Array(Type.String({ format: 'uuid' }), { maxItems: 1000 }),
    deviceIds: Type.Array(Type.String({ format: 'uuid' }), { maxItems: 1000 }),
    vpn: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type RoleDeviceAccess = Static<typeof RoleDeviceAccess>;

export const RoleUsage = Type.Object({
  /** Users holding the role directly. */
  users: Type.Integer(),
  /** Groups giving the role to their members, or whose members carry it as their member role. */
  groups: Type.Integer(),
});

export const Role = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  description: Type.String(),
  kind: RoleKind,
  permissions: Type.Array(RolePermission),
  modelPathPermissions: Type.Array(RoleModelPathPermission),
  applicationPermissionIds: Type.Array(Type.String()),
  deviceAccess: RoleDeviceAccess,
  owners: Type.Array(Type.String({ format: 'uuid' })),
  usage: RoleUsage,
});
export type Role = Static<typeof Role>;

const roleName = Type.String({ minLength: 1, maxLength: 120, pattern: '\\S' });
const roleDescription = Type.String({ maxLength: 1000 });
const roleFields = {
  permissions: Type.Array(RolePermission, { maxItems: 100 }),
  modelPathPermissions: Type.Array(RoleModelPathPermission, { maxItems: 500 }),
  applicationPermissionIds: Type.Array(Type.String({ minLength: 1, maxLength: 120 }), { maxItems: 200 }),
  deviceAccess: RoleDeviceAccess,
  owners: Type.Array(Type.String({ format: 'uuid' }), { maxItems: 100 }),
};

export const RoleCreate = Type.Object(
  {
    name: roleName,
    description: Type.Optional(roleDescription),
    kind: Type.Optional(RoleKind),
    permissions: Type.Optional(roleFields.permissions),
    modelPathPermissions: Type.Optional(roleFields.modelPathPermissions),
    applicationPermissionIds: Type.Optional(roleFields.applicationPermissionIds),
    deviceAccess: Type.Optional(roleFields.deviceAccess),
    owners: Type.Optional(roleFields.owners),
  },
  { additionalProperties: false },
);
export type RoleCreate = Static<typeof RoleCreate>;

/** A role's changes: fields left out stay as they are. */
export const RoleUpdate = Type.Object(
  {
    name: Type.Optional(roleName),
    description: Type.Optional(roleDescription),
    kind: Type.Optional(RoleKind),
    permissions: Type.Optional(roleFields.permissions),
    modelPathPermissions: Type.Optional(roleFields.modelPathPermissions),
    applicationPermissionIds: Type.Optional(roleFields.applicationPermissionIds),
    deviceAccess: Type.Optional(roleFields.deviceAccess),
    owners: Type.Optional(roleFields.owners),
  },
  { additionalProperties: false },
);
export type RoleUpdate = Static<typeof RoleUpdate>;

export const RoleListQuery = Type.Object(
  { ...PageQuery.properties, kind: Type.Optional(RoleKind) },
  { additionalProperties: false },
);
export type RoleListQuery = Static<typeof RoleListQuery>;

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });

export const RoleParams = Type.Object({ org: orgParam, id: Type.String({ format: 'uuid' }) });
export const RoleNameParams = Type.Object({
  org: orgParam,
  id: Type.String({ minLength: 1, maxLength: 120, description: 'the role name to look up' }),
});
export const RoleExists = Type.Object({ exists: Type.Boolean() });

/** What an assignment change would do to a user's application permissions. */
export const ApplicationPermissionTest = Type.Object(
  {
    userId: Type.Optional(Type.String({ format: 'uuid' })),
    groupsToAdd: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 200 })),
    rolesToAdd: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 200 })),
    groupsToRemove: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 200 })),
    rolesToRemove: Type.Optional(Type.Array(Type.String({ format: 'uuid' }), { maxItems: 200 })),
    revokedOnly: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ApplicationPermissionTest = Static<typeof ApplicationPermissionTest>;

export const ApplicationPermissionChange = Type.Object({
  id: Type.String(),
  name: Type.String(),
  application: Type.String(),
  change: Type.Union([Type.Literal('added'), Type.Literal('revoked'), Type.Literal('kept')]),
});
export type ApplicationPermissionChange = Static<typeof ApplicationPermissionChange>;

/** A device, device group and/or VPN the caller wants to reach; absent parts are not asked about. */
export const DeviceAuthorizationQuery = Type.Object(
  {
    deviceGroup: Type.Optional(Type.String({ format: 'uuid' })),
    deviceId: Type.Optional(Type.String({ format: 'uuid' })),
    vpnName: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type DeviceAuthorizationQuery = Static<typeof DeviceAuthorizationQuery>;
export const DeviceAuthorization = Type.Object({ authorized: Type.Boolean() });
export const DeviceAuthorizationRequests = Type.Array(DeviceAuthorizationQuery, {
  minItems: 1,
  maxItems: 1000,
});
export const DeviceAuthorizationResults = Type.Array(
  Type.Object({
    deviceGroup: Type.Optional(Type.String()),
    deviceId: Type.Optional(Type.String()),
    vpnName: Type.Optional(Type.String()),
    authorized: Type.Boolean(),
  }),
);

/** One entry of the application-permission catalogue roles pick from. */
export const ApplicationPermission = Type.Object({
  id: Type.String(),
  name: Type.String(),
  application: Type.String(),
  description: Type.String(),
});
export type ApplicationPermission = Static<typeof ApplicationPermission>;

/** Spec 9: the catalogue is read 500 at a time, ordered by name. */
export const ApplicationPermissionQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 500 })),
  },
  { additionalProperties: false },
);
