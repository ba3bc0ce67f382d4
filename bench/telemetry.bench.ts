/**
 * Telemetry at scale (issue 34), on PGlite or on PostgreSQL (`--database-url`), on data it generates itself:
 *  1. one device with three paths (number, integer, boolean) at 1 Hz for `--days` days (default a year, 31.5 M
 *     messages), written by SQL a day at a time into the day partitions, with its rollups and (when
 *     apps/server/src/telemetry/compaction.ts exists) compacted; then through the real HTTP route `data/query` the
 *     whole range in 2,000 points (target p95 < 300 ms) and one day in the middle at maxPoints 20,000, answered from
 *     the stored values (resolution 'raw', target p95 < 100 ms);
 *  2. `--fleet-devices` devices (1,000) with the same paths for one day, one message every `--fleet-interval` s
 *     (10 s: 8.64 M messages; 1 s would be 86.4 M), and `data/summary` of the day: every device's daily average
 *     (target p95 < 1 s);
 *  3. ingest: the storage path with partitions and rollups against the flat table of before, alternating rounds in
 *     one run (target ≥ 90 %);
 *  4. bytes per stored value: one day of the device in the flat table with its index against every `telemetry%`
 *     table after VACUUM (target ≤ 24 bytes, indexes included).
 * The databases are fresh (a temporary directory on PGlite, new databases on the PostgreSQL server) and removed at
 * the end. Writes the section `telemetry` (or `telemetry-postgres`) of bench/RESULTS.md.
 *
 * Usage: node bench/telemetry.bench.ts [--days 365] [--fleet-devices 1000] [--fleet-interval 10] [--requests 20]
 *   [--ingest-rounds 15] [--ingest-batches 300] [--rollups fold|rebuild] [--compact | --no-compact]
 *   [--database-url postgres://…/postgres] [--no-write]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { platform } from '@edgeport/contract';
import { organizationLimits, realms } from '../apps/server/src/db/schema.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../apps/server/src/services/core/organizations/provisioning.ts';
import { seedTelemetryFixture } from '../apps/server/src/services/platform/data/fixtures.ts';
import { DAY_MS, dayOf } from '../apps/server/src/telemetry/partitions.ts';
import { applyRetention, type RetentionRun } from '../apps/server/src/telemetry/retention.ts';
import { PASSWORD } from '../apps/server/test/support/fixtures.ts';
import { writeSection } from './support/results-file.ts';
import { percentile, round } from './support/stats.ts';
import { type BytesResult, measureBytes } from './telemetry/bytes.ts';
import {
  engineOf,
  freshBenchDatabase,
  type RelationSize,
  sizesOf,
  vacuumAnalyze,
} from './telemetry/database.ts';
import {
  COMPACTION_MODULE,
  type Compact,
  generate,
  loadCompaction,
  messagesPerDay,
  NUMBER_PATH,
  PATHS,
  type RollupMode,
  type Timings,
} from './telemetry/generate.ts';
import {
  type DuringResult,
  INGEST_DEVICES,
  type IngestResult,
  measureIngest,
  measureIngestDuring,
} from './telemetry/ingest.ts';
import { type Answer, startBenchServer } from './telemetry/server.ts';

const { values: args } = parseArgs({
  allowNegative: true,
  options: {
    days: { type: 'string', default: '365' },
    'fleet-devices': { type: 'string', default: '1000' },
    'fleet-interval': { type: 'string', default: '10' },
    requests: { type: 'string', default: '20' },
    'ingest-rounds': { type: 'string', default: '15' },
    'ingest-batches': { type: 'string', default: '300' },
    rollups: { type: 'string', default: 'fold' },
    compact: { type: 'boolean' },
    'database-url': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const DAYS = Number(args.days);
const FLEET_DEVICES = Number(args['fleet-devices']);
const FLEET_INTERVAL_S = Number(args['fleet-interval']);
const REQUESTS = Number(args.requests);
const INGEST_ROUNDS = Number(args['ingest-rounds']);
const INGEST_BATCHES = Number(args['ingest-batches']);
const ROLLUPS = args.rollups as RollupMode;
const SERVER_URL = args['database-url'];
const ENGINE = SERVER_URL ? 'PostgreSQL' : 'PGlite';
const REALM = 'bench';
const ADMIN = 'admin@bench.test';

if (!Number.isInteger(DAYS) || DAYS < 1 || DAYS * DAY_MS > platform.DATA_MAX_SPAN_MS)
  throw new Error(`--days must be a whole number from 1 to 366, got ${args.days}`);
if (
  !Number.isInteger(FLEET_DEVICES) ||
  FLEET_DEVICES < 1 ||
  FLEET_DEVICES > platform.DATA_SUMMARY_MAX_DEVICES
)
  throw new Error(`--fleet-devices must be 1 to ${platform.DATA_SUMMARY_MAX_DEVICES}`);
messagesPerDay(FLEET_INTERVAL_S * 1000);
if (ROLLUPS !== 'fold' && ROLLUPS !== 'rebuild') throw new Error('--rollups must be fold or rebuild');
if (!(REQUESTS >= 1 && INGEST_ROUNDS >= 1))
  throw new Error('--requests and --ingest-rounds must be at least 1');
// A round is whole minutes of data time (a message a second per device): the job then computes each minute once, as
// the 15-second job does with values that arrive in time (a minute split over two rounds would be computed twice).
if (!Number.isInteger(INGEST_BATCHES / 60) || INGEST_BATCHES < 60)
  throw new Error('--ingest-batches must be a multiple of 60 (whole minutes of data time)');

const TARGETS = { yearMs: 300, dayMs: 100, summaryMs: 1000, ingestShare: 0.9, bytesPerValue: 24 };
/** The retention the year's organization is given at the end, and the server's (its defaults). */
const RETENTION_DAYS = 100;
const SERVER_RETENTION = { defaultDays: 365, maxDays: 3650, rollupDays: 1825 };

