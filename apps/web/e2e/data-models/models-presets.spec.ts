import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type TenantFixture } from '../support/seed.ts';

/** Spec 6: the models and presets tabs need READ models and READ devices; changing them needs the other actions. */
const MODELER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'models', scopes: ['CREATE', 'READ', 'UPDATE', 'DELETE'] },
  { rsname: 'devices', scopes: ['READ'] },
];
const READER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ'] },
];

function plant(): TenantFixture {
  return {
    organizations: [{ key: 'org', name: 'Bottling plant', iotEnabled: true }],
    users: [
      { key: 'modeler', memberships: [{ org: 'org', permissions: MODELER }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [
          { path: '/motor/speed', type: 'number', unit: 'rpm' },
          { path: '/motor/running', type: 'boolean' },
          { path: '/state', type: 'string' },
        ],
        preset: 'Press preset',
        devices: ['press-01'],
        points: 0,
        intervalMs: 1_000,
      },
    ],
  };
}

/** Experimental flags live in local storage under `edgeport.feature.` (spec 3); set before the portal loads. */
async function enableFlags(page: Page, flags: string[]) {
  await page.addInitScript((names) => {
    for (const name of names) localStorage.setItem(`edgeport.feature.${name}`, 'true');
  }, flags);
}

function table(page: Page, name: string): Locator {
  return page.getByRole('table', { name });
}

function rowOf(page: Page, tableName: string, text: string): Locator {
  return table(page, tableName).getByRole('row').filter({ hasText: text });
}

async function pickOption(page: Page, input: Locator, search: string, option: string | RegExp) {
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).click();
}

function notice(page: Page, text: string | RegExp): Locator {
  return page.locator('.mantine-Notification-root').filter({ hasText: text });
}

async function confirm(page: Page, title: string, button: string) {
  const dialog = page.getByRole('dialog', { name: title });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: button }).click();
}

