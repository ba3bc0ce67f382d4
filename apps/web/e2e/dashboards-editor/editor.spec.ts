import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { mosquittoPub } from '../support/mqtt.ts';
import { expectMessageBelow, expectRoute, routePath, signInAs } from '../support/portal.ts';
import {
  type Permission,
  PORTAL_ACCESS,
  seedTenant,
  type Tenant,
  type TenantFixture,
} from '../support/seed.ts';

/** Spec 6: dashboards need READ models and READ dashboards (IoT only); CREATE to make new ones. */
const DESIGNER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'dashboards', scopes: ['READ', 'CREATE'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ'] },
];
const READER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'dashboards', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ'] },
];

function plant(): TenantFixture {
  return {
    organizations: [{ key: 'org', name: 'Press plant', iotEnabled: true }],
    users: [
      { key: 'designer', memberships: [{ org: 'org', permissions: DESIGNER }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [
          { path: '/motor/speed', type: 'number', unit: 'rpm' },
          { path: '/motor/running', type: 'boolean' },
        ],
        preset: 'Press preset',
        devices: ['press-01'],
        points: 0,
        intervalMs: 1_000,
        mqttCredentials: true,
      },
    ],
    dashboards: [
      {
        name: 'Line A',
        owner: 'designer',
        shares: [{ user: 'reader', level: 'r' }],
        document: {
          schemaVersion: 2,
          rootPageId: 'main',
          pages: [{ id: 'main', title: 'Main', widgets: [] }],
          slots: [{ name: 'press', label: 'Press', modelId: '{{model:Press}}' }],
          variables: [],
        },
      },
      { name: 'Line B', owner: 'designer' },
    ],
  };
}

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const canvasWidgets = (page: Page): Locator => page.locator('[data-testid^="canvas-widget-"]');

function dashboardId(tenant: Tenant, name: string): string {
  const id = tenant.dashboards[name];
  if (!id) throw new Error(`no seeded dashboard ${name}`);
  return id;
}

async function choose(page: Page, testId: string, option: string | RegExp) {
  await page.getByTestId(testId).click();
  await page.getByRole('option', { name: option }).click();
}

async function addFromPalette(page: Page, type: string) {
  const before = await canvasWidgets(page).count();
  await page.getByTestId(`palette-item-${type}`).click();
  await expect(canvasWidgets(page)).toHaveCount(before + 1);
}

/**
 * Types into each field in turn as a person would (focus, select all, insert the text; leaving a field commits it), all
 * within one task of the page, so nothing React scheduled for later runs in between.
 */
async function typeInOneTask(page: Page, fields: [testId: string, text: string][]) {
  await page.evaluate((entries) => {
    const doc = (globalThis as unknown as { document: InOneTaskDocument }).document;
    for (const [testId, text] of entries) {
      const input = doc.querySelector(`[data-testid="${testId}"]`);
      if (!input) throw new Error(`no field ${testId}`);
      input.focus();
      input.select();
      doc.execCommand('insertText', false, text);
    }
  }, fields);
}

/** Types `text` into a field, presses Enter (which commits it) and types `more`, all within one task of the page. */
async function enterThenTypeOnInOneTask(page: Page, testId: string, text: string, more: string) {
  await page.evaluate(
    ({ testId, text, more }) => {
      const scope = globalThis as unknown as {
        document: InOneTaskDocument;
        KeyboardEvent: KeyboardEventClass;
      };
      const input = scope.document.querySelector(`[data-testid="${testId}"]`);
      if (!input) throw new Error(`no field ${testId}`);
      input.focus();
      input.select();
      scope.document.execCommand('insertText', false, text);
      input.dispatchEvent(new scope.KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
      scope.document.execCommand('insertText', false, more);
    },
    { testId, text, more },
  );
}
type InOneTaskDocument = {
  querySelector(
    selector: string,
  ): { focus(): void; select(): void; dispatchEvent(event: unknown): boolean } | null;
  execCommand(command: string, showUi: boolean, value: string): boolean;
};
type KeyboardEventClass = new (type: string, init: { key: string; bubbles: boolean }) => unknown;

/** Goes to another route of the portal by its address (as typing it in the address bar would). */
async function navigateInApp(page: Page, route: string) {
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#${route}`)}`);
}

test('a designer builds a dashboard, copies three widgets into another one, undoes, redoes and saves', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  const lineA = dashboardId(tenant, 'Line A');
  const lineB = dashboardId(tenant, 'Line B');
  const press = tenant.telemetryDevices['press-01'];
  if (!press) throw new Error('press-01 was not seeded');

  await signInAs(page, tenant, 'designer', `/dashboards/${lineA}/edit`);
  await expect(page.getByTestId('editor-dashboard-name')).toHaveText('Line A');
  await expect(page.getByTestId('editor-version')).toHaveText('Version 1');
  await expect(page.getByTestId('editor-empty')).toHaveText('Add a widget from the palette');
  await expect(page.getByTestId('editor-undo')).toBeDisabled();
  await expect(page.getByTestId('editor-redo')).toBeDisabled();
  await expect(page.getByTestId('page-root-badge')).toBeVisible();

  // Three widgets from the palette (click, and Enter on a focused entry).
  await addFromPalette(page, 'value');
  await expect(page.getByTestId('widget-inspector')).toBeVisible();
  await expect(page.getByTestId('editor-undo')).toBeEnabled();
  await expect(page.getByTestId('editor-unsaved')).toBeVisible();

  // Bind the value to the slot's /motor/speed: the editor shows the device's live value.
  await choose(page, 'binding-source', 'Press (press)');
  await choose(page, 'binding-path', '/motor/speed (rpm)');
  await page.getByTestId('inspector-title').fill('Speed');
  await page.getByTestId('inspector-title').press('Enter');
  const valueWidget = canvasWidgets(page).first();
  await expect(valueWidget.getByTestId('widget-title')).toHaveText('Speed');
  await expect
    .poll(
      async () => {
        await mosquittoPub(press, { motor_speed: 1234.5 });
        return valueWidget
          .getByTestId('widget-value')
          .textContent({ timeout: 1_000 })
          .catch(() => '');
      },
      { timeout: 20_000 },
    )
    .toMatch(/1[,.]?234[.,]5/);

  await page.getByTestId('palette-item-text').focus();
  await page.keyboard.press('Enter');
  await expect(canvasWidgets(page)).toHaveCount(2);
  await addFromPalette(page, 'gauge');

  // Multi-select the three with Ctrl-click and copy them with Ctrl+C.
  const [first, second, third] = [
    canvasWidgets(page).nth(0),
    canvasWidgets(page).nth(1),
    canvasWidgets(page).nth(2),
  ];
  await first.click();
  await second.click({ modifiers: ['Control'] });
  await third.click({ modifiers: ['Control'] });
  await expect(page.getByTestId('multi-inspector')).toContainText('3 widgets selected');
  await expect(canvasWidgets(page).and(page.locator('[data-selected="true"]'))).toHaveCount(3);
  await page.keyboard.press('Control+c');
  await expect(page.getByText('3 widgets copied.')).toBeVisible();

  // Delete with only the page selected is refused; a click on the empty canvas selects the page.
  await page.getByTestId('editor-canvas').click({ position: { x: 3, y: 3 } });
  await expect(page.getByTestId('page-inspector')).toBeVisible();
  await page.keyboard.press('Delete');
  await expect(page.getByText('The page cannot be deleted')).toBeVisible();
  await expect(canvasWidgets(page)).toHaveCount(3);

  // The editor's messages keep clear of its toolbar (a message stays open while the pointer rests on it, so one over
  // Save kept the click from landing), and Save works while they are still shown.
  for (const text of ['3 widgets copied.', 'The page cannot be deleted']) {
    await expectMessageBelow(page, text, page.getByTestId('editor-toolbar'));
  }
  await page.getByTestId('editor-save').click();
  await expect(page.getByText('Saved as version 2.')).toBeVisible();
  await expect(page.getByTestId('editor-version')).toHaveText('Version 2');
  await expect(page.getByTestId('editor-unsaved')).toBeHidden();
  // The history survives the save.
  await expect(page.getByTestId('editor-undo')).toBeEnabled();

  // Leaving with unsaved changes asks first (here through the toolbar's View link).
  await addFromPalette(page, 'text');
  await page.getByTestId('editor-view').click();
  await expect(page.getByText('Leave without saving?')).toBeVisible();
  await page.getByTestId('editor-leave-stay').click();
  await expectRoute(page, `/dashboards/${lineA}/edit`);
  await expect(canvasWidgets(page)).toHaveCount(4);
  await page.getByTestId('editor-view').click();
  await page.getByTestId('editor-leave-confirm').click();
  await expectRoute(page, `/dashboards/${lineA}`);

  // Another dashboard's editor.
  await navigateInApp(page, `/dashboards/${lineB}/edit`);
  await expectRoute(page, `/dashboards/${lineB}/edit`);
  await expect(page.getByTestId('editor-dashboard-name')).toHaveText('Line B');
  await expect(page.getByTestId('editor-empty')).toBeVisible();

  // Paste into the other dashboard: the three widgets, with the slot their binding uses.
  await page.getByTestId('editor-canvas').click({ position: { x: 3, y: 3 } });
  await page.keyboard.press('Control+v');
  await expect(canvasWidgets(page)).toHaveCount(3);
  await expect(canvasWidgets(page).and(page.locator('[data-selected="true"]'))).toHaveCount(3);
  await expect(page.getByTestId('editor-canvas')).toContainText('Speed');

  // Undo and redo each step: add a fourth, undo it, undo the paste, redo both.
  await addFromPalette(page, 'text');
  await page.keyboard.press('Escape');
  await page.getByTestId('editor-undo').click();
  await expect(canvasWidgets(page)).toHaveCount(3);
  await page.keyboard.press('Control+z');
  await expect(canvasWidgets(page)).toHaveCount(0);
  await expect(page.getByTestId('editor-undo')).toBeDisabled();
  await page.getByTestId('editor-redo').click();
  await expect(canvasWidgets(page)).toHaveCount(3);
  await page.keyboard.press('Control+Shift+z');
  await expect(canvasWidgets(page)).toHaveCount(4);
  await expect(page.getByTestId('editor-redo')).toBeDisabled();

  // The other keys: Ctrl+A selects every widget, Backspace deletes, Ctrl+Y redoes, Ctrl+X cuts (each undone).
  const selected = canvasWidgets(page).and(page.locator('[data-selected="true"]'));
  await page.keyboard.press('Control+a');
  await expect(selected).toHaveCount(4);
  await page.keyboard.press('Backspace');
  await expect(canvasWidgets(page)).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(canvasWidgets(page)).toHaveCount(4);
  await page.keyboard.press('Control+y');
  await expect(canvasWidgets(page)).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(selected).toHaveCount(4);
  await page.keyboard.press('Control+x');
  await expect(page.getByText('4 widgets cut.')).toBeVisible();
  await expect(canvasWidgets(page)).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(canvasWidgets(page)).toHaveCount(4);

  // The slot came along with the pasted binding.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('slot-name-0')).toHaveValue('press');

  // Pages: add one, rename it, the root page cannot be deleted, the other one can.
  await page.getByTestId('page-add').click();
  await expect(page.locator('[data-testid^="page-item-"]')).toHaveCount(2);
  await expect(page.getByTestId('editor-empty')).toBeVisible();
  const rootRow = page.locator('[data-testid^="page-row-"]').first();
  const rootId = ((await rootRow.getAttribute('data-testid')) ?? '').replace('page-row-', '');
  await page.getByTestId(`page-delete-${rootId}`).click();
  await expect(page.getByText('The root page cannot be deleted')).toBeVisible();
  await expect(page.locator('[data-testid^="page-item-"]')).toHaveCount(2);
  const secondRow = page.locator('[data-testid^="page-row-"]').nth(1);
  const secondId = ((await secondRow.getAttribute('data-testid')) ?? '').replace('page-row-', '');
  await page.getByTestId(`page-rename-${secondId}`).click();
  await page.getByTestId('page-title-input').fill('Details');
  await page.getByTestId('page-title-input').press('Enter');
  await expect(page.getByTestId(`page-item-${secondId}`)).toHaveText('Details');
  await page.getByTestId(`page-delete-${secondId}`).click();
  await expect(page.locator('[data-testid^="page-item-"]')).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(page.locator('[data-testid^="page-item-"]')).toHaveCount(2);

  // Save with the keyboard.
  await page.getByTestId(`page-item-${rootId}`).click();
  await expect(canvasWidgets(page)).toHaveCount(4);
  // Ctrl+S while still typing in a field saves what was typed.
  await canvasWidgets(page).first().click();
  await page.getByTestId('inspector-title').fill('Speed B');
  await page.getByTestId('inspector-title').press('Control+s');
  await expect(page.getByTestId('editor-version')).toHaveText('Version 2');
  await expect(page.getByTestId('editor-unsaved')).toBeHidden();
  await page.getByTestId('editor-versions').click();
  await expect(page.getByTestId('editor-version-2')).toContainText('current');
  await expect(page.getByTestId('editor-version-1')).toBeVisible();
  await page.keyboard.press('Escape');

  // The saved version opens again with its widgets and pages (nothing unsaved: no question on the way out).
  await page.getByTestId('editor-view').click();
  await expectRoute(page, `/dashboards/${lineB}`);
  await navigateInApp(page, `/dashboards/${lineB}/edit`);
  await expect(page.getByTestId('editor-version')).toHaveText('Version 2');
  await expect(canvasWidgets(page)).toHaveCount(4);
  await expect(page.getByTestId('editor-canvas')).toContainText('Speed B');
  await expect(page.locator('[data-testid^="page-item-"]')).toHaveCount(2);
  expect(routePath(page)).toBe(`/dashboards/${lineB}/edit`);
  expect(errors).toEqual([]);
});

test('a reader cannot edit: the editor sends them to the viewer', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  const lineA = dashboardId(tenant, 'Line A');
  await signInAs(page, tenant, 'reader', `/dashboards/${lineA}/edit`);
  await expect(page.getByTestId('editor-read-only')).toContainText('You can only view this dashboard');
  await expect(page.getByTestId('editor-save')).toHaveCount(0);
  await page.getByTestId('editor-open-viewer').click();
  await expectRoute(page, `/dashboards/${lineA}`);
  expect(errors).toEqual([]);
});

