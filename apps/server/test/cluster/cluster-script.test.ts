import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpRequest, OidcClient, type Target } from '../../../../bench/support/oidc.ts';
import { buildServer } from '../../scripts/build.ts';

// `npm run cluster` as a person runs it: scripts/cluster.sh with Debian's PostgreSQL, Mosquitto and nginx (which the
// PostgreSQL pass of `npm test` has installed) and two bundled server instances, in a directory of its own.
const root = path.resolve(import.meta.dirname, '../../../..');
const LOGIN_LINE = /^Sign in at (\S+) as (\S+) with password (\S+)$/;
const READY_LINE = 'Ctrl-C stops the cluster.';

type Run = { child: ChildProcess; output: string[]; exited: Promise<number | null> };

const runs = new Set<ChildProcess>();
let clusterDir = '';
beforeAll(async () => {
  clusterDir = await mkdtemp(path.join(tmpdir(), 'edgeport-cluster-'));
  await buildServer();
}, 120_000);
afterAll(async () => {
  for (const child of runs) if (child.exitCode === null) child.kill('SIGTERM');
  await Promise.all([...runs].map((child) => (child.exitCode === null ? once(child, 'exit') : undefined)));
  await rm(clusterDir, { recursive: true, force: true });
}, 90_000);

function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Processes whose command line names the cluster's directory: its PostgreSQL, Mosquitto and nginx. */
async function partsRunning(): Promise<string[]> {
  const found: string[] = [];
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (commandLine.includes(clusterDir)) found.push(commandLine.replaceAll('\0', ' '));
  }
  return found;
}

/** The server process of one instance (its DATA_DIR is the instance's directory). */
async function instancePid(name: string): Promise<number> {
  for (const pid of (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry))) {
    const environment = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '');
    if (environment.split('\0').includes(`DATA_DIR=${path.join(clusterDir, name)}`)) return Number(pid);
  }
  throw new Error(`no process of ${name}`);
}

async function free(port: number): Promise<boolean> {
  const probe = createServer();
  const taken = await new Promise<boolean>((resolve) => {
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => resolve(false));
  });
  if (!taken) await new Promise((resolve) => probe.close(resolve));
  return !taken;
}

/** A CLUSTER_PORT whose instance ports (+101, +102) are free as well. */
async function clusterPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    if ((await free(port)) && (await free(port + 101)) && (await free(port + 102))) return port;
  }
}

