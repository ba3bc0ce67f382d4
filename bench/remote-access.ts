/**
 * Remote-access benchmark (issue 9), in one run on this machine, every program in its own process as deployed: the
 * real server (`node apps/server/src/main.ts`, PGlite files), the gateway agent (`apps/gateway-agent/src/cli.ts`,
 * started with the edge configuration file the API issues) and the companion CLI (`apps/companion/src/cli.ts
 * connect`). The plant's "machine" (bench/remote-access-machine.ts) is one more process, listening on the test LAN
 * address (10.213.0.1 on loopback); this process is the office's client:
 *  1. TCP throughput, upload (office → plant) and download (plant → office): a direct connection to the machine next
 *     to the same transfer through companion → server → agent (target: at least half of direct), and through three
 *     plain pipe relays (bench/remote-access-relay.ts), the least that path can cost;
 *  2. added latency: 1-byte request/response round trips on an open connection, direct and through the tunnel
 *     (p50/p95/p99), and the time to open a connection and get the first answer;
 *  3. 100 concurrent browser-access sessions through one gateway: 100 sessions opened with executeAction (ticket →
 *     cookie), then every session's requests at once → requests/s, p95 latency, errors (target: none).
 *
 * Usage: node bench/remote-access.ts [--mb 256] [--runs 3] [--round-trips 2000] [--sessions 100]
 *   [--requests 20] [--no-write]. BENCH_CPU_PROF=DIR runs the server, agent and companion with --cpu-prof.
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { freePort, startServerProcess } from '../apps/server/test/support/server-process.ts';
import { ensureTestLan } from '../apps/server/test/support/test-lan.ts';
import { type MachineMessage, PAGE, sendBytes } from './remote-access-machine.ts';
import { OidcClient } from './support/oidc.ts';
import { writeSection } from './support/results-file.ts';
import { REPO_ROOT, readCpuSeconds, readMachineBusySeconds } from './support/server.ts';
import { MB, percentile, round } from './support/stats.ts';

const { values: args } = parseArgs({
  options: {
    mb: { type: 'string', default: '256' },
    runs: { type: 'string', default: '3' },
    'round-trips': { type: 'string', default: '2000' },
    connects: { type: 'string', default: '100' },
    sessions: { type: 'string', default: '100' },
    requests: { type: 'string', default: '20' },
    'no-write': { type: 'boolean', default: false },
  },
});
const TRANSFER_BYTES = Number(args.mb) * MB;
const RUNS = Number(args.runs);
const ROUND_TRIPS = Number(args['round-trips']);
const CONNECTS = Number(args.connects);
const SESSIONS = Number(args.sessions);
const REQUESTS = Number(args.requests);
const TARGET_RATIO = 0.5;
const REALM = 'benchvpn';
const GATEWAY = 'Bench gateway';
const BASE = '/svc/vpn2/api/v1';
const PASSWORD = 'correct horse battery';
const AGENT_CLI = path.join(REPO_ROOT, 'apps/gateway-agent/src/cli.ts');
const COMPANION_CLI = path.join(REPO_ROOT, 'apps/companion/src/cli.ts');
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF;
const MACHINE = path.join(import.meta.dirname, 'remote-access-machine.ts');

function log(message: string) {
  process.stderr.write(`[remote-access.bench] ${message}\n`);
}

// --- the plant's machine (its own process) --------------------------------------------------------------------------

async function startMachine(address: string) {
  const child = fork(MACHINE, [address], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  process.on('exit', () => child.kill('SIGKILL'));
  const ready = await new Promise<{ tcpPort: number; httpPort: number }>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the machine exited with ${code}`)));
    child.on('message', (message: MachineMessage) => {
      if (message.type === 'ready') resolve(message);
    });
  });
  return {
    child,
    ...ready,
    /** HTTP requests the machine answered so far. */
    requests: () =>
      new Promise<number>((resolve) => {
        const answer = (message: MachineMessage) => {
          if (message.type !== 'requests') return;
          child.off('message', answer);
          resolve(message.count);
        };
        child.on('message', answer);
        child.send('requests');
      }),
  };
}

