/**
 * Cluster soak: two instances on PostgreSQL and Debian's Mosquitto (dynamic security) for `--minutes` at half the
 * ingest the same cluster sustained flat out just before, on the same devices, while Debian's Chromium has the real
 * portal's devices page open on each instance (its live values come over `/svc/live`). Every `--sample` seconds: each
 * instance's RSS, messages acknowledged to the devices, live-value frames each browser
 * received, and what the instances logged at warn and error.
 * Passes when each instance's RSS grew < 10 % from the end of the warm-up to the end, nothing was logged at error and
 * no page error occurred, every acknowledged message is stored, and each browser kept receiving live values.
 *
 * Usage: scripts/with-postgres.sh node bench/cluster-soak.bench.ts [--minutes 30] [--warmup 3] [--devices 200]
 *        [--sample 10] [--no-write]   (the web app is built first when apps/web/dist is missing)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Browser, chromium, type Page } from 'playwright-core';
import { BENCH_TAGS } from '../apps/device-sim/src/demo-tags.ts';
import { Fleet } from '../apps/device-sim/src/fleet.ts';
import type { ServerProcess } from '../apps/server/test/support/server-process.ts';
import { type BenchCluster, startBenchCluster } from './support/cluster.ts';
import { writeSection } from './support/results-file.ts';
import { readRssBytes } from './support/server.ts';
import { MB, percentile, round } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '3' },
    devices: { type: 'string', default: '200' },
    sample: { type: 'string', default: '10' },
    'database-url': { type: 'string' },
    'no-write': { type: 'boolean', default: false },
  },
});
const MINUTES = Number(args.minutes);
const WARMUP_MINUTES = Number(args.warmup);
const DEVICES = Number(args.devices);
const SAMPLE_S = Number(args.sample);
/** How long the flat-out load is measured, after 5 s of warm-up. */
const MAX_SECONDS = 20;
const RSS_GROWTH_LIMIT = 0.1;
/** RSS is compared as the median of this many minutes after the warm-up against the median of the last ones. */
const WINDOW_MINUTES = 5;
const SAMPLES_FILE = path.join(os.tmpdir(), 'cluster-soak-samples.json');
const REALM = 'soak';
const PASSWORD = 'correct horse battery';
const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';
const SERVER_URL = args['database-url'] ?? process.env.TEST_DATABASE_URL;
if (!SERVER_URL)
  throw new Error('needs PostgreSQL: run under scripts/with-postgres.sh or pass --database-url');
const WEB_DIST = path.resolve(import.meta.dirname, '../apps/web/dist/index.html');

/** What the report says a run of a day (ThingsBoard publishes 24-hour soaks) would need beyond this one. */
const longerRun = (messagesPerSecond: number) =>
  `A 24-hour run (\`--minutes 1440\`) needs a machine of its own (on this shared one other work changes the capacity the rate was set from), storage for ${round((messagesPerSecond * 86_400) / 1e6)} million telemetry rows a day at this rate (issue 34's partitions and retention keep it bounded), Mosquitto with persistence and its log rotated, and the servers' logs kept. The samples file then shows whether RSS settles or keeps rising, which 30 minutes cannot tell apart from a slow heap growth.`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (message: string) => process.stderr.write(`[cluster-soak] ${message}\n`);

/** What the instances logged (LOG_LEVEL warn: only warnings and errors reach here). */
class LogCounts {
  readonly warnings = [0, 0];
  readonly errors = [0, 0];
  readonly firstLines: string[] = [];
  count = (instance: number, line: string) => {
    let level = 0;
    try {
      level = Number((JSON.parse(line) as { level?: number }).level ?? 0);
    } catch {
      level = 50; // Not the server's JSON log: a crash trace or the like.
    }
    const counts = level >= 50 ? this.errors : level >= 40 ? this.warnings : undefined;
    if (!counts) return;
    counts[instance] = (counts[instance] ?? 0) + 1;
    if (this.firstLines.length < 10) this.firstLines.push(`instance ${instance}: ${line.slice(0, 300)}`);
  };
}

