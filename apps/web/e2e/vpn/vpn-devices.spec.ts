import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { ensureTestLan } from '../../../server/test/support/test-lan.ts';
import { collectConsoleErrors, isNetworkError, loginPage, submitLogin } from '../support/browser.ts';
import { REPO_ROOT } from '../support/environment.ts';
import { expectRoute } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type Tenant, userOf } from '../support/seed.ts';

/**
 * The VPN devices screen against the real server and a REAL gateway agent: a plant "machine" (an HTTP server on the
 * test LAN address) is reached through the tunnel from the browser, after a connect with the user's one-time password.
 */

const OPERATOR: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
];
const READER: Permission[] = [PORTAL_ACCESS, { rsname: 'devices', scopes: ['READ'] }];
const MARKER = `plant-hmi-${randomBytes(4).toString('hex')}`;

let hmi: Server | undefined;
let agent: ChildProcess | undefined;
let agentOutput = '';
const workDir = mkdtempSync(path.join(os.tmpdir(), 'edgeport-vpn-e2e-'));

test.afterAll(async () => {
  const running = agent;
  if (running && running.exitCode === null && running.signalCode === null) {
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => running.kill('SIGKILL'), 5_000);
      running.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      running.kill('SIGTERM');
    });
  }
  await new Promise<void>((resolve) => (hmi ? hmi.close(() => resolve()) : resolve()));
  rmSync(workDir, { recursive: true, force: true });
});

/** The plant's web HMI: a page with the marker, on the test LAN address (not reachable as an endpoint otherwise). */
async function startHmi(address: string): Promise<number> {
  hmi = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><title>Press HMI</title><h1 id="marker">${MARKER}</h1>`);
  });
  const server = hmi;
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  return (server.address() as AddressInfo).port;
}

function totpOf(secret: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

/** A six-digit code that is none of the codes valid now (the server accepts one period either side). */
function wrongCode(totp: OTPAuth.TOTP): string {
  const now = Date.now();
  const valid = new Set([-1, 0, 1].map((step) => totp.generate({ timestamp: now + step * 30_000 })));
  for (let candidate = 0; ; candidate += 1) {
    const code = String(
      (Number(totp.generate({ timestamp: now })) + 500_000 + candidate) % 1_000_000,
    ).padStart(6, '0');
    if (!valid.has(code)) return code;
  }
}

/** Signs in; a user with two-factor sign-in also gives the one-time password. */
async function signIn(page: Page, tenant: Tenant, userKey: string, route: string, totp?: OTPAuth.TOTP) {
  await page.goto(`${tenant.origin}/#${route}`);
  await expect(page).toHaveURL(loginPage(tenant.realm));
  await submitLogin(page, userOf(tenant, userKey));
  if (totp) {
    await expect(page.locator('#otp')).toBeVisible();
    await page.locator('#otp').fill(totp.generate());
    await page.locator('#kc-login').click();
  }
  await expect(page).not.toHaveURL(loginPage(tenant.realm));
}

/** The legacy keep-alive ping from the page (its cookie session): 200 while signed in, 401 after the logout. */
async function legacyPingStatus(page: Page): Promise<number> {
  return Number(await page.evaluate('fetch("/svc/vpn/ping").then((response) => response.status)'));
}

function gatewayRow(page: Page, name: string) {
  return page
    .getByRole('table', { name: 'Gateways of the organization' })
    .getByRole('row')
    .filter({ hasText: name });
}

function startAgentProcess(configFile: string): ChildProcess {
  const child = spawn(process.execPath, ['apps/gateway-agent/src/cli.ts', '--config', configFile], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    agentOutput += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    agentOutput += chunk;
  });
  return child;
}

