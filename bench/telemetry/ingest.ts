/**
 * Storage-path throughput, the layout before partitioning against today's, in the same database and run: rounds of
 * `batches` batches of 200 messages (one from each of 200 devices, 3 values each), written one batch after the other
 * (a) into a flat table (device_id, ts, values) with its one (device_id, ts) index by the statement the server used
 * before partitioning, and (b) by `insertTelemetry` (day partition) with the rollups accumulated as the pipeline does
 * and flushed as its periodic flush does, once a second of data time (a batch is each device's message of one
 * second): `RollupAccumulator.flush` at the batch's time adds the minutes that are over; the rest at the end of the
 * round, so the rollup job's work counts. The rounds alternate a, b, b, a, … after one warm-up round of each;
 * both get the same messages (times of today, one second apart per device). JSON encoding is inside the timing, as in
 * the server. After each batch the loop lets other tasks run (as the pipeline does between network events): PGlite
 * answers within microtasks, so a loop of awaits alone would starve a retention run waiting for its next turn.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/index.ts';
import { insertTelemetry, type TelemetryRow } from '../../apps/server/src/ingest/store.ts';
import { ensurePartitionsBetween } from '../../apps/server/src/telemetry/partitions.ts';
import { RollupAccumulator } from '../../apps/server/src/telemetry/rollup-accumulator.ts';
import { createFlatTable } from './generate.ts';

export const INGEST_DEVICES = 200;
const FLAT_TABLE = 'bench_flat_ingest';

export type IngestResult = {
  messagesPerRound: number;
  /** Messages per second of each measured round. */
  flat: number[];
  partitioned: number[];
  /** Of the partitioned rounds: the share of their time spent in the last flush of the rollups. */
  foldShare: number[];
};

function batchesOf(deviceIds: readonly string[], round: number, batches: number, startMs: number) {
  const list: TelemetryRow[][] = [];
  for (let b = 0; b < batches; b++) {
    const n = round * batches + b;
    const ts = startMs + n * 1000;
    list.push(
      deviceIds.map((deviceId, k) => ({
        deviceId,
        ts,
        values: {
          '/motor/speed': Math.round((50 + 40 * Math.sin((n + k * 7919) / 5000) + (n % 7)) * 100) / 100,
          '/motor/count': Math.floor(n / 10) % 100_000,
          '/motor/running': Math.floor((n + k) / 600) % 2 === 0,
        },
      })),
    );
  }
  return list;
}

/**
 * One round as the ingest pipeline stores it: a batch after the other into today's partition, its rollups
 * accumulated, flushed every second of data time what is due, the rest at the end.
 */
async function ingestRound(
  db: Db,
  list: readonly TelemetryRow[][],
  startMs: number,
): Promise<{ seconds: number; foldShare: number }> {
  const started = performance.now();
  const rollups = new RollupAccumulator();
  for (const rows of list) {
    await insertTelemetry(db, rows);
    const receivedMs = rows[0]?.ts ?? startMs;
    for (const row of rows) rollups.add(row.deviceId, row.ts, row.values, receivedMs);
    await rollups.flush(db, 'bench', receivedMs + 1000);
    await nextTurn();
  }
  const folding = performance.now();
  await rollups.flush(db, 'bench');
  const ended = performance.now();
  return { seconds: (ended - started) / 1000, foldShare: (ended - folding) / (ended - started) };
}

const ALONE_ROUNDS = 30;

export type DuringResult = {
  /** Messages per second of the rounds run while `work` ran, and of as many rounds right after it (at most 30). */
  during: number[];
  alone: number[];
  workS: number;
};

/**
 * Ingest rounds (the pipeline's storage path) while `work` runs (a retention run), then as many rounds without it,
 * alternating nothing: the rounds during are whatever fits in the work's time (at least one).
 */
