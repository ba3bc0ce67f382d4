import { type Static, Type } from 'typebox';

/** Columns the log can be sorted by. */
export const EntrySort = Type.Union([
  Type.Literal('at'),
  Type.Literal('actorEmail'),
  Type.Literal('action'),
  Type.Literal('resourceType'),
]);
export type EntrySort = Static<typeof EntrySort>;

/** The filters of the log, shared by the page and the CSV export. */
const entryFilters = {
  who: Type.Optional(Type.String({ maxLength: 254, description: "part of the actor's e-mail" })),
  what: Type.Optional(
    Type.String({
      maxLength: 120,
      description: "an action ('roles.update') or, ending with a dot, an action prefix ('roles.')",
    }),
  ),
  resourceType: Type.Optional(Type.String({ maxLength: 60 })),
  resourceId: Type.Optional(Type.String({ maxLength: 120 })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'earliest time, inclusive' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'latest time, inclusive' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'part of the resource name' })),
  sort: Type.Optional(EntrySort),
  order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
};

export const EntryFilter = Type.Object(entryFilters, { additionalProperties: false });
export type EntryFilter = Static<typeof EntryFilter>;

export const EntryQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
    ...entryFilters,
  },
  { additionalProperties: false },
);
export type EntryQuery = Static<typeof EntryQuery>;

export const Entry = Type.Object({
  id: Type.Integer(),
  at: Type.String({ format: 'date-time' }),
  actorId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()]),
  actorEmail: Type.String(),
  action: Type.String(),
  resourceType: Type.String(),
  resourceId: Type.Union([Type.String(), Type.Null()]),
  resourceName: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export type Entry = Static<typeof Entry>;

export const EntryPage = Type.Object({
  items: Type.Array(Entry),
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
});
export type EntryPage = Static<typeof EntryPage>;

/** The actions and resource types present in the organization's log (the filter selects). */
export const Facets = Type.Object({
  actions: Type.Array(Type.String()),
  resourceTypes: Type.Array(Type.String()),
});
export type Facets = Static<typeof Facets>;

export const OrganizationParams = Type.Object({
  org: Type.String({ minLength: 1, maxLength: 80, description: 'organization id or resourceId' }),
});