/** The flat-out ingest of the cluster: every device publishes QoS 1 with 10 messages in flight. */
async function maximumIngest(cluster: BenchCluster, load: BenchCluster['devices']): Promise<number> {
  const before = await cluster.store.rows();
  const fleet = new Fleet({ url: cluster.brokerUrl, devices: load, tags: BENCH_TAGS, rate: 0, qos: 1 });
  await sleep(5000);
  const [rows, at] = [await cluster.store.rows(), Date.now()];
  await sleep(MAX_SECONDS * 1000);
  const stored = (await cluster.store.rows()) - rows;
  const perSecond = stored / ((Date.now() - at) / 1000);
  await fleet.stop();
  await drained(cluster, before + fleet.progress.acked);
  return perSecond;
}

/** Waits until `rows` telemetry rows are stored, at most two minutes; the rows stored. */
async function drained(cluster: BenchCluster, rows: number): Promise<number> {
  let stored = await cluster.store.rows();
  for (let i = 0; i < 480 && stored < rows; i++) {
    await sleep(250);
    stored = await cluster.store.rows();
  }
  return stored;
}

type Watcher = { page: Page; pageErrors: string[] };

/**
 * Counts, in the page, the live-value messages its WebSockets receive. Counting them through Playwright's
 * `framereceived` sends every frame over the DevTools protocol to this process, which cost more CPU than the page.
 */
function countLiveFrames(): void {
  const scope = globalThis as unknown as {
    WebSocket: new (
      ...args: unknown[]
    ) => { addEventListener(type: string, run: (event: { data: unknown }) => void): void };
    liveFrames: number;
  };
  const Native = scope.WebSocket;
  scope.liveFrames = 0;
  scope.WebSocket = class extends Native {
    constructor(...args: unknown[]) {
      super(...args);
      this.addEventListener('message', (event) => {
        if (typeof event.data === 'string' && event.data.includes('"type":"values"')) scope.liveFrames++;
      });
    }
  };
}

const framesOf = (watcher: Watcher) =>
  watcher.page.evaluate(() => (globalThis as unknown as { liveFrames: number }).liveFrames);

/** Signs in to the portal on one instance and opens the devices page, counting the live-value frames it receives. */
async function watch(browser: Browser, server: ServerProcess): Promise<Watcher> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const watcher: Watcher = { page, pageErrors: [] };
  page.on('pageerror', (error) => watcher.pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') watcher.pageErrors.push(message.text());
  });
  await page.addInitScript(countLiveFrames);
  await page.goto(`http://${REALM}.app.localhost:${server.httpPort}/#/devices`);
  await page.locator('#kc-form-login').waitFor({ timeout: 60_000 });
  await page.locator('#username').fill(`admin@${REALM}.test`);
  await page.locator('#password').fill(PASSWORD);
  await page.locator('#kc-login').click();
  await page.getByRole('table').waitFor({ timeout: 60_000 });
  return watcher;
}

type Sample = { at: number; rss: number[]; acked: number; frames: number[] };

