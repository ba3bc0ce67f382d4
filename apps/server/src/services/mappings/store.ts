import type { common } from '@edgeport/contract';
import { and, count, desc, eq, ilike, inArray, isNull, max, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { containsPattern, fetchPage, orderOf, pageWindow } from '../../db/paging.ts';
import { rowsOf } from '../../db/rows.ts';
import {
  type DeviceStatus,
  devices,
  type ModelPath,
  type ModelPathType,
  models,
  modelVersions,
  type PresetMapping,
  presetJobs,
  presets,
} from '../../db/schema.ts';

export type ModelRow = typeof models.$inferSelect;
export type ModelVersionRow = typeof modelVersions.$inferSelect;
export type PresetRow = typeof presets.$inferSelect;
export type PresetJobRow = typeof presetJobs.$inferSelect;
export type DeviceRow = typeof devices.$inferSelect;

/** The organization a call is in and its ancestors: what a model or preset may be shared from. */
export type Scope = { organizationId: string; ancestorIds: string[] };

function visibleModels(scope: Scope): SQL | undefined {
  const own = eq(models.organizationId, scope.organizationId);
  if (scope.ancestorIds.length === 0) return own;
  return or(
    own,
    and(inArray(models.organizationId, scope.ancestorIds), eq(models.subOrgsEnabledToView, true)),
  );
}

function visiblePresets(scope: Scope): SQL | undefined {
  const own = eq(presets.organizationId, scope.organizationId);
  if (scope.ancestorIds.length === 0) return own;
  return or(
    own,
    and(inArray(presets.organizationId, scope.ancestorIds), eq(presets.subOrgsEnabledToView, true)),
  );
}

// Models ------------------------------------------------------------------------------------------------------------

const pathCount = sql<number>`coalesce(jsonb_array_length(${modelVersions.paths}), 0)::int`;
// Raw names: inside a selection Drizzle may render a column without its table, which a subquery would misread.
const presetsOfModel = sql<number>`(select count(*) from "presets" p where p."model_id" = "models"."id")::int`;

export async function pageOfModels(db: Db, scope: Scope, query: common.PageQuery) {
  const window = pageWindow(query);
  const search = query.search?.trim()
    ? or(
        ilike(models.name, containsPattern(query.search)),
        ilike(models.description, containsPattern(query.search)),
      )
    : undefined;
  const where = and(visibleModels(scope), search);
  const order = orderOf(
    query,
    { name: models.name, updatedAt: models.updatedAt, createdAt: models.createdAt },
    'name',
    models.id,
  );
  return fetchPage(
    window,
    db
      .select({ model: models, pathCount })
      .from(models)
      .leftJoin(
        modelVersions,
        and(eq(modelVersions.modelId, models.id), eq(modelVersions.version, models.currentVersion)),
      )
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(models).where(where),
  );
}

export async function modelNames(db: Db, scope: Scope) {
  return db
    .select({ id: models.id, name: models.name, organizationId: models.organizationId })
    .from(models)
    .where(visibleModels(scope))
    .orderBy(models.name, models.id);
}

/** A model of the organization or one shared with it by an ancestor. */
export async function findVisibleModel(db: Db, scope: Scope, id: string) {
  const [row] = await db
    .select({ model: models, presetCount: presetsOfModel })
    .from(models)
    .where(and(visibleModels(scope), eq(models.id, id)));
  return row;
}

export async function findModelByName(
  db: Db,
  organizationId: string,
  name: string,
): Promise<ModelRow | undefined> {
  const [row] = await db
    .select()
    .from(models)
    .where(and(eq(models.organizationId, organizationId), eq(models.name, name)));
  return row;
}

export async function modelVersion(
  db: Db,
  modelId: string,
  version: number,
): Promise<ModelVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(modelVersions)
    .where(and(eq(modelVersions.modelId, modelId), eq(modelVersions.version, version)));
  return row;
}

export async function versionsOf(db: Db, modelId: string): Promise<ModelVersionRow[]> {
  return db
    .select()
    .from(modelVersions)
    .where(eq(modelVersions.modelId, modelId))
    .orderBy(desc(modelVersions.version));
}

export async function insertModel(
  db: Db,
  values: { organizationId: string; name: string; description: string },
  paths: ModelPath[],
  createdBy: string | null,
): Promise<ModelRow> {
  const [row] = await db
    .insert(models)
    .values({ ...values, currentVersion: 1 })
    .returning();
  if (!row) throw new Error('model insert returned nothing');
  await db.insert(modelVersions).values({ modelId: row.id, version: 1, paths, createdBy });
  return row;
}

/** Stores `paths` as the next version of the model and makes it current. */
export async function addVersion(
  db: Db,
  modelId: string,
  paths: ModelPath[],
  createdBy: string,
): Promise<number> {
  const [latest] = await db
    .select({ version: max(modelVersions.version) })
    .from(modelVersions)
    .where(eq(modelVersions.modelId, modelId));
  const version = (latest?.version ?? 0) + 1;
  await db.insert(modelVersions).values({ modelId, version, paths, createdBy });
  await db.update(models).set({ currentVersion: version }).where(eq(models.id, modelId));
  return version;
}

