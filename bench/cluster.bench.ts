/**
 * Cluster benchmark, side by side in one run on this machine, on one PostgreSQL (a fresh database per setup):
 *  1. ingest at one fixed rate: the single process (embedded broker) against two instances consuming Debian's
 *     Mosquitto with its dynamic-security plugin (shared subscriptions, persistent sessions); messages stored per
 *     second (telemetry rows) and server CPU per stored message (the instances' /proc CPU summed);
 *  2. value → live feed on both instances of the cluster under that load: a probe device publishes its clock, a
 *     WebSocket client on each instance records arrivals; the later of the two arrivals is the instance that did not
 *     consume the value (it got it over the relay);
 *  3. value → alarm event on both instances' live feeds (a threshold rule crossed by the probe).
 * Targets: cluster CPU per stored message ≤ 1.3 × the single process; relayed value p95 < 100 ms; alarm p95 < 1 s.
 *
 * Usage: scripts/with-postgres.sh node bench/cluster.bench.ts [--runs 3] [--devices 200] [--rate 25] [--seconds 20]
 *        [--values 600] [--crossings 60] [--no-write]   (or --database-url postgres://… instead of TEST_DATABASE_URL)
 * BENCH_CPU_PROF=DIR (environment): the servers run with --cpu-prof and write their profiles to DIR on stop.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { BENCH_TAGS } from '../apps/device-sim/src/demo-tags.ts';
import { SimulatedDevice } from '../apps/device-sim/src/device.ts';
import { Fleet } from '../apps/device-sim/src/fleet.ts';
import {
  type ProvisionedDevice,
  provisionDataDir,
  type ServerProcess,
  startServerProcess,
} from '../apps/server/test/support/server-process.ts';
import { freshDatabase, Store, startBenchCluster, stopServers } from './support/cluster.ts';
import { childPids, cpuBetween, cpuSnapshot } from './support/processes.ts';
import { writeSection } from './support/results-file.ts';
import { readMachineBusySeconds } from './support/server.ts';
import { percentile, round } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    devices: { type: 'string', default: '200' },
    rate: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '20' },
    values: { type: 'string', default: '600' },
    crossings: { type: 'string', default: '60' },
    'database-url': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const DEVICES = Number(args.devices);
/** Messages per second per device: one fixed load that both setups sustain, so CPU per message compares. */
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const PROBE_VALUES = Number(args.values);
const CROSSINGS = Number(args.crossings);
const WARMUP_S = 5;
const PROBE_INTERVAL_MS = 40;
const REALM = 'bench';
const SERVER_URL = args['database-url'] ?? process.env.TEST_DATABASE_URL;
if (!SERVER_URL)
  throw new Error('needs PostgreSQL: run under scripts/with-postgres.sh or pass --database-url');