function startCluster(port: number, env: Record<string, string> = {}): Run {
  const child = spawn('bash', ['scripts/cluster.sh'], {
    cwd: root,
    env: {
      ...process.env,
      CLUSTER_PORT: String(port),
      CLUSTER_DIR: clusterDir,
      CLUSTER_BUILD: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  runs.add(child);
  const output: string[] = [];
  for (const stream of [child.stdout, child.stderr])
    stream?.setEncoding('utf8').on('data', (chunk: string) => output.push(...chunk.split('\n')));
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  return { child, output, exited };
}

/** Resolves when the cluster printed its banner; throws with its output if it ended first or took too long. */
async function ready(run: Run, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!run.output.some((line) => line.endsWith(READY_LINE))) {
    if (run.child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the cluster did not start:\n${run.output.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function numberAfter(run: Run, pattern: RegExp): number {
  const match = run.output.map((line) => pattern.exec(line)).find(Boolean);
  return Number(match?.[1]);
}

/** The database of the running cluster, as its instances reach it. */
async function database(run: Run): Promise<pg.Client> {
  const secrets = await readFile(path.join(clusterDir, 'secrets.env'), 'utf8');
  const password = /^PG_PASSWORD=(\S+)$/m.exec(secrets)?.[1];
  const client = new pg.Client({
    host: '127.0.0.1',
    port: numberAfter(run, /PostgreSQL 127\.0\.0\.1:(\d+)/),
    user: 'postgres',
    password,
    database: 'edgeport',
  });
  await client.connect();
  return client;
}

async function stored(client: pg.Client): Promise<{ messages: number; devices: number }> {
  const { rows } = await client.query<{ messages: number; devices: number }>(
    'select count(*)::int as messages, count(distinct device_id)::int as devices from telemetry',
  );
  return rows[0] ?? { messages: 0, devices: 0 };
}

describe.runIf(process.env.TEST_DATABASE_URL)('npm run cluster', () => {
  it('runs two instances behind nginx with the demo on Mosquitto, stops on Ctrl-C and reuses its data', async () => {
    const port = await clusterPort();
    const target: Target = {
      port,
      realm: 'demo',
      realmHost: `demo.app.localhost:${port}`,
      realmOrigin: `http://demo.app.localhost:${port}`,
    };
    const first = startCluster(port);
    await ready(first);
    const bannerAt = Date.now();

    // The instance that seeded the demo printed the sign-in lines as `npm start` does, with the load balancer's port.
    const logins = first.output.filter((line) => LOGIN_LINE.test(line));
    expect(logins).toHaveLength(2);
    expect(logins[0]).toMatch(
      `Sign in at http://demo.app.localhost:${port} as admin@demo.local with password`,
    );

    // Round robin without sticky sessions: consecutive requests reach both instances (nginx logs which answered).
    for (let i = 0; i < 4; i++) expect((await httpRequest(target, { path: '/healthz' })).status).toBe(200);
    const upstreams = (await readFile(path.join(clusterDir, 'nginx/access.log'), 'utf8'))
      .split('\n')
      .filter((line) => line.includes('/healthz'))
      .map((line) => line.split(' ').at(-2));
    expect(new Set(upstreams)).toEqual(new Set([`127.0.0.1:${port + 101}`, `127.0.0.1:${port + 102}`]));

    // The realm's host name reaches the instances unchanged, and a sign-in whose steps alternate between them works.
    const discovery = await httpRequest(target, {
      path: '/auth/realms/demo/.well-known/openid-configuration',
    });
    expect(JSON.parse(discovery.body).issuer).toBe(`${target.realmOrigin}/auth/realms/demo`);
    const [, , email = '', password = ''] = LOGIN_LINE.exec(logins[0] ?? '') ?? [];
    const browser = new OidcClient(target);
    try {
      expect((await browser.login(email, password)).access_token).toMatch(/^ey/);
    } finally {
      browser.close();
    }

    // The six demo devices publish to Mosquitto and their values are stored.
    const db = await database(first);
    try {
      let now = await stored(db);
      for (let i = 0; i < 100 && (now.devices < 6 || now.messages < 12); i++) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        now = await stored(db);
      }
      expect(now.devices).toBe(6);
    } finally {
      await db.end();
    }

    // An instance killed after its start is started again; nginx answers through the other one meanwhile.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, bannerAt + 11_000 - Date.now())));
    process.kill(await instancePid('instance-2'), 'SIGKILL');
    for (let i = 0; i < 4; i++) expect((await httpRequest(target, { path: '/healthz' })).status).toBe(200);
    let back = false;
    for (let i = 0; i < 150 && !back; i++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      back = await listens(port + 102);
    }
    expect(back, first.output.join('\n')).toBe(true);
    expect(first.output).toContain(
      'cluster: instance-2 stopped on its own (exit code 137): starting it again',
    );

    // Ctrl-C stops every part and the script exits 0.
    const running = (await partsRunning()).join('\n');
    for (const part of ['bin/postgres -D', 'mosquitto -c', 'nginx: master process'])
      expect(running).toContain(part);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(0);
    expect(await partsRunning()).toEqual([]);
    expect(await Promise.all([port, port + 101, port + 102].map(listens))).toEqual([false, false, false]);

    // A second run reuses the database: no sign-in lines, the same password still signs in.
    const second = startCluster(port);
    await ready(second, 90_000);
    expect(second.output.filter((line) => LOGIN_LINE.test(line))).toEqual([]);
    const again = new OidcClient(target);
    try {
      expect((await again.login(email, password)).access_token).toMatch(/^ey/);
    } finally {
      again.close();
    }
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    // A part that fails to start stops the rest, and the script says which and exits 1.
    const failing = startCluster(port, { LOG_LEVEL: 'chatty' });
    expect(await failing.exited).toBe(1);
    expect(failing.output).toContain('cluster: instance-1 stopped while starting (its lines above say why)');
    expect(await partsRunning()).toEqual([]);
    expect(await Promise.all([port + 101, port + 102].map(listens))).toEqual([false, false]);
  }, 300_000);
});
