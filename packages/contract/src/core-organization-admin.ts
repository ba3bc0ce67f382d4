// Organization administration (spec 7 Core "Organizations" and "Devices"): sub-organizations, import tokens and
// moves, the caller's grants, and the core device calls.
import { type Static, Type } from 'typebox';
import { nullableUuid, Paged, PageQuery } from './common.ts';

const organizationName = Type.String({ minLength: 1, maxLength: 120 });

export const OrganizationCreate = Type.Object(
  {
    name: organizationName,
    iotEnabled: Type.Optional(
      Type.Boolean({
        description: "default: on for a top-level organization, the parent's flag for a sub-organization",
      }),
    ),
    vpnEnabled: Type.Optional(
      Type.Boolean({
        description: "default: on for a top-level organization, the parent's flag for a sub-organization",
      }),
    ),
  },
  { additionalProperties: false },
);
export type OrganizationCreate = Static<typeof OrganizationCreate>;

export const SubOrganizationQuery = Type.Object(
  {
    addDefaultRoles: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'give the new organization the Administrator and Operator roles',
      }),
    ),
    waitLicenseManager: Type.Optional(
      Type.Boolean({
        default: false,
        description:
          'accepted for compatibility; there is no licence manager to wait for yet, so it has no effect',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SubOrganizationListQuery = Type.Object(
  {
    recursive: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'every descendant (each with its parentId) instead of the direct children only',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportToken = Type.Object({
  token: Type.String({ description: 'shown once; only its SHA-256 hash is stored' }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type ImportToken = Static<typeof ImportToken>;

export const ImportTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

export const ImportTokenInfo = Type.Object({
  organization: Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() }),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type ImportTokenInfo = Static<typeof ImportTokenInfo>;

export const MoveRequest = Type.Object(
  { organizationImportToken: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type MoveRequest = Static<typeof MoveRequest>;

export const MyIp = Type.Object({ ip: Type.String() });

export const OrganizationGrant = Type.Object({
  rsname: Type.String(),
  scopes: Type.Array(Type.String()),
  inverted: Type.Boolean(),
  conditions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  fields: Type.Optional(Type.Array(Type.String())),
  inherited: Type.Boolean({ description: 'carried in by INHERIT from a role of an ancestor organization' }),
});
export type OrganizationGrant = Static<typeof OrganizationGrant>;

export const OrganizationGrants = Type.Object({
  organizationId: Type.String({ format: 'uuid' }),
  member: Type.Boolean({ description: 'a direct member of the organization (not only through inheritance)' }),
  permissions: Type.Array(OrganizationGrant),
});
export type OrganizationGrants = Static<typeof OrganizationGrants>;

// Devices (the device record without its configuration; the detail adds it).

export const DEVICE_STATUSES = ['ONLINE', 'OFFLINE'] as const;
const deviceStatus = Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]);
const latitude = Type.Number({ minimum: -90, maximum: 90 });

export const CoreDevice = Type.Object({
  id: Type.String({ format: 'uuid' }),
  organizationId: Type.String({ format: 'uuid' }),
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  serialNumber: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  status: deviceStatus,
  presetId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type CoreDevice = Static<typeof CoreDevice>;

/** One device with its configuration and the device groups it belongs to (GET devices/{id}). */
export const CoreDeviceDetail = Type.Object({
  ...CoreDevice.properties,
  configuration: Type.Record(Type.String(), Type.Unknown()),
  groups: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() })),
  /** The organization's service account acting for the device (experimental deviceServiceAccountAssociation). */
  serviceClientId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
});
export type CoreDeviceDetail = Static<typeof CoreDeviceDetail>;

export const CoreDevicePage = Paged(CoreDevice);

export const DEVICE_SORT_KEYS = [
  'label',
  'alias',
  'serialNumber',
  'status',
  'lastSeenAt',
  'createdAt',
] as const;

export const DeviceListQuery = Type.Object(
  {
    ...PageQuery.properties,
    status: Type.Optional(deviceStatus),
    tag: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
        maxItems: 20,
        description: 'labelling tags; repeat the parameter: every one must be on the device',
      }),
    ),
    groupId: Type.Optional(Type.String({ format: 'uuid', description: 'only members of this device group' })),
    presetId: Type.Optional(
      Type.String({ format: 'uuid', description: 'only devices bound to this preset' }),
    ),
    positioned: Type.Optional(
      Type.Boolean({ description: 'true: only devices with a map position; false: only those without' }),
    ),
  },
  { additionalProperties: false },
);
export type DeviceListQuery = Static<typeof DeviceListQuery>;

/** The devices on a map: a bounding box (all four or none) and the list filters. */
export const DevicePositionsQuery = Type.Object(
  {
    south: Type.Optional(latitude),
    west: Type.Optional(Type.Number({ minimum: -540, maximum: 540 })),
    north: Type.Optional(latitude),
    east: Type.Optional(Type.Number({ minimum: -540, maximum: 540 })),
    status: Type.Optional(deviceStatus),
    tag: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 60 }), { maxItems: 20 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000, default: 2000 })),
  },
  { additionalProperties: false },
);
export type DevicePositionsQuery = Static<typeof DevicePositionsQuery>;