function log(message: string) {
  process.stderr.write(`[telemetry.bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

type Timed = {
  name: string;
  server: number[];
  client: number[];
  /** The first answer, parsed. */
  first: unknown;
  bytes: number;
};

async function compactionToUse(): Promise<Compact | undefined> {
  const compact = await loadCompaction();
  if (args.compact === true && !compact)
    throw new Error(`--compact: ${COMPACTION_MODULE} does not exist yet`);
  if (args.compact === false) return undefined;
  log(compact ? 'compaction: compactTelemetry found, used' : 'compaction: not there yet, skipped');
  return compact;
}

async function main() {
  const loadBefore = os.loadavg()[0] ?? 0;
  const started = Date.now();
  const compact = await compactionToUse();

  log(`bytes per value: one day of one device, flat table against telemetry% (${ENGINE})`);
  const bytes = await measureBytes(SERVER_URL, ROLLUPS, compact, log);

  const bench = await freshBenchDatabase('telemetry', SERVER_URL);
  let server: Awaited<ReturnType<typeof startBenchServer>> | undefined;
  try {
    const { db } = bench;
    const engine = await engineOf(bench.database);
    log(`engine: ${engine}`);
    await db.insert(realms).values({ name: REALM, displayName: 'Bench' });
    const admin = await createUser(db, { realm: REALM, email: ADMIN, password: PASSWORD });
    const organization = async (name: string, resourceId: string, labels: string[]) => {
      const org = await createOrganization(db, { realm: REALM, name, resourceId });
      const roles = await addDefaultRoles(db, org.id);
      await addMember(db, org.id, admin.id, [roles.administrator.id]);
      const seeded = await seedTelemetryFixture(db, org.id, {
        model: 'Motor',
        paths: PATHS,
        preset: 'Motor preset',
        devices: labels,
        points: 0,
        intervalMs: 1000,
      });
      return { org, ids: labels.map((label) => seeded.devices[label]?.id ?? '') };
    };
    const plant = await organization('Year plant', 'year-plant', ['motor-01']);
    const fleetLabels = Array.from(
      { length: FLEET_DEVICES },
      (_, i) => `motor-${String(i + 1).padStart(5, '0')}`,
    );
    const fleet = await organization('Fleet', 'fleet', fleetLabels);
    const deviceId = plant.ids[0] as string;

    // The year ends at today's UTC midnight; the fleet's day is its last day (yesterday), in another organization.
    const yearEnd = dayOf(Date.now());
    const yearStart = yearEnd - DAYS * DAY_MS;
    const fleetDay = yearEnd - DAY_MS;
    const middleDay = yearStart + Math.floor(DAYS / 2) * DAY_MS;

    const year = await generate(db, {
      deviceIds: [deviceId],
      firstDayMs: yearStart,
      days: DAYS,
      intervalMs: 1000,
      chunkDevices: 1,
      mode: ROLLUPS,
      compact,
      what: 'year',
      log,
    });
    const fleetTimings = await generate(db, {
      deviceIds: fleet.ids,
      firstDayMs: fleetDay,
      days: 1,
      intervalMs: FLEET_INTERVAL_S * 1000,
      // About 250,000 messages a statement.
      chunkDevices: Math.max(1, Math.floor(250_000 / messagesPerDay(FLEET_INTERVAL_S * 1000))),
      mode: ROLLUPS,
      compact,
      what: 'fleet',
      log,
    });

    log('VACUUM (ANALYZE) of telemetry%');
    const at = performance.now();
    await vacuumAnalyze(db, 'telemetry');
    const vacuumS = (performance.now() - at) / 1000;
    const stored = await sizesOf(db, 'telemetry');
    log(`vacuum took ${round(vacuumS)} s; telemetry% holds ${round(sum(stored) / 2 ** 20)} MiB`);

    log(
      `ingest: ${INGEST_ROUNDS} rounds of ${INGEST_BATCHES} batches × ${INGEST_DEVICES} messages, each layout`,
    );
    const ingest = await measureIngest(db, {
      rounds: INGEST_ROUNDS,
      batches: INGEST_BATCHES,
      startMs: yearEnd,
      log,
    });

    log('starting the server on the generated database');
    server = await startBenchServer(bench, REALM);
    const s = server;
    const measure = async (
      name: string,
      orgId: string,
      resourceId: string,
      route: 'query' | 'summary',
      body: unknown,
    ): Promise<Timed> => {
      const token = await s.token(ADMIN, resourceId);
      const url = `/svc/platform/api/v1/organizations/${orgId}/data/${route}`;
      const first = await s.call('POST', url, token, body, true);
      if (first.status !== 200) throw new Error(`${name}: ${first.status} ${first.body.slice(0, 500)}`);
      const answers: Answer[] = [];
      for (let i = 0; i < REQUESTS; i++) {
        const answer = await s.call('POST', url, token, body);
        if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${answer.body.slice(0, 500)}`);
        answers.push(answer);
      }
      const timed = {
        name,
        server: answers.map((answer) => answer.serverMs),
        client: answers.map((answer) => answer.clientMs),
        first: JSON.parse(first.body) as unknown,
        bytes: first.bytes,
      };
      log(
        `${name}: server median ${round(percentile(timed.server, 50))} ms, p95 ${round(percentile(timed.server, 95))} ms`,
      );
      return timed;
    };
    const yearChart = await measure('year chart', plant.org.id, plant.org.resourceId, 'query', {
      deviceIds: [deviceId],
      paths: [NUMBER_PATH],
      from: new Date(yearStart).toISOString(),
      to: new Date(yearEnd).toISOString(),
      maxPoints: 2000,
    });
    const dayChart = await measure('day chart', plant.org.id, plant.org.resourceId, 'query', {
      deviceIds: [deviceId],
      paths: [NUMBER_PATH],
      from: new Date(middleDay).toISOString(),
      to: new Date(middleDay + DAY_MS - 1).toISOString(),
      maxPoints: 20_000,
    });
    const summary = await measure('daily averages', fleet.org.id, fleet.org.resourceId, 'summary', {
      path: NUMBER_PATH,
      from: new Date(fleetDay).toISOString(),
      to: new Date(fleetDay + DAY_MS).toISOString(),
    });
    await server.stop();
    server = undefined;

    // Retention while ingest runs: the year's organization keeps 100 days, so a run removes 265 days of its blocks
    // and minute rollups in batches, next to ingest rounds of the pipeline's storage path.
    await db
      .insert(organizationLimits)
      .values({ organizationId: plant.org.id, limits: { telemetryRetentionDays: RETENTION_DAYS } });
    log(`retention: the year's organization keeps ${RETENTION_DAYS} days; ingest rounds while it runs`);
    let retentionRun: RetentionRun | undefined;
    const duringRetention = await measureIngestDuring(
      db,
      async () => {
        retentionRun = await applyRetention(db, Date.now(), SERVER_RETENTION);
      },
      { batches: INGEST_BATCHES, startMs: yearEnd + DAY_MS / 2, log },
    );

    const loadAfter = os.loadavg()[0] ?? 0;
    const body = render({
      engine,
      loadBefore,
      loadAfter,
      minutes: (Date.now() - started) / 60_000,
      bytes,
      year,
      fleet: fleetTimings,
      compactionLoaded: compact !== undefined,
      vacuumS,
      stored,
      ingest,
      duringRetention,
      retentionRun,
      middleDay,
      yearChart,
      dayChart,
      summary,
    });
    if (!args['no-write']) writeSection(SERVER_URL ? 'telemetry-postgres' : 'telemetry', body);
    process.stdout.write(`${body}\n`);
  } finally {
    await server?.stop().catch(() => undefined);
    await bench.remove();
  }
}

