import { type Browser, expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { mosquittoPub } from '../support/mqtt.ts';
import { signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type Tenant } from '../support/seed.ts';

/**
 * The editor's experimental fields formulaMapping (a binding shows a formula of its value) and widgetPermissions
 * (a widget meant for editors is not shown to readers), from the inspector to the viewer and the flow viewer.
 */

const READER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'dashboards', scopes: ['READ'] },
];
const DESIGNER: Permission[] = [...READER, { rsname: 'dashboards', scopes: ['READ', 'CREATE'] }];

/** Fahrenheit through a formula for everyone; the raw Celsius value for editors only. */
const OVEN_DASHBOARD = {
  schemaVersion: 2,
  rootPageId: 'main',
  slots: [{ name: 'oven', label: 'Oven', modelId: '{{model:Oven}}' }],
  variables: [],
  pages: [
    {
      id: 'main',
      title: 'Temperatures',
      widgets: [
        {
          id: 'fahrenheit',
          type: 'value',
          title: 'Fahrenheit',
          layout: { x: 0, y: 0, w: 8, h: 4 },
          binding: { slot: 'oven', path: '/oven/temperature', formula: 'value * 1.8 + 32' },
          options: { unit: '°F', decimals: 1 },
        },
        {
          id: 'celsius',
          type: 'value',
          title: 'Celsius (raw)',
          layout: { x: 8, y: 0, w: 8, h: 4 },
          visibleTo: 'editors',
          binding: { slot: 'oven', path: '/oven/temperature' },
          options: { unit: '°C', decimals: 1 },
        },
      ],
    },
  ],
};

async function seedOven(page: Page): Promise<Tenant> {
  return seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Bakery', iotEnabled: true }],
    users: [
      { key: 'owner', memberships: [{ org: 'org', permissions: DESIGNER }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Oven',
        paths: [{ path: '/oven/temperature', type: 'number', unit: '°C' }],
        preset: 'Oven PLC',
        devices: ['Oven 1'],
        points: 0,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
    dashboards: [
      {
        name: 'Oven temperatures',
        owner: 'owner',
        document: OVEN_DASHBOARD,
        shares: [{ user: 'reader', level: 'r' }],
      },
      {
        name: 'Bakery tour',
        kind: 'flow',
        owner: 'owner',
        shares: [{ user: 'reader', level: 'r' }],
        document: {
          schemaVersion: 1,
          entries: [
            {
              id: 'oven',
              alias: 'Oven',
              icon: 'dashboard',
              color: '#336699',
              target: { kind: 'dashboard', dashboardId: '{{dashboard:Oven temperatures}}' },
              position: { x: 0, y: 0 },
            },
          ],
        },
      },
    ],
  });
}

function seeded(tenant: Tenant, name: string): string {
  const id = tenant.dashboards[name];
  if (!id) throw new Error(`no seeded dashboard ${name}`);
  return id;
}

function oven(tenant: Tenant): { id: string; password: string } {
  const found = tenant.telemetryDevices['Oven 1'];
  if (!found?.password) throw new Error('no credentials for Oven 1');
  return { id: found.id, password: found.password };
}

function widget(scope: Page | Locator, id: string): Locator {
  return scope.locator(`[data-testid="widget"][data-widget-id="${id}"]`);
}

/** Publishes as the device until the locator shows the text (the first message may beat the page's subscription). */
async function publishUntilShown(
  device: { id: string; password: string },
  values: Record<string, unknown>,
  shown: Locator,
  text: string,
) {
  await expect(async () => {
    await mosquittoPub(device, values);
    await expect(shown).toHaveText(text, { timeout: 1500 });
  }).toPass({ timeout: 20_000 });
}

/** A page of its own browser context (its own session), with the given experimental flags in its storage. */
async function newPage(browser: Browser, flags: Record<string, boolean> = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const script = Object.entries(flags)
    .map(
      ([flag, on]) => `window.localStorage.setItem(${JSON.stringify(`edgeport.feature.${flag}`)}, '${on}');`,
    )
    .join('\n');
  if (script) await page.addInitScript({ content: script });
  return { page, errors: collectConsoleErrors(page), close: () => context.close() };
}

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

test('a binding shows its formula’s value, and a widget meant for editors is hidden from readers, in the viewer and in a flow', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedOven(page);
  const id = seeded(tenant, 'Oven temperatures');

  // The owner sees both widgets: 100 °C through `value * 1.8 + 32` is 212 °F.
  await signInAs(page, tenant, 'owner', `/dashboards/${id}`);
  await expect(page.getByTestId('dashboard-name')).toHaveText('Oven temperatures');
  const fahrenheit = widget(page, 'fahrenheit').getByTestId('widget-value');
  await publishUntilShown(oven(tenant), { oven_temperature: 100 }, fahrenheit, '212.0 °F');
  await expect(widget(page, 'celsius').getByTestId('widget-value')).toHaveText('100.0 °C');
  await mosquittoPub(oven(tenant), { oven_temperature: 20 });
  await expect(fahrenheit).toHaveText('68.0 °F');
  await expect(widget(page, 'celsius').getByTestId('widget-value')).toHaveText('20.0 °C');

  // A reader ('r' share) gets the converted value but not the widget meant for editors.
  const reader = await newPage(browser);
  await signInAs(reader.page, tenant, 'reader', `/dashboards/${id}`);
  await expect(widget(reader.page, 'fahrenheit').getByTestId('widget-value')).toHaveText('68.0 °F');
  await expect(reader.page.getByTestId('dashboard-edit')).toHaveCount(0);
  await expect(widget(reader.page, 'celsius')).toHaveCount(0);
  await expect(reader.page.getByText('Celsius (raw)')).toHaveCount(0);

  // The same in the flow viewer's embedded dashboard.
  await reader.page.goto(`${tenant.origin}/#/flow/${seeded(tenant, 'Bakery tour')}/oven`);
  const embedded = reader.page.getByTestId('flow-dashboard');
  await expect(embedded).toHaveAttribute('data-dashboard-id', id);
  await expect(widget(embedded, 'fahrenheit').getByTestId('widget-value')).toHaveText('68.0 °F');
  await expect(widget(embedded, 'celsius')).toHaveCount(0);
  await reader.close();

  // The owner's flow shows both.
  await page.goto(`${tenant.origin}/#/flow/${seeded(tenant, 'Bakery tour')}/oven`);
  await expect(widget(page.getByTestId('flow-dashboard'), 'celsius')).toBeVisible();
  expect(errors).toEqual([]);
  expect(reader.errors).toEqual([]);
});