const CORES = os.cpus().length;
const PROFILE_DIR = process.env.BENCH_CPU_PROF;
const profiling: Record<string, string> = PROFILE_DIR
  ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${PROFILE_DIR}` }
  : {};

function log(message: string) {
  process.stderr.write(`[cluster.bench] ${message}\n`);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type IngestResult = {
  stored: number;
  offered: number;
  serverCpuUs: number;
  brokerCpuUs: number;
  postgresCpuUs: number;
  commitsPerMessage: number;
  otherCpu: number;
  acked: number;
  storedTotal: number;
};

/** The fleet at its fixed rate against running servers: stored/s and CPU per stored message over the window. */
async function measureIngest(
  url: string,
  devices: ProvisionedDevice[],
  store: Store,
  serverPids: number[],
  brokerPids: number[],
): Promise<IngestResult & { fleet: Fleet }> {
  const fleet = new Fleet({ url, devices, tags: BENCH_TAGS, rate: RATE, qos: 1 });
  await sleep(WARMUP_S * 1000);
  const backends = await store.backends();
  const before = {
    rows: await store.rows(),
    commits: await store.commits(),
    acked: fleet.progress.acked,
    server: cpuSnapshot(serverPids),
    broker: cpuSnapshot(brokerPids),
    postgres: cpuSnapshot(backends),
    busy: readMachineBusySeconds(),
    at: Date.now(),
  };
  await sleep(SECONDS * 1000);
  const after = {
    rows: await store.rows(),
    commits: await store.commits(),
    acked: fleet.progress.acked,
    server: cpuSnapshot(serverPids),
    broker: cpuSnapshot(brokerPids),
    postgres: cpuSnapshot([...new Set([...backends, ...(await store.backends())])]),
    busy: readMachineBusySeconds(),
    at: Date.now(),
  };
  const elapsed = (after.at - before.at) / 1000;
  const stored = after.rows - before.rows;
  const server = cpuBetween(before.server, after.server);
  const broker = cpuBetween(before.broker, after.broker);
  const postgres = cpuBetween(before.postgres, after.postgres);
  const busy = after.busy - before.busy;
  return {
    fleet,
    stored: stored / elapsed,
    offered: (after.acked - before.acked) / elapsed,
    serverCpuUs: (server / stored) * 1e6,
    brokerCpuUs: (broker / stored) * 1e6,
    postgresCpuUs: (postgres / stored) * 1e6,
    commitsPerMessage: (after.commits - before.commits) / stored,
    // The rest of the machine (the load generator, other users), as a share of its cores.
    otherCpu: (busy - server - broker - postgres) / elapsed / CORES,
    acked: 0,
    storedTotal: 0,
  };
}

/**
 * Stops the fleet and waits until every acknowledged message is stored (or 30 s pass); `extra` messages of other
 * publishers (the probe) are in the table too and are not counted.
 */
async function drain(fleet: Fleet, store: Store, extra = 0): Promise<{ acked: number; storedTotal: number }> {
  await fleet.stop();
  const acked = fleet.progress.acked;
  let storedTotal = (await store.rows()) - extra;
  for (let i = 0; i < 120 && storedTotal < acked; i++) {
    await sleep(250);
    storedTotal = (await store.rows()) - extra;
  }
  return { acked, storedTotal };
}

async function single(run: number): Promise<IngestResult> {
  const databaseUrl = await freshDatabase(SERVER_URL as string, `bench_single_${run}`);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-single-'));
  const store = new Store(databaseUrl);
  try {
    const { devices } = await provisionDataDir(dataDir, DEVICES, REALM, databaseUrl);
    const server = await startServerProcess(dataDir, { DATABASE_URL: databaseUrl, ...profiling });
    await store.connect();
    const pid = server.child.pid as number;
    // The same devices as the cluster's background load (there the first one is the probe).
    const load = devices.slice(1);
    const result = await measureIngest(`mqtt://127.0.0.1:${server.mqttPort}`, load, store, [pid], []);
    const totals = await drain(result.fleet, store);
    await stopServers([server]);
    return { ...result, ...totals };
  } finally {
    await store.close().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

type Live = { arrivals: Map<number, number>; alarms: Map<number, number>; socket: WebSocket };

/** A live-feed client on one instance, subscribed to the probe: arrival times by the probe clock a value carries. */
async function liveFeed(port: number, apiKey: string, organization: string, deviceId: string): Promise<Live> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/svc/live`);
  const live: Live = { arrivals: new Map(), alarms: new Map(), socket };
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => socket.send(JSON.stringify({ type: 'auth', token: apiKey, organization })));
    socket.on('message', (data) => {
      const now = Date.now();
      const message = JSON.parse(data.toString());
      if (message.type === 'ready') {
        socket.send(JSON.stringify({ type: 'subscribe', deviceIds: [deviceId] }));
        resolve();
      }
      const sentAt = message.values?.['/line/speed'];
      if (
        message.type === 'values' &&
        typeof sentAt === 'number' &&
        sentAt > 1e12 &&
        !live.arrivals.has(sentAt)
      )
        live.arrivals.set(sentAt, now);
      // The alarm's value is the probe's clock at publishing.
      const value = message.alarm?.value;
      if (message.type === 'alarm' && message.event === 'RAISED' && typeof value === 'number')
        live.alarms.set(value, now);
    });
  });
  return live;
}

/** Per value seen on both instances: the later arrival (the relayed one) and the earlier (the consumer's own). */
function split(sent: number[], a: Map<number, number>, b: Map<number, number>) {
  const other: number[] = [];
  const own: number[] = [];
  for (const at of sent) {
    const [x, y] = [a.get(at), b.get(at)];
    if (x === undefined || y === undefined) continue;
    other.push(Math.max(x, y) - at);
    own.push(Math.min(x, y) - at);
  }
  return { other, own };
}

type ClusterResult = IngestResult & {
  values: { other: number[]; own: number[]; sent: number };
  alarms: { other: number[]; own: number[]; sent: number; raised: number; seen: number[] };
};

async function cluster(run: number): Promise<ClusterResult> {
  const { servers, store, brokerUrl, devices, apiKey, organizationId, stop } = await startBenchCluster({
    serverUrl: SERVER_URL as string,
    database: `bench_cluster_${run}`,
    instances: 2,
    devices: DEVICES,
    realm: REALM,
    env: profiling,
  });
  try {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const serverPids = servers.map((server) => server.child.pid as number);
    const brokerPids = childPids(process.pid, 'mosquitto');
    const [probe, ...others] = devices as [ProvisionedDevice, ...ProvisionedDevice[]];
    const result = await measureIngest(brokerUrl, others, store, serverPids, brokerPids);

    // The same load goes on in the background while the probe publishes.
    const feeds = [
      await liveFeed(a.httpPort, apiKey, organizationId, probe.deviceId),
      await liveFeed(b.httpPort, apiKey, organizationId, probe.deviceId),
    ] as const;
    const prober = new SimulatedDevice({
      url: brokerUrl,
      credentials: probe,
      tags: [],
      rate: 0,
      qos: 1,
      inflight: 0,
    });
    await new Promise((resolve) => prober.client.once('connect', resolve));
    await sleep(1000);
    const topic = `devices/${probe.deviceId}/data`;
    const sentValues: number[] = [];
    for (let i = 0; i < PROBE_VALUES; i++) {
      const now = Date.now();
      sentValues.push(now);
      prober.client.publish(topic, JSON.stringify({ values: { LineSpeed: now } }), { qos: 1 });
      await sleep(PROBE_INTERVAL_MS);
    }
    await sleep(1000);

    const response = await fetch(
      `http://127.0.0.1:${a.httpPort}/svc/alarms/api/v1/rules?organization=${organizationId}`,
      {
        method: 'POST',
        headers: {
          host: `${REALM}.app.localhost`,
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({
          name: 'Probe crossing',
          deviceId: probe.deviceId,
          condition: { kind: 'threshold', path: '/line/speed', operator: '>', value: 1e12 },
          severity: 'MAJOR',
        }),
      },
    );
    if (response.status !== 201) throw new Error(`rule: ${response.status} ${await response.text()}`);
    const ruleId = ((await response.json()) as { id: string }).id;
    // The rule reaches the partition's owner over NOTIFY; a second is plenty.
    await sleep(1000);
    const sentCrossings: number[] = [];
    for (let i = 0; i < CROSSINGS; i++) {
      const now = Date.now();
      sentCrossings.push(now);
      prober.client.publish(topic, JSON.stringify({ values: { LineSpeed: now } }), { qos: 1 });
      await sleep(150);
      prober.client.publish(topic, JSON.stringify({ values: { LineSpeed: 0 } }), { qos: 1 });
      await sleep(100);
    }
    await sleep(1500);
    const raised = await store.alarmsOf(ruleId);
    await prober.stop();
    for (const feed of feeds) feed.socket.close();
    // Everything stored: the probe's own messages on top of the fleet's.
    const totals = await drain(result.fleet, store, PROBE_VALUES + 2 * CROSSINGS);
    return {
      ...result,
      ...totals,
      values: { ...split(sentValues, feeds[0].arrivals, feeds[1].arrivals), sent: sentValues.length },
      alarms: {
        ...split(sentCrossings, feeds[0].alarms, feeds[1].alarms),
        sent: sentCrossings.length,
        raised,
        seen: [feeds[0].alarms.size, feeds[1].alarms.size],
      },
    };
  } finally {
    await stop();
  }
}

