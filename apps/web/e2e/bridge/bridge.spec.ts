import { expect, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { expectRoute, routePath, signInAs } from '../support/portal.ts';
import {
  appFrame,
  appHrefOf,
  contextField,
  expectConnected,
  frameOf,
  originOf,
  PAGE_IDS,
  PORTAL_ROUTES,
  PROBE,
  SAMPLE_APP,
  seedBridgeTenant,
} from './support.ts';

/*
 * The host/app bridge across origins: the portal at {realm}.app.localhost hosts the sample app served at
 * apps.localhost (both by the test server: Chromium resolves every *.localhost name to loopback).
 */

test('an app of another origin connects, gets the context, a new jwt after a refresh, and keeps its address in appHref', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedBridgeTenant(request);
  // A fake clock (running at normal speed) lets the test jump to the token's renewal instead of waiting 4.5 min.
  await page.clock.install();
  await signInAs(page, tenant, 'admin', `/store/container/${tenant.appId}`);
  const app = appFrame(page);
  await expectConnected(app, tenant.origin);
  await expect(page.getByTestId('app-container')).toHaveAttribute('data-status', 'connected');
  await expect(page.getByRole('heading', { name: 'Bridge sample app' })).toBeVisible();

  // The context of spec 3.
  await expect(contextField(app, 'username')).toHaveText(tenant.users.admin?.email ?? '');
  await expect(contextField(app, 'organizationId')).toHaveText(tenant.orgId);
  await expect(contextField(app, 'organizationResourceId')).toHaveText(tenant.resourceId);
  await expect(contextField(app, 'host')).toHaveText(tenant.origin);
  await expect(contextField(app, 'domain')).toHaveText('localhost');
  await expect(contextField(app, 'jwt scope')).toHaveText(`org:${tenant.orgId} app:*`);
  await expect(contextField(app, 'brandName')).not.toBeEmpty();
  await expect(contextField(app, 'theme')).toContainText('colorScheme');
  await expect(contextField(app, 'defaultStandardTime')).not.toBeEmpty();

  // The app's address is kept in the portal's hash query, in sync both ways.
  await expect.poll(() => appHrefOf(page)).toBe(`${SAMPLE_APP()}#/one`);
  await app.getByRole('link', { name: 'Details' }).click();
  await expect.poll(() => appHrefOf(page)).toBe(`${SAMPLE_APP()}#/two`);
  await app.getByRole('link', { name: 'Settings' }).click();
  await expect.poll(() => appHrefOf(page)).toBe(`${SAMPLE_APP()}#/three`);
  await page.goBack();
  await expect(app.locator('#page-title')).toHaveText('Details');
  expect(appHrefOf(page)).toBe(`${SAMPLE_APP()}#/two`);
  await page.goForward();
  await expect(app.locator('#page-title')).toHaveText('Settings');
  await page.reload();
  await expectConnected(app, tenant.origin);
  await expect(app.locator('#page-title')).toHaveText('Settings');
  await expect(app.locator('#page-href')).toHaveText(`${SAMPLE_APP()}#/three`);

  // A token refresh reaches the app as a jwt change (the portal renews 29 s before the 300 s token expires).
  const before = await contextField(app, 'jwt').textContent();
  await expect(app.locator('#jwt-changes')).toHaveText('0');
  await page.clock.fastForward('04:35');
  await expect(app.locator('#jwt-changes')).toHaveText('1');
  await expect(app.locator('#events')).toContainText('jwt: …');
  await expect(contextField(app, 'jwt')).not.toHaveText(before ?? '');
  await expect(contextField(app, 'jwt scope')).toHaveText(`org:${tenant.orgId} app:*`);
  expect(errors).toEqual([]);
});