// --- clients -------------------------------------------------------------------------------------------------------

function open(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, noDelay: true }, () => {
      socket.off('error', reject);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function readExactly(socket: Socket, length: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let have = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      have += chunk.length;
      if (have >= length) {
        cleanup();
        resolve(Buffer.concat(chunks));
      }
    };
    const onEnd = () => {
      cleanup();
      reject(new Error(`connection ended after ${have} of ${length} bytes`));
    };
    const cleanup = () => {
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onEnd);
    };
    socket.on('data', onData);
    socket.on('end', onEnd);
    socket.on('error', onEnd);
  });
}

/** MB/s of an upload of `bytes`: from connecting until the machine confirms it got every byte. */
async function upload(host: string, port: number, bytes = TRANSFER_BYTES): Promise<number> {
  const started = performance.now();
  const socket = await open(host, port);
  const head = Buffer.alloc(9);
  head.write('U');
  head.writeBigUInt64BE(BigInt(bytes), 1);
  socket.write(head);
  const answer = readExactly(socket, 8);
  await sendBytes(socket, bytes);
  const count = await answer;
  const seconds = (performance.now() - started) / 1000;
  socket.destroy();
  const received = Number(count.readBigUInt64BE());
  if (received !== bytes) throw new Error(`the machine got ${received} of ${bytes} bytes`);
  return bytes / MB / seconds;
}

/** MB/s of a download of TRANSFER_BYTES: from connecting until the last byte arrived and the machine ended. */
async function download(host: string, port: number): Promise<number> {
  const started = performance.now();
  const socket = await open(host, port);
  const request = Buffer.alloc(9);
  request.write('D');
  request.writeBigUInt64BE(BigInt(TRANSFER_BYTES), 1);
  socket.write(request);
  let received = 0;
  await new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    socket.once('end', resolve);
    socket.once('error', reject);
  });
  const seconds = (performance.now() - started) / 1000;
  socket.destroy();
  if (received !== TRANSFER_BYTES) throw new Error(`got ${received} of ${TRANSFER_BYTES} bytes`);
  return TRANSFER_BYTES / MB / seconds;
}

/** Round-trip times (ms) of 1-byte messages on one open connection, after 100 unmeasured ones. */
async function roundTrips(host: string, port: number): Promise<number[]> {
  const socket = await open(host, port);
  socket.write('E');
  const times: number[] = [];
  const one = Buffer.from('x');
  for (let i = 0; i < ROUND_TRIPS + 100; i++) {
    const started = performance.now();
    const answer = readExactly(socket, 1);
    socket.write(one);
    await answer;
    if (i >= 100) times.push(performance.now() - started);
  }
  socket.destroy();
  return times;
}

/** Times (ms) from connecting to the first echoed byte, a new connection each. */
async function connectTimes(host: string, port: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < CONNECTS + 5; i++) {
    const started = performance.now();
    const socket = await open(host, port);
    const answer = readExactly(socket, 1);
    socket.write('Ex');
    await answer;
    if (i >= 5) times.push(performance.now() - started);
    socket.destroy();
  }
  return times;
}

// --- the server's API ----------------------------------------------------------------------------------------------

type Json = Record<string, unknown>;