export async function updateModel(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<ModelRow, 'name' | 'description' | 'subOrgsEnabledToView'>>,
): Promise<ModelRow | undefined> {
  const [row] = await db
    .update(models)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(models.organizationId, organizationId), eq(models.id, id)))
    .returning();
  return row;
}

export async function presetCountOfModel(db: Db, modelId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(presets).where(eq(presets.modelId, modelId));
  return row?.total ?? 0;
}

export async function deleteModel(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(models)
    .where(and(eq(models.organizationId, organizationId), eq(models.id, id)))
    .returning({ id: models.id });
  return rows.length > 0;
}

export type PathHitRow = {
  modelId: string;
  modelName: string;
  path: string;
  type: ModelPathType;
  unit: string | null;
  writable: boolean;
};

/** Paths of the current versions of the visible models whose path contains `query` (any case). */
export async function searchPaths(
  db: Db,
  scope: Scope,
  input: { query?: string; modelId?: string; page: number; pageSize: number },
) {
  const pattern = containsPattern(input.query ?? '');
  const where = and(
    visibleModels(scope),
    input.modelId ? eq(models.id, input.modelId) : undefined,
    sql`(entry ->> 'path') ilike ${pattern}`,
  );
  const from = sql`${models} join ${modelVersions} on ${modelVersions.modelId} = ${models.id}
    and ${modelVersions.version} = ${models.currentVersion}
    cross join lateral jsonb_array_elements(${modelVersions.paths}) as entry`;
  const rows = await db.execute(sql`
    select ${models.id} as "modelId", ${models.name} as "modelName", entry ->> 'path' as "path",
      entry ->> 'type' as "type", entry ->> 'unit' as "unit", coalesce((entry ->> 'writable')::boolean, false) as "writable"
    from ${from} where ${where}
    order by ${models.name}, ${models.id}, entry ->> 'path'
    limit ${input.pageSize} offset ${input.page * input.pageSize}`);
  const totals = await db.execute(sql`select count(*)::int as "total" from ${from} where ${where}`);
  const items = (rows as unknown as { rows: PathHitRow[] }).rows;
  const total = (totals as unknown as { rows: { total: number }[] }).rows[0]?.total ?? 0;
  return { items, total: Number(total), page: input.page, pageSize: input.pageSize };
}

/** The distinct paths of the current versions of the organization's own models containing `search` (any case). */
export async function ownModelPaths(db: Db, organizationId: string, search?: string): Promise<string[]> {
  const rows = await db.execute(sql`
    select distinct entry ->> 'path' as "path"
    from ${models} join ${modelVersions} on ${modelVersions.modelId} = ${models.id}
      and ${modelVersions.version} = ${models.currentVersion}
    cross join lateral jsonb_array_elements(${modelVersions.paths}) as entry
    where ${models.organizationId} = ${organizationId} and (entry ->> 'path') ilike ${containsPattern(search ?? '')}`);
  return rowsOf<{ path: string }>(rows).map((row) => row.path);
}

// Presets -----------------------------------------------------------------------------------------------------------

const devicesOfPreset = sql<number>`(select count(*) from "devices" d where d."preset_id" = "presets"."id")::int`;
const mappingCount = sql<number>`jsonb_array_length(${presets.mappings})::int`;

export type PresetListRow = {
  preset: PresetRow;
  modelName: string;
  deviceCount: number;
  mappingCount: number;
};

export async function pageOfPresets(db: Db, scope: Scope, query: common.PageQuery & { modelId?: string }) {
  const window = pageWindow(query);
  const where = and(
    visiblePresets(scope),
    query.search?.trim() ? ilike(presets.name, containsPattern(query.search)) : undefined,
    query.modelId ? eq(presets.modelId, query.modelId) : undefined,
  );
  const order = orderOf(query, { name: presets.name, createdAt: presets.createdAt }, 'name', presets.id);
  return fetchPage<PresetListRow>(
    window,
    db
      .select({ preset: presets, modelName: models.name, deviceCount: devicesOfPreset, mappingCount })
      .from(presets)
      .innerJoin(models, eq(models.id, presets.modelId))
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(presets).where(where),
  );
}

/** A preset of the organization or one shared with it by an ancestor, with its model's name. */
export async function findVisiblePreset(db: Db, scope: Scope, id: string) {
  const [row] = await db
    .select({ preset: presets, modelName: models.name, deviceCount: devicesOfPreset })
    .from(presets)
    .innerJoin(models, eq(models.id, presets.modelId))
    .where(and(visiblePresets(scope), eq(presets.id, id)));
  return row;
}

export async function findPresetByName(db: Db, organizationId: string, name: string) {
  const [row] = await db
    .select({ id: presets.id })
    .from(presets)
    .where(and(eq(presets.organizationId, organizationId), eq(presets.name, name)));
  return row;
}

