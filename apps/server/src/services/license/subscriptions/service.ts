import type { licenseSubscriptions } from '@edgeport/contract';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/index.ts';
import { pageWindow } from '../../../db/paging.ts';
import { RESOURCE_TYPES, type ResourceType } from '../../../db/schema.ts';
import { badRequest } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import * as store from './store.ts';

const DAY_MS = 86_400_000;
/** The most buckets one aggregation answers (about 2.7 years of days). */
export const MAX_BUCKETS = 1000;

/** An exact integer sum as a JSON number; sums beyond 2^53 cannot be answered exactly, so they are an error. */
export function toSafeNumber(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER))
    throw new Error(`journal sum ${value} is beyond the exactly representable range`);
  return Number(value);
}

function parseRange(query: { from?: string | undefined; to?: string | undefined }): store.Range {
  const from = query.from === undefined ? undefined : new Date(query.from);
  const to = query.to === undefined ? undefined : new Date(query.to);
  if (from && Number.isNaN(from.getTime())) throw badRequest('querystring/from must be a date-time');
  if (to && Number.isNaN(to.getTime())) throw badRequest('querystring/to must be a date-time');
  if (from && to && to.getTime() <= from.getTime())
    throw badRequest('querystring/to must be after querystring/from (to is exclusive)');
  return { from, to };
}

function toEntry(row: store.JournalRow): licenseSubscriptions.JournalEntry {
  return {
    id: row.id,
    resourceType: row.resourceType,
    delta: row.delta,
    reason: row.reason,
    subjectId: row.subjectId,
    at: row.at.toISOString(),
  };
}

async function readableOrg(db: Db, principal: Principal, ref: string) {
  return authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
}

export async function journal(
  db: Db,
  principal: Principal,
  ref: string,
  type: ResourceType,
  query: licenseSubscriptions.JournalQuery,
): Promise<licenseSubscriptions.JournalPage> {
  const org = await readableOrg(db, principal, ref);
  const range = parseRange(query);
  const window = pageWindow(query);
  const page = await store.pageOfEntries(db, org.id, type, range, window);
  return { items: page.items.map(toEntry), total: page.total, page: window.page, pageSize: window.pageSize };
}

export async function journalSum(
  db: Db,
  principal: Principal,
  ref: string,
  type: ResourceType,
  query: licenseSubscriptions.JournalSumQuery,
): Promise<licenseSubscriptions.JournalSum> {
  const org = await readableOrg(db, principal, ref);
  const range = parseRange(query);
  const { sum, count } = await store.sumOf(db, [org.id], type, range);
  return {
    resourceType: type,
    sum: toSafeNumber(sum),
    count,
    from: range.from?.toISOString() ?? null,
    to: range.to?.toISOString() ?? null,
  };
}

// ---- summaries ----

/** The organization whose allowances `org` draws on: itself, or the nearest ancestor with its own resources. */
async function poolRootOf(db: Db, org: store.OrgRow): Promise<store.OrgRow> {
  let current = org;
  for (let depth = 0; depth < 64 && !current.hasOwnResources && current.parentId; depth += 1) {
    const parent = await store.findOrg(db, current.parentId);
    if (!parent) break;
    current = parent;
  }
  return current;
}

/**
 * The summary of one organization: allowances of its pool owner's ACTIVE licences, the pool's usage (the owner and
 * every organization drawing on it) and the organization's own usage.
 */
export async function summaryOf(db: Db, now: Date, org: store.OrgRow): Promise<licenseSubscriptions.Summary> {
  const root = await poolRootOf(db, org);
  const pool = [root.id, ...(await store.pooledBelow(db, root.id))];
  const [granted, used, own] = await Promise.all([
    store.allowances(db, root.id, now),
    store.sumsByType(db, pool),
    store.sumsByType(db, [org.id]),
  ]);
  return {
    organizationId: org.id,
    name: org.name,
    hasOwnResources: org.hasOwnResources,
    pooledWith: root.id === org.id ? null : root.id,
    resources: RESOURCE_TYPES.map((resourceType) => {
      const allowance = granted.get(resourceType);
      const usedSum = used.get(resourceType) ?? 0n;
      return {
        resourceType,
        allowance: allowance === undefined ? null : toSafeNumber(allowance),
        used: toSafeNumber(usedSum),
        ownUsed: toSafeNumber(own.get(resourceType) ?? 0n),
        available: allowance === undefined ? null : toSafeNumber(allowance - usedSum),
      };
    }),
  };
}

async function orgRow(db: Db, id: string): Promise<store.OrgRow> {
  const row = await store.findOrg(db, id);
  if (!row) throw new Error(`organization ${id} vanished`);
  return row;
}

export async function summary(
  db: Db,
  clock: Clock,
  principal: Principal,
  ref: string,
): Promise<licenseSubscriptions.Summary> {
  const org = await readableOrg(db, principal, ref);
  return summaryOf(db, clock.now(), await orgRow(db, org.id));
}

