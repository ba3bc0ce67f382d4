import type { alarms as contract } from '@edgeport/contract';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  ilike,
  inArray,
  isNotNull,
  isNull,
  lt,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { containsPattern } from '../../db/paging.ts';
import {
  alarmEvents,
  alarmRules,
  alarms,
  devices,
  latestValues,
  type ModelPath,
  modelVersions,
  presets,
} from '../../db/schema.ts';

export type RuleRow = typeof alarmRules.$inferSelect;
export type AlarmRow = typeof alarms.$inferSelect & { deviceLabel: string | null };
export type NewRule = typeof alarmRules.$inferInsert;

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date ? date.toISOString() : null);

/** Spec 4: what counts — not cleared, and active or still awaiting an acknowledgement or a reset. */
export function isOpen(row: Pick<AlarmRow, 'clearedAt' | 'status' | 'ack' | 'reset'>): boolean {
  return (
    row.clearedAt === null && (row.status === 'ACTIVE' || row.ack === 'REQUIRED' || row.reset === 'REQUIRED')
  );
}

export const openCondition = and(
  isNull(alarms.clearedAt),
  or(eq(alarms.status, 'ACTIVE'), eq(alarms.ack, 'REQUIRED'), eq(alarms.reset, 'REQUIRED')),
) as SQL;

export function toAlarm(row: AlarmRow): contract.Alarm {
  return {
    id: row.id,
    organizationId: row.organizationId,
    ruleId: row.ruleId,
    triggerId: row.triggerId,
    deviceId: row.deviceId,
    deviceLabel: row.deviceLabel,
    name: row.name,
    path: row.path,
    severity: row.severity,
    status: row.status,
    ack: row.ack,
    reset: row.reset,
    open: isOpen(row),
    message: row.message,
    value: row.value ?? null,
    raisedAt: iso(row.raisedAt),
    conditionClearedAt: isoOrNull(row.conditionClearedAt),
    ackAt: isoOrNull(row.ackAt),
    ackBy: row.ackBy,
    resetAt: isoOrNull(row.resetAt),
    resetBy: row.resetBy,
    clearedAt: isoOrNull(row.clearedAt),
    clearedBy: row.clearedBy,
    updatedAt: iso(row.updatedAt),
  };
}

const alarmColumns = { ...getTableColumns(alarms), deviceLabel: devices.label };

function selectAlarms(db: Db) {
  return db.select(alarmColumns).from(alarms).leftJoin(devices, eq(devices.id, alarms.deviceId));
}

/** One alarm with its device label; `organizationId` given: only when it belongs to that organization. */
export async function alarmById(db: Db, id: string, organizationId?: string): Promise<AlarmRow | undefined> {
  const [row] = await selectAlarms(db).where(
    organizationId === undefined
      ? eq(alarms.id, id)
      : and(eq(alarms.id, id), eq(alarms.organizationId, organizationId)),
  );
  return row;
}

export async function historyOf(db: Db, alarmId: string): Promise<contract.AlarmEvent[]> {
  const rows = await db
    .select()
    .from(alarmEvents)
    .where(eq(alarmEvents.alarmId, alarmId))
    .orderBy(asc(alarmEvents.at), asc(alarmEvents.id));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    at: iso(row.at),
    by: row.by,
    value: row.value ?? null,
    detail: row.detail,
  }));
}

function searchText(text: string): SQL {
  const pattern = containsPattern(text);
  return or(
    ilike(alarms.message, pattern),
    ilike(alarms.name, pattern),
    ilike(devices.label, pattern),
  ) as SQL;
}

