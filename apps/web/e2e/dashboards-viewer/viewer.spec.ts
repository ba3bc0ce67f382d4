import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { mosquittoPub, mosquittoSubOnce } from '../support/mqtt.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type Tenant } from '../support/seed.ts';

const VIEWER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'dashboards', scopes: ['READ'] },
];

/** A two-page dashboard bound to the slot `press` of the model Press. */
const LINE_DASHBOARD = {
  schemaVersion: 2,
  rootPageId: 'overview',
  slots: [{ name: 'press', label: 'Press', modelId: '{{model:Press}}' }],
  variables: [],
  pages: [
    {
      id: 'overview',
      title: 'Overview',
      widgets: [
        {
          id: 'speed',
          type: 'value',
          title: 'Line speed',
          layout: { x: 0, y: 0, w: 6, h: 4 },
          binding: { slot: 'press', path: '/line/speed' },
          options: { unit: 'rpm', decimals: 1 },
        },
        {
          id: 'gauge',
          type: 'gauge',
          title: 'Speed gauge',
          layout: { x: 6, y: 0, w: 6, h: 6 },
          binding: { slot: 'press', path: '/line/speed' },
          options: { min: 0, max: 2000, unit: 'rpm' },
        },
        {
          id: 'trend',
          type: 'lineChart',
          title: 'Speed trend',
          layout: { x: 12, y: 0, w: 12, h: 8 },
          bindings: [{ slot: 'press', path: '/line/speed' }],
          options: { windowSeconds: 600 },
        },
        {
          id: 'to-details',
          type: 'button',
          layout: { x: 0, y: 4, w: 6, h: 2 },
          action: { kind: 'navigate', pageId: 'details' },
          options: { label: 'Show details' },
        },
      ],
    },
    {
      id: 'details',
      title: 'Details',
      widgets: [
        {
          id: 'values',
          type: 'table',
          title: 'All values',
          layout: { x: 0, y: 0, w: 12, h: 6 },
          bindings: [
            { slot: 'press', path: '/line/speed' },
            { slot: 'press', path: '/line/state' },
          ],
          options: {},
        },
      ],
    },
  ],
};

/** The owner (dashboards READ and CREATE) and an operator the dashboard is shared with read-only. */
async function seedLine(page: Page): Promise<Tenant> {
  return seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Press shop', iotEnabled: true }],
    users: [
      {
        key: 'owner',
        memberships: [
          { org: 'org', permissions: [...VIEWER, { rsname: 'dashboards', scopes: ['READ', 'CREATE'] }] },
        ],
      },
      { key: 'operator', memberships: [{ org: 'org', permissions: VIEWER }] },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [
          { path: '/line/speed', type: 'number', unit: 'rpm' },
          { path: '/line/state', type: 'string' },
        ],
        preset: 'Press PLC',
        devices: ['Press 1', 'Press 2'],
        points: 0,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
    dashboards: [
      {
        name: 'Line overview',
        owner: 'owner',
        document: LINE_DASHBOARD,
        shares: [{ user: 'operator', level: 'r' }],
      },
    ],
  });
}

function device(tenant: Tenant, label: string): { id: string; password: string } {
  const found = tenant.telemetryDevices[label];
  if (!found?.password) throw new Error(`no credentials for ${label}`);
  return { id: found.id, password: found.password };
}

function dashboardId(tenant: Tenant, name: string): string {
  const id = tenant.dashboards[name];
  if (!id) throw new Error(`no seeded dashboard ${name}`);
  return id;
}

function widget(page: Page, id: string): Locator {
  return page.locator(`[data-testid="widget"][data-widget-id="${id}"]`);
}

/**
 * Publishes as the device until the widget shows the text: the first message may beat the page's live subscription
 * (the stored latest value then shows it anyway once the page loads it; publishing again covers the gap).
 */
async function publishUntilShown(
  target: { id: string; password: string },
  values: Record<string, unknown>,
  shown: Locator,
  text: string,
) {
  await expect(async () => {
    await mosquittoPub(target, values);
    await expect(shown).toHaveText(text, { timeout: 1500 });
  }).toPass({ timeout: 20_000 });
}