export async function summaryByOrg(
  db: Db,
  clock: Clock,
  principal: Principal,
  ref: string,
): Promise<licenseSubscriptions.SummaryByOrg> {
  const org = await readableOrg(db, principal, ref);
  const now = clock.now();
  const items: licenseSubscriptions.Summary[] = [];
  for (const child of await store.childrenOf(db, org.id)) items.push(await summaryOf(db, now, child));
  return { organizationId: org.id, items };
}

// ---- aggregations ----

type Bucketing = { bucket: licenseSubscriptions.Bucket; from: Date; to: Date; starts: Date[] };

function bucketStart(at: Date, bucket: licenseSubscriptions.Bucket): Date {
  return bucket === 'day'
    ? new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()))
    : new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

function nextBucket(start: Date, bucket: licenseSubscriptions.Bucket): Date {
  return bucket === 'day'
    ? new Date(start.getTime() + DAY_MS)
    : new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
}

function bucketKey(start: Date, bucket: licenseSubscriptions.Bucket): string {
  return start.toISOString().slice(0, bucket === 'day' ? 10 : 7);
}

/** The UTC buckets of a query: default the last 30 days (day) or 12 months (month) up to the end of today. */
export function bucketing(query: licenseSubscriptions.AggregatedQuery, now: Date): Bucketing {
  const bucket = query.bucket ?? 'day';
  const range = parseRange(query);
  const to = range.to ?? nextBucket(bucketStart(now, 'day'), 'day');
  const from =
    range.from ??
    (bucket === 'day'
      ? new Date(to.getTime() - 30 * DAY_MS)
      : new Date(Date.UTC(to.getUTCFullYear(), to.getUTCMonth() - 11, 1)));
  if (to.getTime() <= from.getTime())
    throw badRequest('querystring/to must be after querystring/from (to is exclusive)');
  const starts: Date[] = [];
  for (
    let start = bucketStart(from, bucket);
    start.getTime() < to.getTime();
    start = nextBucket(start, bucket)
  ) {
    if (starts.length >= MAX_BUCKETS)
      throw badRequest(`querystring/from: the range spans more than ${MAX_BUCKETS} ${bucket} buckets`);
    starts.push(start);
  }
  return { bucket, from, to, starts };
}

/** Bucket sums per type of one organization's own journal, with the running total (all time) at each bucket end. */
export async function seriesOf(
  db: Db,
  organizationId: string,
  type: ResourceType | undefined,
  buckets: Bucketing,
): Promise<licenseSubscriptions.AggregatedSeries[]> {
  const { bucket, from, to } = buckets;
  const [before, sums] = await Promise.all([
    store.sumsByType(db, [organizationId], { to: from }),
    store.bucketSums(db, organizationId, type, bucket, { from, to }),
  ]);
  const byKey = new Map(sums.map((row) => [`${row.type}|${row.key}`, row]));
  const types = type ? [type] : [...RESOURCE_TYPES];
  return types.map((resourceType) => {
    let total = before.get(resourceType) ?? 0n;
    const points = buckets.starts.map((start) => {
      const end = nextBucket(start, bucket);
      const row = byKey.get(`${resourceType}|${bucketKey(start, bucket)}`);
      const sum = row?.sum ?? 0n;
      total += sum;
      return {
        start: new Date(Math.max(start.getTime(), from.getTime())).toISOString(),
        end: new Date(Math.min(end.getTime(), to.getTime())).toISOString(),
        sum: toSafeNumber(sum),
        count: row?.count ?? 0,
        total: toSafeNumber(total),
      };
    });
    return { resourceType, points };
  });
}

export async function aggregated(
  db: Db,
  clock: Clock,
  principal: Principal,
  ref: string,
  query: licenseSubscriptions.AggregatedQuery,
): Promise<licenseSubscriptions.Aggregated> {
  const org = await readableOrg(db, principal, ref);
  const buckets = bucketing(query, clock.now());
  return {
    organizationId: org.id,
    bucket: buckets.bucket,
    from: buckets.from.toISOString(),
    to: buckets.to.toISOString(),
    series: await seriesOf(db, org.id, query.type, buckets),
  };
}

export async function aggregatedByOrg(
  db: Db,
  clock: Clock,
  principal: Principal,
  ref: string,
  query: licenseSubscriptions.AggregatedQuery,
): Promise<licenseSubscriptions.AggregatedByOrg> {
  const org = await readableOrg(db, principal, ref);
  const buckets = bucketing(query, clock.now());
  const organizations: licenseSubscriptions.AggregatedOfOrg[] = [];
  for (const row of [{ id: org.id, name: org.name }, ...(await store.childrenOf(db, org.id))]) {
    organizations.push({
      organizationId: row.id,
      name: row.name,
      series: await seriesOf(db, row.id, query.type, buckets),
    });
  }
  return {
    organizationId: org.id,
    bucket: buckets.bucket,
    from: buckets.from.toISOString(),
    to: buckets.to.toISOString(),
    organizations,
  };
}
