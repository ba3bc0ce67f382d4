/**
 * Ingest benchmark (devices and data). Three measurements, each next to its limit, on this machine:
 *  1. bare Mosquitto (Debian) moving QoS 1 messages from the simulator's devices to one subscriber — the yardstick;
 *  2. the real server (`node apps/server/src/main.ts`, embedded broker, PGlite files) ingesting the same load at
 *     QoS 1: a message counts only when acknowledged, and the server acknowledges only stored messages;
 *  3. publish-to-browser latency: a probe device publishes with its clock in the payload while a background load
 *     runs; a page in Debian's Chromium, subscribed to the live feed /svc/live, records when each value arrives.
 * Targets: at least 20,000 messages/s of 3 values into storage, and at least half of the Mosquitto figure.
 *
 * Usage: node bench/ingest.bench.ts [--devices 200] [--seconds 15] [--inflight 20] [--no-write]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import mqtt from 'mqtt';
import { chromium } from 'playwright-core';
import { BENCH_TAGS } from '../apps/device-sim/src/demo-tags.ts';
import { SimulatedDevice } from '../apps/device-sim/src/device.ts';
import { Fleet } from '../apps/device-sim/src/fleet.ts';
import { openDatabase } from '../apps/server/src/db/index.ts';
import { telemetry } from '../apps/server/src/db/schema.ts';
import {
  freePort,
  provisionDataDir,
  startServerProcess,
} from '../apps/server/test/support/server-process.ts';
import { writeSection } from './support/results-file.ts';
import { percentile, round } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    devices: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '15' },
    inflight: { type: 'string', default: '20' },
    'database-url': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const DEVICES = Number(args.devices);
const SECONDS = Number(args.seconds);
const INFLIGHT = Number(args.inflight);
/** PostgreSQL instead of the embedded PGlite (the server's DATABASE_URL). */
const DATABASE_URL = args['database-url'];
const ENGINE = DATABASE_URL ? 'PostgreSQL' : 'PGlite';
const serverEnv: Record<string, string> = DATABASE_URL ? { DATABASE_URL } : {};
const WARMUP_S = 3;
const TARGET_PER_S = 20_000;
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';

function log(message: string) {
  process.stderr.write(`[ingest.bench] ${message}\n`);
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Messages per second of a growing counter over the measuring window (after a warm-up). */
async function rateOf(counter: () => number): Promise<number> {
  await sleep(WARMUP_S * 1000);
  const [from, at] = [counter(), Date.now()];
  await sleep(SECONDS * 1000);
  return ((counter() - from) * 1000) / (Date.now() - at);
}

async function mosquittoBaseline(): Promise<{ received: number; acked: number }> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-mosquitto-'));
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_inflight_messages 0\nmax_queued_messages 100000\n`,
  );
  const broker = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  await sleep(500);
  const url = `mqtt://127.0.0.1:${port}`;
  const subscriber = await mqtt.connectAsync(url, { clientId: 'bench-subscriber', reconnectPeriod: 0 });
  let received = 0;
  subscriber.on('message', () => {
    received++;
  });
  await subscriber.subscribeAsync('devices/+/data', { qos: 1 });
  const devices = Array.from({ length: DEVICES }, () => ({ deviceId: crypto.randomUUID(), password: 'x' }));
  const fleet = new Fleet({ url, devices, tags: BENCH_TAGS, rate: 0, qos: 1, inflight: INFLIGHT });
  const [receivedRate, ackedRate] = await Promise.all([
    rateOf(() => received),
    rateOf(() => fleet.progress.acked),
  ]);
  await fleet.stop();
  await subscriber.endAsync();
  broker.kill();
  rmSync(dir, { recursive: true, force: true });
  return { received: receivedRate, acked: ackedRate };
}

async function edgeportIngest(dataDir: string, devices: { deviceId: string; password: string }[]) {
  const server = await startServerProcess(dataDir, serverEnv);
  const fleet = new Fleet({
    url: `mqtt://127.0.0.1:${server.mqttPort}`,
    devices,
    tags: BENCH_TAGS,
    rate: 0,
    qos: 1,
    inflight: INFLIGHT,
  });
  const acked = await rateOf(() => fleet.progress.acked);
  await fleet.stop();
  const totalAcked = fleet.progress.acked;
  server.child.kill('SIGTERM');
  await server.exited;
  const database = await openDatabase({ dataDir, databaseUrl: DATABASE_URL });
  const [row] = await database.db.select({ rows: sql<number>`count(*)::int` }).from(telemetry);
  await database.close();
  return { acked, totalAcked, stored: row?.rows ?? 0 };
}

