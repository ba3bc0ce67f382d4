import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { RESOURCE_TYPES, type ResourceType, resourceJournal } from '../../../db/schema.ts';
import { recordUsage } from './journal.ts';
import { toSafeNumber } from './service.ts';

// Property: whatever usage is metered, every sum the API answers is the exact integer sum of the entries.

const REALM = 'prop';
const DAY_MS = 86_400_000;
const START = Date.UTC(2024, 0, 1);
const END = Date.UTC(2024, 2, 1); // 60 days, two months
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rpt: string;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
  call = caller(server, REALM);
  rpt = (await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

type Entry = { type: ResourceType; delta: number; at: number };

/** Deltas: small counts and large ones (up to 2^47, 40 entries stay within 2^53 in total). */
const delta = fc.oneof(
  fc.integer({ min: -1000, max: 1000 }),
  fc.integer({ min: -(2 ** 47), max: 2 ** 47 }),
  fc.constantFrom(2 ** 47, -(2 ** 47), 1, -1),
);
const entry = fc.record({
  type: fc.constantFrom(...RESOURCE_TYPES),
  delta: delta.filter((value) => value !== 0),
  at: fc.integer({ min: START - 5 * DAY_MS, max: END + 5 * DAY_MS }),
});
const instant = fc.integer({ min: START, max: END });

const exact = (entries: Entry[], keep: (entry: Entry) => boolean) =>
  entries.filter(keep).reduce((sum, item) => sum + BigInt(item.delta), 0n);

async function get(url: string) {
  const response = await call('GET', url, rpt);
  expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
  return response.json();
}

describe('journal sums (property-based)', () => {
  it('sum, summary and aggregated running totals equal the exact integer sums of the entries', async () => {
    const base = `/svc/license/api/v1/organizations/${tenants.orgA.id}/subscriptions`;
    await fc.assert(
      fc.asyncProperty(fc.array(entry, { maxLength: 40 }), instant, instant, async (entries, one, other) => {
        const { db } = server.database;
        await db.delete(resourceJournal).where(eq(resourceJournal.organizationId, tenants.orgA.id));
        for (const item of entries) {
          await recordUsage(db, {
            organizationId: tenants.orgA.id,
            resourceType: item.type,
            delta: item.delta,
            reason: 'property.test',
            at: new Date(item.at),
          });
        }
        const from = Math.min(one, other);
        const to = Math.max(one, other) === from ? from + 1 : Math.max(one, other);
        const range = `from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;

        const summary = await get(`${base}/summary`);
        for (const type of RESOURCE_TYPES) {
          const ofType = (item: Entry) => item.type === type;
          const all = exact(entries, ofType);
          const sum = await get(`${base}/resource/${type}/journal/sum`);
          expect(BigInt(sum.sum)).toBe(all);
          expect(sum.count).toBe(entries.filter(ofType).length);
          const ranged = await get(`${base}/resource/${type}/journal/sum?${range}`);
          expect(BigInt(ranged.sum)).toBe(
            exact(entries, (item) => ofType(item) && item.at >= from && item.at < to),
          );
          const used = summary.resources.find(
            (resource: { resourceType: string }) => resource.resourceType === type,
          );
          expect(BigInt(used.used)).toBe(all);
          expect(BigInt(used.ownUsed)).toBe(all);
        }

        for (const bucket of ['day', 'month'] as const) {
          const window = `from=${new Date(START).toISOString()}&to=${new Date(END).toISOString()}`;
          const aggregated = await get(`${base}/aggregated?${window}&bucket=${bucket}`);
          for (const series of aggregated.series as {
            resourceType: ResourceType;
            points: { start: string; end: string; sum: number; count: number; total: number }[];
          }[]) {
            const ofType = (item: Entry) => item.type === series.resourceType;
            expect(series.points.length).toBe(bucket === 'day' ? 60 : 2);
            for (const point of series.points) {
              const start = Date.parse(point.start);
              const end = Date.parse(point.end);
              const inBucket = (item: Entry) => ofType(item) && item.at >= start && item.at < end;
              expect(BigInt(point.sum)).toBe(exact(entries, inBucket));
              expect(point.count).toBe(entries.filter(inBucket).length);
              expect(BigInt(point.total)).toBe(exact(entries, (item) => ofType(item) && item.at < end));
            }
          }
        }
      }),
      { numRuns: 25 },
    );
  }, 120_000);

  it('never answers a sum it cannot represent exactly', () => {
    expect(toSafeNumber(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toSafeNumber(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(/exactly/);
    expect(() => toSafeNumber(BigInt(Number.MIN_SAFE_INTEGER) - 1n)).toThrow(/exactly/);
  });
});