test.describe('dashboard viewer', () => {
  test('shows live values of the first device of the slot, switches device with ecc_device_, changes page, goes full screen', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedLine(page);
    const id = dashboardId(tenant, 'Line overview');
    const press1 = device(tenant, 'Press 1');
    const press2 = device(tenant, 'Press 2');

    await signInAs(page, tenant, 'operator', `/dashboards/${id}`);
    await expect(page.getByTestId('dashboard-name')).toHaveText('Line overview');
    // No device in the address, no default: the slot shows the first device of the model by label.
    const picker = page.getByTestId('slot-picker-press');
    await expect(picker).toHaveValue('Press 1');
    // A reader (no share, no UPDATE) gets no Edit button.
    await expect(page.getByTestId('dashboard-edit')).toHaveCount(0);

    // Values published over MQTT appear live (the preset maps data tag line_speed to /line/speed).
    const speed = widget(page, 'speed').getByTestId('widget-value');
    await expect(widget(page, 'speed')).toContainText('No value yet');
    await publishUntilShown(press1, { line_speed: 1234.5 }, speed, '1,234.5 rpm');
    await expect(widget(page, 'gauge').getByTestId('gauge')).toHaveAttribute('aria-label', /1,234\.5 rpm/);
    await mosquittoPub(press1, { line_speed: 1500 });
    await expect(speed).toHaveText('1,500.0 rpm');
    await expect(widget(page, 'trend').getByTestId('line-chart').locator('canvas')).toHaveCount(1);

    // Another device through the address: the picker follows, its values show, the first device's no longer do.
    await page.goto(`${tenant.origin}/#/dashboards/${id}?ecc_device_press=${press2.id}`);
    await expect(picker).toHaveValue('Press 2');
    await publishUntilShown(press2, { line_speed: 77 }, speed, '77.0 rpm');
    await mosquittoPub(press1, { line_speed: 999 });
    await mosquittoPub(press2, { line_speed: 78 });
    await expect(speed).toHaveText('78.0 rpm');

    // The picker writes the address back.
    await picker.click();
    await page.getByRole('option', { name: 'Press 1' }).click();
    await expectRoute(page, `/dashboards/${id}`, { ecc_device_press: press1.id });
    await expect(speed).toHaveText('999.0 rpm');

    // Pages: the root page first; a tab and a navigate button change page.
    const tabs = page.getByRole('tab');
    await expect(tabs).toHaveText(['Overview', 'Details']);
    await page.getByRole('tab', { name: 'Details' }).click();
    await expect(page.getByTestId('value-table')).toContainText('Press · /line/speed');
    await expect(page.getByTestId('value-table')).toContainText('999 rpm');
    await mosquittoPub(press1, { line_state: 'running' });
    await expect(page.getByTestId('value-table')).toContainText('running');
    await page.getByRole('tab', { name: 'Overview' }).click();
    await page.getByRole('button', { name: 'Show details' }).click();
    await expect(page.getByRole('tab', { name: 'Details' })).toHaveAttribute('aria-selected', 'true');

    // Full screen: the dashboard covers the portal; Esc (or the button) leaves.
    const fullscreen = page.getByTestId('dashboard-fullscreen');
    await fullscreen.click();
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-fullscreen', 'true');
    await expect(fullscreen).toHaveText('Exit full screen');
    await expect(fullscreen).toHaveAttribute('aria-pressed', 'true');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('dashboard-view')).not.toHaveAttribute('data-fullscreen', 'true');
    await fullscreen.click();
    await expect(page.getByTestId('dashboard-view')).toHaveAttribute('data-fullscreen', 'true');
    await fullscreen.click();
    await expect(fullscreen).toHaveText('Full screen');
    expect(errors).toEqual([]);
  });

  test('speaks German, offers Edit to owners, and says when a dashboard is not there', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedLine(page);
    const id = dashboardId(tenant, 'Line overview');
    await page.context().addCookies([{ name: 'locale', value: 'de-DE', url: tenant.origin }]);

    await signInAs(
      page,
      tenant,
      'owner',
      `/dashboards/${id}?ecc_device_press=${device(tenant, 'Press 2').id}`,
    );
    await expect(page.getByTestId('dashboard-name')).toHaveText('Line overview');
    await expect(widget(page, 'speed')).toContainText('Noch kein Wert');
    await expect(page.getByTestId('dashboard-fullscreen')).toHaveText('Vollbild');
    // The owner may edit.
    await expect(page.getByTestId('dashboard-edit')).toHaveText('Bearbeiten');
    await expect(page.getByTestId('dashboard-edit')).toHaveAttribute('href', `#/dashboards/${id}/edit`);

    // An unknown device in the address: the picker says so and the widgets have no device.
    await page.goto(
      `${tenant.origin}/#/dashboards/${id}?ecc_device_press=00000000-0000-4000-8000-000000000000`,
    );
    await expect(
      page.getByText('Dieses Gerät existiert nicht oder ist für Sie nicht sichtbar'),
    ).toBeVisible();
    await expect(widget(page, 'speed')).toContainText('Kein Gerät im Slot Press');

    // A dashboard that does not exist (or is not shared): one message, nothing else.
    await page.goto(`${tenant.origin}/#/dashboards/00000000-0000-4000-8000-000000000000`);
    await expect(page.getByTestId('dashboard-error')).toContainText(
      'Dieses Dashboard existiert nicht oder wurde nicht mit Ihnen geteilt',
    );
    await page.goto(`${tenant.origin}/#/dashboards/${id}?version=7`);
    await expect(page.getByTestId('dashboard-error')).toContainText(
      'Version 7 dieses Dashboards existiert nicht',
    );

    // In the editor a chart is a picture of its canvas (no compositor layer per chart), taken again at each redraw.
    await page.goto(`${tenant.origin}/#/dashboards/${id}/edit`);
    const editorChart = page.getByTestId('canvas-widget-trend').getByTestId('line-chart');
    const picture = editorChart.locator('img[data-chart-image]');
    await expect
      .poll(() => picture.evaluate((image) => (image as { naturalWidth?: number }).naturalWidth))
      .toBeGreaterThan(0);
    await expect(editorChart.locator('canvas')).toBeHidden();
    const firstPicture = await picture.getAttribute('src');
    await mosquittoPub(device(tenant, 'Press 1'), { line_speed: 5 });
    await expect(picture).not.toHaveAttribute('src', firstPicture ?? '');
    expect(errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
  });
});

