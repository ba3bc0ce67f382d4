import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { expect, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, seedTenant } from '../support/seed.ts';

/** An administrator whose role reaches sub-organizations (every entry carries INHERIT). */
const ADMINISTRATOR: Permission[] = RESOURCE_TYPES.map((rsname) => ({ rsname, scopes: [...ACTIONS] }));

test('an administrator creates a sub-organization, switches its VPN on and deletes what may be deleted', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works', iotEnabled: true, vpnEnabled: false }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMINISTRATOR }] }],
  });
  await signInAs(page, tenant, 'admin', '/organizations');
  await expectRoute(page, '/organizations');
  const tree = page.getByTestId('organization-tree');
  const works = tree.getByRole('button', { name: /^Works/ });
  await expect(works).toHaveAttribute('aria-current', 'true');

  // A new sub-organization appears in the tree, with the parent's flags (IoT on, VPN off).
  await page.getByRole('button', { name: 'New sub-organization' }).click();
  const create = page.getByRole('dialog', { name: 'New sub-organization of Works' });
  await create.getByRole('textbox', { name: 'Name' }).fill('Plant North');
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(create).toBeHidden();
  const plant = tree.getByRole('button', { name: /^Plant North/ });
  await expect(plant).toBeVisible();
  await expect(plant.getByTestId('badge-iot')).toBeVisible();
  await expect(plant.getByTestId('badge-vpn')).toHaveCount(0);

  // Acting on it uses a permission token of the sub-organization (the administrator's roles carry INHERIT).
  await plant.click();
  await expect(page.getByTestId('organization-detail-name')).toHaveText('Plant North');
  const vpn = page.getByRole('switch', { name: /^VPN/ });
  await expect(vpn).not.toBeChecked();
  await vpn.click();
  await expect(vpn).toBeChecked();
  await expect(plant.getByTestId('badge-vpn')).toBeVisible();

  // Works has a sub-organization: the deletion is refused with the reason.
  await works.click();
  await expect(page.getByTestId('organization-detail-name')).toHaveText('Works');
  await page.getByRole('button', { name: 'Delete…' }).click();
  const confirmWorks = page.getByRole('dialog', { name: 'Delete the organization' });
  await expect(confirmWorks).toContainText('Delete Works with its roles');
  await confirmWorks.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(page.getByTestId('delete-refused')).toHaveText(
    'Works still has sub-organizations. Delete them or move them elsewhere first.',
  );
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('delete-refused')).toBeHidden();
  await expect(works).toBeVisible();

  // The empty sub-organization is deleted after the confirmation that names it.
  await plant.click();
  await expect(page.getByTestId('organization-detail-name')).toHaveText('Plant North');
  await page.getByRole('button', { name: 'Delete…' }).click();
  const confirmPlant = page.getByRole('dialog', { name: 'Delete the organization' });
  await expect(confirmPlant).toContainText('Delete Plant North with its roles');
  await confirmPlant.getByRole('button', { name: 'Delete', exact: true }).click();
  await expect(plant).toHaveCount(0);
  await expect(page.getByTestId('organization-detail-name')).toHaveText('Works');

  expect(errors.filter((error) => !isNetworkError(error, [409]))).toEqual([]);
});

