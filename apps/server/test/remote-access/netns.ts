/**
 * A plant and an office on one machine, made of Linux network namespaces (iproute2, as root), for the remote-access
 * integration test:
 *
 *   office (10.77.N.2) ──veth── root (10.77.N.1 · 10.77.N.5) ──veth── plant uplink (10.77.N.6)
 *                                  the server listens here              plant LAN 10.78.N.0/24: nginx, sshd at .10
 *
 * The root namespace stands for the internet: the portal server listens there on every address, the office reaches it
 * at 10.77.N.1 and the plant's gateway agent at 10.77.N.5. No namespace has a route to another's networks (no default
 * routes), so the office can never reach the plant LAN except through the server and the agent's tunnel.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const PREFIX = 'ep-';
const NAME_PATTERN = /^ep-(plant|office)-(\d+)$/;

export type Lab = {
  plant: string;
  office: string;
  /** The server's address as the office reaches it. */
  officeServerAddress: string;
  /** The server's address as the plant (its gateway agent) reaches it. */
  plantServerAddress: string;
  officeAddress: string;
  plantUplinkAddress: string;
  /** The plant LAN, where nginx and sshd listen at `lanAddress`. */
  lanNetwork: string;
  lanAddress: string;
  /** A temporary directory removed on close. */
  dir: string;
  /** Starts a long-running process inside a namespace; it is killed on close. */
  spawnIn(namespace: string, command: string, args: string[], options?: SpawnOptions): LabProcess;
  /** Runs a command inside a namespace to its end. */
  execIn(namespace: string, command: string, args: string[], timeoutMs?: number): Promise<RunResult>;
  close(): Promise<void>;
};

export type SpawnOptions = { env?: NodeJS.ProcessEnv; cwd?: string };
export type RunResult = { code: number; stdout: string; stderr: string };

export type LabProcess = {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /**
   * Resolves with the `count`-th output line matching `pattern` (default the first); rejects when the process exits
   * first or on timeout.
   */
  waitFor(pattern: RegExp, timeoutMs?: number, count?: number): Promise<string>;
  /** How many output lines so far match `pattern`. */
  count(pattern: RegExp): number;
  exited: Promise<number | null>;
  stop(): Promise<void>;
};

async function ip(...args: string[]): Promise<string> {
  const { stdout } = await run('ip', args);
  return stdout;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function killNamespaceProcesses(namespace: string): Promise<void> {
  const pids = await ip('netns', 'pids', namespace).catch(() => '');
  for (const pid of pids.split(/\s+/).filter(Boolean)) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {}
  }
}

async function deleteNamespace(namespace: string): Promise<void> {
  await killNamespaceProcesses(namespace);
  await ip('netns', 'del', namespace).catch(() => undefined);
}

/** Removes the namespaces (and their processes) of earlier runs whose process is gone. */
export async function removeStaleNamespaces(): Promise<string[]> {
  const listed = await ip('netns', 'list').catch(() => '');
  const removed: string[] = [];
  for (const line of listed.split('\n')) {
    const name = line.split(/\s+/)[0] ?? '';
    const match = NAME_PATTERN.exec(name);
    if (!match || alive(Number(match[2]))) continue;
    await deleteNamespace(name);
    removed.push(name);
  }
  // Root-side veth ends die with their peers; remove any left by a run killed halfway through creating them.
  const links = await ip('-o', 'link', 'show').catch(() => '');
  for (const match of links.matchAll(/^\d+: (ep(\d+)[op])[@:]/gm)) {
    if (match[1] && !alive(Number(match[2]))) await ip('link', 'del', match[1]).catch(() => undefined);
  }
  return removed;
}

/** A third octet no interface of the root namespace uses yet in 10.77/16, starting from one derived from the pid. */
async function freeSubnet(): Promise<number> {
  const used = await ip('-o', '-4', 'addr', 'show');
  for (let attempt = 0; attempt < 250; attempt++) {
    const n = ((process.pid + attempt) % 250) + 1;
    if (!used.includes(`10.77.${n}.`)) return n;
  }
  throw new Error('no free 10.77.N.0/24 subnet for the test namespaces');
}