test('writes a set-point and a switch after confirmation; the device receives them; a reader sees the refusal', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const writer: Permission[] = [...VIEWER, { rsname: 'devices', scopes: ['READ', 'UPDATE'] }];
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Oven shop', iotEnabled: true }],
    users: [
      { key: 'writer', memberships: [{ org: 'org', permissions: writer }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: VIEWER }] },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Oven',
        paths: [
          { path: '/oven/setpoint', type: 'number', unit: '°C', writable: true },
          { path: '/oven/heating', type: 'boolean', writable: true },
        ],
        preset: 'Oven PLC',
        devices: ['Oven 1', 'Oven 2'],
        points: 0,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
    dashboards: [
      {
        name: 'Oven control',
        owner: 'writer',
        shares: [{ user: 'reader', level: 'r' }],
        document: {
          schemaVersion: 2,
          rootPageId: 'main',
          slots: [{ name: 'oven', label: 'Oven', modelId: '{{model:Oven}}' }],
          variables: [],
          pages: [
            {
              id: 'main',
              title: 'Control',
              widgets: [
                {
                  id: 'setpoint',
                  type: 'setpoint',
                  title: 'Temperature',
                  layout: { x: 0, y: 0, w: 8, h: 4 },
                  binding: { slot: 'oven', path: '/oven/setpoint' },
                  options: { min: 0, max: 300, unit: '°C' },
                },
                {
                  id: 'heating',
                  type: 'switch',
                  title: 'Heating',
                  layout: { x: 8, y: 0, w: 6, h: 4 },
                  binding: { slot: 'oven', path: '/oven/heating' },
                  options: { confirm: true },
                },
              ],
            },
          ],
        },
      },
    ],
  });
  const id = dashboardId(tenant, 'Oven control');
  const oven1 = device(tenant, 'Oven 1');
  await mosquittoPub(oven1, { oven_setpoint: 180, oven_heating: false });

  await signInAs(page, tenant, 'writer', `/dashboards/${id}`);
  await expect(widget(page, 'setpoint').getByTestId('setpoint-current')).toHaveText('Now: 180 °C');
  const received = mosquittoSubOnce(oven1, `devices/${oven1.id}/setpoints`);
  await widget(page, 'setpoint').getByTestId('setpoint-input').fill('42');
  await widget(page, 'setpoint').getByRole('button', { name: 'Write' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write a value' });
  await expect(dialog.getByTestId('write-confirmation')).toHaveText(
    'Write 42 °C to /oven/setpoint of Oven 1?',
  );
  await dialog.getByRole('button', { name: 'Write' }).click();
  expect(JSON.parse((await received).stdout)).toMatchObject({ path: '/oven/setpoint', value: 42 });
  await expect(page.getByText('Value for /oven/setpoint sent to the device.')).toBeVisible();
  // The closing dialog's overlay would take the next click.
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Cancelling sends nothing; confirming the switch sends true.
  const heating = widget(page, 'heating').getByTestId('widget-switch');
  await expect(heating).not.toBeChecked();
  await heating.click({ force: true });
  await expect(page.getByTestId('write-confirmation')).toHaveText('Write On to /oven/heating of Oven 1?');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const switched = mosquittoSubOnce(oven1, `devices/${oven1.id}/setpoints`);
  await heating.click({ force: true });
  await page.getByRole('dialog').getByRole('button', { name: 'Write' }).click();
  expect(JSON.parse((await switched).stdout)).toMatchObject({ path: '/oven/heating', value: true });

  // A reader (no UPDATE on devices) on a device without stored values may try: the server refuses, the widget says so.
  const reader = await page.context().browser()?.newContext();
  if (!reader) throw new Error('no browser');
  const readerPage = await reader.newPage();
  const readerErrors = collectConsoleErrors(readerPage);
  await signInAs(
    readerPage,
    tenant,
    'reader',
    `/dashboards/${id}?ecc_device_oven=${device(tenant, 'Oven 2').id}`,
  );
  await widget(readerPage, 'setpoint').getByTestId('setpoint-input').fill('50');
  await widget(readerPage, 'setpoint').getByRole('button', { name: 'Write' }).click();
  await readerPage.getByRole('dialog').getByRole('button', { name: 'Write' }).click();
  await expect(widget(readerPage, 'setpoint').getByTestId('write-error')).toHaveText(
    'You may not write this value.',
  );
  await reader.close();
  expect(errors).toEqual([]);
  expect(readerErrors.filter((error) => !error.includes('status of 403'))).toEqual([]);
});

