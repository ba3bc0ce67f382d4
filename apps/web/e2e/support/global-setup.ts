import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DemoLogin, E2eEnvironment } from './environment.ts';
import { e2eMqttPort, e2ePort, e2eSmtpPort, LOGINS_FILE, REPO_ROOT } from './environment.ts';

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
const LOGIN_LINE = /^Sign in at (\S+) as (\S+) with password (\S+)$/;

function delay(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    return response.ok;
  } catch {
    return false;
  }
}

function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.kill('SIGKILL'), STOP_TIMEOUT_MS);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    server.kill('SIGTERM');
  });
}

/**
 * Starts the real server (fresh data directory, demo realm) for the browser tests, writes the demo logins it prints
 * to `.tmp/e2e-logins.json` and returns the teardown that stops it and removes its data.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const webDist = path.join(REPO_ROOT, 'apps', 'web', 'dist', 'index.html');
  if (!existsSync(webDist)) {
    throw new Error(`${webDist} is missing: build the web app first with \`npm run build -w @edgeport/web\``);
  }
  const port = e2ePort();
  const readyUrl = `http://127.0.0.1:${port}/readyz`;
  if (await answers(readyUrl)) {
    throw new Error(`port ${port} is already in use by another server; stop it or set E2E_PORT`);
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edgeport-e2e-'));
  const server = spawn(process.execPath, ['apps/server/src/main.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      PUBLIC_PORT: String(port),
      DATA_DIR: dataDir,
      MQTT_PORT: String(e2eMqttPort()),
      EDGEPORT_DEMO: 'true',
      // Mounts POST /test-support/tenants: every browser test seeds its own realm (support/seed.ts).
      EDGEPORT_TEST_FIXTURES: 'true',
      // Notification tests run a real SMTP server on this port; other mail still lands in the outbox.
      SMTP_URL: `smtp://127.0.0.1:${e2eSmtpPort()}`,
      NOTIFICATION_RETRY_DELAYS_MS: '500,1000,1500',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

  const logins: DemoLogin[] = [];
  let output = '';
  let pending = '';
  server.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = LOGIN_LINE.exec(line.trim());
      if (match?.[1] && match[2] && match[3])
        logins.push({ url: match[1], email: match[2], password: match[3] });
    }
  });
  server.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
  });

  const teardown = async () => {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(LOGINS_FILE, { force: true });
  };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (!(logins.length > 0 && (await answers(readyUrl)))) {
      if (server.exitCode !== null) throw new Error(`the server exited with code ${server.exitCode}`);
      if (Date.now() > deadline) throw new Error(`the server was not ready within ${START_TIMEOUT_MS} ms`);
      await delay(200);
    }
    // The login lines are printed together right after listening; let the last ones arrive.
    await delay(200);
  } catch (error) {
    await teardown();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }

  const environment: E2eEnvironment = { port, logins };
  mkdirSync(path.dirname(LOGINS_FILE), { recursive: true });
  writeFileSync(LOGINS_FILE, `${JSON.stringify(environment, null, 2)}\n`);
  return teardown;
}