async function latency(
  dataDir: string,
  devices: { deviceId: string; password: string }[],
  apiKey: string,
  org: string,
) {
  const server = await startServerProcess(dataDir, serverEnv);
  const url = `mqtt://127.0.0.1:${server.mqttPort}`;
  const [probe, ...others] = devices;
  if (!probe) throw new Error('no probe device');
  const background = new Fleet({ url, devices: others, tags: BENCH_TAGS, rate: 10, qos: 1 });
  // The receiving end is Debian's Chromium: the live feed's WebSocket opened in a page, arrival times taken there.
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${server.httpPort}/healthz`);
  await page.evaluate(
    ({ apiKey, org, deviceId, liveUrl }) =>
      new Promise<void>((resolve, reject) => {
        const arrivals: number[] = [];
        Object.assign(globalThis, { arrivals });
        const socket = new WebSocket(liveUrl);
        socket.onerror = () => reject(new Error('live feed failed'));
        socket.onopen = () => socket.send(JSON.stringify({ type: 'auth', token: apiKey, organization: org }));
        socket.onmessage = (event) => {
          const message = JSON.parse(String(event.data));
          if (message.type === 'ready') {
            socket.send(JSON.stringify({ type: 'subscribe', deviceIds: [deviceId] }));
            resolve();
          }
          const sentAt = message.values?.['/line/speed'];
          // The first message after subscribing carries the stored latest value, not a probe's clock: skip it.
          if (message.type === 'values' && typeof sentAt === 'number' && sentAt > 1e12)
            arrivals.push(Date.now() - sentAt);
        };
      }),
    { apiKey, org, deviceId: probe.deviceId, liveUrl: `ws://127.0.0.1:${server.httpPort}/svc/live` },
  );
  const prober = new SimulatedDevice({ url, credentials: probe, tags: [], rate: 0, qos: 1, inflight: 0 });
  await new Promise((resolve) => prober.client.once('connect', resolve));
  await sleep(WARMUP_S * 1000);
  for (let i = 0; i < SECONDS * 10; i++) {
    // The probe's own clock travels as the value: arrival minus it is publish-to-browser time.
    prober.client.publish(
      `devices/${probe.deviceId}/data`,
      JSON.stringify({ values: { LineSpeed: Date.now() } }),
      { qos: 1 },
    );
    await sleep(100);
  }
  await sleep(500);
  const delays = await page.evaluate(() => (globalThis as unknown as { arrivals: number[] }).arrivals);
  const backgroundRate = background.progress.acked;
  await Promise.all([background.stop(), prober.stop()]);
  await browser.close();
  server.child.kill('SIGTERM');
  await server.exited;
  return { delays, backgroundDevices: others.length, backgroundRate };
}

async function main() {
  log(`baseline: bare Mosquitto, ${DEVICES} devices, QoS 1, ${INFLIGHT} in flight each`);
  const baseline = await mosquittoBaseline();
  log(`  ${round(baseline.received)} messages/s delivered to the subscriber`);

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-ingest-'));
  try {
    log(`provisioning ${DEVICES} devices`);
    const provisioned = await provisionDataDir(dataDir, DEVICES, 'bench', DATABASE_URL);
    log(`edgeport: embedded broker + ${ENGINE}, QoS 1 acknowledged after storage`);
    const ingest = await edgeportIngest(dataDir, provisioned.devices);
    log(
      `  ${round(ingest.acked)} messages/s stored and acknowledged (${ingest.totalAcked} acked, ${ingest.stored} rows)`,
    );
    log('latency: probe device with background load');
    const lat = await latency(dataDir, provisioned.devices, provisioned.apiKey, provisioned.organizationId);
    const sorted = [...lat.delays].sort((a, b) => a - b);
    const p = (q: number) => round(percentile(sorted, q));
    log(`  p50 ${p(50)} ms, p95 ${p(95)} ms over ${sorted.length} values`);

    const half = baseline.received / 2;
    const body = [
      `## Ingest (devices and data) on ${ENGINE}`,
      '',
      `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${os.cpus().length} cores) by \`node bench/ingest.bench.ts\`: ${DEVICES} simulated devices (apps/device-sim), QoS 1, ${INFLIGHT} messages in flight per device, 3 values per message, ${SECONDS} s measured after ${WARMUP_S} s warm-up. The load generator runs on the same 2 cores as the broker.`,
      '',
      '| measurement | result | limit | met |',
      '| --- | --- | --- | --- |',
      `| bare Mosquitto pub → sub (QoS 1, delivered/s) | ${round(baseline.received)} | yardstick | — |`,
      `| Edgeport ingest into ${ENGINE} (stored and acknowledged/s) | ${round(ingest.acked)} | ≥ ${TARGET_PER_S} | ${ingest.acked >= TARGET_PER_S ? 'yes' : 'no'} |`,
      `| Edgeport ingest against half of Mosquitto | ${round(ingest.acked)} vs ${round(half)} | ≥ 50 % | ${ingest.acked >= half ? 'yes' : 'no'} |`,
      `| acknowledged messages found stored after shutdown | ${ingest.stored} of ${ingest.totalAcked} | all | ${ingest.stored >= ingest.totalAcked ? 'yes' : 'no'} |`,
      `| publish → browser (Chromium, live feed) latency p50 / p95 / p99 (${lat.backgroundDevices} devices at 10 msg/s in the background) | ${p(50)} / ${p(95)} / ${p(99)} ms | p95 < 1000 ms | ${percentile(sorted, 95) < 1000 ? 'yes' : 'no'} |`,
    ].join('\n');
    if (!args['no-write']) writeSection(DATABASE_URL ? 'ingest-postgres' : 'ingest', body);
    console.log(body);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