test('an appHref in the page query is read and kept there in sync; leaving the app drops it', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedBridgeTenant(request);
  const container = `/store/container/${tenant.appId}`;
  const pageAppHref = () => new URL(page.url()).searchParams.get('appHref');
  await signInAs(page, tenant, 'admin', '/home');
  // A link with the app's address in the page query (spec 4): it survives the sign-in round trip and opens that page.
  await page.goto(`${tenant.origin}/?appHref=${encodeURIComponent(`${SAMPLE_APP()}#/two`)}#${container}`);
  const app = appFrame(page);
  await expectConnected(app, tenant.origin);
  await expect(app.locator('#page-title')).toHaveText('Details');
  expect(pageAppHref()).toBe(`${SAMPLE_APP()}#/two`);

  // The app moves: the page query follows, the hash query stays without appHref; back and reload restore it.
  await app.getByRole('link', { name: 'Settings' }).click();
  await expect.poll(pageAppHref).toBe(`${SAMPLE_APP()}#/three`);
  expect(appHrefOf(page)).toBeNull();
  expect(routePath(page)).toBe(container);
  await page.goBack();
  await expect(app.locator('#page-title')).toHaveText('Details');
  expect(pageAppHref()).toBe(`${SAMPLE_APP()}#/two`);
  await page.reload();
  await expectConnected(app, tenant.origin);
  await expect(app.locator('#page-title')).toHaveText('Details');

  // Another screen: the page query no longer carries the app's address.
  await page.evaluate(`window.location.hash = '#/home'`);
  await expectRoute(page, '/home');
  await expect.poll(pageAppHref).toBeNull();
  expect(errors).toEqual([]);
});

test('the app asks the portal to navigate to each page identifier; anything else is ignored', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedBridgeTenant(request);
  const requested: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'debug' && message.text().startsWith('bridge: ')) requested.push(message.text());
  });
  const container = `/store/container/${tenant.appId}`;
  await signInAs(page, tenant, 'admin', container);
  const app = appFrame(page);
  // Screens built and open to this user: the portal lands on the page's own route (others go on to /home).
  const landsThere = new Set(['iam-users', 'iam-roles', 'iam-organizations', 'audit', 'log']);
  for (const pageId of PAGE_IDS) {
    await expectConnected(app, tenant.origin);
    if (pageId === 'home') {
      // Not in the list: the portal does not move, and the next request is the first one it follows.
      await app.locator('#navigate-unknown').click();
    }
    await app.locator(`button[data-page="${pageId}"]`).click();
    const route = PORTAL_ROUTES[pageId];
    await expect
      .poll(() => requested.at(-1))
      .toBe(`bridge: app ${tenant.appId} asked for page ${pageId} -> ${route}`);
    await expect.poll(() => routePath(page)).not.toBe(container);
    if (landsThere.has(pageId)) await expectRoute(page, route);
    await page.evaluate(`window.location.hash = ${JSON.stringify(`#${container}`)}`);
    await expectRoute(page, container);
  }
  expect(requested).toHaveLength(PAGE_IDS.length);
  expect(errors).toEqual([]);
});