test('security policy groups and service clients of the organization', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works' }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMINISTRATOR }] }],
  });
  await signInAs(page, tenant, 'admin', '/organizations');
  await expect(page.getByTestId('organization-detail-name')).toHaveText('Works');

  await page.getByRole('tab', { name: 'Security policy groups' }).click();
  await expect(page.getByTestId('table-empty')).toBeVisible();
  await page.getByRole('button', { name: 'New group' }).click();
  const editor = page.getByRole('dialog', { name: 'New security policy group' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Office only');
  const ranges = editor.getByRole('textbox', { name: 'Allowed address ranges' });
  await ranges.fill('10.0.0.0/8\nnot-an-address');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor.getByText('Not an address or range: not-an-address')).toBeVisible();
  await ranges.fill('10.0.0.0/8\n2001:db8::/32');
  await editor.getByRole('switch', { name: /^Require two-factor/ }).click();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(editor).toBeHidden();
  const policies = page.getByRole('table', { name: 'Security policy groups' });
  const officeOnly = policies.getByRole('row', { name: /Office only/ });
  await expect(officeOnly).toContainText('2 address ranges');
  await expect(officeOnly).toContainText('Two-factor');
  // Each row action names its row for screen readers.
  await expect(officeOnly.getByRole('button', { name: 'Devices of Office only' })).toBeVisible();
  await expect(officeOnly.getByRole('button', { name: 'Delete Office only' })).toBeVisible();
  await officeOnly.getByRole('button', { name: 'Edit Office only' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Office only' });
  await expect(edit.getByRole('textbox', { name: 'Name' })).toHaveValue('Office only');
  await page.keyboard.press('Escape');
  await expect(edit).toBeHidden();

  await page.getByRole('tab', { name: 'Service clients' }).click();
  await page.getByRole('button', { name: 'New client' }).click();
  const newClient = page.getByRole('dialog', { name: 'New service client' });
  await newClient.getByRole('textbox', { name: 'Name' }).fill('SCADA bridge');
  await newClient.getByRole('button', { name: 'Create' }).click();
  const clients = page.getByRole('table', { name: 'Service clients' });
  const row = clients.getByRole('row', { name: /SCADA bridge/ });
  await expect(row).toContainText('No secret yet');
  await row.getByRole('button', { name: 'Generate a secret for SCADA bridge' }).click();
  const secret = page.getByTestId('client-secret');
  await expect(secret).toHaveText(/^[A-Za-z0-9_-]{43}$/);
  await page
    .getByRole('dialog', { name: 'Secret of SCADA bridge' })
    .getByRole('button', { name: 'Close' })
    .first()
    .click();
  await expect(row).toContainText('Secret since');

  expect(errors).toEqual([]);
});

test('an administrator keeps 30 days of raw device values; 0 days is refused in the form and nothing is saved', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Works', iotEnabled: true }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMINISTRATOR }] }],
  });
  // A phone's width: the panel and its form are usable there too.
  await page.setViewportSize({ width: 390, height: 844 });
  const saves: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/svc/limits/') && request.method() !== 'GET') saves.push(request.method());
  });
  await signInAs(page, tenant, 'admin', '/organizations');
  const openLimits = async () => {
    await expect(page.getByTestId('organization-detail-name')).toHaveText('Works');
    await page.getByRole('tab', { name: 'Limits' }).click();
    return page.getByTestId('limits-panel');
  };
  let panel = await openLimits();
  await expect(panel.getByTestId('retention-days')).toHaveText("365 days (the server's default)");
  await expect(panel.getByTestId('retention-summary')).toContainText(
    'Hourly min/max summaries of the values are kept for 1,825 days.',
  );

  await panel.getByRole('button', { name: 'Define limits' }).click();
  let form = panel.getByTestId('limits-form');
  const retention = form.getByRole('textbox', { name: 'Data retention (days)' });
  await expect(retention).toHaveValue('');
  await expect(retention).toHaveAttribute('placeholder', 'Server default: 365 days');
  await expect(form).toContainText("Leave it empty for the server's default (365 days); at most 3,650 days.");
  // Keyboard: the field follows the other limits; Enter saves.
  await form.getByRole('textbox', { name: 'Notifications per day' }).focus();
  await page.keyboard.press('Tab');
  await expect(retention).toBeFocused();
  const box = await retention.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  await page.keyboard.type('30');
  await page.screenshot({ path: test.info().outputPath('limits-retention-390.png'), fullPage: true });
  await page.keyboard.press('Enter');
  await expect(page.getByText('Limits of Works saved.')).toBeVisible();
  await expect(panel.getByTestId('retention-days')).toHaveText('30 days');
  expect(saves).toEqual(['POST']);

  // After a reload the server answers it.
  await page.reload();
  panel = await openLimits();
  await expect(panel.getByTestId('retention-days')).toHaveText('30 days');

  // 0 days: the form says why and sends nothing; the 30 days stay.
  await panel.getByRole('button', { name: 'Edit limits' }).click();
  form = panel.getByTestId('limits-form');
  await expect(retention).toHaveValue('30');
  await retention.fill('0');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(form.getByText('From 1 to 3,650 days.')).toBeVisible();
  await expect(retention).toHaveAttribute('aria-invalid', 'true');
  expect(saves).toEqual(['POST']);
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(panel.getByTestId('retention-days')).toHaveText('30 days');
  await page.reload();
  panel = await openLimits();
  await expect(panel.getByTestId('retention-days')).toHaveText('30 days');

  // Another limit changed later (a PUT replaces them all) keeps the retention.
  await panel.getByRole('button', { name: 'Edit limits' }).click();
  await form.getByRole('textbox', { name: 'Devices' }).fill('5');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(panel.getByTestId('usage-devices')).toHaveText('0 of 5');
  await expect(panel.getByTestId('retention-days')).toHaveText('30 days');
  expect(saves).toEqual(['POST', 'PUT']);

  expect(errors).toEqual([]);
});