export async function createLab(): Promise<Lab> {
  if (process.getuid?.() !== 0) throw new Error('the network-namespace test runs as root (iproute2)');
  await removeStaleNamespaces();
  const pid = process.pid;
  const plant = `${PREFIX}plant-${pid}`;
  const office = `${PREFIX}office-${pid}`;
  const n = await freeSubnet();
  const addresses = {
    officeServerAddress: `10.77.${n}.1`,
    officeAddress: `10.77.${n}.2`,
    plantServerAddress: `10.77.${n}.5`,
    plantUplinkAddress: `10.77.${n}.6`,
    lanNetwork: `10.78.${n}.0/24`,
    lanAddress: `10.78.${n}.10`,
  };
  const dir = await mkdtemp(path.join(tmpdir(), `edgeport-netns-${pid}-`));
  const processes = new Set<LabProcess>();

  const close = async () => {
    await Promise.all([...processes].map((child) => child.stop()));
    await deleteNamespace(plant);
    await deleteNamespace(office);
    await ip('link', 'del', `ep${pid}o`).catch(() => undefined);
    await ip('link', 'del', `ep${pid}p`).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };

  try {
    for (const namespace of [plant, office]) {
      await ip('netns', 'add', namespace);
      await ip('-n', namespace, 'link', 'set', 'lo', 'up');
    }
    const uplink = async (namespace: string, rootSide: string, rootAddress: string, address: string) => {
      await ip('link', 'add', rootSide, 'type', 'veth', 'peer', 'name', 'uplink', 'netns', namespace);
      await ip('addr', 'add', `${rootAddress}/30`, 'dev', rootSide);
      await ip('link', 'set', rootSide, 'up');
      await ip('-n', namespace, 'addr', 'add', `${address}/30`, 'dev', 'uplink');
      await ip('-n', namespace, 'link', 'set', 'uplink', 'up');
    };
    await uplink(office, `ep${pid}o`, addresses.officeServerAddress, addresses.officeAddress);
    await uplink(plant, `ep${pid}p`, addresses.plantServerAddress, addresses.plantUplinkAddress);
    // The plant LAN: a veth pair inside the plant (the kernel has no dummy interfaces here), the machines on lan0.
    await ip('-n', plant, 'link', 'add', 'lan0', 'type', 'veth', 'peer', 'name', 'lan1');
    await ip('-n', plant, 'addr', 'add', `${addresses.lanAddress}/24`, 'dev', 'lan0');
    await ip('-n', plant, 'link', 'set', 'lan1', 'up');
    await ip('-n', plant, 'link', 'set', 'lan0', 'up');
  } catch (error) {
    await close();
    throw error;
  }

  const spawnIn = (namespace: string, command: string, args: string[], options: SpawnOptions = {}) => {
    const child = spawn('ip', ['netns', 'exec', namespace, command, ...args], {
      env: options.env ?? process.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const handle = labProcess(child);
    processes.add(handle);
    void handle.exited.then(() => processes.delete(handle));
    return handle;
  };

  const execIn = (namespace: string, command: string, args: string[], timeoutMs = 15_000) =>
    new Promise<RunResult>((resolve) => {
      execFile(
        'ip',
        ['netns', 'exec', namespace, command, ...args],
        { timeout: timeoutMs, encoding: 'utf8' },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  return { plant, office, ...addresses, dir, spawnIn, execIn, close };
}

function labProcess(child: ChildProcess): LabProcess {
  let output = '';
  const waiters = new Set<() => void>();
  const onData = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    for (const wake of waiters) wake();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      for (const wake of waiters) wake();
      resolve(code);
    });
  });
  let done = false;
  void exited.then(() => {
    done = true;
  });
  return {
    child,
    output: () => output,
    exited,
    count: (pattern) => output.split('\n').filter((line) => pattern.test(line)).length,
    waitFor(pattern, timeoutMs = 15_000, count = 1) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const line = output.split('\n').filter((candidate) => pattern.test(candidate))[count - 1];
          if (line !== undefined) finish(() => resolve(line));
          else if (done) finish(() => reject(new Error(`process exited before ${pattern}: ${output}`)));
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`timed out waiting for ${pattern}: ${output}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          waiters.delete(check);
          settle();
        };
        waiters.add(check);
        check();
      });
    },
    async stop() {
      if (done) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Whether a TCP connection from inside `namespace` to host:port is established (bash's /dev/tcp, 3 s at most). */
export async function tcpConnects(lab: Lab, namespace: string, host: string, port: number): Promise<boolean> {
  const result = await lab.execIn(namespace, 'timeout', [
    '3',
    'bash',
    '-c',
    `exec 3<>/dev/tcp/${host}/${port}`,
  ]);
  return result.code === 0;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

// --- the plant's machines --------------------------------------------------------------------------------------------

export type PlantWeb = {
  /** Unique text on the index page. */
  marker: string;
  /** Text of the page the redirect leads to. */
  landingMarker: string;
  accessLog: string;
  /** Lines of nginx's access log so far. */
  requestCount(): Promise<number>;
};

/**
 * nginx on the plant LAN, port 80, with its own configuration in the lab's directory: `/` the marker page,
 * `/set-cookie` sets a cookie, `/show-cookie` echoes the Cookie header back, `/go` redirects (absolute Location, as
 * nginx does by default) to `/landing.html`.
 */
export async function startNginx(lab: Lab): Promise<PlantWeb> {
  const root = path.join(lab.dir, 'nginx');
  const www = path.join(root, 'www');
  await mkdir(path.join(root, 'temp'), { recursive: true });
  await mkdir(www, { recursive: true });
  const marker = `plant-machine-${process.pid}-${Date.now().toString(36)}`;
  const landingMarker = `landing-${marker}`;
  await writeFile(
    path.join(www, 'index.html'),
    `<!doctype html><html><head><title>Plant HMI</title></head><body><h1 id="marker">${marker}</h1>` +
      `<a href="/go">go</a></body></html>\n`,
  );
  await writeFile(
    path.join(www, 'landing.html'),
    `<!doctype html><html><head><title>Landing</title></head><body><p id="landing">${landingMarker}</p></body></html>\n`,
  );
  const accessLog = path.join(root, 'access.log');
  const conf = path.join(root, 'nginx.conf');
  const temp = path.join(root, 'temp');
  await writeFile(
    conf,
    `daemon off;
user root;
worker_processes 1;
pid ${root}/nginx.pid;
error_log ${root}/error.log warn;
events { worker_connections 256; }
http {
  access_log ${accessLog};
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  default_type text/html;
  server {
    listen ${lab.lanAddress}:80;
    server_name plant-hmi;
    root ${www};
    location = /set-cookie {
      add_header Set-Cookie "plant_session=${marker}; Path=/; HttpOnly" always;
      return 200 "<!doctype html><p id=\\"cookie-set\\">cookie set</p>\\n";
    }
    location = /show-cookie {
      return 200 "<!doctype html><p id=\\"cookie\\">$http_cookie</p>\\n";
    }
    location = /go {
      return 302 /landing.html;
    }
  }
}
`,
  );
  await writeFile(accessLog, '');
  lab.spawnIn(lab.plant, '/usr/sbin/nginx', ['-c', conf, '-p', root]);
  await waitUntil('nginx on the plant LAN', () => tcpConnects(lab, lab.plant, lab.lanAddress, 80));
  return {
    marker,
    landingMarker,
    accessLog,
    async requestCount() {
      const text = await readFile(accessLog, 'utf8');
      return text.split('\n').filter(Boolean).length;
    },
  };
}

export type PlantSsh = {
  /** Private key (mode 600) of the test user, whose public key sshd accepts. */
  identityFile: string;
  user: string;
};

/** OpenSSH's sshd on the plant LAN, port 22: its own host key and configuration, root logging in by key only. */
export async function startSshd(lab: Lab): Promise<PlantSsh> {
  const root = path.join(lab.dir, 'ssh');
  await mkdir(root, { recursive: true });
  const hostKey = path.join(root, 'host_ed25519');
  const identityFile = path.join(root, 'user_ed25519');
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'plant-host', '-f', hostKey]);
  await run('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'office-user', '-f', identityFile]);
  await chmod(identityFile, 0o600);
  const authorizedKeys = path.join(root, 'authorized_keys');
  await writeFile(authorizedKeys, await readFile(`${identityFile}.pub`, 'utf8'));
  const config = path.join(root, 'sshd_config');
  await writeFile(
    config,
    `ListenAddress ${lab.lanAddress}:22
HostKey ${hostKey}
PidFile ${root}/sshd.pid
AuthorizedKeysFile ${authorizedKeys}
PermitRootLogin prohibit-password
PubkeyAuthentication yes
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
LogLevel INFO
`,
  );
  // The privilege-separation directory sshd insists on (Debian's service would create it).
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  await stat('/usr/sbin/sshd');
  const sshd = lab.spawnIn(lab.plant, '/usr/sbin/sshd', ['-D', '-e', '-f', config]);
  await sshd.waitFor(/Server listening on/);
  return { identityFile, user: 'root' };
}

/** An executable that starts Debian's Chromium inside the office namespace (Playwright's `executablePath`). */
export async function officeChromium(lab: Lab): Promise<string> {
  const wrapper = path.join(lab.dir, 'office-chromium.sh');
  await writeFile(wrapper, `#!/bin/sh\nexec ip netns exec ${lab.office} /usr/bin/chromium "$@"\n`);
  await chmod(wrapper, 0o755);
  return wrapper;
}