test('user preferences, and every validation message as written', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedBridgeTenant(request);
  await signInAs(page, tenant, 'admin', `/store/container/${tenant.appId}`);
  const app = appFrame(page);
  await expectConnected(app, tenant.origin);

  // Get and set through the portal's user preferences (service name: the app's id).
  await app.locator('#pref-get').click();
  await expect(app.locator('#pref-result')).toHaveText('favourite-colour is not set');
  await app.locator('#pref-value').fill('teal');
  await app.locator('#pref-set').click();
  await expect(app.locator('#pref-result')).toHaveText('saved favourite-colour = teal');
  await page.reload();
  await expectConnected(app, tenant.origin);
  await app.locator('#pref-get').click();
  await expect(app.locator('#pref-result')).toHaveText('favourite-colour = teal');

  // The app side's validation messages (spec 8).
  const checks: [string, string][] = [
    ['subscribe-no-event', 'Event name is required'],
    ['subscribe-bad-event', 'Event name is not valid'],
    ['subscribe-no-callback', 'Callback is required'],
    ['navigate-no-path', 'Path is required'],
  ];
  for (const [check, message] of checks) {
    await app.locator(`[data-check="${check}"]`).click();
    await expect(app.locator('#check-result')).toHaveText(message);
  }

  // The host side's validation messages, in the sample host page (another origin) embedding the sample app.
  await page.goto(`${originOf('host')}/samples/bridge-host/?frame=${encodeURIComponent(SAMPLE_APP())}`);
  const hosted = page.frameLocator('#frame');
  await expectConnected(hosted, originOf('host'));
  const form = page.locator('#host-form');
  const fields: [string, string][] = [
    ['jwt', 'JWT is required'],
    ['username', 'Username is required'],
    ['organizationId', 'OrganizationId is required'],
    ['organizationResourceId', 'OrganizationResourceId is required'],
    ['host', 'EdgeportHost is required'],
    ['domain', 'EdgeportDomain is required'],
  ];
  for (const [name, message] of fields) {
    const input = form.locator(`input[name="${name}"]`);
    const value = await input.inputValue();
    await input.fill('');
    await page.locator('#host-connect').click();
    await expect(page.locator('#host-error')).toHaveText(message);
    await input.fill(value);
  }
  await form.locator('input[name="withWindow"]').uncheck();
  await page.locator('#host-connect').click();
  await expect(page.locator('#host-error')).toHaveText('EdgeportHostWindow is required');
  await form.locator('input[name="withWindow"]').check();
  await page.locator('#host-connect').click();
  await expect(page.locator('#host-error')).toBeEmpty();
  expect(errors).toEqual([]);
});

test('time-outs: a host that never answers, and one that leaves preference requests unanswered', async ({
  page,
}) => {
  await page.clock.install();
  const app = page.frameLocator('#frame');
  // Silent host: the app gives up after 5 s.
  await page.goto(
    `${originOf('host')}/samples/bridge-host/?mode=silent&frame=${encodeURIComponent(SAMPLE_APP())}`,
  );
  await expect(app.locator('#page-href')).not.toBeEmpty();
  await expect(app.locator('#status')).toHaveText('Connecting…');
  await page.clock.fastForward(4_000);
  await expect(app.locator('#status')).toHaveText('Connecting…');
  await page.clock.fastForward(1_000);
  await expect(app.locator('#status')).toHaveText('Create timeout reached');

  // A host without a preference store: the request fails after 10 s.
  await page.goto(
    `${originOf('host')}/samples/bridge-host/?mode=no-preferences&frame=${encodeURIComponent(SAMPLE_APP())}`,
  );
  await expectConnected(app, originOf('host'));
  await app.locator('#pref-get').click();
  await expect(app.locator('#pref-result')).toHaveText('Waiting…');
  await page.clock.fastForward(9_000);
  await expect(app.locator('#pref-result')).toHaveText('Waiting…');
  await page.clock.fastForward(1_000);
  await expect(app.locator('#pref-result')).toHaveText(
    'Timeout reached waiting for user preference favourite-colour response',
  );
});

