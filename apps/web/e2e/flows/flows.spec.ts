import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { expectMessageBelow, expectRoute, routePath, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type Tenant, userOf } from '../support/seed.ts';

const OWNER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'dashboards', scopes: ['READ', 'CREATE'] },
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'users', scopes: ['READ'] },
];
const READER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'dashboards', scopes: ['READ'] },
];

async function seedTwoUsers(request: Parameters<typeof seedTenant>[0]): Promise<Tenant> {
  return seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works', iotEnabled: true, vpnEnabled: false }],
    users: [
      { key: 'owner', memberships: [{ org: 'org', permissions: OWNER }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
    ],
    dashboards: [
      { name: 'Press A', owner: 'owner' },
      { name: 'Press B', owner: 'owner' },
    ],
  });
}

/** The bearer token the page sends to the dashboard service (the permission token of the entered organization). */
function dashboardBearer(page: Page): Promise<string> {
  return page
    .waitForRequest((r) => r.url().includes('/svc/dashboard/api/v1/') && Boolean(r.headers().authorization))
    .then((r) => r.headers().authorization ?? '');
}

function table(page: Page): Locator {
  return page.getByTestId('collection-table').getByRole('table');
}

function row(page: Page, name: string): Locator {
  return table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Open ${name}`, exact: true }) });
}

test('the owner creates, duplicates and shares a dashboard read-only; the reader can only view; versions derive and become current', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTwoUsers(request);
  const reader = userOf(tenant, 'reader');

  // The owner lands on the dashboards (spec 2 home order: dashboards first with IoT) and creates one through the API.
  const bearer = dashboardBearer(page);
  await signInAs(page, tenant, 'owner', '/');
  await expectRoute(page, '/flows/dashboards');
  await expect(page.getByTestId('flows-page')).toHaveAttribute('data-collection', 'dashboards');
  const created = await request.post(`http://127.0.0.1:${e2ePort()}/svc/dashboard/api/v1/dashboards`, {
    headers: { authorization: await bearer },
    data: { name: 'Line 4', description: 'Packaging line' },
  });
  expect(created.status()).toBe(201);
  await page.reload();
  await expect(row(page, 'Line 4')).toBeVisible();
  await expect(row(page, 'Line 4').getByTestId('access')).toHaveText('Owner');
  await expect(row(page, 'Press A')).toBeVisible();

  // Duplicate: a copy with the current version's document.
  await row(page, 'Line 4').getByRole('button', { name: 'Duplicate Line 4' }).click();
  await expect(page.getByText('Created Line 4 (copy).')).toBeVisible();
  await expect(row(page, 'Line 4 (copy)')).toBeVisible();

  // Share read-only with the reader through the dialog.
  await row(page, 'Line 4').getByRole('button', { name: 'Share Line 4' }).click();
  const dialog = page.getByTestId('share-dialog');
  await expect(dialog.getByTestId('share-readers')).toHaveText('0 readers');
  const level = dialog.getByRole('radiogroup', { name: `Access of ${reader.email}` });
  await expect(level.getByRole('radio', { name: 'None' })).toBeChecked();
  await level.getByText('Read', { exact: true }).click();
  await expect(dialog.getByText('1 change')).toBeVisible();
  const shared = page.waitForRequest((r) => r.url().endsWith('/readers') && r.method() === 'POST');
  await dialog.getByTestId('share-save').click();
  expect(JSON.parse((await shared).postData() ?? '{}')).toEqual({ users: [{ user: reader.id, level: 'r' }] });
  await expect(page.getByText('Sharing of Line 4 saved.')).toBeVisible();
  await row(page, 'Line 4').getByRole('button', { name: 'Share Line 4' }).click();
  await expect(dialog.getByTestId('share-readers')).toHaveText('1 reader');
  await expect(level.getByRole('radio', { name: 'Read', exact: true })).toBeChecked();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // Versions: derive version 2 from version 1, then make it current.
  await row(page, 'Line 4').getByRole('button', { name: 'Versions of Line 4' }).click();
  const drawer = page.getByTestId('versions-drawer');
  const version = (v: number) => drawer.locator(`[data-testid="version-row"][data-version="${v}"]`);
  await expect(version(1)).toHaveAttribute('data-current', 'true');
  await drawer.getByRole('button', { name: 'Derive a new version from version 1' }).click();
  await expect(page.getByText('Version 2 derived from version 1.')).toBeVisible();
  await expect(version(2)).toHaveAttribute('data-current', 'false');
  await expect(version(2)).toContainText('from version 1');
  await drawer.getByRole('button', { name: 'Make version 2 current' }).click();
  await expect(version(2)).toHaveAttribute('data-current', 'true');
  await expect(version(1)).toHaveAttribute('data-current', 'false');
  await expect(version(2).getByTestId('version-current')).toHaveText('Current');
  // The current version cannot be deleted; the old one can.
  await expect(version(2).getByRole('button', { name: 'Delete version 2' })).toHaveCount(0);
  await expect(version(1).getByRole('button', { name: 'Delete version 1' })).toBeVisible();
  // The clicked button is gone (the version is current), and focus with it: close with the close button's Enter
  // (a toast covers it for a pointer).
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).press('Enter');
  await expect(drawer).toBeHidden();
  // A fresh page for the lists below: the closing drawer's overlay may still lie over them for a moment.
  await page.reload();
  await expect(row(page, 'Line 4')).toBeVisible();

  // "Mine" shows the owner's three dashboards and the copy; "Shared with me" shows nothing for the owner.
  await page.getByTestId('flows-scope').getByText('Shared with me').click();
  await expect(page.getByTestId('table-empty')).toContainText('No dashboards here yet');
  await page.getByTestId('flows-scope').getByText('Mine').click();
  await expect(row(page, 'Line 4 (copy)')).toBeVisible();
  expect(errors).toEqual([]);

  // The reader: only Line 4, under "Shared with me", to open and look at its versions — nothing else.
  const context = await browser.newContext();
  const other = await context.newPage();
  const otherErrors = collectConsoleErrors(other);
  await signInAs(other, tenant, 'reader', '/flows/dashboards');
  await other.getByTestId('flows-scope').getByText('Shared with me').click();
  await expect(row(other, 'Line 4')).toBeVisible();
  await expect(row(other, 'Line 4').getByTestId('access')).toHaveText('Read only');
  await expect(row(other, 'Line 4 (copy)')).toHaveCount(0);
  const readerRow = row(other, 'Line 4');
  for (const name of ['Edit Line 4', 'Share Line 4', 'Delete Line 4', 'Duplicate Line 4']) {
    await expect(readerRow.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(other.getByTestId('new-dashboard')).toHaveCount(0);
  await readerRow.getByRole('button', { name: 'Versions of Line 4' }).click();
  const readerDrawer = other.getByTestId('versions-drawer');
  await expect(readerDrawer.getByTestId('version-row')).toHaveCount(2);
  await expect(readerDrawer.getByTestId('version-derive')).toHaveCount(0);
  await expect(readerDrawer.getByTestId('version-make-current')).toHaveCount(0);
  await expect(readerDrawer.getByRole('button', { name: /^Delete version/ })).toHaveCount(0);
  await other.keyboard.press('Escape');

  // Direct access lists it too: the bare address opens the first list with something in it.
  await other.goto(`${tenant.origin}/#/directaccess`);
  await expectRoute(other, '/directaccess/dashboards');
  await expect(other.getByTestId('direct-access-lists')).toHaveAttribute('data-category', 'dashboards');
  await expect(other.getByRole('link', { name: 'Line 4', exact: true })).toBeVisible();
  await expect(other.getByRole('link', { name: 'Line 4 (copy)' })).toHaveCount(0);
  expect(otherErrors).toEqual([]);
  await context.close();
});