export async function insertPreset(
  db: Db,
  values: {
    organizationId: string;
    name: string;
    modelId: string;
    modelVersion: number;
    mappings: PresetMapping[];
    deviceConfiguration: Record<string, unknown>;
  },
): Promise<PresetRow> {
  const [row] = await db.insert(presets).values(values).returning();
  if (!row) throw new Error('preset insert returned nothing');
  return row;
}

export async function deviceCountOfPreset(db: Db, presetId: string): Promise<number> {
  const [row] = await db.select({ total: count() }).from(devices).where(eq(devices.presetId, presetId));
  return row?.total ?? 0;
}

export async function deletePreset(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(presets)
    .where(and(eq(presets.organizationId, organizationId), eq(presets.id, id)))
    .returning({ id: presets.id });
  return rows.length > 0;
}

export async function setPresetVisibility(db: Db, organizationId: string, id: string, enabled: boolean) {
  const [row] = await db
    .update(presets)
    .set({ subOrgsEnabledToView: enabled })
    .where(and(eq(presets.organizationId, organizationId), eq(presets.id, id)))
    .returning();
  return row;
}

// Preset jobs -------------------------------------------------------------------------------------------------------

export async function insertJob(db: Db, organizationId: string): Promise<PresetJobRow> {
  const [row] = await db.insert(presetJobs).values({ organizationId }).returning();
  if (!row) throw new Error('preset job insert returned nothing');
  return row;
}

export async function findJob(db: Db, organizationId: string, id: string): Promise<PresetJobRow | undefined> {
  const [row] = await db
    .select()
    .from(presetJobs)
    .where(and(eq(presetJobs.organizationId, organizationId), eq(presetJobs.id, id)));
  return row;
}

export async function updateJob(
  db: Db,
  id: string,
  changes: Partial<Pick<PresetJobRow, 'status' | 'progress' | 'presetId' | 'error' | 'finishedAt'>>,
): Promise<PresetJobRow | undefined> {
  const [row] = await db.update(presetJobs).set(changes).where(eq(presetJobs.id, id)).returning();
  return row;
}

// Devices -----------------------------------------------------------------------------------------------------------

export type DeviceFilters = {
  text?: string;
  presetId?: string | null;
  status?: DeviceStatus;
  tags?: string[];
};

export type DeviceWithPreset = { device: DeviceRow; presetName: string | null };

function deviceConditions(organizationId: string, filters: DeviceFilters): SQL | undefined {
  const text = filters.text?.trim() ? containsPattern(filters.text) : undefined;
  return and(
    eq(devices.organizationId, organizationId),
    text
      ? or(ilike(devices.label, text), ilike(devices.alias, text), ilike(devices.serialNumber, text))
      : undefined,
    filters.presetId === null
      ? isNull(devices.presetId)
      : filters.presetId
        ? eq(devices.presetId, filters.presetId)
        : undefined,
    filters.status ? eq(devices.status, filters.status) : undefined,
    filters.tags && filters.tags.length > 0
      ? sql`${devices.tags} @> ${JSON.stringify(filters.tags)}::jsonb`
      : undefined,
  );
}

const DEVICE_SORT = {
  label: devices.label,
  alias: devices.alias,
  serialNumber: devices.serialNumber,
  status: devices.status,
  createdAt: devices.createdAt,
  lastSeenAt: devices.lastSeenAt,
};

export async function pageOfDevices(
  db: Db,
  organizationId: string,
  filters: DeviceFilters,
  query: Pick<common.PageQuery, 'page' | 'pageSize' | 'sort' | 'order'>,
) {
  const window = pageWindow(query);
  const where = deviceConditions(organizationId, filters);
  const order = orderOf(query, DEVICE_SORT, 'label', devices.id);
  return fetchPage<DeviceWithPreset>(
    window,
    db
      .select({ device: devices, presetName: presets.name })
      .from(devices)
      .leftJoin(presets, eq(presets.id, devices.presetId))
      .where(where)
      .orderBy(...order)
      .offset(window.offset)
      .limit(window.pageSize),
    db.select({ total: count() }).from(devices).where(where),
  );
}

export async function findDevice(
  db: Db,
  organizationId: string,
  id: string,
): Promise<DeviceWithPreset | undefined> {
  const [row] = await db
    .select({ device: devices, presetName: presets.name })
    .from(devices)
    .leftJoin(presets, eq(presets.id, devices.presetId))
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)));
  return row;
}

export async function updateDevice(
  db: Db,
  organizationId: string,
  id: string,
  changes: Partial<Pick<DeviceRow, 'label' | 'alias' | 'description' | 'configuration' | 'presetId'>>,
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .update(devices)
    .set(changes)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)))
    .returning();
  return row;
}

export async function deleteDevice(db: Db, organizationId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(devices)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, id)))
    .returning({ id: devices.id });
  return rows.length > 0;
}