test('a VPN-only organization lands on the VPN devices; the gateways table and the read-only view', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'plant', name: 'Remote plant', iotEnabled: false, vpnEnabled: true }],
    users: [
      { key: 'operator', memberships: [{ org: 'plant', permissions: OPERATOR }] },
      { key: 'reader', memberships: [{ org: 'plant', permissions: READER }] },
    ],
    gateways: [
      { org: 'plant', name: 'mixer-gw', lanNetwork: '10.40.0.0/22', latitude: 45.5, longitude: 9.25 },
      { org: 'plant', name: 'spare-gw' },
    ],
  });

  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'));
  // Spec 4/7: a VPN screen signs in to the legacy remote-access login once (the access token as password).
  const legacyLogin = page.waitForResponse(
    (response) => response.url().endsWith('/svc/vpn/login') && response.request().method() === 'POST',
  );

  // Spec 2: with IoT off and VPN on, home is the VPN devices screen.
  await signIn(page, tenant, 'operator', '/');
  await expectRoute(page, '/vpn');
  const login = await legacyLogin;
  expect(login.status()).toBe(200);
  expect(new URLSearchParams(login.request().postData() ?? '').get('username')).toBe(
    `${userOf(tenant, 'operator').email}/${tenant.organizations.plant?.resourceId}`,
  );
  expect(await legacyPingStatus(page)).toBe(200);
  await expect(page.getByTestId('vpn-devices-page')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'VPN devices' })).toHaveAttribute('aria-selected', 'true');
  await expect(gatewayRow(page, 'mixer-gw')).toContainText('10.40.0.0/22');
  await expect(gatewayRow(page, 'mixer-gw')).toContainText('Offline');
  await expect(gatewayRow(page, 'mixer-gw')).toContainText('45.5');
  await expect(gatewayRow(page, 'spare-gw')).toContainText('No LAN yet');
  await expect(gatewayRow(page, 'spare-gw')).toContainText('No position');

  // Server-side search and status filter.
  await page.getByRole('textbox', { name: 'Search' }).fill('spare');
  await expect(gatewayRow(page, 'mixer-gw')).toHaveCount(0);
  await expect(gatewayRow(page, 'spare-gw')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('');
  await page.getByRole('radiogroup', { name: 'Connection status' }).getByText('Online').click();
  await expect(page.getByTestId('table-empty')).toContainText('No gateway matches');
  await page.getByRole('radiogroup', { name: 'Connection status' }).getByText('All').click();
  await expect(gatewayRow(page, 'mixer-gw')).toBeVisible();

  // The VPNnetworkSize and showVpnIp flags add the LAN's host count (a /22: 1,022) and the VPN IP column.
  await page.evaluate(() => {
    localStorage.setItem('edgeport.feature.VPNnetworkSize', 'true');
    localStorage.setItem('edgeport.feature.showVpnIp', 'true');
  });
  await page.reload();
  await expect(gatewayRow(page, 'mixer-gw')).toContainText('1,022 hosts');
  await expect(page.getByRole('columnheader', { name: 'VPN IP' })).toBeVisible();

  // The map: gateways with a position, on a plain background without a tile server; a popup opens the drawer.
  await page.getByRole('radiogroup', { name: 'Show gateways as' }).getByText('Map').click();
  await expect(page.getByTitle('mixer-gw')).toBeVisible();
  await expect(page.getByTitle('spare-gw')).toHaveCount(0);
  await expect(page.getByTestId('gateways-unplaced')).toContainText('1 gateway has no position');
  await expect(page.getByTestId('gateway-tiles-unavailable')).toBeVisible();
  await page.getByTitle('mixer-gw').focus();
  await page.keyboard.press('Enter');
  await page.getByTestId('gateway-popup').getByRole('button', { name: 'Open gateway' }).click();
  await expect(page.getByRole('dialog', { name: 'mixer-gw' })).toBeVisible();
  await page.keyboard.press('Escape');

  // /vpn_logout ends the legacy session (a POST) and closes the tab the portal opened.
  const loggingOut = page
    .context()
    .waitForEvent(
      'request',
      (request) => request.url().endsWith('/svc/vpn/logout') && request.method() === 'POST',
    );
  const opened = page.waitForEvent('popup');
  await page.evaluate('window.open("/#/vpn_logout")');
  const logoutTab = await opened;
  await loggingOut;
  await logoutTab.waitForEvent('close');
  expect(await legacyPingStatus(page)).toBe(401);

  // A reader sees the gateways but no management or edit controls.
  const context = await browser.newContext();
  const readerPage = await context.newPage();
  const readerErrors = collectConsoleErrors(readerPage);
  await signIn(readerPage, tenant, 'reader', '/vpn');
  await readerPage.getByRole('button', { name: 'Open gateway mixer-gw' }).click();
  const drawer = readerPage.getByRole('dialog', { name: 'mixer-gw' });
  await expect(drawer.getByTestId('gateway-facts')).toContainText('10.40.0.0/22');
  await expect(drawer.getByRole('tab', { name: 'Management' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Save position' })).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Reset VPN connection' })).toHaveCount(0);
  await drawer.getByRole('tab', { name: 'Logs' }).click();
  await expect(drawer.getByTestId('gateway-logs')).toBeVisible();
  await context.close();

  // The tiles are blocked on purpose, and the last ping after the logout is refused on purpose.
  expect(
    errors.filter((error) => !/tile\.openstreetmap\.org/.test(error) && !isNetworkError(error, [401])),
  ).toEqual([]);
  expect(readerErrors).toEqual([]);
});

