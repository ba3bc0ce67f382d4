import { type Static, Type } from 'typebox';
import { Paged, PageQuery } from './common.ts';

/*
 * The mappings service (spec 7 "Mappings"): models (named trees of typed data paths, with versions), presets binding
 * a device's data tags to the paths of one model version, and the preset of each device.
 */

const orgRef = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const uuid = Type.String({ format: 'uuid' });

export const OrgParams = Type.Object({ org: orgRef });
export const IdParams = Type.Object({ org: orgRef, id: uuid });
export const ModelNameParams = Type.Object({
  org: orgRef,
  name: Type.String({ minLength: 1, maxLength: 120 }),
});

export const MODEL_PATH_TYPES = ['number', 'integer', 'boolean', 'string'] as const;
export const ModelPathType = Type.Union([
  Type.Literal('number'),
  Type.Literal('integer'),
  Type.Literal('boolean'),
  Type.Literal('string'),
]);
export type ModelPathType = Static<typeof ModelPathType>;

const pathFields = {
  unit: Type.Optional(Type.String({ maxLength: 40 })),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  writable: Type.Optional(
    Type.Boolean({ description: 'a value may be written back to the device (set-point)' }),
  ),
  min: Type.Optional(Type.Number()),
  max: Type.Optional(Type.Number()),
};

/** One typed data path of a model: `/motor/speed` sits under `/motor`; segments are letters, digits, `_` and `-`. */
export const ModelPath = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 300,
      description: "starts with '/', segments [A-Za-z0-9_-]+",
    }),
    type: ModelPathType,
    ...pathFields,
  },
  { additionalProperties: false },
);
export type ModelPath = Static<typeof ModelPath>;

export const MAX_MODEL_PATHS = 5000;

export const ModelCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    paths: Type.Array(ModelPath, { maxItems: MAX_MODEL_PATHS }),
  },
  { additionalProperties: false },
);
export type ModelCreate = Static<typeof ModelCreate>;

export const ModelUpdate = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    paths: Type.Optional(Type.Array(ModelPath, { maxItems: MAX_MODEL_PATHS })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ModelUpdate = Static<typeof ModelUpdate>;

/** What `/validate` takes: a model body whose paths are checked without the schema refusing an unknown type. */
export const ModelDraft = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 120 })),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    paths: Type.Array(
      Type.Object(
        { path: Type.String({ maxLength: 300 }), type: Type.String({ maxLength: 40 }), ...pathFields },
        { additionalProperties: false },
      ),
      { maxItems: MAX_MODEL_PATHS },
    ),
  },
  { additionalProperties: false },
);
export type ModelDraft = Static<typeof ModelDraft>;

export const ValidationError = Type.Object({
  path: Type.String({ description: "where in the body, e.g. 'paths/2/type'" }),
  message: Type.String(),
});
export type ValidationError = Static<typeof ValidationError>;

export const ValidationResult = Type.Object({ valid: Type.Boolean(), errors: Type.Array(ValidationError) });
export type ValidationResult = Static<typeof ValidationResult>;

const modelFields = {
  id: uuid,
  organizationId: uuid,
  name: Type.String(),
  description: Type.String(),
  subOrgsEnabledToView: Type.Boolean(),
  currentVersion: Type.Integer(),
  /** Shared by an ancestor organization: readable here, never changed here. */
  inherited: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
};

export const ModelSummary = Type.Object({ ...modelFields, pathCount: Type.Integer() });
export type ModelSummary = Static<typeof ModelSummary>;
export const ModelPage = Paged(ModelSummary);

export const Model = Type.Object({
  ...modelFields,
  /** The paths of the current version. */
  paths: Type.Array(ModelPath),
  /** How many presets (of any organization) bind to this model. */
  presetCount: Type.Integer(),
});
export type Model = Static<typeof Model>;

export const ModelName = Type.Object({ id: uuid, name: Type.String(), inherited: Type.Boolean() });
export const ModelNames = Type.Array(ModelName);
export type ModelNames = Static<typeof ModelNames>;

export const ModelVersion = Type.Object({
  version: Type.Integer(),
  current: Type.Boolean(),
  paths: Type.Array(ModelPath),
  createdBy: Type.Union([uuid, Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type ModelVersion = Static<typeof ModelVersion>;
export const ModelVersions = Type.Array(ModelVersion);

export const ModelListQuery = PageQuery;

export const PathSearch = Type.Object(
  {
    query: Type.Optional(Type.String({ maxLength: 300, description: 'part of the path, any case' })),
    modelId: Type.Optional(uuid),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  },
  { additionalProperties: false },
);
export type PathSearch = Static<typeof PathSearch>;

export const PathHit = Type.Object({
  modelId: uuid,
  modelName: Type.String(),
  path: Type.String(),
  type: ModelPathType,
  unit: Type.Union([Type.String(), Type.Null()]),
  writable: Type.Boolean(),
});
export type PathHit = Static<typeof PathHit>;
export const PathHitPage = Paged(PathHit);

export const Visibility = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false });
export type Visibility = Static<typeof Visibility>;

// Presets ------------------------------------------------------------------------------------------------------------

export const PresetMapping = Type.Object(
  {
    tag: Type.String({ minLength: 1, maxLength: 120, description: 'the data tag name the device publishes' }),
    path: Type.String({ minLength: 1, maxLength: 300 }),
    formula: Type.Optional(
      Type.String({ maxLength: 500, description: 'of `value`, number and integer paths only' }),
    ),
  },
  { additionalProperties: false },
);
export type PresetMapping = Static<typeof PresetMapping>;

export const MAX_PRESET_MAPPINGS = 10_000;

export const PresetCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    modelId: uuid,
    modelVersion: Type.Optional(
      Type.Integer({ minimum: 1, description: "default: the model's current version" }),
    ),
    mappings: Type.Array(PresetMapping, { maxItems: MAX_PRESET_MAPPINGS }),
    deviceConfiguration: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false },
);
export type PresetCreate = Static<typeof PresetCreate>;