function call(
  port: number,
  method: string,
  pathname: string,
  options: { token?: string; body?: unknown; host?: string; cookie?: string; agent?: Agent } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path: pathname,
        agent: options.agent,
        headers: {
          host: options.host ?? `${REALM}.app.localhost:${port}`,
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          ...(options.cookie ? { cookie: options.cookie } : {}),
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

async function json(
  port: number,
  method: string,
  pathname: string,
  token: string | undefined,
  body?: unknown,
): Promise<Json> {
  const answer = await call(port, method, pathname, { token, body });
  if (answer.status < 200 || answer.status > 299)
    throw new Error(`${method} ${pathname}: ${answer.status} ${answer.body.slice(0, 500)}`);
  return JSON.parse(answer.body) as Json;
}

// --- processes -----------------------------------------------------------------------------------------------------

type Child = { name: string; child: ChildProcess; output: () => string; stop(): Promise<void> };

function startNode(name: string, script: string, scriptArgs: string[]): Child {
  const profile = CPU_PROFILE_DIR
    ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR, `--cpu-prof-name=${name}.cpuprofile`]
    : [];
  const child = spawn(process.execPath, [...profile, script, ...scriptArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-20_000);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  process.on('exit', () => child.kill('SIGKILL'));
  return {
    name,
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Three plain relays in a row in front of `target` (each its own process); the address of the first. */
async function startRelays(target: { host: string; port: number }, children: Child[]) {
  let next = target;
  for (let hop = 3; hop > 0; hop--) {
    const relay = startNode(`relay-${hop}`, path.join(import.meta.dirname, 'remote-access-relay.ts'), [
      next.host,
      String(next.port),
    ]);
    children.push(relay);
    await waitForOutput(relay, /relay on \d+/, 'a plain relay');
    next = { host: '127.0.0.1', port: Number(/relay on (\d+)/.exec(relay.output())?.[1]) };
  }
  return next;
}

async function waitForOutput(process: Child, pattern: RegExp, what: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(process.output())) {
    if (process.child.exitCode !== null) throw new Error(`${what} exited: ${process.output()}`);
    if (Date.now() > deadline) throw new Error(`${what} not ready: ${process.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// --- 100 browser-access sessions -----------------------------------------------------------------------------------

type BrowserSession = { host: string; prefix: string; cookie: string; agent: Agent };

/**
 * executeAction, then the ticket request (its cookie and redirect) and the first page, as a browser does. The session
 * answers on its own host name (`{session}.remote.localhost:{port}`): requests go to 127.0.0.1 with that Host header.
 */
async function openBrowserSession(port: number, token: string, domain: string): Promise<BrowserSession> {
  const query = new URLSearchParams({
    gatewayName: GATEWAY,
    endpointName: 'hmi',
    actionName: 'web',
    clientOs: 'Lin',
  });
  const grant = await json(port, 'GET', `${BASE}/executeAction/${domain}?${query}`, token);
  const url = new URL(String(grant.url));
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const first = await call(port, 'GET', `${url.pathname}${url.search}`, { host: url.host, agent });
  const setCookie = first.headers['set-cookie'];
  const cookie = (Array.isArray(setCookie) ? setCookie : [setCookie ?? ''])
    .map((line) => line.split(';')[0] ?? '')
    .filter((pair) => pair.startsWith('edgeport_remote='))
    .join('; ');
  if (!cookie || first.status < 300 || first.status > 399)
    throw new Error(
      `ticket request answered ${first.status} without the session cookie: ${first.body.slice(0, 300)}`,
    );
  const location = new URL(String(first.headers.location ?? ''), url);
  const page = await call(port, 'GET', `${location.pathname}${location.search}`, {
    host: url.host,
    cookie,
    agent,
  });
  if (page.status !== 200 || !page.body.includes('bench-machine'))
    throw new Error(`the session's first page answered ${page.status}`);
  return { host: url.host, prefix: `/remote/${String(grant.sessionId)}/`, cookie, agent };
}

async function browserLoad(port: number, sessions: BrowserSession[]) {
  const latencies: number[] = [];
  let errors = 0;
  const firstErrors: string[] = [];
  const started = performance.now();
  await Promise.all(
    sessions.map(async (session) => {
      for (let i = 0; i < REQUESTS; i++) {
        const sent = performance.now();
        try {
          const answer = await call(port, 'GET', `${session.prefix}status?n=${i}`, {
            host: session.host,
            cookie: session.cookie,
            agent: session.agent,
          });
          latencies.push(performance.now() - sent);
          if (answer.status !== 200 || !answer.body.includes('bench-machine')) {
            errors += 1;
            if (firstErrors.length < 3) firstErrors.push(`${answer.status} ${answer.body.slice(0, 120)}`);
          }
        } catch (error) {
          errors += 1;
          if (firstErrors.length < 3) firstErrors.push(String(error));
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return { latencies, errors, firstErrors, seconds, perSecond: (sessions.length * REQUESTS) / seconds };
}

// --- the run -------------------------------------------------------------------------------------------------------

const median = (values: number[]) => percentile(values, 50);

async function main() {
  const lan = await ensureTestLan();
  const machine = await startMachine(lan.address);
  const machinePort = machine.tcpPort;
  const http = { port: machine.httpPort, requests: machine.requests };
  const work = mkdtempSync(path.join(os.tmpdir(), 'edgeport-bench-remote-'));
  if (CPU_PROFILE_DIR) mkdirSync(CPU_PROFILE_DIR, { recursive: true });
  const children: Child[] = [];
  const profile = CPU_PROFILE_DIR
    ? ['--cpu-prof', '--cpu-prof-dir', CPU_PROFILE_DIR, '--cpu-prof-name=server.cpuprofile']
    : [];
  const server = await startServerProcess(path.join(work, 'data'), {
    EDGEPORT_TEST_FIXTURES: 'true',
    ...(profile.length ? { NODE_OPTIONS: profile.join(' ') } : {}),
  });
  const port = server.httpPort;
  try {
    // A VPN organization, its administrator and one gateway whose LAN is the test LAN, with a TCP endpoint (the
    // machine) and an HTTP endpoint with its browser application.
    const seeded = await json(port, 'POST', '/test-support/tenants', undefined, {
      realm: REALM,
      organizations: [{ key: 'plant', name: 'Bench plant', vpnEnabled: true }],
      users: [
        {
          key: 'admin',
          email: 'admin@benchvpn.test',
          password: PASSWORD,
          memberships: [
            {
              org: 'plant',
              permissions: ['READ', 'CREATE', 'UPDATE', 'DELETE', 'ACCESS'].flatMap((scope) =>
                ['devices', 'portal'].map((rsname) => ({ rsname, scopes: [scope] })),
              ),
            },
          ],
        },
      ],
      gateways: [
        {
          org: 'plant',
          name: GATEWAY,
          lanNetwork: lan.lanNetwork,
          profile: { name: 'Bench applications', otpRequired: false },
          endpoints: [
            { name: 'machine', address: lan.address, protocol: 'TCP', port: machinePort },
            { name: 'hmi', address: lan.address, protocol: 'HTTP', port: http.port },
          ],
          actions: [{ name: 'web', protocol: 'HTTP', port: http.port, path: '/' }],
        },
      ],
    });
    const organizations = seeded.organizations as Record<string, { resourceId: string }>;
    const domain = organizations.plant?.resourceId ?? '';
    const gateway = (seeded.gateways as Record<string, { activationKey: string }>)[GATEWAY];
    if (!domain || !gateway) throw new Error(`fixture answer: ${JSON.stringify(seeded)}`);

    const oidc = new OidcClient({
      port,
      realm: REALM,
      realmHost: `${REALM}.app.localhost:${port}`,
      realmOrigin: `http://${REALM}.app.localhost:${port}`,
    });
    const tokens = await oidc.login('admin@benchvpn.test', PASSWORD);
    const token = await oidc.requestRpt(tokens.access_token, domain);
    oidc.close();

    const config = await json(
      port,
      'POST',
      `${BASE}/gateways/${domain}/${encodeURIComponent(GATEWAY)}/edge-config-file`,
      token,
      { activationKey: gateway.activationKey },
    );
    const configFile = path.join(work, 'edge-config.json');
    writeFileSync(configFile, JSON.stringify(config));
    const agent = startNode('agent', AGENT_CLI, ['--config', configFile]);
    children.push(agent);
    await waitForOutput(agent, /(?:^|\s)connected as gateway\b/m, 'the gateway agent');
    log(`agent connected to ${String(config.tunnelUrl)}`);

    // The companion CLI forwards a local port to the machine (one session; one tunnel stream per connection).
    const grant = await json(port, 'POST', `${BASE}/credentials/request`, token, {
      domain,
      gateway: GATEWAY,
      endpoint: 'machine',
      port: machinePort,
    });
    const localPort = await freePort();
    const companion = startNode('companion', COMPANION_CLI, [
      'connect',
      '--server',
      `http://127.0.0.1:${port}`,
      '--token',
      String(grant.token),
      '--local-port',
      String(localPort),
    ]);
    children.push(companion);
    await waitForOutput(companion, /listening on/, 'the companion CLI');
    const direct = { host: lan.address, port: machinePort };
    const tunnel = { host: '127.0.0.1', port: localPort };
    const relays = await startRelays(direct, children);

    // 1. Throughput, direct and tunnel runs alternating (the machine is shared: noise hits both alike).
    const throughput = {
      upload: { direct: [] as number[], tunnel: [] as number[], relays: [] as number[] },
      download: { direct: [] as number[], tunnel: [] as number[], relays: [] as number[] },
    };

    const cpu = { server: 0, agent: 0, companion: 0, plant: 0, self: 0, machine: 0, seconds: 0 };
    const pids = {
      server: server.child.pid ?? 0,
      agent: agent.child.pid ?? 0,
      companion: companion.child.pid ?? 0,
      plant: machine.child.pid ?? 0,
    };
    log(`throughput: ${RUNS} runs of ${args.mb} MB each way, direct and through the tunnel`);
    await upload(tunnel.host, tunnel.port, 32 * MB); // warm-up (JIT, first stream)
    for (let run = 0; run < RUNS; run++) {
      for (const direction of ['upload', 'download'] as const) {
        const transfer = direction === 'upload' ? upload : download;
        throughput[direction].direct.push(await transfer(direct.host, direct.port));
        throughput[direction].relays.push(await transfer(relays.host, relays.port));
        const before = {
          server: readCpuSeconds(pids.server),
          agent: readCpuSeconds(pids.agent),
          companion: readCpuSeconds(pids.companion),
          plant: readCpuSeconds(pids.plant),
          self: process.cpuUsage(),
          machine: readMachineBusySeconds(),
          at: performance.now(),
        };
        throughput[direction].tunnel.push(await transfer(tunnel.host, tunnel.port));
        cpu.server += readCpuSeconds(pids.server) - before.server;
        cpu.agent += readCpuSeconds(pids.agent) - before.agent;
        cpu.companion += readCpuSeconds(pids.companion) - before.companion;
        cpu.plant += readCpuSeconds(pids.plant) - before.plant;
        const self = process.cpuUsage(before.self);
        cpu.self += (self.user + self.system) / 1e6;
        cpu.machine += readMachineBusySeconds() - before.machine;
        cpu.seconds += (performance.now() - before.at) / 1000;
        log(
          `run ${run + 1} ${direction}: direct ${round(throughput[direction].direct.at(-1) ?? 0)} MB/s, three plain relays ${round(throughput[direction].relays.at(-1) ?? 0)} MB/s, tunnel ${round(throughput[direction].tunnel.at(-1) ?? 0)} MB/s`,
        );
      }
    }

    // 2. Latency.
    log(`latency: ${ROUND_TRIPS} round trips and ${CONNECTS} connects each way`);
    const rtt = {
      direct: await roundTrips(direct.host, direct.port),
      tunnel: await roundTrips(tunnel.host, tunnel.port),
    };
    const connects = {
      direct: await connectTimes(direct.host, direct.port),
      tunnel: await connectTimes(tunnel.host, tunnel.port),
    };
    await companion.stop();

    // 3. Browser access: SESSIONS sessions, opened one after another, then loaded all at once.
    log(`browser access: opening ${SESSIONS} sessions`);
    const openTimes: number[] = [];
    const sessions: BrowserSession[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const started = performance.now();
      sessions.push(await openBrowserSession(port, token, domain));
      openTimes.push(performance.now() - started);
    }
    const machineBefore = await http.requests();
    log(`browser access: ${SESSIONS} sessions × ${REQUESTS} requests at once`);
    const load = await browserLoad(port, sessions);
    const reachedMachine = (await http.requests()) - machineBefore;
    for (const session of sessions) session.agent.destroy();
    log(`browser access: ${round(load.perSecond)} requests/s, ${load.errors} errors`);

    const body = report({
      throughput,
      cpu,
      rtt,
      connects,
      openTimes,
      load,
      reachedMachine,
    });
    process.stdout.write(`${body}\n`);
    if (!args['no-write']) writeSection('remote-access', body);
  } catch (error) {
    for (const child of children) log(`output of ${child.name}:\n${child.output()}`);
    throw error;
  } finally {
    for (const child of children) await child.stop();
    server.child.kill('SIGTERM');
    await server.exited;
    machine.child.kill('SIGTERM');
    rmSync(work, { recursive: true, force: true });
  }
}

type Results = {
  throughput: Record<'upload' | 'download', { direct: number[]; tunnel: number[]; relays: number[] }>;
  cpu: {
    server: number;
    agent: number;
    companion: number;
    plant: number;
    self: number;
    machine: number;
    seconds: number;
  };
  rtt: { direct: number[]; tunnel: number[] };
  connects: { direct: number[]; tunnel: number[] };
  openTimes: number[];
  load: { latencies: number[]; errors: number; firstErrors: string[]; seconds: number; perSecond: number };
  reachedMachine: number;
};

function report(results: Results): string {
  const cpu = os.cpus();
  const ms = (value: number) => `${round(value, 2)} ms`;
  const rows: string[] = [];
  let throughputMet = true;
  for (const direction of ['upload', 'download'] as const) {
    const direct = median(results.throughput[direction].direct);
    const tunnel = median(results.throughput[direction].tunnel);
    const relays = median(results.throughput[direction].relays);
    const ratio = tunnel / direct;
    if (ratio < TARGET_RATIO) throughputMet = false;
    rows.push(
      `| ${direction === 'upload' ? 'upload (office → plant)' : 'download (plant → office)'} | ${round(direct)} MB/s | ${round(relays)} MB/s (${round((relays / direct) * 100)} %) | ${round(tunnel)} MB/s | ${round(ratio * 100)} % | ${round((tunnel / relays) * 100)} % | ${ratio >= TARGET_RATIO ? '**yes**' : '**no**'} |`,
    );
  }
  const tunnelSeconds = results.cpu.seconds;
  const share = (seconds: number) => `${round((seconds / tunnelSeconds) * 100)} %`;
  const { server, agent, companion, plant, self } = results.cpu;
  const ours = server + agent + companion + plant + self;
  const latency = (name: string, values: number[]) =>
    `| ${name} | ${ms(percentile(values, 50))} | ${ms(percentile(values, 95))} | ${ms(percentile(values, 99))} |`;
  const added = percentile(results.rtt.tunnel, 95) - percentile(results.rtt.direct, 95);
  const loadMet = results.load.errors === 0;
  return [
    '## Remote access — TCP through the tunnel, added latency, 100 browser sessions',
    '',
    `Run ${new Date().toISOString().slice(0, 10)} on ${cpu.length} vCPUs (${cpu[0]?.model ?? 'unknown CPU'}), ${round(os.totalmem() / 1024 ** 3)} GiB, Linux ${os.release()}, Node ${process.version}.`,
    'Every program in its own process, as deployed: the server (`node apps/server/src/main.ts`, PGlite), the gateway',
    'agent (`apps/gateway-agent/src/cli.ts` with the edge configuration file the API issued) and the companion CLI',
    '(`apps/companion/src/cli.ts connect`); the plant machine is one more process on the test LAN address (10.213.0.1',
    'on loopback), the benchmark is the client. "Direct" connects to the machine; "tunnel" to the companion\'s local port:',
    "companion → raw upgraded connection → server → the agent's raw data connection → agent → machine (no framing; the",
    "agent's tunnel WebSocket only carries the control messages). The machine is shared with other work: direct",
    'and tunnel runs alternate. Command: `node bench/remote-access.ts` (part of `npm run bench`).',
    '',
    `### TCP throughput (${args.mb} MB per transfer, median of ${RUNS} runs; target: tunnel ≥ ${TARGET_RATIO * 100} % of direct)`,
    '',
    '| transfer | direct | three plain relays (of direct) | tunnel | tunnel / direct | tunnel / plain relays | target met |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    '"Three plain relays" is the yardstick for the path: three processes in a row (`bench/remote-access-relay.ts`), each',
    'accepting the connection and piping it on, with no protocol and no checks: what companion → server → agent costs',
    "at the least when all of them share this machine's cores with the client and the machine. Transfers alternate",
    'direct, relays, tunnel.',
    '',
    `CPU during the tunnel transfers (${round(tunnelSeconds, 1)} s): server ${share(results.cpu.server)}, agent ${share(results.cpu.agent)},`,
    `companion ${share(results.cpu.companion)}, plant machine ${share(results.cpu.plant)}, benchmark client ${share(results.cpu.self)} of one core; the whole`,
    `machine ${share(results.cpu.machine)} (of ${cpu.length * 100} %), of which other programs ${share(results.cpu.machine - ours)}: the tunnel's`,
    'processes compete for the cores with them (a busy machine lowers the tunnel figures more than the direct ones).',
    '',
    `### Added latency (${ROUND_TRIPS} round trips of 1 byte on an open connection; ${CONNECTS} new connections)`,
    '',
    '| measure | p50 | p95 | p99 |',
    '| --- | --- | --- | --- |',
    latency('round trip, direct', results.rtt.direct),
    latency('round trip, tunnel', results.rtt.tunnel),
    latency('connect + first answer, direct', results.connects.direct),
    latency('connect + first answer, tunnel', results.connects.tunnel),
    '',
    `Added by the tunnel at p95: ${ms(added)} per round trip.`,
    '',
    `### ${SESSIONS} concurrent browser-access sessions through one gateway`,
    '',
    `${SESSIONS} sessions opened one after another with executeAction, each followed by its ticket request (cookie,`,
    `redirect) and first page (open time p50 ${ms(percentile(results.openTimes, 50))}, p95 ${ms(percentile(results.openTimes, 95))}); then every session sent`,
    `${REQUESTS} requests at once (one keep-alive connection per session, one request after another) to \`/remote/{session}/...\`,`,
    `proxied through the agent to a ${Buffer.byteLength(PAGE)}-byte page.`,
    '',
    '| sessions | requests | requests/s | p50 | p95 | p99 | errors | reached the machine |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${SESSIONS} | ${SESSIONS * REQUESTS} | ${round(results.load.perSecond)} | ${ms(percentile(results.load.latencies, 50))} | ${ms(percentile(results.load.latencies, 95))} | ${ms(percentile(results.load.latencies, 99))} | ${results.load.errors} | ${results.reachedMachine} |`,
    '',
    ...(results.load.firstErrors.length ? [`First errors: ${results.load.firstErrors.join('; ')}`, ''] : []),
    `Targets met: throughput ${throughputMet ? '**yes**' : '**no**'}; browser sessions without errors ${loadMet ? '**yes**' : '**no**'}.`,
  ].join('\n');
}

await main();
