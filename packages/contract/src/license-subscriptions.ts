// Spec 7 "Licence", subscriptions: the resource journal (metered usage), its sums, summaries and aggregations.
import { type Static, type TSchema, Type } from 'typebox';
import { literals, Paged } from './common.ts';

const orgParam = Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' });
const uuid = Type.String({ format: 'uuid' });
const dateTime = Type.String({ format: 'date-time' });
const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
/** Counts are whole numbers; sums are exact (computed as integers, never floating point). */
const count = Type.Integer({ minimum: 0 });
const amount = Type.Integer({ description: 'whole units of the resource' });

/** What a product grants and what the services meter: devices held, users, data points ingested, VPN minutes. */
export const RESOURCE_TYPES = ['devices', 'users', 'dataPoints', 'vpnMinutes'] as const;
export const ResourceType = literals(RESOURCE_TYPES);
export type ResourceType = Static<typeof ResourceType>;

export const OrganizationParams = Type.Object({ org: orgParam });
export const ResourceParams = Type.Object({ org: orgParam, type: ResourceType });

const range = {
  from: Type.Optional(
    Type.String({ format: 'date-time', description: 'entries at or after this instant (UTC)' }),
  ),
  to: Type.Optional(
    Type.String({
      format: 'date-time',
      description:
        'entries BEFORE this instant (exclusive); the consumption screen sends the chosen end date plus one day (spec 9)',
    }),
  ),
};

export const JournalQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    ...range,
  },
  { additionalProperties: false },
);
export type JournalQuery = Static<typeof JournalQuery>;

export const JournalSumQuery = Type.Object(range, { additionalProperties: false });
export type JournalSumQuery = Static<typeof JournalSumQuery>;

export const JournalEntry = Type.Object({
  id: Type.Integer(),
  resourceType: ResourceType,
  delta: amount,
  reason: Type.String({ description: '`{area}.{verb}`: device.activated, device.deleted, user.joined...' }),
  subjectId: nullable(Type.String()),
  at: dateTime,
});
export type JournalEntry = Static<typeof JournalEntry>;
export const JournalPage = Paged(JournalEntry);
export type JournalPage = Static<typeof JournalPage>;

export const JournalSum = Type.Object({
  resourceType: ResourceType,
  sum: Type.Integer({ description: 'the exact sum of the deltas of the matching entries' }),
  count,
  from: nullable(dateTime),
  to: nullable(dateTime),
});
export type JournalSum = Static<typeof JournalSum>;

export const ResourceSummary = Type.Object({
  resourceType: ResourceType,
  allowance: nullable(
    Type.Integer({
      description:
        'Σ over the ACTIVE licences of the pool owner: licence quantity × product version quantity; null when no licence grants this resource',
    }),
  ),
  used: Type.Integer({
    description: 'the journal sum of all time over the pool (this organization and those drawing on it)',
  }),
  ownUsed: Type.Integer({ description: "this organization's own journal sum of all time" }),
  available: nullable(Type.Integer({ description: 'allowance − used; null without allowance' })),
});
export type ResourceSummary = Static<typeof ResourceSummary>;

export const Summary = Type.Object({
  organizationId: uuid,
  name: Type.String(),
  hasOwnResources: Type.Boolean(),
  pooledWith: nullable(
    Type.String({
      format: 'uuid',
      description:
        'hasOwnResources false: the ancestor organization whose allowances this organization draws on (null: its own)',
    }),
  ),
  resources: Type.Array(ResourceSummary),
});
export type Summary = Static<typeof Summary>;

export const SummaryByOrg = Type.Object({
  organizationId: uuid,
  items: Type.Array(Summary, { description: 'one summary per direct sub-organization, by name' }),
});
export type SummaryByOrg = Static<typeof SummaryByOrg>;

export const Bucket = literals(['day', 'month'] as const);
export type Bucket = Static<typeof Bucket>;

export const AggregatedQuery = Type.Object(
  {
    ...range,
    bucket: Type.Optional(Bucket),
    type: Type.Optional(ResourceType),
  },
  { additionalProperties: false },
);
export type AggregatedQuery = Static<typeof AggregatedQuery>;

export const AggregatedPoint = Type.Object({
  start: Type.String({ format: 'date-time', description: 'bucket start (UTC), clipped to `from`' }),
  end: Type.String({ format: 'date-time', description: 'bucket end (exclusive, UTC), clipped to `to`' }),
  sum: Type.Integer({ description: 'sum of the deltas within the bucket' }),
  count,
  total: Type.Integer({
    description:
      'running total: the sum of every entry before the bucket end (all time), e.g. devices held then',
  }),
});
export type AggregatedPoint = Static<typeof AggregatedPoint>;

export const AggregatedSeries = Type.Object({
  resourceType: ResourceType,
  points: Type.Array(AggregatedPoint),
});
export type AggregatedSeries = Static<typeof AggregatedSeries>;

export const Aggregated = Type.Object({
  organizationId: uuid,
  bucket: Bucket,
  from: dateTime,
  to: dateTime,
  series: Type.Array(AggregatedSeries),
});
export type Aggregated = Static<typeof Aggregated>;

export const AggregatedOfOrg = Type.Object({
  organizationId: uuid,
  name: Type.String(),
  series: Type.Array(AggregatedSeries),
});
export type AggregatedOfOrg = Static<typeof AggregatedOfOrg>;

export const AggregatedByOrg = Type.Object({
  organizationId: uuid,
  bucket: Bucket,
  from: dateTime,
  to: dateTime,
  organizations: Type.Array(AggregatedOfOrg, {
    description: 'the organization itself first, then each direct sub-organization by name',
  }),
});
export type AggregatedByOrg = Static<typeof AggregatedByOrg>;
