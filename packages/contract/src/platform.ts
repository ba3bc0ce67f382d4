// Spec 7 "Platform": device data tags, labelling tags, connection status, configuration and device lookups.
import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';
import { CoreDevice } from './core-organization-admin.ts';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });

export const OrganizationParams = Type.Object({ org: orgParam });
export const DeviceParams = Type.Object({ org: orgParam, id: Type.String({ format: 'uuid' }) });
export const DeviceNameParams = Type.Object({
  org: orgParam,
  name: Type.String({ minLength: 1, maxLength: 200, description: 'the device label' }),
});
export const DeviceGroupParams = Type.Object({ org: orgParam, g: Type.String({ format: 'uuid' }) });

export const DeviceStatus = CoreDevice.properties.status;

/** One labelling tag (used to filter and group devices; not the data a device reports). */
export const LabelTag = Type.String({ minLength: 1, maxLength: 60, pattern: '\\S' });

/** One data tag a device has reported over MQTT, and where its preset puts it. */
export const AvailableTag = Type.Object({
  name: Type.String(),
  type: Type.String({ description: 'the JSON type the device last sent: number, boolean or string' }),
  lastSeenAt: Type.String({ format: 'date-time' }),
  mapped: Type.Boolean({ description: "whether the device's preset binds this tag to a model path" }),
  path: Type.Union([Type.String(), Type.Null()], { description: 'the model path the preset binds it to' }),
});
export type AvailableTag = Static<typeof AvailableTag>;

export const AvailableTags = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  presetId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  tags: Type.Array(AvailableTag),
  /** Tags the preset maps that the device has not reported (yet). */
  missing: Type.Array(Type.Object({ name: Type.String(), path: Type.String() })),
});
export type AvailableTags = Static<typeof AvailableTags>;

export const DeviceTags = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  label: Type.String(),
  tags: Type.Array(Type.String()),
});
export type DeviceTags = Static<typeof DeviceTags>;

export const DeviceTagsUpdate = Type.Object(
  {
    tags: Type.Array(LabelTag, {
      maxItems: 50,
      description: "the device's complete new list of labelling tags (replaces the old one)",
    }),
  },
  { additionalProperties: false },
);
export type DeviceTagsUpdate = Static<typeof DeviceTagsUpdate>;

export const TagsQueryBody = Type.Object(
  {
    tags: Type.Array(LabelTag, { minItems: 1, maxItems: 50 }),
    match: Type.Optional(
      Type.Union([Type.Literal('any'), Type.Literal('all')], {
        default: 'any',
        description: 'any: devices having at least one of the tags; all: devices having every one',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TagsQueryBody = Static<typeof TagsQueryBody>;

export const GroupTags = Type.Object({
  groupId: Type.String({ format: 'uuid' }),
  name: Type.String(),
  tags: Type.Array(Type.String(), { description: "the union of the labelling tags of the group's devices" }),
});
export type GroupTags = Static<typeof GroupTags>;

export const StatusHistoryQuery = Type.Object(
  {
    since: Type.Optional(Type.String({ format: 'date-time', description: 'from this instant (inclusive)' })),
    to: Type.Optional(Type.String({ format: 'date-time', description: 'up to this instant (inclusive)' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000 })),
  },
  { additionalProperties: false },
);
export type StatusHistoryQuery = Static<typeof StatusHistoryQuery>;

export const StatusChange = Type.Object({
  status: DeviceStatus,
  detail: Type.String(),
  at: Type.String({ format: 'date-time' }),
});
export type StatusChange = Static<typeof StatusChange>;

export const StatusHistory = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  /** Newest first. */
  items: Type.Array(StatusChange),
  limit: Type.Integer(),
  /** Whether more changes match than the limit let through. */
  truncated: Type.Boolean(),
});
export type StatusHistory = Static<typeof StatusHistory>;

export const IngestCounters = Type.Object({
  accepted: Type.Integer(),
  malformed: Type.Integer(),
  unknownPath: Type.Integer(),
  wrongType: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  lastErrorAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type IngestCounters = Static<typeof IngestCounters>;

export const StatusSync = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  status: DeviceStatus,
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  /** The last recorded status change, if any. */
  since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  ingest: IngestCounters,
});
export type StatusSync = Static<typeof StatusSync>;

const JsonObject = Type.Record(Type.String(), Type.Unknown());

export const DeviceConfiguration = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  presetId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  /** The device's own settings over its preset's deviceConfiguration (objects merged key by key). */
  configuration: JsonObject,
  presetConfiguration: JsonObject,
  deviceConfiguration: JsonObject,
});
export type DeviceConfiguration = Static<typeof DeviceConfiguration>;

export const DeviceGroupRef = Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String() });

export const PlatformDevice = Type.Object({
  ...CoreDevice.properties,
  /** With details=true: the preset's name. */
  presetName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  /** With details=true: the device groups the device is in, by name. */
  groups: Type.Optional(Type.Array(DeviceGroupRef)),
});
export type PlatformDevice = Static<typeof PlatformDevice>;

export const PlatformDevicePage = Paged(PlatformDevice);

export const DeviceListQuery = Type.Object(
  {
    ...PageQuery.properties,
    details: Type.Optional(
      Type.Boolean({ default: false, description: 'add preset name and device groups to every device' }),
    ),
    status: Type.Optional(DeviceStatus),
    tag: Type.Optional(
      Type.String({ minLength: 1, maxLength: 60, description: 'only devices with this tag' }),
    ),
  },
  { additionalProperties: false },
);
export type DeviceListQuery = Static<typeof DeviceListQuery>;

export const TagsQueryPaging = PageQuery;

export const AliasQuery = Type.Object(
  { alias: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export * from './platform-data.ts';
export * from './platform-values.ts';
