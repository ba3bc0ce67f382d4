import { type Static, Type } from 'typebox';

/*
 * Platform service, data exploration (spec 2 /data-explore): stored device values by model path, decimated series
 * for charts, the paths a set of devices has, and a CSV export. Re-exported through `platform`.
 */

/** The most devices, and the most paths, one query or export may name. */
export const DATA_MAX_DEVICES = 20;
export const DATA_MAX_PATHS = 20;
/** The longest time range one query or export may span (366 days). */
export const DATA_MAX_SPAN_MS = 366 * 24 * 60 * 60 * 1000;
export const DATA_DEFAULT_MAX_POINTS = 2000;
export const DATA_MAX_POINTS = 20_000;
/** The most CSV records (after the header) one export holds. */
export const DATA_EXPORT_ROW_LIMIT = 1_000_000;

const orgRef = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const deviceId = Type.String({ format: 'uuid' });
/** A model path as models define it: `/motor/speed` (segments of letters, digits, `_` and `-`). */
const modelPath = Type.String({
  minLength: 2,
  maxLength: 300,
  pattern: '^(/[A-Za-z0-9_-]+)+$',
  description: "a model path: starts with '/', segments [A-Za-z0-9_-]+",
});
const deviceList = { minItems: 1, maxItems: DATA_MAX_DEVICES, uniqueItems: true };
const pathList = { minItems: 1, maxItems: DATA_MAX_PATHS, uniqueItems: true };
const deviceIds = Type.Array(deviceId, {
  ...deviceList,
  description: `1 to ${DATA_MAX_DEVICES} devices of the organization`,
});
const paths = Type.Array(modelPath, { ...pathList, description: `1 to ${DATA_MAX_PATHS} model paths` });
const from = Type.String({ format: 'date-time', description: 'start of the range, inclusive' });
const to = Type.String({
  format: 'date-time',
  description: 'end of the range, inclusive; after from, at most 366 days later',
});

export const DataOrgParams = Type.Object({ org: orgRef });
export type DataOrgParams = Static<typeof DataOrgParams>;

export const DataPathsQuery = Type.Object(
  { deviceIds: Type.Array(deviceId, { ...deviceList, description: 'repeat the parameter for each device' }) },
  { additionalProperties: false },
);
export type DataPathsQuery = Static<typeof DataPathsQuery>;

export const DataPathType = Type.Union([
  Type.Literal('number'),
  Type.Literal('integer'),
  Type.Literal('boolean'),
  Type.Literal('string'),
]);
export type DataPathType = Static<typeof DataPathType>;

/** One model path that at least one of the devices has and the caller may read. */
export const DataPath = Type.Object({
  path: Type.String(),
  type: DataPathType,
  unit: Type.Optional(Type.String()),
  description: Type.Optional(Type.String()),
  /** The asked-for devices whose model has the path. */
  deviceIds: Type.Array(Type.String({ format: 'uuid' })),
});
export type DataPath = Static<typeof DataPath>;

export const DataPaths = Type.Object({ paths: Type.Array(DataPath) });
export type DataPaths = Static<typeof DataPaths>;

export const DataQueryRequest = Type.Object(
  {
    deviceIds,
    paths,
    from,
    to,
    maxPoints: Type.Optional(
      Type.Integer({
        minimum: 10,
        maximum: DATA_MAX_POINTS,
        default: DATA_DEFAULT_MAX_POINTS,
        description:
          'the most points per series; beyond it the server keeps the minimum and maximum of each time bucket',
      }),
    ),
  },
  { additionalProperties: false },
);
export type DataQueryRequest = Static<typeof DataQueryRequest>;

/** Column-wise points: `t` in epoch milliseconds (fractions for sub-millisecond data), `v` the values. */
export const DataPoints = Type.Object({
  t: Type.Array(Type.Number()),
  v: Type.Array(Type.Union([Type.Number(), Type.Null()])),
});
export type DataPoints = Static<typeof DataPoints>;

/**
 * What a series' points were taken from: the stored values, or the 1-minute or 1-hour rollups (the minimum and the
 * maximum of each time bucket), chosen from the range and `maxPoints`.
 */
export const DataResolution = Type.Union([Type.Literal('raw'), Type.Literal('minute'), Type.Literal('hour')]);
export type DataResolution = Static<typeof DataResolution>;

/**
 * One device's values of one path in the range. Numbers and integers as stored, booleans as 0/1. String paths are
 * not charted: their `v` is all null and `text` lists the raw values (at most maxPoints, the earliest first).
 */
export const DataSeries = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  label: Type.String(),
  path: Type.String(),
  type: DataPathType,
  unit: Type.Optional(Type.String()),
  points: DataPoints,
  text: Type.Optional(Type.Array(Type.String())),
  /** True when `points` is a reduction (min and max per time bucket) or a cut (string paths) of `total` values. */
  decimated: Type.Boolean(),
  /** How many stored values the range holds. */
  total: Type.Integer(),
  resolution: DataResolution,
});
export type DataSeries = Static<typeof DataSeries>;

export const DataQueryResult = Type.Object({
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  /** One series per (device, path) whose device's model has the path, in the order asked. */
  series: Type.Array(DataSeries),
});
export type DataQueryResult = Static<typeof DataQueryResult>;

export const DataExportQuery = Type.Object(
  {
    deviceIds: Type.Array(deviceId, { ...deviceList, description: 'repeat the parameter for each device' }),
    paths: Type.Array(modelPath, { ...pathList, description: 'repeat the parameter for each path' }),
    from,
    to,
  },
  { additionalProperties: false },
);
export type DataExportQuery = Static<typeof DataExportQuery>;

/** The most devices one summary answers (every device of the organization that has the path, up to this). */
export const DATA_SUMMARY_MAX_DEVICES = 10_000;

export const DataSummaryRequest = Type.Object(
  {
    path: modelPath,
    from: Type.String({ format: 'date-time', description: 'start of the range; rounded down to the hour' }),
    to: Type.String({
      format: 'date-time',
      description: 'end of the range, after from, at most 366 days later; rounded up to the hour',
    }),
  },
  { additionalProperties: false },
);
export type DataSummaryRequest = Static<typeof DataSummaryRequest>;

/** One device's values of the path in the range, from the hourly rollups. */
export const DataSummaryRow = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  label: Type.String(),
  count: Type.Integer({ description: 'how many values the range holds' }),
  min: Type.Number(),
  max: Type.Number(),
  average: Type.Number(),
  last: Type.Number({ description: 'the newest value in the range' }),
  lastAt: Type.String({ format: 'date-time' }),
});
export type DataSummaryRow = Static<typeof DataSummaryRow>;

export const DataSummary = Type.Object({
  from: Type.String({ format: 'date-time', description: 'the range summarised, whole hours' }),
  to: Type.String({ format: 'date-time' }),
  path: Type.String(),
  resolution: Type.Literal('hour'),
  /** Every device of the organization with values of the path in the range, by label. */
  rows: Type.Array(DataSummaryRow),
});
export type DataSummary = Static<typeof DataSummary>;