test('a flow built in the flow editor opens as cards and navigates to its entries', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTwoUsers(request);
  const pressA = tenant.dashboards['Press A'] ?? '';

  await signInAs(page, tenant, 'owner', '/flows');
  await expect(page.getByTestId('flows-page')).toHaveAttribute('data-collection', 'flows');
  await expect(page.getByTestId('table-empty')).toContainText('No flows here yet');

  // New flow: a name, then the editor.
  await page.getByTestId('new-flow').click();
  const form = page.getByTestId('new-flow-form');
  await form.getByRole('button', { name: 'Create and edit' }).click();
  await expect(form.getByText('Enter a name')).toBeVisible();
  await form.getByLabel('Flow name').fill('Plant tour');
  await form.getByRole('button', { name: 'Create and edit' }).click();
  const editor = page.getByTestId('flow-editor');
  await expect(editor).toBeVisible();
  await expect(page).toHaveURL(/#\/flow\/[0-9a-f-]+\?edit=1$/);
  const flowId = routePath(page).split('/')[2] ?? '';
  await expect(editor.getByTestId('flow-editor-empty')).toBeVisible();

  // Two entries from the keyboard-reachable form: Press A on the first level, Press B inside it.
  const addEntry = async (dashboard: string, alias: string, inside?: string) => {
    await editor.getByTestId('flow-add-entry').click();
    const entryForm = page.getByTestId('flow-entry-form');
    await entryForm.getByRole('combobox', { name: /^Dashboard to open/ }).click();
    await page.getByRole('option', { name: dashboard, exact: true }).click();
    await expect(entryForm.getByLabel('Alias on the card')).toHaveValue(dashboard);
    await entryForm.getByLabel('Alias on the card').fill(alias);
    if (inside) {
      await entryForm.getByRole('combobox', { name: /^Inside/ }).click();
      await page.getByRole('option', { name: inside, exact: true }).click();
    }
    await entryForm.getByTestId('flow-entry-submit').click();
    await expect(entryForm).toBeHidden();
  };
  await addEntry('Press A', 'Pressing hall');
  await addEntry('Press B', 'Press B detail', 'Pressing hall');
  await expect(editor.getByTestId('flow-node')).toHaveCount(2);
  await expect(editor.locator('.react-flow__edge')).toHaveCount(1);
  await expect(editor.getByTestId('flow-entry-item').filter({ hasText: 'Press B detail' })).toContainText(
    'inside Pressing hall',
  );

  // A third entry, deleted again from the keyboard-reachable entry list.
  await addEntry('Press B', 'Spare');
  await expect(editor.getByTestId('flow-node')).toHaveCount(3);
  await editor.getByRole('button', { name: 'Delete entry Spare' }).click();
  await expect(editor.getByTestId('flow-node')).toHaveCount(2);

  // Connecting the child back to its parent would make a cycle: refused with a message.
  const hall = editor.getByTestId('flow-node').filter({ hasText: 'Pressing hall' });
  const detail = editor.getByTestId('flow-node').filter({ hasText: 'Press B detail' });
  await detail.locator('.react-flow__handle-bottom').dragTo(hall.locator('.react-flow__handle-top'));
  await expect(
    page.getByText('An entry cannot be inside itself or inside one of its own entries.'),
  ).toBeVisible();
  await expect(editor.locator('.react-flow__edge')).toHaveCount(1);
  // The editor's messages keep clear of its commands (a hovered message stays open).
  await expectMessageBelow(page, 'An entry cannot be inside itself', editor.getByTestId('flow-save'));

  // Save: a new current version, then the card app.
  const saved = page.waitForRequest(
    (r) => r.url().endsWith(`/flows/${flowId}/versions`) && r.method() === 'POST',
  );
  await editor.getByTestId('flow-save').click();
  const body = JSON.parse((await saved).postData() ?? '{}') as {
    current: boolean;
    document: { entries: { alias: string; parentId?: string; target: { dashboardId?: string } }[] };
  };
  expect(body.current).toBe(true);
  expect(body.document.entries.map((entry) => entry.alias)).toEqual(['Pressing hall', 'Press B detail']);
  expect(body.document.entries[0]?.target.dashboardId).toBe(pressA);
  await expect(page.getByText('Plant tour saved as version 2.')).toBeVisible();
  await expectRoute(page, `/flow/${flowId}`);

  const viewer = page.getByTestId('flow-viewer');
  const cards = viewer.getByTestId('flow-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Pressing hall');
  await expect(cards.first()).toContainText('1 entry inside');
  await cards.first().click();
  await expect(page).toHaveURL(new RegExp(`#/flow/${flowId}/[A-Za-z0-9_-]+$`));
  await expect(viewer).toHaveAttribute('data-entry-id', routePath(page).split('/')[3] ?? '');
  await expect(viewer.getByTestId('flow-dashboard')).toHaveAttribute('data-dashboard-id', pressA);
  await expect(viewer.getByTestId('flow-card')).toHaveCount(1);
  await viewer.getByTestId('flow-card').filter({ hasText: 'Press B detail' }).click();
  await expect(viewer.getByTestId('flow-breadcrumbs')).toContainText('Plant tour');
  await expect(viewer.getByTestId('flow-breadcrumbs')).toContainText('Pressing hall');
  await expect(viewer.getByTestId('flow-breadcrumbs')).toContainText('Press B detail');
  await expect(viewer.getByTestId('flow-dashboard')).toHaveAttribute(
    'data-dashboard-id',
    tenant.dashboards['Press B'] ?? '',
  );
  await viewer.getByTestId('flow-breadcrumbs').getByRole('link', { name: 'Plant tour' }).click();
  await expectRoute(page, `/flow/${flowId}`);
  await expect(viewer.getByTestId('flow-card')).toHaveCount(1);

  // Direct access lists the flow.
  await page.goto(`${tenant.origin}/#/directaccess/flows`);
  await expect(page.getByTestId('direct-access-lists')).toHaveAttribute('data-category', 'flows');
  await page.getByRole('link', { name: 'Plant tour', exact: true }).click();
  await expectRoute(page, `/flow/${flowId}`);
  expect(errors).toEqual([]);
});
