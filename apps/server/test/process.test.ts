import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OidcClient } from '../../../bench/support/oidc.ts';
import { buildServer } from '../scripts/build.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const LOGIN_LINE = /^Sign in at (\S+) as (\S+) with password (\S+)$/;

/** These tests run what `npm start` runs: the bundled server, through start.sh with its process settings. */
const startScript = path.join(root, 'apps/server/start.sh');
beforeAll(async () => {
  await buildServer();
});

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as { port: number };
  probe.close();
  return port;
}

type Running = { child: ChildProcess; lines: string[]; port: number };

/** Every server started here; one a failed test left running is stopped at the end. */
const started = new Set<ChildProcess>();
afterAll(() => {
  for (const child of started)
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

async function startServer(dataDir: string, port: number): Promise<Running> {
  const child = spawn(startScript, [], {
    cwd: root,
    env: {
      ...process.env,
      SERVER_NODE: process.execPath,
      DATA_DIR: dataDir,
      PORT: String(port),
      MQTT_PORT: '0',
      EDGEPORT_DEMO: 'true',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  const lines: string[] = [];
  child.stdout
    ?.setEncoding('utf8')
    .on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
  // Up to 30 s: a first start creates the database, and a busy 2-core machine makes that slow.
  for (let attempt = 0; attempt < 300; attempt++) {
    const status = await get(port, '/readyz').then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return { child, lines, port };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not become ready: ${lines.join('\n')}`);
}

function get(port: number, url: string, host = 'localhost') {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers: { host } }, (response) => {
        let body = '';
        response.setEncoding('utf8').on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      })
      .on('error', reject);
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'edgeport-process-'));
afterAll(() => rm(dataDir, { recursive: true, force: true }));

describe('the server process', () => {
  it('seeds the demo once, prints one login line per user, shuts down gracefully and keeps its data', async () => {
    const port = await freePort();
    const first = await startServer(dataDir, port);
    const logins = first.lines.filter((line) => LOGIN_LINE.test(line));
    expect(logins).toHaveLength(2);
    expect(logins[0]).toMatch(
      new RegExp(
        `^Sign in at http://demo\\.app\\.localhost:${port} as admin@demo\\.local with password \\S{20}$`,
      ),
    );

    // The bundle signs in (code flow and token exchange) and refreshes: minified without the names of its classes,
    // oidc-provider answered the token exchange with 500 (it finds a token's lifetime by its class name).
    const [, , email, password] = LOGIN_LINE.exec(logins[0] ?? '') ?? [];
    const client = new OidcClient({
      port,
      realm: 'demo',
      realmHost: `demo.app.localhost:${port}`,
      realmOrigin: `http://demo.app.localhost:${port}`,
    });
    try {
      const tokens = await client.login(email ?? '', password ?? '');
      expect((await client.refresh(tokens.refresh_token)).access_token).toMatch(/^ey/);
    } finally {
      client.close();
    }

    // A request whose body is still arriving when SIGTERM comes must still be answered.
    const body = 'grant_type=refresh_token&client_id=web-portal&refresh_token=unknown';
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/auth/realms/demo/protocol/openid-connect/token',
      headers: {
        host: `demo.app.localhost:${port}`,
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': Buffer.byteLength(body),
      },
    });
    const answered = once(request, 'response');
    request.write(body.slice(0, 10));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const exited = once(first.child, 'exit');
    first.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    request.end(body.slice(10));
    const [response] = (await answered) as [http.IncomingMessage];
    expect(response.statusCode).toBe(400);
    const [code] = await exited;
    expect(code).toBe(0);

    const second = await startServer(dataDir, port);
    expect(second.lines.filter((line) => LOGIN_LINE.test(line))).toEqual([]);
    const discovery = await get(
      port,
      '/auth/realms/demo/.well-known/openid-configuration',
      `demo.app.localhost:${port}`,
    );
    expect(JSON.parse(discovery.body).issuer).toBe(`http://demo.app.localhost:${port}/auth/realms/demo`);
    const secondExited = once(second.child, 'exit');
    second.child.kill('SIGTERM');
    expect((await secondExited)[0]).toBe(0);
  }, 120_000);

  it('refuses a bad configuration with a clear message', async () => {
    const child = spawn(startScript, [], {
      cwd: root,
      env: { ...process.env, SERVER_NODE: process.execPath, PORT: 'eighty' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    expect(code).toBe(1);
    expect(stderr).toContain("PORT must be a port number between 0 and 65535, got 'eighty'");
  });

  it("runs on the project's node, not the NODE npm exports (the machine's)", async () => {
    // npm sets NODE to the node running npm itself; the script must take the one first on the PATH (node_modules/.bin).
    const { SERVER_NODE: _ignored, ...environment } = process.env;
    const child = spawn(startScript, [], {
      cwd: root,
      env: {
        ...environment,
        NODE: '/nonexistent/machine-node',
        PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        PORT: 'eighty',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const [code] = await once(child, 'exit');
    // The server itself answered: it ran, on the PATH's node.
    expect(stderr).toContain("PORT must be a port number between 0 and 65535, got 'eighty'");
    expect(code).toBe(1);
  });
});