export async function measureIngestDuring(
  db: Db,
  work: () => Promise<unknown>,
  options: { batches: number; startMs: number; log: (message: string) => void },
): Promise<DuringResult> {
  const { batches, startMs, log } = options;
  const deviceIds = Array.from({ length: INGEST_DEVICES }, () => crypto.randomUUID());
  await ensurePartitionsBetween(db, startMs, startMs + 1000 * batches);
  const rate = (round: { seconds: number }) => (batches * INGEST_DEVICES) / round.seconds;
  const result: DuringResult = { during: [], alone: [], workS: 0 };
  let round = 0;
  const next = () => ingestRound(db, batchesOf(deviceIds, round++, batches, startMs), startMs);
  await next(); // warm-up
  const started = performance.now();
  let done = false;
  const running = work().finally(() => {
    done = true;
    result.workS = (performance.now() - started) / 1000;
  });
  while (!done || result.during.length === 0) result.during.push(rate(await next()));
  await running;
  // As many rounds after it, at most ALONE_ROUNDS: a paced retention run of a year takes minutes.
  for (let i = 0; i < Math.min(result.during.length, ALONE_ROUNDS); i++)
    result.alone.push(rate(await next()));
  log(
    `ingest during the work (${Math.round(result.workS)} s): ${result.during.map(Math.round).join(', ')} messages/s; ` +
      `alone after: ${result.alone.map(Math.round).join(', ')}`,
  );
  return result;
}

/** The flat table's insert, as the server wrote every batch before partitioning. */
async function insertFlat(db: Db, rows: readonly TelemetryRow[]): Promise<void> {
  const json = JSON.stringify(rows.map((row) => ({ d: row.deviceId, t: row.ts, v: row.values })));
  await db.execute(sql`insert into ${sql.identifier(FLAT_TABLE)} (device_id, ts, values)
    select x.d, to_timestamp(x.t / 1000.0), x.v from jsonb_to_recordset(${json}::jsonb) as x(d uuid, t float8, v jsonb)`);
}

export async function measureIngest(
  db: Db,
  options: { rounds: number; batches: number; startMs: number; log: (message: string) => void },
): Promise<IngestResult> {
  const { rounds, batches, startMs, log } = options;
  const deviceIds = Array.from({ length: INGEST_DEVICES }, () => crypto.randomUUID());
  // The partitions exist before the first value of a day arrives (the hourly maintenance makes them ahead).
  await ensurePartitionsBetween(db, startMs, startMs + (rounds + 1) * batches * 1000);
  await createFlatTable(db, FLAT_TABLE);
  const result: IngestResult = {
    messagesPerRound: batches * INGEST_DEVICES,
    flat: [],
    partitioned: [],
    foldShare: [],
  };
  try {
    // Round 0 is the warm-up of both.
    for (let round = 0; round <= rounds; round++) {
      const list = batchesOf(deviceIds, round, batches, startMs);
      const flat = async () => {
        const started = performance.now();
        for (const rows of list) {
          await insertFlat(db, rows);
          await nextTurn();
        }
        return (performance.now() - started) / 1000;
      };
      const partitioned = () => ingestRound(db, list, startMs);
      let flatS: number;
      let part: { seconds: number; foldShare: number };
      if (round % 2 === 1) {
        flatS = await flat();
        part = await partitioned();
      } else {
        part = await partitioned();
        flatS = await flat();
      }
      const flatRate = result.messagesPerRound / flatS;
      const partRate = result.messagesPerRound / part.seconds;
      log(
        `ingest round ${round}${round === 0 ? ' (warm-up)' : ''}: flat ${Math.round(flatRate)} messages/s, ` +
          `partitions + rollups ${Math.round(partRate)} messages/s (rollup job ${Math.round(part.foldShare * 100)} %)`,
      );
      if (round === 0) continue;
      result.flat.push(flatRate);
      result.partitioned.push(partRate);
      result.foldShare.push(part.foldShare);
    }
  } finally {
    await db.execute(sql`drop table if exists ${sql.identifier(FLAT_TABLE)}`);
  }
  return result;
}
