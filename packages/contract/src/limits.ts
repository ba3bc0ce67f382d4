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

/** Creating or replacing limits needs at least one defined value, else 'undefined limits' (spec 5). */
export const LimitsInput = Type.Object(
  {
    devices: Limit,
    users: Limit,
    dashboards: Limit,
    dataPointsPerDay: Limit,
    notificationsPerDay: Limit,
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
  }),
  usage: Usage,
  updatedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Limits = Static<typeof Limits>;