test('a frame of a third origin posting the same messages gets nothing', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedBridgeTenant(request);
  const container = `/store/container/${tenant.appId}`;
  await signInAs(page, tenant, 'admin', container);
  const app = appFrame(page);
  await expectConnected(app, tenant.origin);

  // evil.localhost inside the app: posts app messages to the portal and host messages to the app.
  const appWindow = await frameOf(page, originOf('apps'));
  await appWindow.evaluate(
    `document.body.append(Object.assign(document.createElement('iframe'), { src: ${JSON.stringify(PROBE())} }))`,
  );
  const probe = await frameOf(page, originOf('evil'));
  await expect(probe.locator('#status')).toHaveText('done');
  await expect(probe.locator('#received')).toHaveText('0');
  await expect(probe.locator('#messages li')).toHaveCount(0);

  // The portal did not navigate, and neither side took anything from it.
  await expectRoute(page, container);
  await expect(app.locator('#jwt-changes')).toHaveText('0');
  await expect(app.locator('#events')).not.toContainText('forged');
  await expect(app.locator('#page-href')).toHaveText(`${SAMPLE_APP()}#/one`);
  await expect(app.locator('#pref-key')).toBeVisible();
  await app.locator('#pref-key').fill('probe-key');
  await app.locator('#pref-get').click();
  await expect(app.locator('#pref-result')).toHaveText('probe-key is not set');
  await expectConnected(app, tenant.origin);
  expect(errors).toEqual([]);

  // An app the catalogue does not know: the container says so (the 404 is the only failed request).
  await page.evaluate(`window.location.hash = '#/store/container/no-such-app'`);
  await expect(page.getByTestId('app-container-error')).toContainText(
    'There is no app “no-such-app” in the store.',
  );
  expect(errors.filter((error) => !isNetworkError(error, [404]))).toEqual([]);
});

test('the portal may be framed by the configured host page only', async ({ page, request }) => {
  const tenant = await seedBridgeTenant(request);
  // (Node does not resolve *.localhost names: the portal's document is the same on every host.)
  const portal = await request.get(`http://127.0.0.1:${e2ePort()}/`);
  const policy = portal.headers()['content-security-policy'] ?? '';
  expect(policy).toContain(`frame-ancestors 'self' ${originOf('host')}`);
  expect(policy).not.toContain('evil.localhost');
  expect(policy).toMatch(new RegExp(`frame-src 'self'[^;]* ${originOf('apps').replace(/\./g, '\\.')}`));

  // A page of a third origin cannot frame the portal: its frame never shows the portal's document.
  const blocked = page.waitForEvent('console', (message) => message.text().includes('frame-ancestors'));
  await page.goto(`${originOf('evil')}/samples/bridge-host/?realm=${tenant.realm}`);
  // The refusal names the portal's own policy (its login pages allow 'self' only).
  const refusal = (await blocked).text();
  expect(refusal).toContain(tenant.origin);
  expect(refusal).toContain(`frame-ancestors 'self' ${originOf('host')}`);
  await expect(page.locator('#host-status')).toHaveText('Waiting for the embedded page');
});

test('the portal inside a host page asks the host to navigate and follows the address the host keeps', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedBridgeTenant(request);
  // The host page is served on the portal's host here: signing in inside a frame needs the identity cookies, which
  // Chromium withholds from a frame of another site (every *.localhost name is a site of its own).
  const host = `${tenant.origin}/samples/bridge-host/?realm=${tenant.realm}`;
  await page.goto(host);
  const portal = page.frameLocator('#frame');
  await expect(portal.locator('#kc-form-login')).toBeVisible();
  await portal.locator('#username').fill(tenant.users.admin?.email ?? '');
  await portal.locator('#password').fill(tenant.users.admin?.password ?? '');
  await portal.locator('#kc-login').click();
  await expect(portal.getByTestId('shell')).toBeVisible();
  await expect(page.locator('#host-status')).toHaveText(`Connected to ${tenant.origin}`);

  // The menu asks the host (a page identifier), the host sends the portal to that page's route.
  await portal.locator('#side-menu').getByRole('link', { name: 'Users' }).click();
  await expect(page.locator('#navigations li')).toHaveText(['iam-users']);
  await expect(portal.getByTestId('users-page')).toBeVisible();
  await expect
    .poll(() => new URL(page.url()).searchParams.get('appHref'))
    .toBe(`${tenant.origin}/#${PORTAL_ROUTES['iam-users']}`);

  // Reload of the host page: the portal comes back on the page the host kept.
  await page.reload();
  await expect(portal.getByTestId('users-page')).toBeVisible();
  expect(errors).toEqual([]);
});