const presetFields = {
  id: uuid,
  organizationId: uuid,
  name: Type.String(),
  modelId: uuid,
  modelName: Type.String(),
  modelVersion: Type.Integer(),
  subOrgsEnabledToView: Type.Boolean(),
  /** Shared by an ancestor organization: usable here, never changed here. */
  inherited: Type.Boolean(),
  /** How many devices (of any organization) use the preset. */
  deviceCount: Type.Integer(),
  createdAt: Type.String({ format: 'date-time' }),
};

export const Preset = Type.Object({
  ...presetFields,
  mappings: Type.Array(PresetMapping),
  deviceConfiguration: Type.Record(Type.String(), Type.Unknown()),
});
export type Preset = Static<typeof Preset>;

export const PresetSummary = Type.Object({ ...presetFields, mappingCount: Type.Integer() });
export type PresetSummary = Static<typeof PresetSummary>;
export const PresetPage = Paged(PresetSummary);

export const PresetListQuery = Type.Object(
  {
    ...PageQuery.properties,
    modelId: Type.Optional(uuid),
  },
  { additionalProperties: false },
);
export type PresetListQuery = Static<typeof PresetListQuery>;

export const PresetJobStatus = Type.Union([
  Type.Literal('RUNNING'),
  Type.Literal('DONE'),
  Type.Literal('FAILED'),
]);

export const PresetJobStarted = Type.Object({ id: uuid });

export const PresetJob = Type.Object({
  id: uuid,
  status: PresetJobStatus,
  progress: Type.Integer({ minimum: 0, maximum: 100 }),
  presetId: Type.Union([uuid, Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  finishedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type PresetJob = Static<typeof PresetJob>;

export const DeviceTag = Type.Object({
  tag: Type.String(),
  path: Type.String(),
  type: ModelPathType,
  unit: Type.Union([Type.String(), Type.Null()]),
  writable: Type.Boolean(),
  min: Type.Union([Type.Number(), Type.Null()]),
  max: Type.Union([Type.Number(), Type.Null()]),
  formula: Type.Union([Type.String(), Type.Null()]),
});

/** What a device of the preset is configured with: the preset's configuration and the data tags it publishes. */
export const DeviceConfiguration = Type.Object({
  presetId: uuid,
  presetName: Type.String(),
  modelId: uuid,
  modelName: Type.String(),
  modelVersion: Type.Integer(),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  tags: Type.Array(DeviceTag),
});
export type DeviceConfiguration = Static<typeof DeviceConfiguration>;

// Devices ------------------------------------------------------------------------------------------------------------

export const DEVICE_STATUSES = ['ONLINE', 'OFFLINE'] as const;
export const DeviceStatus = Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]);

export const MappingDevice = Type.Object({
  id: uuid,
  organizationId: uuid,
  label: Type.String(),
  alias: Type.Union([Type.String(), Type.Null()]),
  serialNumber: Type.String(),
  description: Type.String(),
  tags: Type.Array(Type.String()),
  status: Type.String(),
  presetId: Type.Union([uuid, Type.Null()]),
  presetName: Type.Union([Type.String(), Type.Null()]),
  configuration: Type.Record(Type.String(), Type.Unknown()),
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  lastSeenAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
});
export type MappingDevice = Static<typeof MappingDevice>;
export const MappingDevicePage = Paged(MappingDevice);

export const DeviceListQuery = PageQuery;

export const DeviceSearch = Type.Object(
  {
    text: Type.Optional(
      Type.String({ maxLength: 200, description: 'part of label, alias or serial number' }),
    ),
    presetId: Type.Optional(
      Type.Union([uuid, Type.Null()], { description: 'null: devices without a preset' }),
    ),
    status: Type.Optional(DeviceStatus),
    tags: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 60 }), {
        maxItems: 20,
        description: 'devices carrying every one of these labelling tags',
      }),
    ),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    sort: Type.Optional(
      Type.Union([
        Type.Literal('label'),
        Type.Literal('alias'),
        Type.Literal('serialNumber'),
        Type.Literal('status'),
        Type.Literal('createdAt'),
        Type.Literal('lastSeenAt'),
      ]),
    ),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
  },
  { additionalProperties: false },
);
export type DeviceSearch = Static<typeof DeviceSearch>;

export const DevicePreset = Type.Object(
  { presetId: Type.Union([uuid, Type.Null()]) },
  { additionalProperties: false },
);
export type DevicePreset = Static<typeof DevicePreset>;

export const DevicePatch = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    alias: Type.Optional(Type.Union([Type.String({ maxLength: 120 }), Type.Null()])),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    configuration: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type DevicePatch = Static<typeof DevicePatch>;

// Formula validation (platform service, `POST /preset/formula/validate`) ------------------------------------------

export const FormulaRequest = Type.Object(
  { formula: Type.String({ maxLength: 2000 }) },
  { additionalProperties: false },
);
export type FormulaRequest = Static<typeof FormulaRequest>;

export const FormulaCheck = Type.Object({
  valid: Type.Boolean(),
  error: Type.Optional(Type.String()),
});
export type FormulaCheck = Static<typeof FormulaCheck>;