const median = (values: number[]) => percentile(values, 50);
const spread = (values: number[], digits = 1) =>
  `${round(Math.min(...values), digits)}–${round(Math.max(...values), digits)}`;
const cell = (values: number[]) => `${round(median(values))} (${spread(values)})`;

async function main() {
  const singles: IngestResult[] = [];
  const clusters: ClusterResult[] = [];
  for (let run = 1; run <= RUNS; run++) {
    log(`run ${run}: single process (embedded broker, PostgreSQL), ${DEVICES - 1} devices × ${RATE} msg/s`);
    const s = await single(run);
    log(
      `  ${round(s.stored)} stored/s, ${round(s.serverCpuUs)} µs server CPU per message, ${s.storedTotal}/${s.acked} stored`,
    );
    singles.push(s);
    log(
      `run ${run}: two instances on Mosquitto (dynamic security), ${DEVICES - 1} devices × ${RATE} msg/s + probe`,
    );
    const c = await cluster(run);
    log(
      `  ${round(c.stored)} stored/s, ${round(c.serverCpuUs)} µs server CPU per message (Mosquitto ${round(c.brokerCpuUs)}), ${c.storedTotal}/${c.acked} stored`,
    );
    log(
      `  value → other instance p50 ${percentile(c.values.other, 50)} p95 ${percentile(c.values.other, 95)} ms (${c.values.other.length}/${c.values.sent}); alarm p95 ${percentile(c.alarms.other, 95)} ms (${c.alarms.other.length}/${c.alarms.sent} on both, ${c.alarms.seen.join(' / ')} on A / B, ${c.alarms.raised} raised)`,
    );
    clusters.push(c);
  }
  const ratios = clusters.map((c, i) => c.serverCpuUs / (singles[i]?.serverCpuUs ?? Number.NaN));
  const p = (list: number[], q: number) => percentile(list, q);
  const perRun = (pick: (c: ClusterResult) => number[], q: number) => clusters.map((c) => p(pick(c), q));
  const valueP95 = perRun((c) => c.values.other, 95);
  const alarmP95 = perRun((c) => c.alarms.other, 95);
  const lost = (r: IngestResult) => r.acked - Math.min(r.acked, r.storedTotal);
  const rows = (pick: (r: IngestResult) => number) =>
    `${cell(singles.map(pick))} | ${cell(clusters.map(pick))}`;
  const body = [
    '## Cluster: two instances on PostgreSQL and Mosquitto against the single process',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${CORES} cores, shared with other work) by \`scripts/with-postgres.sh node bench/cluster.bench.ts\`, ${RUNS} runs; each run measures both setups one after the other on one PostgreSQL (Debian's, fsync off, a fresh database per setup). Single process: the real server (\`node apps/server/src/main.ts\`) with its embedded broker and \`DATABASE_URL\`. Cluster: two such processes with \`MQTT_URL\` (a dynamic-security admin), \`MQTT_DYNSEC=true\`, distinct \`INSTANCE_ID\`s and \`MQTT_PORT=0\`, consuming Debian's Mosquitto with its dynamic-security plugin. Devices provisioned in the database as the ingest benchmark does (the instances give them their Mosquitto clients at start). Load: ${DEVICES - 1} simulated devices (apps/device-sim) at ${RATE} messages/s each, ${(DEVICES - 1) * RATE} messages/s of 3 values, QoS 1 — a fixed rate both setups sustain on 2 shared cores, so the CPU per message compares (not a maximum); ${SECONDS} s measured after ${WARMUP_S} s warm-up. Stored = telemetry rows counted in PostgreSQL at the window's ends; server CPU = user + system time of the server processes from \`/proc/{pid}/stat\` (summed over both instances), divided by the messages stored in the window. Mosquitto's and the database's CPU (the backends serving the benchmark's database) are shown apart: the embedded broker's work is inside the single process. Cells: median of the runs (min–max).`,
    '',
    '| measurement | single process | cluster (2 instances) |',
    '| --- | --- | --- |',
    `| messages stored/s | ${rows((r) => r.stored)} |`,
    `| server CPU µs per stored message | ${rows((r) => r.serverCpuUs)} |`,
    `| Mosquitto CPU µs per stored message | — | ${cell(clusters.map((c) => c.brokerCpuUs))} |`,
    `| PostgreSQL backends' CPU µs per stored message | ${rows((r) => r.postgresCpuUs)} |`,
    `| PostgreSQL transactions per 100 stored messages (\`pg_stat_database.xact_commit\`) | ${rows((r) => r.commitsPerMessage * 100)} |`,
    `| rest of the machine (load generator, others), % of ${CORES} cores | ${rows((r) => r.otherCpu * 100)} |`,
    `| acknowledged messages not stored after the load (all runs) | ${singles.reduce((sum, r) => sum + lost(r), 0)} of ${singles.reduce((sum, r) => sum + r.acked, 0)} | ${clusters.reduce((sum, r) => sum + lost(r), 0)} of ${clusters.reduce((sum, r) => sum + r.acked, 0)} |`,
    '',
    `Latency under the same background load (${DEVICES - 1} devices): a probe device publishes its clock every ${PROBE_INTERVAL_MS} ms (${PROBE_VALUES} values), a live-feed WebSocket client (\`/svc/live\`, Node's \`ws\`) on each instance is subscribed to it. Mosquitto hands each value to one instance; the consumer shows it to its own client and relays it to the other over the broker, so per value the later of the two arrivals is "on the other instance" (the relayed one) and the earlier "on the consuming instance". Then ${CROSSINGS} crossings of a threshold rule created through instance A's API (hot value = the probe's clock, then a normal value 150 ms later): the alarm's RAISED event on each instance's live feed, measured the same way. Percentiles are per run; cells show the median run (min–max).`,
    '',
    '| measurement | result | limit | met |',
    '| --- | --- | --- | --- |',
    `| CPU per stored message, cluster against single process (median of the per-run ratios) | ${round(median(ratios), 2)} (${spread(ratios, 2)}) | ≤ 1.3 | ${median(ratios) <= 1.3 ? 'yes' : 'no'} |`,
    `| value → live feed on the other instance p50 / p95 / p99 ms | ${cell(perRun((c) => c.values.other, 50))} / ${cell(valueP95)} / ${cell(perRun((c) => c.values.other, 99))} | p95 < 100 ms | ${median(valueP95) < 100 ? 'yes' : 'no'} |`,
    `| value → live feed on the consuming instance p50 / p95 ms | ${cell(perRun((c) => c.values.own, 50))} / ${cell(perRun((c) => c.values.own, 95))} | — | — |`,
    `| values seen on both instances | ${clusters.map((c) => `${c.values.other.length}/${c.values.sent}`).join(', ')} | all | ${clusters.every((c) => c.values.other.length === c.values.sent) ? 'yes' : 'no'} |`,
    `| value → alarm event on the other instance's live feed p50 / p95 ms | ${cell(perRun((c) => c.alarms.other, 50))} / ${cell(alarmP95)} | p95 < 1000 ms | ${median(alarmP95) < 1000 ? 'yes' : 'no'} |`,
    `| alarms raised in the database per crossing | ${clusters.map((c) => `${c.alarms.raised}/${c.alarms.sent}`).join(', ')} | all, once | ${clusters.every((c) => c.alarms.raised === c.alarms.sent) ? 'yes' : 'no'} |`,
    `| alarm events seen on both instances (on A / on B) | ${clusters.map((c) => `${c.alarms.other.length}/${c.alarms.sent} (${c.alarms.seen.join(' / ')})`).join(', ')} | all | ${clusters.every((c) => c.alarms.other.length === c.alarms.sent) ? 'yes' : 'no'} |`,
    '',
    'The 30-minute soak (the cluster at half its measured ingest, browsers watching) is the next section, from `bench/cluster-soak.bench.ts`.',
  ].join('\n');
  if (!args['no-write']) writeSection('cluster', body);
  console.log(body);
}

await main();
process.exit(0);
