/**
 * Identity benchmark, one run against one freshly started demo server:
 *   1. refresh-token grants per second (autocannon, each connection chaining its own rotating refresh tokens),
 *   2. password logins per second (the full authorization-code flow with PKCE and token exchange),
 *   3. an authenticated `/svc` call with an RPT next to the bare `/healthz` route,
 *   4. server RSS at idle and after the load.
 *
 * Usage: node bench/identity.bench.ts [--json FILE] [--quick] [--database-url postgres://…/empty_db]
 * Env:   BENCH_CPU_PROF=DIR  runs the server with --cpu-prof and writes its profile to DIR on stop.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { OidcClient, type Target } from './support/oidc.ts';
import {
  type CpuSpent,
  type HttpPhase,
  type IdentityResults,
  type LoginPhase,
  type Machine,
  type MemoryPhase,
  type RefreshPhase,
  TARGETS,
} from './support/results.ts';
import { type RunningServer, readMachineBusySeconds, startServer } from './support/server.ts';
import { MB, percentile, round } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    json: { type: 'string' },
    quick: { type: 'boolean', default: false },
    'database-url': { type: 'string' },
  },
});
/** Optional: run the server on this (empty) PostgreSQL database instead of the embedded PGlite. */
const DATABASE_URL = args['database-url'];
const SERVER_ENV: NodeJS.ProcessEnv = DATABASE_URL ? { DATABASE_URL } : {};
const QUICK = args.quick === true;

const PLAN = {
  idleSeconds: QUICK ? 2 : 10,
  refresh: { connections: 10, spares: 10, warmupS: QUICK ? 1 : 3, durationS: QUICK ? 3 : 15 },
  login: { concurrency: 8, durationS: QUICK ? 3 : 15, maxLogins: 20_000 },
  http: { connections: 10, warmupS: QUICK ? 1 : 2, durationS: QUICK ? 3 : 10 },
  /** Hard stop for a phase that does not end by itself (autocannon's duration normally ends it). */
  phaseGraceMs: 30_000,
};

const ORG_RESOURCE = 'demo';
const SVC_PATH = `/svc/core/api/v1/organizations/${ORG_RESOURCE}`;

function log(message: string) {
  process.stderr.write(`[identity.bench] ${message}\n`);
}

function machine(loadAverage1m: number): Machine {
  return {
    loadAverage1m: round(loadAverage1m, 2),
    nproc: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: round(os.totalmem() / 1024 ** 3, 1),
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
  };
}

/** Measures server and benchmark-process CPU around `work`. */
async function withCpu<T>(server: RunningServer, work: () => Promise<T>): Promise<[T, CpuSpent]> {
  const serverBefore = server.cpuSeconds();
  const clientBefore = process.cpuUsage();
  const machineBefore = readMachineBusySeconds();
  const result = await work();
  const client = process.cpuUsage(clientBefore);
  const serverS = server.cpuSeconds() - serverBefore;
  const clientS = (client.user + client.system) / 1e6;
  const otherS = Math.max(0, readMachineBusySeconds() - machineBefore - serverS - clientS);
  return [result, { serverS: round(serverS, 2), clientS: round(clientS, 2), otherS: round(otherS, 2) }];
}

/** autocannon, bounded: its own duration ends it; a watchdog stops it if it does not. */
async function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error: unknown, result) => {
      clearTimeout(watchdog);
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
    const durationMs = Number(options.duration ?? 10) * 1000;
    const watchdog = setTimeout(() => instance.stop(), durationMs + PLAN.phaseGraceMs);
  });
}

function statusCounts(result: autocannon.Result): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) counts[code] = stats.count ?? 0;
  return counts;
}