test('what is typed on while the inspector catches up with the previous field is kept', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  await signInAs(page, tenant, 'designer', `/dashboards/${dashboardId(tenant, 'Line A')}/edit`);
  await expect(page.getByTestId('slot-name-0')).toHaveValue('press');
  await addFromPalette(page, 'value');
  await expect(page.getByTestId('widget-inspector')).toBeVisible();

  // The inspector follows the editor's state a moment later (a deferred render, which typing interrupts): a field left
  // for the next one and typed into before the inspector caught up must both survive it catching up. Typing in one
  // task leaves the catch-up behind all of it for certain.
  await typeInOneTask(page, [
    ['inspector-title', 'Speed'],
    ['inspector-unit', 'rpm'],
    ['inspector-decimals', '2'],
  ]);
  await expect(page.getByTestId('inspector-title')).toHaveValue('Speed');
  await expect(page.getByTestId('inspector-unit')).toHaveValue('rpm');
  await page.getByTestId('inspector-decimals').press('Tab');
  await expect(page.getByTestId('inspector-unit')).toHaveValue('rpm');
  await expect(page.getByTestId('inspector-decimals')).toHaveValue('2');
  await expect(canvasWidgets(page).first().getByTestId('widget-title')).toHaveText('Speed');

  // The same in the page's device slots (a click on the empty canvas selects the page).
  await page.getByTestId('editor-canvas').click({ position: { x: 3, y: 3 } });
  await expect(page.getByTestId('page-inspector')).toBeVisible();
  // A single field too: the page title committed with Enter, then typed on before the title came back.
  await enterThenTypeOnInOneTask(page, 'page-title', 'Overview', ' A');
  const rootPageTitle = page.getByTestId('page-item-main').locator('span').first();
  await expect(rootPageTitle).toHaveText('Overview');
  await expect(page.getByTestId('page-title')).toHaveValue('Overview A');
  await page.getByTestId('page-title').press('Tab');
  await expect(rootPageTitle).toHaveText('Overview A');
  await page.getByTestId('slot-add').click();
  await expect(page.getByTestId('slot-name-1')).toHaveValue('slot1');
  await typeInOneTask(page, [
    ['slot-name-1', 'mixer'],
    ['slot-label-1', 'Mixer'],
  ]);
  await page.getByTestId('slot-label-1').press('Tab');
  await expect(page.getByTestId('slot-name-1')).toHaveValue('mixer');
  await expect(page.getByTestId('slot-label-1')).toHaveValue('Mixer');
  // And in its variables.
  await page.getByTestId('variable-add').click();
  await expect(page.getByTestId('variable-name-0')).toHaveValue('var1');
  await typeInOneTask(page, [
    ['variable-name-0', 'limit'],
    ['variable-initial-0', '42'],
  ]);
  await page.getByTestId('variable-initial-0').press('Tab');
  await expect(page.getByTestId('variable-name-0')).toHaveValue('limit');
  await expect(page.getByTestId('variable-initial-0')).toHaveValue('42');
  // Two clicks on "Add variable" in one task, before the inspector shows the first: each adds one.
  await page.getByTestId('variable-add').evaluate((button) => {
    button.click();
    button.click();
  });
  await expect(page.getByTestId('variable-name-1')).toHaveValue('var1');
  await expect(page.getByTestId('variable-name-2')).toHaveValue('var2');
  // Committed too: the page's inspector shows them again after a widget was selected, and the widget's binding offers
  // the slot under its label.
  await canvasWidgets(page).first().click();
  await page.getByTestId('editor-canvas').click({ position: { x: 3, y: 3 } });
  await expect(page.getByTestId('slot-label-1')).toHaveValue('Mixer');
  await expect(page.getByTestId('variable-name-0')).toHaveValue('limit');
  await expect(page.getByTestId('variable-initial-0')).toHaveValue('42');
  await canvasWidgets(page).first().click();
  await page.getByTestId('binding-source').click();
  await expect(page.getByRole('option', { name: 'Mixer (mixer)' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a new dashboard asks for its name on the first save and continues under its own address', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  await signInAs(page, tenant, 'designer', '/dashboards/new-1/new');
  await expect(page.getByTestId('editor-dashboard-name')).toHaveText('New dashboard');
  await expect(page.getByTestId('editor-versions')).toHaveCount(0);
  await addFromPalette(page, 'text');
  await page.getByTestId('inspector-text').fill('Welcome <script>window.hacked = 1</script>');
  await page.getByTestId('inspector-title').click();
  await expect(canvasWidgets(page).first()).toContainText('Welcome <script>');

  // Drag a second widget down: one step, undone at once.
  await addFromPalette(page, 'value');
  const moved = canvasWidgets(page).nth(1);
  const before = await moved.boundingBox();
  if (!before) throw new Error('the widget has no box');
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
  await page.mouse.down();
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2 + 60, { steps: 8 });
  await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2 + 130, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await moved.boundingBox())?.y ?? 0).toBeGreaterThan(before.y + 80);
  await page.getByTestId('editor-undo').click();
  await expect.poll(async () => (await moved.boundingBox())?.y ?? 0).toBeCloseTo(before.y, -1);

  // Resize it by its corner handle: one step as well.
  const movedId = (await moved.getAttribute('data-testid')) ?? '';
  const handle = page
    .locator('.react-grid-item', { has: page.getByTestId(movedId) })
    .locator('.react-resizable-handle');
  const corner = await handle.boundingBox();
  if (!corner) throw new Error('the widget has no resize handle');
  await page.mouse.move(corner.x + corner.width / 2, corner.y + corner.height / 2);
  await page.mouse.down();
  await page.mouse.move(corner.x + 80, corner.y + 40, { steps: 8 });
  await page.mouse.move(corner.x + 160, corner.y + 80, { steps: 8 });
  await page.mouse.up();
  await expect.poll(async () => (await moved.boundingBox())?.width ?? 0).toBeGreaterThan(before.width + 100);
  await page.getByTestId('editor-undo').click();
  await expect.poll(async () => (await moved.boundingBox())?.width ?? 0).toBeCloseTo(before.width, -1);

  // Group both, the group shows them inside; ungroup again.
  await canvasWidgets(page).nth(0).click();
  await moved.click({ modifiers: ['Shift'] });
  await page.getByTestId('editor-group').click();
  await expect(canvasWidgets(page)).toHaveCount(3);
  const group = page.locator('[data-widget-type="group"][data-testid^="canvas-widget-"]');
  await expect(group.locator('[data-testid^="canvas-widget-"]')).toHaveCount(2);
  await expect(page.getByTestId('editor-ungroup')).toBeEnabled();
  await page.getByTestId('editor-ungroup').click();
  await expect(canvasWidgets(page)).toHaveCount(2);
  await expect(group).toHaveCount(0);
  // Ctrl+G groups too (undone with Ctrl+Z).
  await canvasWidgets(page).nth(0).click();
  await moved.click({ modifiers: ['Shift'] });
  await page.keyboard.press('Control+g');
  await expect(group).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(group).toHaveCount(0);
  await expect(canvasWidgets(page)).toHaveCount(2);

  await page.getByTestId('editor-save').click();
  await page.getByTestId('save-name-submit').click();
  await expect(page.getByText('A name is required.')).toBeVisible();
  await page.getByTestId('save-name-input').fill('Line C');
  await page.getByTestId('save-name-submit').click();
  await expect(page.getByText('Saved as version 1.')).toBeVisible();
  await expect.poll(() => routePath(page)).toMatch(/^\/dashboards\/[0-9a-f-]{36}\/edit$/);
  await expect(page.getByTestId('editor-dashboard-name')).toHaveText('Line C');
  await expect(page.getByTestId('editor-version')).toHaveText('Version 1');
  await expect(canvasWidgets(page)).toHaveCount(2);
  expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();
  expect(errors).toEqual([]);
});

/** A 1×1 PNG. */
const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

test('an image widget shows an asset uploaded from the inspector', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  const lineA = dashboardId(tenant, 'Line A');
  await signInAs(page, tenant, 'designer', `/dashboards/${lineA}/edit`);
  await addFromPalette(page, 'image');
  await expect(page.getByTestId('image-asset-field')).toBeVisible();
  await page
    .getByTestId('image-asset-field')
    .locator('input[type="file"]')
    .setInputFiles({ name: 'Plant logo.png', mimeType: 'image/png', buffer: PIXEL });
  await expect(page.getByText('Plant logo.png uploaded.')).toBeVisible();
  await expect(page.getByTestId('image-asset')).toHaveValue('Plant logo.png');
  await expect(canvasWidgets(page).first().getByTestId('widget-image')).toHaveAttribute(
    'data-asset',
    'Plant logo.png',
  );
  expect(errors).toEqual([]);
});