test('with formulaMapping and widgetPermissions on, the inspector edits a binding’s formula and who sees a widget; with them off the values are kept', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const tenant = await seedOven(page);
  const id = seeded(tenant, 'Oven temperatures');
  await mosquittoPub(oven(tenant), { oven_temperature: 100 });

  const designer = await newPage(browser, { formulaMapping: true, widgetPermissions: true });
  const editor = designer.page;
  await signInAs(editor, tenant, 'owner', `/dashboards/${id}/edit`);
  await expect(editor.getByTestId('editor-version')).toHaveText('Version 1');
  const fahrenheitCell = editor.getByTestId('canvas-widget-fahrenheit');
  const celsiusCell = editor.getByTestId('canvas-widget-celsius');
  await expect(celsiusCell.getByTestId('canvas-editors-only')).toHaveText('Editors only');
  await expect(fahrenheitCell.getByTestId('canvas-editors-only')).toHaveCount(0);
  await expect(fahrenheitCell.getByTestId('widget-value')).toHaveText('212.0 °F');

  // The formula field: checked while typing, stored when leaving it.
  await fahrenheitCell.click();
  const formula = editor.getByTestId('binding-formula');
  await expect(formula).toHaveValue('value * 1.8 + 32');
  await formula.fill('value *');
  await expect(
    editor.getByText('The formula cannot be read: check its operators and parentheses.'),
  ).toBeVisible();
  await formula.fill('temperature * 2');
  await expect(
    editor.getByText('Use only value, numbers, operators and functions such as abs, round, min and max.'),
  ).toBeVisible();
  await expect(editor.getByTestId('editor-unsaved')).toBeHidden();
  await formula.fill('value * 2');
  await formula.press('Tab');
  await expect(fahrenheitCell.getByTestId('widget-value')).toHaveText('200.0 °F');
  await expect(editor.getByTestId('editor-unsaved')).toBeVisible();

  // Who sees it: the Fahrenheit widget for editors only, the Celsius one for everyone.
  await expect(editor.getByTestId('inspector-visibleTo')).toHaveValue('Everyone');
  await choose(editor, 'inspector-visibleTo', 'Editors only');
  await expect(fahrenheitCell.getByTestId('canvas-editors-only')).toBeVisible();
  await celsiusCell.click();
  // The inspector follows the selection a moment later: the Fahrenheit widget's is still there until then.
  await expect(editor.getByTestId('widget-inspector')).toHaveAttribute('data-inspected', 'celsius');
  await expect(editor.getByTestId('inspector-visibleTo')).toHaveValue('Editors only');
  await choose(editor, 'inspector-visibleTo', 'Everyone');
  await expect(celsiusCell.getByTestId('canvas-editors-only')).toHaveCount(0);
  // Undo brings the previous choice back.
  await editor.getByTestId('editor-undo').click();
  await expect(celsiusCell.getByTestId('canvas-editors-only')).toBeVisible();
  await editor.getByTestId('editor-redo').click();
  await expect(celsiusCell.getByTestId('canvas-editors-only')).toHaveCount(0);
  await editor.getByTestId('editor-save').click();
  await expect(editor.getByText('Saved as version 2.')).toBeVisible();
  await designer.close();

  // Flags off: neither field is offered, and saving another change keeps both values.
  const plain = await newPage(browser);
  await signInAs(plain.page, tenant, 'owner', `/dashboards/${id}/edit`);
  await expect(plain.page.getByTestId('editor-version')).toHaveText('Version 2');
  await plain.page.getByTestId('canvas-widget-fahrenheit').click();
  await expect(plain.page.getByTestId('binding-path')).toBeVisible();
  await expect(plain.page.getByTestId('binding-formula')).toHaveCount(0);
  await expect(plain.page.getByTestId('inspector-visibleTo')).toHaveCount(0);
  await plain.page.getByTestId('inspector-title').fill('Doubled');
  await plain.page.getByTestId('inspector-title').press('Enter');
  await plain.page.getByTestId('editor-save').click();
  await expect(plain.page.getByText('Saved as version 3.')).toBeVisible();
  await plain.close();

  // The owner sees the new formula; the reader now sees the Celsius widget and not the Fahrenheit one.
  await signInAs(page, tenant, 'owner', `/dashboards/${id}`);
  await expect(widget(page, 'fahrenheit').getByTestId('widget-title')).toHaveText('Doubled');
  await expect(widget(page, 'fahrenheit').getByTestId('widget-value')).toHaveText('200.0 °F');
  const reader = await newPage(browser);
  await signInAs(reader.page, tenant, 'reader', `/dashboards/${id}`);
  await expect(widget(reader.page, 'celsius').getByTestId('widget-value')).toHaveText('100.0 °C');
  await expect(widget(reader.page, 'fahrenheit')).toHaveCount(0);
  await reader.close();
  expect(designer.errors).toEqual([]);
  expect(plain.errors).toEqual([]);
  expect(reader.errors).toEqual([]);
});