test('a modeler creates and versions a model, maps two tags with a formula, creates a preset in the background and cannot delete a model in use', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  await enableFlags(page, ['formulaMapping']);
  const tenant = await seedTenant(request, plant());

  await signInAs(page, tenant, 'modeler', '/devices');
  await expect(page.getByTestId('devices-page')).toBeVisible();
  await page.getByRole('tab', { name: 'Models' }).click();
  await expectRoute(page, '/devices/models');
  await expect(page.getByRole('heading', { name: 'Models' })).toBeVisible();
  await expect(rowOf(page, 'Models of the organization', 'Press')).toContainText('Version 1');
  await expect(rowOf(page, 'Models of the organization', 'Press')).toContainText('3');

  // A new model: the first path misses its leading '/', the live check says so on that row, then it is fixed.
  await page.getByRole('button', { name: 'New model' }).click();
  const drawer = page.getByRole('dialog', { name: 'New model' });
  await drawer.getByRole('textbox', { name: 'Name' }).fill('Filler');
  await drawer.getByRole('textbox', { name: 'Path of row 1' }).fill('motor/speed');
  await expect(drawer.getByTestId('path-row-0')).toContainText("A path starts with '/'.");
  await expect(drawer.getByTestId('validation-state')).toHaveText('1 problem');
  await drawer.getByRole('textbox', { name: 'Path of row 1' }).fill('/motor/speed');
  await drawer.getByRole('textbox', { name: 'Unit of row 1' }).fill('rpm');
  await drawer.getByRole('textbox', { name: 'Minimum of row 1' }).fill('0');
  await drawer.getByRole('textbox', { name: 'Maximum of row 1' }).fill('3000');
  await expect(drawer.getByTestId('path-row-0')).not.toContainText("A path starts with '/'.");
  await drawer.getByRole('button', { name: 'Add a path' }).click();
  await drawer.getByRole('textbox', { name: 'Path of row 2' }).fill('/motor/running');
  await drawer.getByRole('combobox', { name: 'Type of row 2' }).selectOption('boolean');
  await drawer.getByRole('checkbox', { name: 'Row 2 is writable' }).check();
  await drawer.getByRole('button', { name: 'Add a path' }).click();
  await drawer.getByRole('textbox', { name: 'Path of row 3' }).fill('/state');
  await drawer.getByRole('combobox', { name: 'Type of row 3' }).selectOption('string');
  await expect(drawer.getByTestId('validation-state')).toHaveText('No problems found');
  await drawer.getByRole('button', { name: 'Create model' }).click();
  await expect(notice(page, 'Model Filler created.')).toBeVisible();

  // The drawer now shows the model; a fourth path makes version 2 and says so before saving.
  const modelDrawer = page.getByRole('dialog', { name: 'Model Filler' });
  await expect(modelDrawer.getByTestId('model-version')).toHaveText('Version 1');
  await expect(modelDrawer.getByTestId('version-note')).toContainText('saving keeps version 1');
  await modelDrawer.getByRole('button', { name: 'Add a path' }).click();
  await modelDrawer.getByRole('textbox', { name: 'Path of row 4' }).fill('/motor/temperature');
  await modelDrawer.getByRole('textbox', { name: 'Unit of row 4' }).fill('°C');
  await expect(modelDrawer.getByTestId('version-note')).toContainText('saving makes version 2');
  await page.screenshot({ path: test.info().outputPath('model-editor.png'), fullPage: true });
  await expect(modelDrawer.getByTestId('validation-state')).toHaveText('No problems found');
  await modelDrawer.getByRole('button', { name: 'Save' }).click();
  await expect(notice(page, 'Model Filler saved as version 2.')).toBeVisible();
  await expect(modelDrawer.getByTestId('model-version')).toHaveText('Version 2');
  await modelDrawer.getByRole('tab', { name: 'Versions' }).click();
  const versions = modelDrawer.getByTestId('model-versions');
  await expect(versions.getByRole('button', { name: /Version 2.*Current.*4 paths/ })).toBeVisible();
  await versions.getByRole('button', { name: /Version 1.*3 paths/ }).click();
  const firstVersion = modelDrawer.getByRole('table', { name: 'Paths of version 1' });
  await expect(firstVersion.getByRole('row')).toHaveCount(4);
  await expect(firstVersion).toContainText('/motor/running');
  await expect(firstVersion).not.toContainText('/motor/temperature');
  await page.screenshot({ path: test.info().outputPath('model-versions.png'), fullPage: true });
  await page.keyboard.press('Escape');
  await expect(modelDrawer).toBeHidden();
  await expect(rowOf(page, 'Models of the organization', 'Filler')).toContainText('Version 2');

  // The path search finds the new path across models.
  await page.getByRole('textbox', { name: 'Path contains' }).fill('temperature');
  const found = table(page, 'Paths found');
  await expect(found.getByRole('row')).toHaveCount(2);
  await expect(found).toContainText('Filler');
  await expect(found).toContainText('/motor/temperature');

  // A preset mapping two tags, one with a formula (checked while typed), created at once.
  await page.getByRole('tab', { name: 'Presets' }).click();
  await expectRoute(page, '/devices/presets');
  await expect(rowOf(page, 'Presets of the organization', 'Press preset')).toContainText('Press · version 1');
  await page.getByRole('button', { name: 'New preset' }).click();
  const presetDrawer = page.getByRole('dialog', { name: 'New preset' });
  await presetDrawer.getByRole('textbox', { name: 'Name' }).fill('Filler preset');
  await pickOption(
    page,
    presetDrawer.getByRole('combobox', { name: 'Model', exact: true }),
    'Fill',
    'Filler',
  );
  await expect(presetDrawer.getByRole('combobox', { name: 'Model version' })).toHaveValue(
    'Version 2 (current)',
  );
  await pickOption(
    page,
    presetDrawer.getByRole('combobox', { name: 'Model path of row 1' }),
    'speed',
    /^\/motor\/speed/,
  );
  await expect(presetDrawer.getByRole('textbox', { name: 'Data tag of row 1' })).toHaveValue('motor_speed');
  await presetDrawer.getByRole('textbox', { name: 'Data tag of row 1' }).fill('SPD');
  await presetDrawer.getByRole('textbox', { name: 'Formula of row 1' }).fill('value *');
  await expect(presetDrawer.getByTestId('mapping-row-0')).toContainText('The formula cannot be read');
  await presetDrawer.getByRole('textbox', { name: 'Formula of row 1' }).fill('value * 0.1');
  await expect(presetDrawer.getByTestId('mapping-row-0')).toContainText('Valid formula');
  await presetDrawer.getByRole('button', { name: 'Add a mapping' }).click();
  await pickOption(
    page,
    presetDrawer.getByRole('combobox', { name: 'Model path of row 2' }),
    'state',
    /^\/state/,
  );
  await expect(presetDrawer.getByRole('textbox', { name: 'Formula of row 2' })).toBeDisabled();
  await expect(presetDrawer.getByTestId('mapping-count')).toHaveText('2 mappings');
  await page.screenshot({ path: test.info().outputPath('preset-editor.png'), fullPage: true });
  await presetDrawer.getByRole('button', { name: 'Create preset' }).click();
  await expect(notice(page, 'Preset Filler preset created.')).toBeVisible();

  const createdDrawer = page.getByRole('dialog', { name: 'Preset Filler preset' });
  await expect(createdDrawer.getByText('Filler · version 2')).toBeVisible();
  const mappings = createdDrawer.getByRole('table', { name: 'Mappings of the preset' });
  await expect(mappings.getByRole('row').filter({ hasText: 'SPD' })).toContainText('value * 0.1');
  await expect(mappings.getByRole('row').filter({ hasText: '/state' })).toContainText('state');
  await createdDrawer.getByRole('tab', { name: 'Device configuration' }).click();
  const configuration = createdDrawer.getByTestId('device-configuration');
  await expect(configuration).toContainText('"presetName": "Filler preset"');
  await expect(configuration).toContainText('"tag": "SPD"');
  await expect(configuration).toContainText('"formula": "value * 0.1"');
  await page.keyboard.press('Escape');
  await expect(createdDrawer).toBeHidden();

  // Another preset of every path, created in the background: its progress is polled until done.
  await page.getByRole('button', { name: 'New preset' }).click();
  await presetDrawer.getByRole('textbox', { name: 'Name' }).fill('Filler all');
  await pickOption(
    page,
    presetDrawer.getByRole('combobox', { name: 'Model', exact: true }),
    'Fill',
    'Filler',
  );
  await presetDrawer.getByRole('button', { name: 'Map every path' }).click();
  await expect(presetDrawer.getByTestId('mapping-count')).toHaveText('4 mappings');
  await presetDrawer.getByRole('checkbox', { name: 'Create in the background' }).check();
  await presetDrawer.getByRole('button', { name: 'Start creating' }).click();
  await expect(presetDrawer).toBeHidden();
  const progress = page.getByRole('progressbar', { name: 'Progress of preset Filler all' });
  await expect(progress).toHaveAttribute('aria-valuenow', '100');
  await expect(page.getByTestId('preset-job')).toHaveAttribute('data-status', 'DONE');
  await expect(page.getByTestId('preset-job')).toContainText('Preset Filler all created.');
  await expect(rowOf(page, 'Presets of the organization', 'Filler all')).toContainText('Filler · version 2');
  await expect(rowOf(page, 'Presets of the organization', 'Filler all')).toContainText('4');
  await page.screenshot({ path: test.info().outputPath('presets.png'), fullPage: true });

  // A preset a device uses cannot be deleted: the refusal says how many devices use it.
  await page.getByRole('button', { name: 'Delete preset Press preset' }).click();
  await confirm(page, 'Delete the preset?', 'Delete');
  await expect(notice(page, '1 device still uses this preset; give it another preset first.')).toBeVisible();

  // Neither can a model presets use: two presets bind Filler.
  await page.getByRole('tab', { name: 'Models' }).click();
  await page.getByRole('button', { name: 'Open model Filler' }).click();
  await expect(page.getByRole('dialog', { name: 'Model Filler' }).getByTestId('model-usage')).toHaveText(
    'Used by 2 presets',
  );
  await page.getByRole('dialog', { name: 'Model Filler' }).getByTestId('delete-model').click();
  await confirm(page, 'Delete the model?', 'Delete');
  await expect(notice(page, '2 presets still use this model; delete them first.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(rowOf(page, 'Models of the organization', 'Filler')).toBeVisible();

  expect(errors.filter((text) => !isNetworkError(text, [409]))).toEqual([]);
});

test('a reader sees models and presets without any button that changes them; structs shows the paths as a tree', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  await enableFlags(page, ['structs']);
  const tenant = await seedTenant(request, plant());

  await signInAs(page, tenant, 'reader', '/devices/models');
  await expect(page.getByRole('heading', { name: 'Models' })).toBeVisible();
  await expect(rowOf(page, 'Models of the organization', 'Press')).toBeVisible();
  await expect(page.getByRole('button', { name: 'New model' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);

  await page.getByRole('button', { name: 'Open model Press' }).click();
  const drawer = page.getByRole('dialog', { name: 'Model Press' });
  await expect(drawer.getByTestId('model-form')).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await expect(drawer.getByTestId('delete-model')).toHaveCount(0);
  await expect(drawer.getByRole('switch', { name: 'Visible to sub-organizations' })).toBeDisabled();
  // structs: a tree grouped by '/' segments, walked by keyboard.
  const tree = drawer.getByRole('tree', { name: 'Paths of the model' });
  const motor = tree.locator('[role=treeitem][data-value="/motor"]');
  const speed = tree.locator('[role=treeitem][data-value="/motor/speed"]');
  await expect(motor).toHaveAttribute('aria-expanded', 'true');
  await expect(speed).toContainText('rpm');
  await expect(tree.locator('[role=treeitem][data-value="/state"]')).toContainText('Text');
  await motor.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(motor).toHaveAttribute('aria-expanded', 'false');
  await expect(speed).toHaveCount(0);
  await page.keyboard.press('ArrowRight');
  await expect(speed).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('paths-tree.png'), fullPage: true });
  await page.keyboard.press('Escape');

  await page.getByRole('tab', { name: 'Presets' }).click();
  await expect(rowOf(page, 'Presets of the organization', 'Press preset')).toContainText('1');
  await expect(page.getByRole('button', { name: 'New preset' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^Delete/ })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open preset Press preset' }).click();
  const presetDrawer = page.getByRole('dialog', { name: 'Preset Press preset' });
  await expect(presetDrawer.getByTestId('preset-usage')).toHaveText('Used by 1 device');
  await expect(presetDrawer.getByTestId('delete-preset')).toHaveCount(0);
  await expect(presetDrawer.getByRole('switch', { name: 'Visible to sub-organizations' })).toBeDisabled();

  expect(errors).toEqual([]);
});

test('an organization without models says what to do next', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'New plant', iotEnabled: true }],
    users: [{ key: 'modeler', memberships: [{ org: 'org', permissions: MODELER }] }],
  });
  await signInAs(page, tenant, 'modeler', '/devices/models');
  await expect(page.getByTestId('models-empty')).toContainText(
    "No models yet — create one to describe your machines' data.",
  );
  await page.getByRole('tab', { name: 'Presets' }).click();
  await expect(page.getByTestId('presets-empty')).toContainText('No presets yet');
  // Without a model nothing can be mapped yet.
  await page.getByRole('button', { name: 'New preset' }).click();
  await expect(page.getByTestId('mapping-pick-model')).toHaveText('Pick a model to map its paths.');
  expect(errors).toEqual([]);
});
