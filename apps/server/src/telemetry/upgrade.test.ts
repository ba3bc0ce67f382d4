import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/index.ts';
import { migrationsFolder } from '../db/index.ts';
import { insertTelemetry } from '../ingest/store.ts';
import { compactTelemetry } from './compaction.ts';
import { partitionsOf } from './partitions.ts';

/** The migrations up to `last` (its tag, e.g. '0016_periodic_runs'): the database of an installation before. */
function migrationsUpTo(last: string): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'edgeport-migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] };
  const keep = journal.entries.findIndex((entry) => entry.tag === last);
  writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, keep + 1) }));
  return folder;
}

const before = migrationsUpTo('0016_periodic_runs');
afterAll(() => rmSync(before, { recursive: true, force: true }));

const DEVICE = '5b0e3f0e-2d7c-4f57-9d35-5f1c1f4f0a01';

describe('upgrading an installation with stored values', () => {
  it('keeps the old rows readable in an attached partition, gives them rollups and compacts them', async () => {
    const client = await PGlite.create({ extensions: { pg_trgm } });
    const db = drizzle(client) as unknown as Db;
    try {
      await migrate(drizzle(client), { migrationsFolder: before });
      await db.execute(sql`
        insert into telemetry (device_id, ts, values)
        select ${DEVICE}::uuid, timestamptz '2025-06-01 10:00:00+00' + g * interval '1 minute',
          jsonb_build_object('/speed', g, '/state', 'ok')
        from generate_series(0, 119) g`);

      await migrate(drizzle(client), { migrationsFolder });

      expect(await partitionsOf(db)).toEqual([
        { name: 'telemetry_legacy', fromMs: null, toMs: Date.parse('2025-06-02T00:00:00Z') },
      ]);
      const hours = await db.execute(sql`
        select to_char(bucket at time zone 'UTC', 'HH24:MI') as hour, count, min, max from telemetry_rollups where width_s = 3600 order by bucket`);
      expect((hours as unknown as { rows: unknown[] }).rows).toEqual([
        { hour: '10:00', count: 60, min: 0, max: 59 },
        { hour: '11:00', count: 60, min: 60, max: 119 },
      ]);
      const run = await compactTelemetry(db, Date.parse('2025-06-03T00:00:00Z'));
      expect(run.partitions).toEqual(['telemetry_legacy']);
      const values = await db.execute(sql`
        select count(*)::int as n, sum((value)::int)::int as total
        from telemetry_series(${DEVICE}::uuid, '/speed', '-infinity', 'infinity')`);
      expect((values as unknown as { rows: unknown[] }).rows).toEqual([{ n: 120, total: (119 * 120) / 2 }]);
      // New values go to day partitions, made on demand.
      await insertTelemetry(db, [
        { deviceId: DEVICE, ts: Date.parse('2026-01-05T08:00:00Z'), values: { '/speed': 1 } },
      ]);
      expect((await partitionsOf(db)).map((partition) => partition.name)).toEqual(['telemetry_p20260105']);
    } finally {
      await client.close();
    }
  });
});