/** Least-squares slope of y over x. */
function slope(points: { x: number; y: number }[]): number {
  const n = points.length;
  const mx = points.reduce((sum, p) => sum + p.x, 0) / n;
  const my = points.reduce((sum, p) => sum + p.y, 0) / n;
  const sxy = points.reduce((sum, p) => sum + (p.x - mx) * (p.y - my), 0);
  const sxx = points.reduce((sum, p) => sum + (p.x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

async function main() {
  if (!existsSync(WEB_DIST)) {
    log('building the web app');
    execFileSync('npm', ['run', 'build', '--workspace', '@edgeport/web', '--silent'], { stdio: 'inherit' });
  }
  const logs = new LogCounts();
  const cluster = await startBenchCluster({
    serverUrl: SERVER_URL as string,
    database: 'bench_soak',
    instances: 2,
    devices: DEVICES,
    realm: REALM,
    onLogLine: logs.count,
  });
  let browser: Browser | undefined;
  try {
    const load = cluster.devices;
    log(`the cluster's flat-out ingest (${load.length} devices, QoS 1, 10 in flight each), nobody watching`);
    const unwatched = await maximumIngest(cluster, load);
    log(`  ${round(unwatched)} stored/s`);
    browser = await chromium.launch({ executablePath: CHROMIUM });
    const watchers: Watcher[] = [];
    for (const server of cluster.servers) watchers.push(await watch(browser, server));
    log('the same with the browsers watching');
    const maximum = await maximumIngest(cluster, load);
    const rate = maximum / 2 / load.length;
    log(`  ${round(maximum)} stored/s; the soak runs at half: ${round(rate, 2)} msg/s per device`);
    const storedBefore = await cluster.store.rows();
    const fleet = new Fleet({ url: cluster.brokerUrl, devices: load, tags: BENCH_TAGS, rate, qos: 1 });
    const pids = cluster.servers.map((server) => server.child.pid as number);
    const samples: Sample[] = [];
    const started = Date.now();
    const end = started + MINUTES * 60_000;
    while (Date.now() < end) {
      await sleep(SAMPLE_S * 1000);
      samples.push({
        at: (Date.now() - started) / 60_000,
        rss: pids.map((pid) => readRssBytes(pid) / MB),
        acked: fleet.progress.acked,
        frames: await Promise.all(watchers.map(framesOf)),
      });
      const last = samples.at(-1) as Sample;
      if (samples.length % Math.round(60 / SAMPLE_S) === 0)
        log(
          `${round(last.at)} min: RSS ${last.rss.map((mb) => round(mb)).join(' / ')} MB, ${last.acked} acked, frames ${last.frames.join(' / ')}, errors ${logs.errors.join(' / ')}`,
        );
    }
    await fleet.stop();
    const acked = fleet.progress.acked;
    const stored = (await drained(cluster, storedBefore + acked)) - storedBefore;
    report({
      unwatched,
      maximum,
      rate,
      samples,
      acked,
      stored,
      logs,
      watchers,
      fleetErrors: fleet.progress.errors,
    });
  } finally {
    await browser?.close();
    await cluster.stop();
  }
}

function report(result: {
  unwatched: number;
  maximum: number;
  rate: number;
  samples: Sample[];
  acked: number;
  stored: number;
  logs: LogCounts;
  watchers: Watcher[];
  fleetErrors: number;
}) {
  const { samples, logs, watchers } = result;
  const last = samples.at(-1);
  if (!last) throw new Error('no samples');
  // RSS moves by 100 MB and more as the heap grows and is given back: a window's median, not a single sample.
  const first = samples.filter(
    (sample) => sample.at >= WARMUP_MINUTES && sample.at < WARMUP_MINUTES + WINDOW_MINUTES,
  );
  const closing = samples.filter((sample) => sample.at > last.at - WINDOW_MINUTES);
  const secondHalf = samples.filter((sample) => sample.at >= MINUTES / 2);
  const instances = last.rss.map((_, i) => {
    const start = percentile(
      first.map((sample) => sample.rss[i] ?? 0),
      50,
    );
    const end = percentile(
      closing.map((sample) => sample.rss[i] ?? 0),
      50,
    );
    const peak = Math.max(...samples.map((sample) => sample.rss[i] ?? 0));
    const perHour = slope(secondHalf.map((sample) => ({ x: sample.at / 60, y: sample.rss[i] ?? 0 })));
    return { start, end, peak, growth: (end - start) / start, perHour };
  });
  writeFileSync(SAMPLES_FILE, JSON.stringify(samples));
  const minutes = last.at;
  // Live frames per minute each browser received, in the emptiest minute after the warm-up.
  const perMinute = watchers.map((_, i) => {
    const steps = samples.filter((sample) => sample.at >= WARMUP_MINUTES);
    let least = Number.POSITIVE_INFINITY;
    for (let k = 0; k + 1 < steps.length; k++) {
      const later = steps.find((sample) => sample.at >= (steps[k]?.at ?? 0) + 1);
      if (!later) break;
      least = Math.min(least, (later.frames[i] ?? 0) - (steps[k]?.frames[i] ?? 0));
    }
    return Number.isFinite(least) ? least : undefined;
  });
  const lost = result.acked - Math.min(result.acked, result.stored);
  const pageErrors = watchers.reduce((sum, watcher) => sum + watcher.pageErrors.length, 0);
  const errors = logs.errors.reduce((sum, n) => sum + n, 0);
  const yes = (ok: boolean) => (ok ? 'yes' : 'no');
  const body = [
    '## Cluster soak: two instances at half their measured ingest, browsers watching',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${os.cpus().length} cores, shared with other work) by \`scripts/with-postgres.sh node bench/cluster-soak.bench.ts --minutes ${MINUTES}\`, one run. Two real server processes (\`MQTT_URL\` with dynamic security, \`DATABASE_URL\` on Debian's PostgreSQL, fsync off) consume Debian's Mosquitto. Debian's Chromium (playwright-core) has the portal's devices page open on each instance, signed in, the live values of its table's devices arriving over \`/svc/live\` (the devices an instance did not consume reach it over the broker's relay). The cluster's flat-out ingest on the same ${DEVICES} devices (apps/device-sim, QoS 1, 10 messages in flight each, the load generator on the same 2 cores) was ${round(result.unwatched)} messages stored/s with nobody watching and **${round(result.maximum)} messages stored/s with the browsers watching**: then two Chromium pages (each subscribed to the live feed of the 50 devices its table shows; every value of them arrives, the table renders their connection status) and each instance relaying every value to the other over the broker (subscribed once a browser watches) share the 2 cores with the instances, the load generator, Mosquitto and PostgreSQL. The soak runs at half of the watched figure. Then ${round(minutes)} minutes at half of it: ${round(result.rate, 2)} messages/s per device, ${round(result.rate * DEVICES)} messages/s of 3 values, the browsers still watching. Sampled every ${SAMPLE_S} s; RSS = VmRSS of each server process, which moves by 100 MB and more as the heap grows and is given back; growth compares the median of the ${WINDOW_MINUTES} minutes after ${WARMUP_MINUTES} minutes of warm-up with the median of the last ${WINDOW_MINUTES} minutes; the slope is a least-squares fit over the second half. The samples are in \`${SAMPLES_FILE}\` after a run.`,
    '',
    '| measurement | instance A | instance B | limit | met |',
    '| --- | --- | --- | --- | --- |',
    `| RSS median after warm-up → median at the end (peak), MB | ${instances.map((r) => `${round(r.start)} → ${round(r.end)} (${round(r.peak)})`).join(' | ')} | — | — |`,
    `| RSS growth after warm-up | ${instances.map((r) => `${round(r.growth * 100)} %`).join(' | ')} | < 10 % | ${yes(instances.every((r) => r.growth < RSS_GROWTH_LIMIT))} |`,
    `| RSS trend over the second half, MB per hour | ${instances.map((r) => round(r.perHour)).join(' | ')} | — | — |`,
    `| lines logged at error (warnings) | ${logs.errors.map((n, i) => `${n} (${logs.warnings[i]})`).join(' | ')} | 0 | ${yes(errors === 0)} |`,
    `| live-value frames the browser received (fewest in one minute after warm-up) | ${last.frames.map((frames, i) => `${frames} (${perMinute[i] ?? '—'})`).join(' | ')} | > 0 every minute | ${yes(perMinute.every((n) => n !== undefined && n > 0))} |`,
    `| page errors in the browser | ${watchers.map((w) => w.pageErrors.length).join(' | ')} | 0 | ${yes(pageErrors === 0)} |`,
    '',
    '| measurement | result | limit | met |',
    '| --- | --- | --- | --- |',
    `| messages acknowledged to the devices / stored after the load | ${result.acked} / ${result.stored} | all stored | ${yes(lost === 0)} |`,
    `| device publish errors | ${result.fleetErrors} | 0 | ${yes(result.fleetErrors === 0)} |`,
    `| messages stored per second over the soak | ${round(result.stored / (last.at * 60))} | the offered ${round(result.rate * DEVICES)} | — |`,
    '',
    longerRun(result.rate * DEVICES),
    ...(logs.firstLines.length > 0
      ? ['', 'First lines logged at warn or error:', '', ...logs.firstLines.map((line) => `- \`${line}\``)]
      : []),
  ].join('\n');
  if (!args['no-write']) writeSection('cluster-soak', body);
  console.log(body);
}

await main();
process.exit(0);