function sum(relations: readonly RelationSize[]): number {
  return relations.reduce((total, relation) => total + relation.bytes, 0);
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => `${round(value)} ms`;
const mib = (value: number) => `${round(value / 2 ** 20)} MiB`;
const met = (ok: boolean) => (ok ? '**yes**' : '**no**');

type Series = { resolution?: string; total?: number; decimated?: boolean; points?: { t?: unknown[] } };

function seriesOf(timed: Timed): Series {
  return ((timed.first as { series?: Series[] }).series ?? [])[0] ?? {};
}

function render(r: {
  engine: string;
  loadBefore: number;
  loadAfter: number;
  minutes: number;
  bytes: BytesResult;
  year: Timings;
  fleet: Timings;
  compactionLoaded: boolean;
  vacuumS: number;
  stored: RelationSize[];
  ingest: IngestResult;
  duringRetention: DuringResult;
  retentionRun: RetentionRun | undefined;
  middleDay: number;
  yearChart: Timed;
  dayChart: Timed;
  summary: Timed;
}): string {
  const p50 = (values: number[]) => percentile(values, 50);
  const p95 = (values: number[]) => percentile(values, 95);
  const yearSeries = seriesOf(r.yearChart);
  const daySeries = seriesOf(r.dayChart);
  const summaryRows = ((r.summary.first as { rows?: unknown[] }).rows ?? []).length;
  const flat = p50(r.ingest.flat);
  const partitioned = p50(r.ingest.partitioned);
  const share = partitioned / flat;
  const duringShare = p50(r.duringRetention.during) / p50(r.duringRetention.alone);
  const insertOnly = p50(
    r.ingest.partitioned.map((rate, index) => rate / (1 - (r.ingest.foldShare[index] ?? 0))),
  );
  const before = r.bytes.flatBytes / r.bytes.values;
  const after = r.bytes.afterBytes / r.bytes.values;
  const yearMessages = DAYS * 86_400;
  const fleetMessages = FLEET_DEVICES * messagesPerDay(FLEET_INTERVAL_S * 1000);
  const spread = (values: number[]) => `${count(Math.min(...values))}–${count(Math.max(...values))}`;
  const rollups =
    ROLLUPS === 'fold'
      ? 'added up a day at a time by the server’s `RollupAccumulator` from the compacted day’s blocks (`rebuildRollups` of the day for a day still in rows)'
      : 'by `rebuildRollups` per device after its values';
  const compactionText = r.compactionLoaded
    ? `each day compacted into blocks by \`compactTelemetry\` once written (as the hourly maintenance does when a day is over by 6 hours): the year ${round(r.year.compactS)} s (${count(yearMessages / r.year.compactS)} messages/s), the fleet’s day ${r.fleet.compactS >= 1 ? `${round(r.fleet.compactS)} s (${count(fleetMessages / r.fleet.compactS)} messages/s)` : 'not yet (it ended less than 6 hours before the run), so its values stayed rows'}`
    : 'not compacted';
  const yearGenS = r.year.insertS + r.year.rollupS + r.year.compactS;
  const fleetGenS = r.fleet.insertS + r.fleet.rollupS + r.fleet.compactS;
  const partitions = r.stored.filter((relation) => relation.partition);
  const others = r.stored.filter((relation) => !relation.partition && relation.bytes > 0);
  const storedValues = (yearMessages + fleetMessages + r.ingest.messagesPerRound * (INGEST_ROUNDS + 1)) * 3;
  const rows = [
    [
      `One-year chart: \`data/query\`, ${DAYS} days of 1 device, 1 number path, maxPoints 2000 — server median / p95`,
      `${ms(p50(r.yearChart.server))} / ${ms(p95(r.yearChart.server))} (resolution ${yearSeries.resolution ?? '?'})`,
      `p95 < ${TARGETS.yearMs} ms`,
      met(p95(r.yearChart.server) < TARGETS.yearMs),
    ],
    [
      'One-day chart from the stored values: a day in the middle, maxPoints 20,000 — server median / p95',
      `${ms(p50(r.dayChart.server))} / ${ms(p95(r.dayChart.server))} (resolution ${daySeries.resolution ?? '?'})`,
      `p95 < ${TARGETS.dayMs} ms, resolution raw`,
      met(p95(r.dayChart.server) < TARGETS.dayMs && daySeries.resolution === 'raw'),
    ],
    [
      `Every device’s daily average: \`data/summary\`, ${count(FLEET_DEVICES)} devices, one day — server median / p95`,
      `${ms(p50(r.summary.server))} / ${ms(p95(r.summary.server))} (${count(summaryRows)} rows)`,
      `p95 < ${TARGETS.summaryMs} ms`,
      met(p95(r.summary.server) < TARGETS.summaryMs && summaryRows === FLEET_DEVICES),
    ],
    [
      'Ingest: partitions + accumulated rollups against the flat table — median messages/s',
      `${count(partitioned)} against ${count(flat)}: **${round(share * 100)} %**`,
      `≥ ${TARGETS.ingestShare * 100} %`,
      met(share >= TARGETS.ingestShare),
    ],
    [
      `Ingest while a retention run removes ${count(r.retentionRun?.deletedRows ?? 0)} blocks and ${count(r.retentionRun?.deletedRollups ?? 0)} minute rollups (${round(r.duringRetention.workS)} s) against right after it — median messages/s`,
      `${count(p50(r.duringRetention.during))} against ${count(p50(r.duringRetention.alone))}: **${round(duringShare * 100)} %**`,
      `≥ ${TARGETS.ingestShare * 100} %`,
      met(duringShare >= TARGETS.ingestShare),
    ],
    [
      'Generation: the year (writing + rollups + compaction), the fleet’s day (the same), VACUUM (ANALYZE)',
      `${round(yearGenS)} s, ${round(fleetGenS)} s, ${round(r.vacuumS)} s`,
      '–',
      '–',
    ],
    [
      'Bytes per stored value (one day of the 3-path device, indexes, TOAST and rollups included, after VACUUM)',
      `${round(after)} (before: ${round(before)})`,
      `≤ ${TARGETS.bytesPerValue}`,
      met(after <= TARGETS.bytesPerValue),
    ],
  ];
  return [
    `## Telemetry at scale on ${ENGINE} — a year of one device, a day of ${count(FLEET_DEVICES)} devices, ingest, bytes per value`,
    '',
    `Run ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} vCPUs (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), Node ${process.version}, ${r.engine}${SERVER_URL ? ' (Debian’s, a throw-away cluster, fsync off; a fresh database)' : ', files in a temporary data directory'}; 1-minute load average ${round(r.loadBefore, 2)} before and ${round(r.loadAfter, 2)} after (the machine is shared); ${round(r.minutes)} min in all.`,
    `Command: \`${SERVER_URL ? 'scripts/with-postgres.sh bash -c \'node bench/telemetry.bench.ts --database-url "$TEST_DATABASE_URL"' : 'node bench/telemetry.bench.ts'}${commandOptions()}${SERVER_URL ? "'" : ''}\`.`,
    '',
    '| metric | measured | target | met |',
    '| --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row.join(' | ')} |`),
    '',
    '### Scale and set-up',
    '',
    `- Year: 1 device, 3 paths (\`/motor/speed\` a number with two decimals, \`/motor/count\` an integer, \`/motor/running\` a boolean), one message a second for **${DAYS} days = ${count(yearMessages)} messages (${count(yearMessages * 3)} values)**, written by SQL (\`insert … select … from generate_series\`) a day per statement into the day partitions (made first by \`ensurePartitionsBetween\`): ${round(r.year.insertS)} s; rollups ${rollups}: ${round(r.year.rollupS)} s; compaction ${round(r.year.compactS)} s; ${round(yearGenS)} s in all (${count(yearMessages / yearGenS)} messages/s).`,
    `- Fleet: **${count(FLEET_DEVICES)} devices**, the same paths, one day (the year’s last, in another organization) at **one message every ${FLEET_INTERVAL_S} s per device = ${count(fleetMessages)} messages** (${FLEET_INTERVAL_S === 1 ? 'the full 1 Hz' : `1 Hz would be ${count(FLEET_DEVICES * 86_400)}`}): ${round(r.fleet.insertS)} s to write, ${round(r.fleet.rollupS)} s of rollups, ${round(r.fleet.compactS)} s of compaction, ${round(fleetGenS)} s in all.`,
    `- Storage: ${compactionText}; VACUUM (ANALYZE) of every \`telemetry%\` table ${round(r.vacuumS)} s. Stored then: ${partitions.length > 0 ? `${mib(sum(partitions))} in ${partitions.length} day partitions` : 'no day partitions'}${others.map((relation) => `, ${relation.name} ${mib(relation.bytes)}`).join('')} (${mib(sum(r.stored))} for ${count(yearMessages * 3 + fleetMessages * 3)} values, ${round(sum(r.stored) / (yearMessages * 3 + fleetMessages * 3))} bytes per value, fleet included).`,
    `- Queries: through the real HTTP route with an RPT (the organization’s administrator), one warm-up and then ${REQUESTS} requests each, one at a time; server time is Fastify’s \`reply.elapsedTime\`. Year chart: ${DAYS} days in maxPoints 2000 → resolution \`${yearSeries.resolution ?? '?'}\`, ${count(yearSeries.points?.t?.length ?? 0)} points summarising ${count(yearSeries.total ?? 0)} values, ${round(r.yearChart.bytes / 1024)} KiB; client median ${ms(p50(r.yearChart.client))}. Day chart (${new Date(r.middleDay).toISOString().slice(0, 10)}) → resolution \`${daySeries.resolution ?? '?'}\`${daySeries.decimated ? ' reduced to min/max buckets' : ''}, ${count(daySeries.points?.t?.length ?? 0)} points of ${count(daySeries.total ?? 0)} values, ${round(r.dayChart.bytes / 1024)} KiB; client median ${ms(p50(r.dayChart.client))}. Daily averages: ${count(summaryRows)} rows from the hourly rollups, ${round(r.summary.bytes / 1024)} KiB; client median ${ms(p50(r.summary.client))}.`,
    `- Ingest: in the same database after the above, ${INGEST_ROUNDS} measured rounds of each layout after one warm-up round of each, alternating (a b, b a, …); a round is ${INGEST_BATCHES} batches of ${INGEST_DEVICES} messages (one from each of ${INGEST_DEVICES} devices, 3 values, times of today one second apart), written one after the other; a round is ${INGEST_BATCHES / 60} minute${INGEST_BATCHES === 60 ? '' : 's'} of data time. Before: a flat table \`(device_id uuid, ts timestamptz(6), values jsonb)\` with one btree index on (device_id, ts) and the statement of before (\`insert … select … from jsonb_to_recordset($1::jsonb)\`). Now: \`insertTelemetry\` (today’s partition) with the rollups accumulated in memory as the pipeline does and flushed after every batch as its periodic flush does once a second (a batch is one second of data time: each minute is added once it is over, each hour once it is over), the rest at the end of the round, all timed (the last addition ${round(p50(r.ingest.foldShare) * 100)} % of a round’s time, median). JSON encoding is timed in both. Messages/s, median (min–max of the rounds): before ${count(flat)} (${spread(r.ingest.flat)}), now ${count(partitioned)} (${spread(r.ingest.partitioned)}); now against before per round ${r.ingest.partitioned.map((value, index) => `${round((value / (r.ingest.flat[index] ?? Number.NaN)) * 100)} %`).join(', ')}. Without the last addition, \`insertTelemetry\` and the accumulating stored ${count(insertOnly)} messages/s (median), ${round((insertOnly / flat) * 100)} % of before.`,
    `- Bytes per value: one UTC day of one device with the three paths at 1 Hz (${count(r.bytes.values / 3)} messages, ${count(r.bytes.values)} values) in a database of its own, after VACUUM (ANALYZE); sizes are \`pg_total_relation_size\` (table, indexes, TOAST, free-space and visibility maps). Before: the flat table and its index, ${mib(r.bytes.flatBytes)} = ${round(before)} bytes per value. Now: every table whose name starts with \`telemetry\`, rollups made ${rollups}${r.compactionLoaded ? ', then compacted' : ''}: ${r.bytes.relations.map((relation) => `${relation.name} ${mib(relation.bytes)}`).join(', ')} = ${mib(r.bytes.afterBytes)} = ${round(after)} bytes per value.`,
    `- Retention: after the queries the year’s organization is given ${RETENTION_DAYS} days (the fleet’s keeps the server’s ${SERVER_RETENTION.defaultDays}); \`applyRetention\` then removes what is older device by device along the indexes, 1,000 rows a statement, pausing 9 times each statement’s time after it (${r.retentionRun ? `${r.retentionRun.droppedPartitions.length} partitions dropped, ${count(r.retentionRun.deletedRows)} rows and blocks, ${count(r.retentionRun.deletedRollups)} rollups` : 'nothing'}, ${round(r.duringRetention.workS)} s) while ingest rounds run one after the other (the storage path as above, other devices, times of today): ${r.duringRetention.during.length} round(s) during it (${r.duringRetention.during.map(count).join(', ')} messages/s), then as many right after it, at most 30 (${r.duringRetention.alone.map(count).join(', ')}).`,
    `- Altogether ${count(storedValues)} values were stored in this run.`,
  ].join('\n');
}

/** The options of this run that differ from the defaults, for the command line in the results. */
function commandOptions(): string {
  const options: string[] = [];
  if (DAYS !== 365) options.push(`--days ${DAYS}`);
  if (FLEET_DEVICES !== 1000) options.push(`--fleet-devices ${FLEET_DEVICES}`);
  if (FLEET_INTERVAL_S !== 10) options.push(`--fleet-interval ${FLEET_INTERVAL_S}`);
  if (REQUESTS !== 20) options.push(`--requests ${REQUESTS}`);
  if (INGEST_ROUNDS !== 5) options.push(`--ingest-rounds ${INGEST_ROUNDS}`);
  if (INGEST_BATCHES !== 300) options.push(`--ingest-batches ${INGEST_BATCHES}`);
  if (ROLLUPS !== 'fold') options.push(`--rollups ${ROLLUPS}`);
  if (args.compact !== undefined) options.push(args.compact ? '--compact' : '--no-compact');
  return options.map((option) => ` ${option}`).join('');
}

await main();
// The server's pools and timers are closed; anything left (a PostgreSQL pool's idle client) must not keep us.
process.exit(0);