export const DevicePosition = Type.Object({
  id: Type.String({ format: 'uuid' }),
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  latitude: Type.Number(),
  longitude: Type.Number(),
});
export type DevicePosition = Static<typeof DevicePosition>;

export const DevicePositions = Type.Object({
  items: Type.Array(DevicePosition),
  /** More devices are inside the box than `limit`: zoom in to see them all. */
  truncated: Type.Boolean(),
});
export type DevicePositions = Static<typeof DevicePositions>;

/** Where the device map takes its background from (the server's MAP_TILE_URL, or OpenStreetMap). */
export const DeviceMapSettings = Type.Object({
  tileUrl: Type.String(),
  attribution: Type.String(),
  maxZoom: Type.Integer(),
});
export type DeviceMapSettings = Static<typeof DeviceMapSettings>;

/** The labelling tags in use in an organization, with how many devices carry each (for filter pickers). */
export const DeviceTagCounts = Type.Object({
  items: Type.Array(Type.Object({ tag: Type.String(), devices: Type.Integer() })),
  /** More distinct tags exist than were listed (the first 500 by name are). */
  truncated: Type.Boolean(),
});
export type DeviceTagCounts = Static<typeof DeviceTagCounts>;

export const DEVICE_BULK_ACTIONS = ['addTags', 'removeTags', 'setGroup', 'delete'] as const;

export const DeviceBulkRequest = Type.Object(
  {
    ids: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 1000, uniqueItems: true }),
    action: Type.Union([
      Type.Literal('addTags'),
      Type.Literal('removeTags'),
      Type.Literal('setGroup'),
      Type.Literal('delete'),
    ]),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
        minItems: 1,
        maxItems: 50,
        uniqueItems: true,
      }),
    ),
    groupId: Type.Optional(Type.String({ format: 'uuid' })),
  },
  { additionalProperties: false },
);
export type DeviceBulkRequest = Static<typeof DeviceBulkRequest>;

export const DeviceBulkResult = Type.Object({
  action: Type.String(),
  /** Devices the action changed (a tag already there, or a member already in the group, is not a change). */
  changed: Type.Integer(),
  /** Devices the request named. */
  requested: Type.Integer(),
});
export type DeviceBulkResult = Static<typeof DeviceBulkResult>;

export const DeviceSearchQuery = Type.Object(
  {
    q: Type.String({ maxLength: 200, description: 'matched against label, alias and serial number' }),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
  },
  { additionalProperties: false },
);

export const DeviceParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  id: Type.String({ format: 'uuid' }),
});

export const DeviceLabelParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
  label: Type.String({ minLength: 1, maxLength: 120 }),
});

const deviceTag = Type.String({ minLength: 1, maxLength: 60 });

/**
 * A number in a range, or null, as ONE JSON-schema type list: with the server's type coercion a union would turn null
 * into 0 (a real position) and 0 into null.
 */
function nullableNumber(minimum: number, maximum: number) {
  return Type.Unsafe<number | null>({ type: ['number', 'null'], minimum, maximum });
}

export const CoreDevicePatch = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    alias: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    tags: Type.Optional(Type.Array(deviceTag, { maxItems: 50, uniqueItems: true })),
    latitude: Type.Optional(nullableNumber(-90, 90)),
    longitude: Type.Optional(nullableNumber(-180, 180)),
    /** A service client of the same organization, or null to remove the association. */
    serviceClientId: Type.Optional(nullableUuid()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type CoreDevicePatch = Static<typeof CoreDevicePatch>;