/** The WHERE of a search or bulk action: the organization's alarms narrowed by every given field. */
export function filterCondition(organizationId: string, filter: contract.AlarmFilter): SQL {
  const parts: SQL[] = [eq(alarms.organizationId, organizationId)];
  if (filter.open === true) parts.push(openCondition);
  if (filter.open === false) parts.push(sql`not (${openCondition})`);
  if (filter.severities && filter.severities.length > 0)
    parts.push(inArray(alarms.severity, filter.severities));
  if (filter.statuses && filter.statuses.length > 0) parts.push(inArray(alarms.status, filter.statuses));
  if (filter.ack) parts.push(eq(alarms.ack, filter.ack));
  if (filter.reset) parts.push(eq(alarms.reset, filter.reset));
  if (filter.deviceId) parts.push(eq(alarms.deviceId, filter.deviceId));
  if (filter.ruleId) parts.push(eq(alarms.ruleId, filter.ruleId));
  if (filter.search?.trim()) parts.push(searchText(filter.search));
  if (filter.from) parts.push(gte(alarms.raisedAt, new Date(filter.from)));
  if (filter.to) parts.push(lt(alarms.raisedAt, new Date(filter.to)));
  return and(...parts) as SQL;
}

const severityRank = sql`case ${alarms.severity} when 'CRITICAL' then 0 when 'MAJOR' then 1 when 'MINOR' then 2 when 'WARNING' then 3 else 4 end`;

const SORTS = {
  raisedAt: alarms.raisedAt,
  updatedAt: alarms.updatedAt,
  severity: severityRank,
  deviceLabel: devices.label,
  name: alarms.name,
} as const;

