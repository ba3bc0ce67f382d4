import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { expect, test } from '@playwright/test';
import { submitLogin } from '../support/browser.ts';
import { REPO_ROOT } from '../support/environment.ts';

// `npm run dev` as a developer uses it: the server and Vite from source, the portal opened on Vite's port. A change
// to a React component shows in the open page without a reload (Vite's hot module replacement), and sign-in, the
// services and the live feed go through Vite's proxy to the server.

const LOGIN_LINE = /Sign in at (\S+) as (\S+) with password (\S+)/;
const COMPONENT = path.join(REPO_ROOT, 'apps/web/src/features/devices/DevicesPage.tsx');
const TITLE = "{t('devices.title')}";

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Starts `npm run dev`'s script; resolves with the admin's sign-in line once Vite listens too. */
function startDev(env: Record<string, string>): { child: ChildProcess; login: Promise<RegExpExecArray> } {
  const child = spawn('bash', ['scripts/dev.sh'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, PATH: `${path.join(REPO_ROOT, 'node_modules/.bin')}:${process.env.PATH}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: the whole of it is stopped at the end.
    detached: true,
  });
  const login = new Promise<RegExpExecArray>((resolve, reject) => {
    let output = '';
    let admin: RegExpExecArray | undefined;
    let viteReady = false;
    const read = (chunk: Buffer) => {
      // Vite colours its banner when it thinks a terminal reads it (FORCE_COLOR in the test's environment).
      output += stripVTControlCharacters(chunk.toString());
      admin ??=
        output
          .split('\n')
          .map((line) => LOGIN_LINE.exec(line))
          .find((match) => match?.[2]?.startsWith('admin@')) ?? undefined;
      viteReady ||= output.includes('[web]') && /Local:/.test(output);
      if (admin && viteReady) resolve(admin);
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm run dev ended (${code}):\n${output.slice(-2000)}`)));
  });
  return { child, login };
}

test('npm run dev: the portal from source through Vite, a component change shown without a reload', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edgeport-dev-'));
  const original = readFileSync(COMPONENT, 'utf8');
  expect(original).toContain(TITLE);
  const dev = startDev({
    SERVER_PORT: String(await freePort()),
    DEV_WEB_PORT: String(await freePort()),
    MQTT_PORT: String(await freePort()),
    DATA_DIR: dataDir,
  });
  try {
    const [, url, email, password] = await dev.login;
    await page.goto(`${url}/#/devices`);
    await submitLogin(page, { email: email ?? '', password: password ?? '' });
    // The demo administrator belongs to more than one organization: the selector comes first.
    await page.locator('[data-testid="organization"][data-resource-id="demo"]').click();
    await expect(page.getByTestId('shell')).toBeVisible();
    await page.goto(`${url}/#/devices`);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toHaveText('Devices', { timeout: 60_000 });
    // Served by the server through the proxy: the demo's devices.
    await expect(page.getByRole('table')).toBeVisible();
    await page.evaluate(() => Object.assign(globalThis, { loadedBeforeTheEdit: true }));

    writeFileSync(COMPONENT, original.replace(TITLE, `${TITLE} (edited)`));
    await expect(heading).toHaveText('Devices (edited)', { timeout: 20_000 });
    // The same document: hot module replacement, not a reload.
    expect(
      await page.evaluate(() => (globalThis as { loadedBeforeTheEdit?: boolean }).loadedBeforeTheEdit),
    ).toBe(true);
  } finally {
    writeFileSync(COMPONENT, original);
    if (dev.child.pid) process.kill(-dev.child.pid, 'SIGTERM');
    await new Promise((resolve) =>
      dev.child.exitCode === null ? dev.child.once('exit', resolve) : resolve(null),
    );
    rmSync(dataDir, { recursive: true, force: true });
  }
});
