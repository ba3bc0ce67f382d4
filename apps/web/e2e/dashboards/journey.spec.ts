/**
 * Issue 6's must-hold journey in one story, through the UI only: a designer builds a two-page dashboard bound to a
 * device slot, sees live values from simulated devices (the project's own device simulator over MQTT), switches the
 * device through `ecc_device_`, copies three widgets into another dashboard, undoes and redoes each step, fails to
 * delete the root page, saves, derives a version, makes it current and shares the dashboard read-only with a
 * colleague who then cannot edit it.
 */
import { SimulatedDevice } from '@edgeport/device-sim';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { e2eMqttPort } from '../support/environment.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type Tenant, userOf } from '../support/seed.ts';

const DESIGNER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'dashboards', scopes: ['READ', 'CREATE'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'users', scopes: ['READ'] },
];
const COLLEAGUE: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'dashboards', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ'] },
];

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const canvasWidgets = (page: Page): Locator => page.locator('[data-testid^="canvas-widget-"]');
const pageItems = (page: Page): Locator => page.locator('[data-testid^="page-item-"]');

async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

async function addFromPalette(page: Page, type: string) {
  const before = await canvasWidgets(page).count();
  await page.getByTestId(`palette-item-${type}`).click();
  await expect(canvasWidgets(page)).toHaveCount(before + 1);
}

/** A simulated press whose temperature holds one value, so the screen can be checked against it. */
function simulatedPress(tenant: Tenant, label: string, temperature: number): SimulatedDevice {
  const device = tenant.telemetryDevices[label];
  if (!device?.password) throw new Error(`${label} has no MQTT credentials`);
  return new SimulatedDevice({
    url: `mqtt://127.0.0.1:${e2eMqttPort()}`,
    credentials: { deviceId: device.id, password: device.password },
    tags: [{ tag: 'press_temperature', kind: 'integer', base: temperature, amplitude: 0 }],
    rate: 4,
    qos: 0,
  });
}

