// An organization's limits and what it uses of them (service `/svc/limits`).
import { type Static, Type } from 'typebox';
import { Uuid } from './common.ts';

/** ONE JSON-schema type list: with the server's type coercion a union would turn null into 0. */
const Limit = Type.Optional(
  Type.Unsafe<number | null>({
    type: ['integer', 'null'],
    minimum: 0,
    maximum: 1_000_000_000,
    description: 'null: unlimited',
  }),
);

export const LIMIT_KEYS = [
  'devices',
  'users',
  'dashboards',
  'dataPointsPerDay',
  'notificationsPerDay',
] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];

/** How many days of raw device values the organization keeps (not a count: null is the server's default). */
export const RETENTION_KEY = 'telemetryRetentionDays' as const;
export type StoredLimitKey = LimitKey | typeof RETENTION_KEY;
export const STORED_LIMIT_KEYS: readonly StoredLimitKey[] = [...LIMIT_KEYS, RETENTION_KEY];

const RetentionDays = Type.Optional(
  Type.Unsafe<number | null>({
    type: ['integer', 'null'],
    minimum: 1,
    maximum: 1_000_000,
    description:
      "days of raw device values kept, from 1 to the server's maximum (`retention.maxDays`); null: the server's default",
  }),
);

/** Creating or replacing limits needs at least one defined value, else 'undefined limits' (spec 5). */
export const LimitsInput = Type.Object(
  {
    devices: Limit,
    users: Limit,
    dashboards: Limit,
    dataPointsPerDay: Limit,
    notificationsPerDay: Limit,
    telemetryRetentionDays: RetentionDays,
  },
  { additionalProperties: false },
);
export type LimitsInput = Static<typeof LimitsInput>;

const Nullable = Type.Union([Type.Integer(), Type.Null()]);
export const Usage = Type.Object({
  devices: Type.Integer(),
  users: Type.Integer(),
  dashboards: Type.Integer({
    description: 'always 0 until dashboards exist (there is no dashboards table yet)',
  }),
  dataPointsPerDay: Type.Integer({ description: 'today (UTC)' }),
  notificationsPerDay: Type.Integer({ description: 'today (UTC)' }),
});
export const Limits = Type.Object({
  organizationId: Uuid,
  defined: Type.Boolean({ description: 'false: no limits were ever created for the organization' }),
  limits: Type.Object({
    devices: Nullable,
    users: Nullable,
    dashboards: Nullable,
    dataPointsPerDay: Nullable,
    notificationsPerDay: Nullable,
    telemetryRetentionDays: Nullable,
  }),
  retention: Type.Object(
    {
      days: Type.Integer({
        description: 'the days of raw values the organization keeps now (its own, else the default)',
      }),
      defaultDays: Type.Integer({ description: "the server's default (TELEMETRY_RETENTION_DAYS)" }),
      maxDays: Type.Integer({
        description: 'the most days an organization may keep (TELEMETRY_RETENTION_MAX_DAYS)',
      }),
      rollupDays: Type.Integer({
        description:
          'days the hourly rollups are kept, longer than raw values (TELEMETRY_ROLLUP_RETENTION_DAYS)',
      }),
    },
    { description: 'How long stored device values are kept' },
  ),
  usage: Usage,
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Limits = Static<typeof Limits>;
