import type { DashboardDocument, FlowDocument, WidgetDocument } from '@edgeport/dashboard-schema';
import { type Static, Type } from 'typebox';
import { literals, Paged, PageQuery, Uuid } from './common.ts';

/**
 * The dashboard service `/svc/dashboard/api/v1` (spec 7 "Dashboard"). Three collections share one set of calls:
 * `dashboards`, `flows` (trees of dashboard entries) and `widgets` (saved widgets). Their documents are defined,
 * versioned and migrated by `@edgeport/dashboard-schema`; the API carries them as opaque JSON objects and the server
 * checks them with that package (errors name the field, for example `body/document/pages/0/title`).
 */
export const COLLECTIONS = ['dashboards', 'flows', 'widgets'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export const AccessLevel = literals(['owner', 'r/w', 'r'] as const);
export type AccessLevel = Static<typeof AccessLevel>;

/** Any document of the three kinds, as JSON; `@edgeport/dashboard-schema` `readDocument` gives its precise type. */
export const Document = Type.Unsafe<DashboardDocument | FlowDocument | WidgetDocument>({
  type: 'object',
  additionalProperties: true,
  description: 'a document of @edgeport/dashboard-schema (dashboard, flow or widget, by collection)',
});

export const Dashboard = Type.Object({
  id: Type.String(),
  kind: literals(['dashboard', 'flow', 'widget'] as const),
  name: Type.String(),
  description: Type.String(),
  ownerId: Type.Union([Type.String(), Type.Null()]),
  ownerName: Type.Union([Type.String(), Type.Null()]),
  currentVersion: Type.Integer(),
  /** User ids with read access (spec 3 "readers"). */
  readers: Type.Array(Type.String()),
  /** User ids with read-write access (spec 3 "editors"). */
  editors: Type.Array(Type.String()),
  /** What the caller may do: owner (edit, share, delete), r/w (edit) or r (view). */
  access: AccessLevel,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Dashboard = Static<typeof Dashboard>;

export const DashboardList = Paged(Dashboard);
export const DashboardListQuery = PageQuery;

const Name = Type.String({ minLength: 1, maxLength: 120 });
const Description = Type.String({ maxLength: 2000 });

export const DashboardCreate = Type.Object(
  {
    name: Name,
    description: Type.Optional(Description),
    /** The first version's document; an empty one when absent. */
    document: Type.Optional(Document),
  },
  { additionalProperties: false },
);
export type DashboardCreate = Static<typeof DashboardCreate>;

/** PATCH on the collection (spec 7): the id is in the body. */
export const DashboardPatch = Type.Object(
  { id: Uuid, name: Type.Optional(Name), description: Type.Optional(Description) },
  { additionalProperties: false },
);
export type DashboardPatch = Static<typeof DashboardPatch>;

export const DashboardParams = Type.Object({ id: Uuid });
export const VersionParams = Type.Object({ id: Uuid, v: Type.Integer({ minimum: 1 }) });
export const DeriveParams = Type.Object({
  id: Uuid,
  v: Type.Integer({ minimum: 1 }),
  v2: Type.Integer({ minimum: 1 }),
});

export const DashboardVersion = Type.Object({
  dashboardId: Type.String(),
  version: Type.Integer(),
  current: Type.Boolean(),
  derivedFrom: Type.Union([Type.Integer(), Type.Null()]),
  comment: Type.String(),
  createdBy: Type.Union([Type.String(), Type.Null()]),
  createdByName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  /** The document in the current schema version (older stored versions are migrated on read). */
  document: Document,
  readers: Type.Array(Type.String()),
  editors: Type.Array(Type.String()),
});
export type DashboardVersion = Static<typeof DashboardVersion>;

/** The version list leaves the documents out. */
export const DashboardVersionSummary = Type.Omit(DashboardVersion, ['document', 'readers', 'editors']);
export const DashboardVersionList = Type.Array(DashboardVersionSummary);

export const VersionCreate = Type.Object(
  {
    document: Document,
    comment: Type.Optional(Type.String({ maxLength: 500 })),
    /** Make the new version the current one (the editor's Save does). Default true. */
    current: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type VersionCreate = Static<typeof VersionCreate>;

/** CSV export of the dashboard's bound values (`POST /{id}/version/LATEST/data`). */
export const DataExport = Type.Object(
  {
    from: Type.String({ format: 'date-time' }),
    to: Type.String({ format: 'date-time' }),
    /** The device of each slot; a slot left out uses its default device. */
    slots: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Uuid)),
    /**
     * The stored values (`raw`), their 1-minute or 1-hour averages, or `auto` (the default): what
     * `exportResolutionFor` picks from the range. The answer's `x-data-resolution` header says which.
     */
    resolution: Type.Optional(literals(['auto', 'raw', 'minute', 'hour'] as const)),
  },
  { additionalProperties: false },
);
export type DataExport = Static<typeof DataExport>;
export * from './values/dashboards.ts';

export const ShareParams = Type.Object({ id: Uuid, user: Uuid });
export const ShareLevel = literals(['r', 'r/w'] as const);
/** Share with a list (spec 4): each user gets the level given; a user without a level is removed from both lists. */
export const ShareList = Type.Object(
  {
    users: Type.Array(
      Type.Object({ user: Uuid, level: Type.Optional(ShareLevel) }, { additionalProperties: false }),
      {
        minItems: 1,
        maxItems: 500,
      },
    ),
  },
  { additionalProperties: false },
);
export type ShareList = Static<typeof ShareList>;
export const UnshareList = Type.Object(
  { users: Type.Array(Uuid, { minItems: 1, maxItems: 500 }) },
  { additionalProperties: false },
);

// --- Assets -------------------------------------------------------------------------------------------------------

export const AssetName = Type.String({
  minLength: 1,
  maxLength: 200,
  pattern: '^[A-Za-z0-9][A-Za-z0-9._ -]*$',
});
export const AssetParams = Type.Object({ id: Uuid, name: AssetName });
export const Asset = Type.Object({
  dashboardId: Type.String(),
  name: Type.String(),
  contentType: Type.String(),
  size: Type.Integer(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Asset = Static<typeof Asset>;
export const AssetList = Type.Array(Asset);
/** A one-time URL to PUT the asset's bytes to (with the file's Content-Type). */
export const UploadUrl = Type.Object({ url: Type.String(), expiresAt: Type.String({ format: 'date-time' }) });
export const AssetStorage = Type.Object({
  usedBytes: Type.Integer(),
  limitBytes: Type.Integer(),
  assets: Type.Integer(),
});

// --- Organization gallery -----------------------------------------------------------------------------------------

export const GalleryWidget = Type.Object({
  asset: Type.String(),
  name: Type.String(),
  description: Type.String(),
  /** A widget document of `@edgeport/dashboard-schema` to drop into a dashboard. */
  document: Document,
});
export const GalleryManifest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    widgets: Type.Array(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 120 }),
          description: Type.Optional(Type.String({ maxLength: 2000 })),
          document: Document,
        },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
  },
  { additionalProperties: false },
);
export type GalleryManifest = Static<typeof GalleryManifest>;
export const GalleryAsset = Type.Object({
  name: Type.String(),
  manifest: GalleryManifest,
  contentType: Type.String(),
  size: Type.Integer(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export const OrganizationManifest = Type.Object({
  organizationId: Type.String(),
  assets: Type.Array(GalleryAsset),
});
export const GalleryWidgetList = Type.Array(GalleryWidget);
export const GalleryParams = Type.Object({ a: AssetName });

// --- Dashboard user preferences -----------------------------------------------------------------------------------

export const DashboardPreference = Type.Object({
  dashboardId: Type.String(),
  key: Type.String(),
  value: Type.Unknown(),
  updatedAt: Type.String({ format: 'date-time' }),
});
export const DashboardPreferenceList = Type.Array(DashboardPreference);
export const PreferenceQuery = Type.Object(
  { dashboardId: Uuid, key: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })) },
  { additionalProperties: false },
);
export const PreferenceWrite = Type.Object(
  { dashboardId: Uuid, key: Type.String({ minLength: 1, maxLength: 100 }), value: Type.Unknown() },
  { additionalProperties: false },
);