test('a two-page dashboard on a device slot: live values, device switch, copy and paste, undo and redo, versions, read-only sharing', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Press shop', iotEnabled: true }],
    users: [
      { key: 'designer', memberships: [{ org: 'org', permissions: DESIGNER }] },
      { key: 'colleague', memberships: [{ org: 'org', permissions: COLLEAGUE }] },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [{ path: '/press/temperature', type: 'number', unit: '°C' }],
        preset: 'Press PLC',
        devices: ['Press 1', 'Press 2'],
        points: 0,
        intervalMs: 1_000,
        mqttCredentials: true,
      },
    ],
    dashboards: [{ name: 'Shift board', owner: 'designer' }],
  });
  const press1 = tenant.telemetryDevices['Press 1'];
  const press2 = tenant.telemetryDevices['Press 2'];
  const shiftBoard = tenant.dashboards['Shift board'];
  if (!press1 || !press2 || !shiftBoard) throw new Error('the fixture is incomplete');
  const simulators = [simulatedPress(tenant, 'Press 1', 61), simulatedPress(tenant, 'Press 2', 82)];

  try {
    // Build: a new dashboard with a slot for presses, a bound value and two more widgets on the root page.
    await signInAs(page, tenant, 'designer', '/flows/dashboards');
    await page.getByTestId('new-dashboard').click();
    await expect(page.getByTestId('editor-empty')).toBeVisible();
    // On a CPU six times slower the inspector follows the editor late (a deferred render). Its forms must not reset
    // themselves to their own commits coming back (that took the focus from, and closed, the list chosen next), and
    // the title's commit must not undo the binding chosen just before it.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    await page.getByTestId('slot-add').click();
    await page.getByTestId('slot-name-0').fill('press');
    await page.getByTestId('slot-name-0').press('Tab');
    await page.getByTestId('slot-label-0').fill('Press');
    await page.getByTestId('slot-label-0').press('Tab');
    await choose(page, 'slot-model-0', 'Press');

    await addFromPalette(page, 'value');
    await choose(page, 'binding-source', 'Press (press)');
    await choose(page, 'binding-path', /\/press\/temperature/);
    await page.getByTestId('inspector-title').fill('Temperature');
    await page.getByTestId('inspector-title').press('Enter');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    // The editor already shows the first press's live value.
    await expect(canvasWidgets(page).first().getByTestId('widget-value')).toHaveText(/^61(\.0)? °C$/, {
      timeout: 20_000,
    });
    await addFromPalette(page, 'gauge');
    await addFromPalette(page, 'text');

    // A second page with a widget of its own.
    await page.getByTestId('page-add').click();
    await expect(pageItems(page)).toHaveCount(2);
    await addFromPalette(page, 'text');

    // The root page cannot be deleted.
    const rootId = (
      (await page.locator('[data-testid^="page-row-"]').first().getAttribute('data-testid')) ?? ''
    ).replace('page-row-', '');
    await page.getByTestId(`page-delete-${rootId}`).click();
    await expect(page.getByText('The root page cannot be deleted')).toBeVisible();
    await expect(pageItems(page)).toHaveCount(2);

    // Save: the name is asked on the first save, then the editor is at the dashboard's own address.
    await page.getByTestId('editor-save').click();
    await page.getByTestId('save-name-input').fill('Press temperatures');
    await page.getByTestId('save-name-submit').click();
    await expect(page.getByTestId('editor-version')).toHaveText('Version 1');
    await expect.poll(() => page.url()).toMatch(/#\/dashboards\/[0-9a-f-]{36}\/edit/);
    const dashboardId = /#\/dashboards\/([0-9a-f-]{36})\/edit/.exec(page.url())?.[1] ?? '';

    // View: live values of the first press; the address switches to the second.
    await page.getByTestId('editor-view').click();
    await expectRoute(page, `/dashboards/${dashboardId}`);
    await expect(page.getByRole('tab')).toHaveCount(2);
    const temperature = page
      .locator('[data-widget-id]')
      .filter({ hasText: 'Temperature' })
      .getByTestId('widget-value');
    await expect(temperature).toHaveText(/^61(\.0)? °C$/, { timeout: 20_000 });
    await page.goto(`${tenant.origin}/#/dashboards/${dashboardId}?ecc_device_press=${press2.id}`);
    await expect(page.getByTestId('slot-picker-press')).toHaveValue('Press 2');
    await expect(temperature).toHaveText(/^82(\.0)? °C$/, { timeout: 20_000 });

    // Copy the root page's three widgets and paste them into another dashboard; undo and redo each step.
    await page.goto(`${tenant.origin}/#/dashboards/${dashboardId}/edit`);
    await expect(canvasWidgets(page)).toHaveCount(3);
    // Each selection opens or changes the inspector beside the canvas: the next click waits for it, or it could land
    // where a widget was before the canvas moved.
    await canvasWidgets(page).nth(0).click();
    await expect(page.getByTestId('inspector-title')).toBeVisible();
    await canvasWidgets(page)
      .nth(1)
      .click({ modifiers: ['Control'] });
    await expect(page.getByTestId('multi-inspector')).toContainText('2 widgets selected');
    await canvasWidgets(page)
      .nth(2)
      .click({ modifiers: ['Control'] });
    await expect(page.getByTestId('multi-inspector')).toContainText('3 widgets selected');
    await page.keyboard.press('Control+c');
    await expect(page.getByText('3 widgets copied.')).toBeVisible();

    await page.goto(`${tenant.origin}/#/dashboards/${shiftBoard}/edit`);
    await expect(page.getByTestId('editor-empty')).toBeVisible();
    await page.getByTestId('editor-canvas').click({ position: { x: 3, y: 3 } });
    await page.keyboard.press('Control+v');
    await expect(canvasWidgets(page)).toHaveCount(3);
    await expect(canvasWidgets(page).first().getByTestId('widget-value')).toHaveText(/^61(\.0)? °C$/, {
      timeout: 20_000,
    });
    await addFromPalette(page, 'button');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+z');
    await expect(canvasWidgets(page)).toHaveCount(3);
    await page.keyboard.press('Control+z');
    await expect(canvasWidgets(page)).toHaveCount(0);
    await expect(page.getByTestId('editor-undo')).toBeDisabled();
    await page.keyboard.press('Control+Shift+z');
    await expect(canvasWidgets(page)).toHaveCount(3);
    await page.keyboard.press('Control+Shift+z');
    await expect(canvasWidgets(page)).toHaveCount(4);
    await expect(page.getByTestId('editor-redo')).toBeDisabled();
    await page.getByTestId('editor-save').click();
    await expect(page.getByText('Saved as version 2.')).toBeVisible();

    // Versions of the first dashboard: derive version 2 from version 1 and make it current.
    await page.goto(`${tenant.origin}/#/flows/dashboards`);
    const row = page.getByRole('row').filter({ hasText: 'Press temperatures' });
    await row.getByRole('button', { name: 'Versions of Press temperatures' }).click();
    const drawer = page.getByTestId('versions-drawer');
    const version = (v: number) => drawer.locator(`[data-testid="version-row"][data-version="${v}"]`);
    await drawer.getByRole('button', { name: 'Derive a new version from version 1' }).click();
    await expect(version(2)).toHaveAttribute('data-current', 'false');
    await drawer.getByRole('button', { name: 'Make version 2 current' }).click();
    await expect(version(2)).toHaveAttribute('data-current', 'true');
    // The clicked button is gone (the version is current), and focus with it: close with the close button's Enter
    // (a toast covers it for a pointer).
    await page.getByRole('dialog').getByRole('button', { name: 'Close' }).press('Enter');
    await expect(drawer).toBeHidden();

    // Share it read-only with the colleague.
    const colleague = userOf(tenant, 'colleague');
    await row.getByRole('button', { name: 'Share Press temperatures' }).click();
    const dialog = page.getByTestId('share-dialog');
    await dialog
      .getByRole('radiogroup', { name: `Access of ${colleague.email}` })
      .getByText('Read', { exact: true })
      .click();
    await dialog.getByTestId('share-save').click();
    await expect(page.getByText('Sharing of Press temperatures saved.')).toBeVisible();
    expect(errors).toEqual([]);

    // The colleague sees the live dashboard but cannot edit it.
    const context = await browser.newContext();
    const other = await context.newPage();
    await signInAs(other, tenant, 'colleague', `/dashboards/${dashboardId}?ecc_device_press=${press1.id}`);
    await expect(
      other.locator('[data-widget-id]').filter({ hasText: 'Temperature' }).getByTestId('widget-value'),
    ).toHaveText(/^61(\.0)? °C$/, { timeout: 20_000 });
    await expect(other.getByTestId('dashboard-edit')).toHaveCount(0);
    await other.goto(`${tenant.origin}/#/dashboards/${dashboardId}/edit`);
    await expect(other.getByTestId('editor-read-only')).toBeVisible();
    await expect(other.getByTestId('editor-save')).toHaveCount(0);
    await context.close();
  } finally {
    await Promise.all(simulators.map((simulator) => simulator.stop()));
  }
});
