import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** How `npm start` runs the bundled server (`npm run build` first), with its process settings. */
const START_SCRIPT = path.join(REPO_ROOT, 'apps/server/start.sh');
const LOGIN_LINE = /^Sign in at (\S+) as (\S+) with password (\S+)\s*$/;

export type DemoLogin = { url: string; email: string; password: string };

export type StartOptions = {
  /** Extra node flags for the server, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** How long to wait for the login lines and `/readyz` 200. */
  readyTimeoutMs?: number;
  /** Extra environment for the server. */
  env?: NodeJS.ProcessEnv;
  /**
   * An existing data directory to use (and keep). Without it a fresh temporary one is made and removed on stop.
   * A data directory that already holds the demo realm gets no demo logins printed.
   */
  dataDir?: string;
  /** Wait for the two demo login lines before declaring the server ready (default: true). */
  expectLogins?: boolean;
};

export type RunningServer = {
  pid: number;
  port: number;
  /** The Host header that selects the demo realm: `demo.app.localhost:{port}`. */
  realmHost: string;
  /** The browser-facing origin of the demo realm. */
  realmOrigin: string;
  logins: DemoLogin[];
  /** Resident set size of the server process, from /proc/{pid}/status (VmRSS), in bytes. */
  rssBytes(): number;
  /** User + system CPU time the server process has used so far, in seconds (/proc/{pid}/stat). */
  cpuSeconds(): number;
  /** Everything the server wrote to stderr so far (for diagnostics). */
  stderr(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves with the exit code (null when killed). */
  stop(graceMs?: number): Promise<number | null>;
};

/** A port free right now on 127.0.0.1 (the kernel picks it; a race with other programs is possible but unlikely). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => (port ? resolve(port) : reject(new Error('no port assigned'))));
    });
  });
}

let clockTicks: number | undefined;
function clockTicksPerSecond(): number {
  if (clockTicks === undefined) {
    const out = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
    const value = Number.parseInt(out.stdout ?? '', 10);
    clockTicks = Number.isFinite(value) && value > 0 ? value : 100;
  }
  return clockTicks;
}

export function readRssBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status);
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

export function readCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may contain spaces; the fields after it are space separated.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15 of the whole line, i.e. 11 and 12 after the state field (3).
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return (utime + stime) / clockTicksPerSecond();
}

/** CPU seconds all processes of the machine spent busy so far (first line of /proc/stat, idle and iowait excluded). */
export function readMachineBusySeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0] ?? '';
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
  return (user + nice + system + irq + softirq + steal) / clockTicksPerSecond();
}

function get(port: number, pathname: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port, path: pathname, method: 'GET', timeout: timeoutMs },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

/**
 * Starts the server as `npm start` does (apps/server/start.sh: the bundle and its process settings) in demo mode on a free port (with a fresh temporary DATA_DIR unless one is
 * given) and resolves when it has printed both demo logins and answers `/readyz` with 200. A temporary data
 * directory is removed on stop.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'edgeport-bench-'));
  const expectedLogins = options.expectLogins === false ? 0 : 2;
  // start.sh replaces itself with node (exec): the child's pid is the server's, for /proc.
  const child: ChildProcess = spawn(START_SCRIPT, [], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      SERVER_NODE: process.execPath,
      SERVER_NODE_ARGS: (options.nodeArgs ?? []).join(' '),
      ...options.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      PUBLIC_PORT: String(port),
      MQTT_PORT: '0',
      EDGEPORT_DEMO: 'true',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the server did not start');

  let exited = false;
  let exitCode: number | null = null;
  const exitedPromise = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      exited = true;
      exitCode = code;
      resolve(code);
    });
  });
  // Never leave the server behind if the benchmark itself dies.
  const killOnExit = () => {
    if (!exited) child.kill('SIGKILL');
  };
  process.on('exit', killOnExit);

  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  const logins: DemoLogin[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on('line', (line) => {
    const match = LOGIN_LINE.exec(line);
    if (match?.[1] && match[2] && match[3])
      logins.push({ url: match[1], email: match[2], password: match[3] });
  });

  const stop = async (graceMs = 10_000): Promise<number | null> => {
    if (!exited) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        if (!exited) child.kill('SIGKILL');
      }, graceMs);
      await exitedPromise;
      clearTimeout(timer);
    }
    process.off('exit', killOnExit);
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    return exitCode;
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      await stop();
      throw new Error(`the server exited with code ${exitCode} before it was ready:\n${stderr}`);
    }
    if (logins.length >= expectedLogins && (await get(port, '/readyz', 2_000)) === 200) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server was not ready within ${options.readyTimeoutMs ?? 60_000} ms:\n${stderr}`);
    }
    await sleep(100);
  }

  const realmHost = `demo.app.localhost:${port}`;
  return {
    pid,
    port,
    realmHost,
    realmOrigin: `http://${realmHost}`,
    logins,
    rssBytes: () => readRssBytes(pid),
    cpuSeconds: () => readCpuSeconds(pid),
    stderr: () => stderr,
    stop,
  };
}