function httpPhase(
  label: string,
  method: 'GET' | 'POST',
  path: string,
  result: autocannon.Result,
  cpu: CpuSpent,
): HttpPhase {
  const statusCodes = statusCounts(result);
  const ok = statusCodes['200'] ?? 0;
  return {
    label,
    method,
    path,
    connections: result.connections,
    durationS: round(result.duration, 2),
    ok,
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    perSecond: round(ok / result.duration, 1),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyMaxMs: result.latency.max,
    cpu,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 1. Refresh-token grants

type Chain = { token: string };

/**
 * One autocannon run where connection i chains `chains[i]`: each 200 carries the next refresh token. A non-200 has
 * still consumed the token (rotation, reuse detection), so that connection continues with a spare from a login.
 */
async function refreshRun(
  target: Target,
  chains: Chain[],
  spares: string[],
  durationS: number,
): Promise<{ result: autocannon.Result; sparesUsed: number }> {
  const tokenPath = `/auth/realms/${target.realm}/protocol/openid-connect/token`;
  let next = 0;
  let sparesUsed = 0;
  const result = await cannon({
    url: `http://127.0.0.1:${target.port}`,
    connections: chains.length,
    duration: durationS,
    timeout: 10,
    setupClient(client) {
      const chain = chains[next++ % chains.length] as Chain;
      client.setRequests([
        {
          method: 'POST',
          path: tokenPath,
          headers: { host: target.realmHost, 'content-type': 'application/x-www-form-urlencoded' },
          setupRequest: (request) => ({
            ...request,
            body: new URLSearchParams({
              grant_type: 'refresh_token',
              client_id: 'web-portal',
              refresh_token: chain.token,
            }).toString(),
          }),
          onResponse: (status, body) => {
            if (status === 200) {
              const refreshed = (JSON.parse(body) as { refresh_token?: unknown }).refresh_token;
              if (typeof refreshed === 'string') chain.token = refreshed;
              return;
            }
            const spare = spares.pop();
            if (spare) {
              chain.token = spare;
              sparesUsed++;
            }
          },
        },
      ]);
    },
  });
  return { result, sparesUsed };
}

async function seedRefreshTokens(target: Target, server: RunningServer, count: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < count; i++) {
    const login = server.logins[i % server.logins.length];
    if (!login) throw new Error('the server printed no demo logins');
    const client = new OidcClient(target);
    try {
      tokens.push((await client.login(login.email, login.password)).refresh_token);
    } finally {
      client.close();
    }
  }
  return tokens;
}

async function measureRefresh(target: Target, server: RunningServer): Promise<RefreshPhase> {
  const { connections, spares: spareCount, warmupS, durationS } = PLAN.refresh;
  // Requests in flight when a run stops have rotated their token server-side, but the answer is lost: the warm-up
  // chains are therefore not reused for the measurement (reusing a rotated token revokes its whole grant).
  const tokens = await seedRefreshTokens(target, server, 2 * connections + spareCount);
  const warmupChains = tokens.slice(0, connections).map((token) => ({ token }));
  const chains = tokens.slice(connections, 2 * connections).map((token) => ({ token }));
  const spares = tokens.slice(2 * connections);
  log(`refresh: ${connections} chains, ${spares.length} spares; warm-up ${warmupS}s`);
  await refreshRun(target, warmupChains, [], warmupS);
  log(`refresh: measuring ${durationS}s`);
  const [{ result, sparesUsed }, cpu] = await withCpu(server, () =>
    refreshRun(target, chains, spares, durationS),
  );
  const phase = httpPhase(
    'refresh_token grant',
    'POST',
    '/auth/realms/demo/protocol/openid-connect/token',
    result,
    cpu,
  );
  return { ...phase, chains: tokens.length, sparesUsed };
}

// ---------------------------------------------------------------------------------------------------------------
// 2. Password logins

async function measureLogins(target: Target, server: RunningServer): Promise<LoginPhase> {
  const { concurrency, durationS, maxLogins } = PLAN.login;
  const latencies: number[] = [];
  let failures = 0;
  let firstFailure: string | undefined;
  let started = 0;
  log(`logins: ${concurrency} concurrent, ${durationS}s`);
  const begin = performance.now();
  const end = begin + durationS * 1000;
  const worker = async (index: number) => {
    while (performance.now() < end && started < maxLogins) {
      started++;
      const login = server.logins[(index + started) % server.logins.length];
      if (!login) throw new Error('the server printed no demo logins');
      const client = new OidcClient(target);
      const t0 = performance.now();
      try {
        await client.login(login.email, login.password);
        latencies.push(performance.now() - t0);
      } catch (error) {
        failures++;
        firstFailure ??= error instanceof Error ? error.message : String(error);
        // A failing server must not be hammered in a tight loop.
        await sleep(50);
      } finally {
        client.close();
      }
    }
  };
  const [, cpu] = await withCpu(server, () =>
    Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index))),
  );
  const elapsedS = (performance.now() - begin) / 1000;
  return {
    concurrency,
    durationS: round(elapsedS, 2),
    ok: latencies.length,
    failures,
    firstFailure,
    perSecond: round(latencies.length / elapsedS, 1),
    latencyP50Ms: round(percentile(latencies, 50), 1),
    latencyP99Ms: round(percentile(latencies, 99), 1),
    latencyMaxMs: round(Math.max(...latencies), 1),
    requestsPerLogin: 5,
    cpu,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// 3. Authenticated /svc call next to /healthz

async function measureGet(
  target: Target,
  server: RunningServer,
  label: string,
  path: string,
  headers: Record<string, string>,
): Promise<HttpPhase> {
  const { connections, warmupS, durationS } = PLAN.http;
  const options: autocannon.Options = {
    url: `http://127.0.0.1:${target.port}${path}`,
    connections,
    timeout: 10,
    headers: { host: target.realmHost, ...headers },
  };
  log(`${label}: warm-up ${warmupS}s, measuring ${durationS}s`);
  await cannon({ ...options, duration: warmupS });
  const [result, cpu] = await withCpu(server, () => cannon({ ...options, duration: durationS }));
  return httpPhase(label, 'GET', path, result, cpu);
}

async function rptFor(target: Target, server: RunningServer): Promise<string> {
  const login = server.logins[0];
  if (!login) throw new Error('the server printed no demo logins');
  const client = new OidcClient(target);
  try {
    const tokens = await client.login(login.email, login.password);
    return await client.requestRpt(tokens.access_token, ORG_RESOURCE);
  } finally {
    client.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------

async function main() {
  const loadAverage1m = os.loadavg()[0] ?? 0;
  const t0 = performance.now();
  const profileDir = process.env.BENCH_CPU_PROF;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edgeport-bench-'));
  // On SIGINT/SIGTERM exit normally, so the 'exit' hooks stop the server and the data directory goes away.
  const removeDataDir = () => rmSync(dataDir, { recursive: true, force: true });
  process.on('exit', removeDataDir);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130));
  try {
    const server = await startServer({
      dataDir,
      env: SERVER_ENV,
      nodeArgs: profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    });
    const startupMs = Math.round(performance.now() - t0);
    log(`server ${server.pid} ready on port ${server.port} in ${startupMs} ms`);
    let measured: Awaited<ReturnType<typeof measureAll>>;
    try {
      measured = await measureAll(server, startupMs);
    } catch (error) {
      log(`server stderr:\n${server.stderr()}`);
      throw error;
    } finally {
      const code = await server.stop();
      log(`server stopped (exit ${code})`);
    }

    // The same data directory again: what a restarted installation holds at idle, without initdb and seeding.
    const t1 = performance.now();
    const restarted = await startServer({ dataDir, env: SERVER_ENV, expectLogins: false });
    const restartStartupMs = Math.round(performance.now() - t1);
    let restartIdleRss: number;
    try {
      await sleep(PLAN.idleSeconds * 1000);
      restartIdleRss = restarted.rssBytes();
    } finally {
      await restarted.stop();
    }
    log(
      `restart on the same data: ready in ${restartStartupMs} ms, idle RSS ${round(restartIdleRss / MB)} MB`,
    );

    const results: IdentityResults = {
      date: new Date().toISOString(),
      machine: machine(loadAverage1m),
      vcpus: os.availableParallelism(),
      totalSeconds: round((performance.now() - t0) / 1000, 1),
      database: DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : 'embedded PGlite in a fresh DATA_DIR',
      ...measured,
      memory: { ...measured.memory, restartStartupMs, restartIdleRssMb: round(restartIdleRss / MB) },
    };
    const json = `${JSON.stringify(results, null, 2)}\n`;
    if (args.json) writeFileSync(args.json, json);
    else process.stdout.write(json);
    const perVcpu = (total: number) => round(total / results.vcpus);
    log(
      `targets: refresh ${perVcpu(results.refresh.perSecond)}/s/vCPU (>= ${TARGETS.refreshPerVcpu}), ` +
        `logins ${perVcpu(results.login.perSecond)}/s/vCPU (>= ${TARGETS.loginPerVcpu}), ` +
        `idle RSS ${results.memory.idleRssMb} MB (< ${TARGETS.idleRssMb})`,
    );
  } finally {
    removeDataDir();
  }
}

async function measureAll(server: RunningServer, startupMs: number) {
  const target: Target = {
    port: server.port,
    realmHost: server.realmHost,
    realmOrigin: server.realmOrigin,
    realm: 'demo',
  };
  await sleep(PLAN.idleSeconds * 1000);
  const idleRss = server.rssBytes();
  log(`idle RSS ${round(idleRss / MB)} MB`);

  const refresh = await measureRefresh(target, server);
  log(`refresh: ${refresh.perSecond}/s (${refresh.non2xx} non-2xx)`);
  const login = await measureLogins(target, server);
  log(`logins: ${login.perSecond}/s, p50 ${login.latencyP50Ms} ms, p99 ${login.latencyP99Ms} ms`);
  const rpt = await rptFor(target, server);
  const svc = await measureGet(target, server, 'GET /svc with RPT', SVC_PATH, {
    authorization: `Bearer ${rpt}`,
  });
  log(`svc: ${svc.perSecond}/s, p99 ${svc.latencyP99Ms} ms`);
  const healthz = await measureGet(target, server, 'GET /healthz', '/healthz', {});
  log(`healthz: ${healthz.perSecond}/s, p99 ${healthz.latencyP99Ms} ms`);

  const afterLoadRss = server.rssBytes();
  await sleep(PLAN.idleSeconds * 1000);
  const afterLoadIdleRss = server.rssBytes();
  const memory: Omit<MemoryPhase, 'restartStartupMs' | 'restartIdleRssMb'> = {
    idleRssMb: round(idleRss / MB),
    afterLoadRssMb: round(afterLoadRss / MB),
    afterLoadIdleRssMb: round(afterLoadIdleRss / MB),
    idleSeconds: PLAN.idleSeconds,
  };
  log(
    `RSS idle ${memory.idleRssMb} MB, after load ${memory.afterLoadRssMb} MB, later ${memory.afterLoadIdleRssMb} MB`,
  );
  return { startupMs, memory, refresh, login, svc, healthz };
}

await main();