test('through a real gateway agent: edge configuration download, online, connect with the one-time password, the plant HMI in the browser, reset and logs', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const lan = await ensureTestLan();
  const hmiPort = await startHmi(lan.address);
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  const totp = totpOf(secret);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'plant', name: 'Press plant', iotEnabled: false, vpnEnabled: true }],
    users: [{ key: 'operator', totpSecret: secret, memberships: [{ org: 'plant', permissions: OPERATOR }] }],
    gateways: [
      {
        org: 'plant',
        name: 'press-gw',
        lanNetwork: lan.lanNetwork,
        profile: { name: 'secure-press', otpRequired: true },
        endpoints: [
          { name: 'hmi', address: lan.address, protocol: 'HTTP', port: hmiPort },
          { name: 'plc', address: lan.address, protocol: 'TCP', port: 502 },
        ],
        actions: [
          { name: 'HMI web', protocol: 'HTTP', port: hmiPort, path: '/' },
          { name: 'Modbus', protocol: 'TCP', port: 502 },
        ],
      },
      { org: 'plant', name: 'spare-gw', lanNetwork: '10.50.0.0/24' },
    ],
  });
  const seeded = tenant.gateways['press-gw'];
  if (!seeded) throw new Error('the fixture seeded no gateway press-gw');

  // The vpnTcpOption flag offers forwarding any TCP port of an endpoint.
  await page.addInitScript('localStorage.setItem("edgeport.feature.vpnTcpOption", "true")');
  await signIn(page, tenant, 'operator', '/vpn', totp);
  await expect(gatewayRow(page, 'press-gw')).toContainText('Offline');
  await page.getByRole('button', { name: 'Open gateway press-gw' }).click();
  const drawer = page.getByRole('dialog', { name: 'press-gw' });
  await expect(drawer.getByTestId('gateway-facts')).toContainText('One-time password required');

  // The edge configuration file: a malformed key is refused in the form; the right key downloads the named file.
  await drawer.getByRole('tab', { name: 'Management' }).click();
  const keyInput = drawer.getByRole('textbox', { name: 'Activation key' });
  await keyInput.fill('EP-1234');
  await drawer.getByRole('button', { name: 'Download configuration file' }).click();
  await expect(drawer.getByText('An activation key looks like EP-XXXX-XXXX-XXXX.')).toBeVisible();
  await keyInput.fill(seeded.activationKey.toLowerCase());
  const downloading = page.waitForEvent('download');
  await drawer.getByRole('button', { name: 'Download configuration file' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('edgeport-gateway-press-gw.json');
  const configFile = path.join(workDir, download.suggestedFilename());
  await download.saveAs(configFile);

  // The agent starts at the "plant" with the file and the gateway goes online.
  agent = startAgentProcess(configFile);
  await drawer.getByRole('tab', { name: 'Overview' }).click();
  await expect(drawer.getByTestId('gateway-facts'), agentOutput).toContainText('Online', { timeout: 30_000 });
  await page.keyboard.press('Escape');
  await expect(gatewayRow(page, 'press-gw')).toContainText('Online', { timeout: 15_000 });

  // Connect: the profile asks for the one-time password; a wrong one shows the server's refusal.
  await page.getByRole('button', { name: 'Open gateway press-gw' }).click();
  await drawer.getByRole('tab', { name: 'Remote access' }).click();
  const open = drawer.getByRole('button', { name: 'Open HMI web on hmi' });
  await expect(open).toBeDisabled();
  await drawer.getByRole('button', { name: 'Connect', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Connect to press-gw' });
  await dialog.getByRole('textbox', { name: 'One-time password' }).fill(wrongCode(totp));
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog.getByTestId('vpn-failure')).toContainText('The one-time password was not accepted.');
  await expect(dialog.getByTestId('vpn-failure-detail')).toContainText(
    'otp: the one-time password is not valid',
  );
  await dialog.getByRole('textbox', { name: 'One-time password' }).fill(totp.generate());
  await dialog.getByRole('button', { name: 'Connect' }).click();
  await expect(dialog).toBeHidden();
  await expect(drawer.getByTestId('connection-state')).toHaveText('Connected');

  // Open the HMI: a new tab shows the plant's page through /remote/... .
  await expect(open).toBeEnabled();
  const opening = page.waitForEvent('popup');
  await open.click();
  const popup = await opening;
  await expect(popup.locator('#marker')).toHaveText(MARKER, { timeout: 20_000 });
  expect(new URL(popup.url()).pathname).toMatch(/^\/remote\/[0-9a-f-]{36}\//);
  expect(new URL(popup.url()).searchParams.has('edgeport_ticket')).toBe(false);
  await popup.close();

  // A TCP application gives the companion command and its token, once.
  await drawer.getByRole('button', { name: 'Open Modbus on plc' }).click();
  const grant = drawer.getByTestId('tcp-grant');
  await expect(grant.getByTestId('tcp-command')).toContainText('edgeport connect --server');
  await expect(grant.getByTestId('tcp-command')).toContainText('--local-port');
  const token = (await grant.getByTestId('tcp-token').textContent()) ?? '';
  expect(token).toMatch(/^[0-9a-f-]{36}\.[A-Za-z0-9_-]+$/);
  await grant.getByRole('button', { name: 'Close' }).click();
  await expect(grant).toBeHidden();

  // Forward a TCP port (vpnTcpOption): any port of an endpoint.
  await drawer.getByLabel('Endpoint', { exact: true }).click();
  await page.getByRole('option', { name: /^hmi/ }).click();
  await drawer.getByRole('textbox', { name: 'Port' }).fill('22');
  await drawer.getByRole('button', { name: 'Get the command' }).click();
  await expect(drawer.getByTestId('tcp-grant')).toContainText('Forwarding of hmi port 22');
  await expect(drawer.getByTestId('tcp-command')).toContainText('edgeport connect');

  // Reset the VPN connection: the logs show it and the agent comes back by itself.
  await drawer.getByRole('tab', { name: 'Management' }).click();
  await drawer.getByRole('button', { name: 'Reset VPN connection' }).click();
  await page
    .getByRole('dialog', { name: 'Reset the VPN connection?' })
    .getByRole('button', { name: 'Reset' })
    .click();
  await expect(
    page.getByText(/The VPN connection of press-gw was reset|press-gw had no open tunnel/),
  ).toBeVisible();
  await drawer.getByRole('tab', { name: 'Logs' }).click();
  const logs = drawer.getByRole('table', { name: 'Log of the gateway' });
  await expect(logs).toContainText(/reset/i);
  await drawer.getByRole('tab', { name: 'Overview' }).click();
  await expect(drawer.getByTestId('gateway-facts')).toContainText('Online', { timeout: 30_000 });

  // Edit the settings and the position.
  await drawer.getByRole('textbox', { name: 'Description' }).fill('Press line 3, hall B');
  await drawer.getByRole('button', { name: 'Save settings' }).click();
  await expect(drawer.getByTestId('gateway-facts')).toContainText('Press line 3, hall B');
  await drawer.getByRole('textbox', { name: 'Latitude' }).fill('48.1374');
  await drawer.getByRole('textbox', { name: 'Longitude' }).fill('11.5755');
  await drawer.getByRole('button', { name: 'Save position' }).click();
  await page.keyboard.press('Escape');
  await expect(gatewayRow(page, 'press-gw')).toContainText('48.1374');

  expect(errors.filter((error) => !isNetworkError(error, [403]))).toEqual([]);
  expect(agentOutput).toContain('connected');
});