test("a chart of the last 7 days says its history is the 1-minute min/max; a 10-minute chart's is not", async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const chartDashboard = (windowSeconds: number) => ({
    schemaVersion: 2,
    rootPageId: 'main',
    slots: [{ name: 'press', label: 'Press', modelId: '{{model:Press}}' }],
    variables: [],
    pages: [
      {
        id: 'main',
        title: 'Trend',
        widgets: [
          {
            id: 'trend',
            type: 'lineChart',
            title: 'Speed trend',
            layout: { x: 0, y: 0, w: 12, h: 8 },
            bindings: [{ slot: 'press', path: '/line/speed' }],
            options: { windowSeconds },
          },
        ],
      },
    ],
  });
  // A value every 5 minutes for about 8.7 days: 7 days hold 2,016 values, more than the 1,000 points a chart asks for.
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Press shop', iotEnabled: true }],
    users: [{ key: 'viewer', memberships: [{ org: 'org', permissions: VIEWER }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [{ path: '/line/speed', type: 'number', unit: 'rpm' }],
        preset: 'Press PLC',
        devices: ['Press 1'],
        points: 2500,
        intervalMs: 5 * 60_000,
      },
    ],
    dashboards: [
      { name: 'Week', owner: 'viewer', document: chartDashboard(7 * 86_400) },
      { name: 'Now', owner: 'viewer', document: chartDashboard(600) },
    ],
  });

  await signInAs(page, tenant, 'viewer', `/dashboards/${dashboardId(tenant, 'Week')}`);
  const trend = widget(page, 'trend');
  await expect(trend.getByTestId('line-chart').locator('canvas')).toHaveCount(1);
  await expect(trend.getByTestId('resolution-badges')).toHaveText('1-minute min/max');

  await page.goto(`${tenant.origin}/#/dashboards/${dashboardId(tenant, 'Now')}`);
  await expect(page.getByTestId('dashboard-name')).toHaveText('Now');
  await expect(trend.getByTestId('line-chart')).toBeVisible();
  await expect(trend.getByTestId('line-chart')).not.toContainText('No values in this time window');
  await expect(trend.getByTestId('resolution-badges')).toHaveCount(0);
  expect(errors).toEqual([]);
});