export async function searchAlarms(
  db: Db,
  organizationId: string,
  search: contract.AlarmSearch,
): Promise<{ rows: AlarmRow[]; total: number }> {
  const where = filterCondition(organizationId, search);
  const sort = search.sort ?? 'raisedAt';
  // Times newest first unless asked otherwise; severity most severe first; names A to Z.
  const order = search.order ?? (sort === 'raisedAt' || sort === 'updatedAt' ? 'desc' : 'asc');
  const direction = order === 'desc' ? desc : asc;
  const pageSize = search.pageSize ?? 50;
  const page = search.page ?? 0;
  const [rows, totals] = await Promise.all([
    selectAlarms(db)
      .where(where)
      .orderBy(direction(SORTS[sort]), direction(alarms.raisedAt), direction(alarms.id))
      .limit(pageSize)
      .offset(page * pageSize),
    db
      .select({ total: count() })
      .from(alarms)
      .leftJoin(devices, eq(devices.id, alarms.deviceId))
      .where(where),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export function emptyCounts(): contract.SeverityCounts {
  return { CRITICAL: 0, MAJOR: 0, MINOR: 0, WARNING: 0, INFO: 0, total: 0 };
}

/** Open alarms by severity (optionally only those matching the search text). */
export async function severityCounts(
  db: Db,
  organizationId: string,
  text: string | undefined,
): Promise<contract.SeverityCounts> {
  const parts: SQL[] = [eq(alarms.organizationId, organizationId), openCondition];
  if (text?.trim()) parts.push(searchText(text));
  const rows = await db
    .select({ severity: alarms.severity, n: count() })
    .from(alarms)
    .leftJoin(devices, eq(devices.id, alarms.deviceId))
    .where(and(...parts))
    .groupBy(alarms.severity);
  const counts = emptyCounts();
  for (const row of rows) {
    counts[row.severity] = row.n;
    counts.total += row.n;
  }
  return counts;
}

/** One page of the devices that have open alarms, by label then id, after the cursor; and their counts. */
export async function severityCountsByDevice(
  db: Db,
  organizationId: string,
  pageSize: number,
  after: { label: string; id: string } | undefined,
) {
  const hasOpen = sql`exists (select 1 from ${alarms} where ${alarms.deviceId} = ${devices.id} and ${alarms.organizationId} = ${organizationId} and ${openCondition})`;
  const parts: SQL[] = [eq(devices.organizationId, organizationId), hasOpen];
  if (after) parts.push(sql`(${devices.label}, ${devices.id}) > (${after.label}, ${after.id}::uuid)`);
  const page = await db
    .select({ id: devices.id, label: devices.label })
    .from(devices)
    .where(and(...parts))
    .orderBy(asc(devices.label), asc(devices.id))
    .limit(pageSize + 1);
  const shown = page.slice(0, pageSize);
  const ids = shown.map((device) => device.id);
  const rows =
    ids.length === 0
      ? []
      : await db
          .select({ deviceId: alarms.deviceId, severity: alarms.severity, n: count() })
          .from(alarms)
          .where(and(eq(alarms.organizationId, organizationId), inArray(alarms.deviceId, ids), openCondition))
          .groupBy(alarms.deviceId, alarms.severity);
  const countsOf = new Map(ids.map((id) => [id, emptyCounts()]));
  for (const row of rows) {
    const counts = row.deviceId ? countsOf.get(row.deviceId) : undefined;
    if (!counts) continue;
    counts[row.severity] = row.n;
    counts.total += row.n;
  }
  return {
    items: shown.map((device) => ({
      deviceId: device.id,
      deviceLabel: device.label,
      counts: countsOf.get(device.id) ?? emptyCounts(),
    })),
    last: page.length > pageSize ? shown[shown.length - 1] : undefined,
  };
}

/** The alarms the action may change among the given ids (or the filter), with what the engine needs to order writes. */
export async function alarmKeys(db: Db, where: SQL | undefined) {
  return db
    .select({ id: alarms.id, ruleId: alarms.ruleId, deviceId: alarms.deviceId })
    .from(alarms)
    .leftJoin(devices, eq(devices.id, alarms.deviceId))
    .where(where)
    .orderBy(asc(alarms.raisedAt), asc(alarms.id));
}

export function idsIn(organizationId: string, ids: string[]): SQL {
  return and(eq(alarms.organizationId, organizationId), inArray(alarms.id, ids)) as SQL;
}

/** What each action can apply to: still REQUIRED (ack, reset), or not closed (clear). */
export function applicable(action: 'ack' | 'reset' | 'clear'): SQL {
  if (action === 'ack') return and(isNull(alarms.clearedAt), eq(alarms.ack, 'REQUIRED')) as SQL;
  if (action === 'reset') return and(isNull(alarms.clearedAt), eq(alarms.reset, 'REQUIRED')) as SQL;
  return isNull(alarms.clearedAt);
}

// --- rules ---

const ruleColumns = { ...getTableColumns(alarmRules), deviceLabel: devices.label };
export type RuleWithDevice = RuleRow & { deviceLabel: string | null };

export function toRule(row: RuleWithDevice): contract.AlarmRule {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    deviceId: row.deviceId,
    deviceLabel: row.deviceLabel,
    condition: row.condition,
    severity: row.severity,
    ackRequired: row.ackRequired,
    resetRequired: row.resetRequired,
    delaySeconds: row.delaySeconds,
    hysteresis: row.hysteresis,
    message: row.message,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export async function rulesOf(db: Db, organizationId: string): Promise<RuleWithDevice[]> {
  return db
    .select(ruleColumns)
    .from(alarmRules)
    .leftJoin(devices, eq(devices.id, alarmRules.deviceId))
    .where(eq(alarmRules.organizationId, organizationId))
    .orderBy(asc(alarmRules.name), asc(alarmRules.id));
}

export async function ruleById(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select(ruleColumns)
    .from(alarmRules)
    .leftJoin(devices, eq(devices.id, alarmRules.deviceId))
    .where(and(eq(alarmRules.organizationId, organizationId), eq(alarmRules.id, id)));
  return row;
}

export async function ruleNamed(db: Db, organizationId: string, name: string, except?: string) {
  const [row] = await db
    .select({ id: alarmRules.id })
    .from(alarmRules)
    .where(
      and(
        eq(alarmRules.organizationId, organizationId),
        eq(alarmRules.name, name),
        except ? ne(alarmRules.id, except) : undefined,
      ),
    );
  return row;
}

export async function insertRule(db: Db, rule: NewRule): Promise<string> {
  const [row] = await db.insert(alarmRules).values(rule).returning({ id: alarmRules.id });
  if (!row) throw new Error('alarm rule insert returned nothing');
  return row.id;
}

export async function updateRule(db: Db, organizationId: string, id: string, changes: Partial<NewRule>) {
  await db
    .update(alarmRules)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(alarmRules.organizationId, organizationId), eq(alarmRules.id, id)));
}

export async function deleteRule(db: Db, organizationId: string, id: string) {
  await db
    .delete(alarmRules)
    .where(and(eq(alarmRules.organizationId, organizationId), eq(alarmRules.id, id)));
}

/** Enabled rules, of one organization or of all. */
export async function enabledRules(db: Db, organizationId?: string): Promise<RuleRow[]> {
  return db
    .select()
    .from(alarmRules)
    .where(
      and(
        eq(alarmRules.enabled, true),
        organizationId ? eq(alarmRules.organizationId, organizationId) : undefined,
      ),
    );
}

/**
 * Per (rule, device), what the engine must remember across a restart: open alarms whose condition still held when
 * last seen (ACTIVE), and alarms an operator cleared while their condition held (not raised again until it went away).
 */
export async function restartState(db: Db, organizationId?: string) {
  return db
    .select({
      id: alarms.id,
      ruleId: alarms.ruleId,
      deviceId: alarms.deviceId,
      status: alarms.status,
      clearedAt: alarms.clearedAt,
    })
    .from(alarms)
    .where(
      and(
        isNotNull(alarms.ruleId),
        isNotNull(alarms.deviceId),
        organizationId ? eq(alarms.organizationId, organizationId) : undefined,
        or(
          and(isNull(alarms.clearedAt), eq(alarms.status, 'ACTIVE')),
          and(isNotNull(alarms.clearedBy), isNull(alarms.conditionClearedAt)),
        ),
      ),
    )
    .orderBy(asc(alarms.raisedAt));
}

/** Open alarms of a rule (to close them when it is deleted or disabled). */
export async function openAlarmsOfRule(db: Db, organizationId: string, ruleId: string) {
  return db
    .select({ id: alarms.id, deviceId: alarms.deviceId })
    .from(alarms)
    .where(
      and(eq(alarms.organizationId, organizationId), eq(alarms.ruleId, ruleId), isNull(alarms.clearedAt)),
    );
}

/** The device (of the organization) and the paths of its model, when it has a preset. */
export async function deviceWithModel(db: Db, organizationId: string, deviceId: string) {
  const [row] = await db
    .select({ id: devices.id, label: devices.label, paths: modelVersions.paths })
    .from(devices)
    .leftJoin(presets, eq(presets.id, devices.presetId))
    .leftJoin(
      modelVersions,
      and(eq(modelVersions.modelId, presets.modelId), eq(modelVersions.version, presets.modelVersion)),
    )
    .where(and(eq(devices.organizationId, organizationId), eq(devices.id, deviceId)));
  return row as { id: string; label: string; paths: ModelPath[] | null } | undefined;
}

export async function deviceLabel(db: Db, deviceId: string): Promise<string | undefined> {
  const [row] = await db.select({ label: devices.label }).from(devices).where(eq(devices.id, deviceId));
  return row?.label;
}

/** Latest stored times of a path per device of an organization (to restart noData timers after a restart). */
export async function lastSeenOfPath(db: Db, organizationId: string, path: string, deviceId: string | null) {
  return db
    .select({ deviceId: latestValues.deviceId, ts: latestValues.ts })
    .from(latestValues)
    .innerJoin(devices, eq(devices.id, latestValues.deviceId))
    .where(
      and(
        eq(devices.organizationId, organizationId),
        eq(latestValues.path, path),
        deviceId ? eq(latestValues.deviceId, deviceId) : undefined,
      ),
    );
}
