import { expect, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { seedTenant } from '../support/seed.ts';
import { deviceRow, devicesTable, expectTotal, hashQuery, numberedDevices, plant } from './support.ts';

test('an administrator pages, searches and filters the devices, edits one in its drawer, tags two and deletes one', async ({
  page,
  request,
}) => {
  // A long walk through the screen on a shared, busy machine.
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const devices = numberedDevices(60);
  devices[0] = {
    ...devices[0],
    org: 'org',
    label: 'dev-001',
    configuration: { sampling: { intervalMs: 500 } },
    statusHistory: [
      { status: 'ONLINE', minutesAgo: 600 },
      { status: 'OFFLINE', minutesAgo: 300 },
      { status: 'ONLINE', minutesAgo: 60 },
    ],
  };
  const tenant = await seedTenant(request, plant(devices));

  await signInAs(page, tenant, 'admin', '/devices');
  await expect(page.getByTestId('devices-page')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Groups' })).toBeVisible();
  await expect(deviceRow(page, 'dev-001')).toContainText('SN-1001');
  await expect(deviceRow(page, 'dev-001')).toContainText('hall-a');
  await expect(deviceRow(page, 'dev-001')).toContainText('Offline');
  await expect(deviceRow(page, 'dev-003')).toContainText('Online');
  await expect(deviceRow(page, 'dev-001')).toContainText('1 minute ago');
  await expectTotal(page, 60);
  await expect(devicesTable(page).getByRole('row')).toHaveCount(51);

  // Server-side paging and sorting.
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(deviceRow(page, 'dev-060')).toBeVisible();
  await expect(deviceRow(page, 'dev-001')).toHaveCount(0);
  await page.getByRole('button', { name: 'Page 1' }).click();
  await devicesTable(page).getByRole('button', { name: 'Last seen' }).click();
  await devicesTable(page)
    .getByRole('button', { name: /Last seen/ })
    .click();
  await expect(devicesTable(page).getByRole('row').nth(1)).toContainText('dev-001');

  // Search, status and tag filters (on the server).
  await page.getByRole('textbox', { name: 'Search' }).fill('dev-05');
  await expectTotal(page, 10);
  await expect(deviceRow(page, 'dev-055')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('');
  await expectTotal(page, 60);
  await page.getByRole('radiogroup', { name: 'Filter by status' }).getByText('Online').click();
  await expectTotal(page, 20);
  const tagFilter = page.getByRole('combobox', { name: 'Filter by tags' });
  await tagFilter.click();
  await page.getByRole('option', { name: 'hall-a (30 devices)' }).click();
  await page.keyboard.press('Escape');
  await expectTotal(page, 10);
  await expect(deviceRow(page, 'dev-003')).toBeVisible();
  await expect(deviceRow(page, 'dev-006')).toHaveCount(0);
  await page.getByRole('radiogroup', { name: 'Filter by status' }).getByText('All').click();
  await expectTotal(page, 30);
  await tagFilter.press('Backspace');
  await expectTotal(page, 60);

  // The drawer: the address keeps it; the label is edited.
  await page.getByRole('button', { name: 'Open dev-001' }).click();
  const drawer = page.getByRole('dialog', { name: 'dev-001' });
  await expect(drawer.getByRole('tab', { name: 'Overview' })).toBeVisible();
  const deviceId = hashQuery(page).get('device') ?? '';
  expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
  await page.reload();
  await expect(page.getByRole('dialog', { name: 'dev-001' })).toBeVisible();
  await drawer.getByRole('tab', { name: 'Configuration' }).click();
  await expect(drawer.getByTestId('device-configuration')).toContainText('"intervalMs": 500');
  await drawer.getByRole('tab', { name: 'Status history' }).click();
  await expect(drawer.getByTestId('status-chart')).toBeVisible();
  await expect(drawer.getByTestId('uptime')).toContainText('Online');
  await expect(drawer.getByRole('table', { name: 'Status changes' }).getByRole('row')).toHaveCount(4);
  await drawer.getByRole('tab', { name: 'Live values' }).click();
  await expect(drawer.getByTestId('live-empty')).toBeVisible();
  await drawer.getByRole('tab', { name: 'Overview' }).click();
  const form = drawer.getByTestId('device-form');
  await form.getByLabel('Label').fill('dev-002');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Another device of this organization has this label')).toBeVisible();
  await form.getByLabel('Label').fill('press-001');
  await form.getByLabel('Latitude').fill('48.137');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter both latitude and longitude, or neither')).toBeVisible();
  await form.getByLabel('Longitude').fill('11.575');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Changes to press-001 saved.')).toBeVisible();
  // The drawer's title follows the new label.
  await expect(page.getByRole('dialog', { name: 'press-001' }).getByTestId('device-facts')).toBeVisible();
  await page.keyboard.press('Escape');
  await expectRoute(page, '/devices');
  expect(hashQuery(page).get('device')).toBeNull();
  await page.getByRole('textbox', { name: 'Search' }).fill('press');
  await expect(deviceRow(page, 'press-001')).toBeVisible();
  await expectTotal(page, 1);
  await page.getByRole('textbox', { name: 'Search' }).fill('');
  await expectTotal(page, 60);

  // Bulk: tag two devices, then delete one after confirming.
  await page.getByRole('checkbox', { name: 'Select dev-002' }).check();
  await page.getByRole('checkbox', { name: 'Select dev-004' }).check();
  await expect(page.getByTestId('bulk-bar')).toContainText('2 devices selected');
  await page.getByRole('button', { name: 'Add tags' }).click();
  const bulk = page.getByTestId('bulk-form');
  await bulk.getByLabel('Tags', { exact: true }).fill('line-9');
  await bulk.getByLabel('Tags', { exact: true }).press('Enter');
  // Leaving the field closes its suggestions.
  await bulk.getByLabel('Tags', { exact: true }).press('Tab');
  await bulk.getByRole('button', { name: 'Add tags' }).click();
  await expect(page.getByText('Tags added to 2 devices.')).toBeVisible();
  await expect(deviceRow(page, 'dev-002')).toContainText('line-9');
  await expect(deviceRow(page, 'dev-004')).toContainText('line-9');
  await expect(deviceRow(page, 'dev-006')).not.toContainText('line-9');

  await page.getByRole('button', { name: 'Clear selection' }).click();
  await expect(page.getByTestId('bulk-bar')).toHaveCount(0);
  await page.getByRole('checkbox', { name: 'Select dev-004' }).check();
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 1 device?' });
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(deviceRow(page, 'dev-004')).toBeVisible();
  await page.getByTestId('bulk-bar').getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete 1 device?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('1 device deleted.')).toBeVisible();
  await expect(deviceRow(page, 'dev-004')).toHaveCount(0);
  await expectTotal(page, 59);

  // The refused label (409) is the browser's own note about the answer, expected here.
  expect(errors.filter((error) => !isNetworkError(error, [409]))).toEqual([]);
});

test('a user without UPDATE devices sees the devices and a drawer without any edit control', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant(numberedDevices(3)));
  await signInAs(page, tenant, 'reader', '/devices');
  await expect(deviceRow(page, 'dev-002')).toBeVisible();
  await expect(page.getByRole('checkbox')).toHaveCount(0);
  await expect(page.getByTestId('bulk-bar')).toHaveCount(0);
  // No READ devicegroups: no groups tab.
  await expect(page.getByRole('tab', { name: 'Groups' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Open dev-002' }).click();
  const drawer = page.getByRole('dialog', { name: 'dev-002' });
  await expect(drawer.getByTestId('device-facts')).toContainText('Press line 2');
  await expect(drawer.getByTestId('device-form')).toHaveCount(0);
  await expect(drawer.getByRole('textbox')).toHaveCount(0);
  await expect(drawer.getByRole('button', { name: 'Save' })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('with showMapByDefault the devices open on the map, and the toggle goes back to the table', async ({
  page,
  request,
}) => {
  const tenant = await seedTenant(request, plant(numberedDevices(2)));
  await page.addInitScript({
    content: "window.localStorage.setItem('edgeport.feature.showMapByDefault', 'true');",
  });
  await signInAs(page, tenant, 'admin', '/devices');
  await expect(page.getByTestId('device-map')).toBeVisible();
  await page.getByRole('radiogroup', { name: 'Show devices as' }).getByText('Table').click();
  await expect(deviceRow(page, 'dev-001')).toBeVisible();
  expect(hashQuery(page).get('view')).toBe('table');
});

test('device groups: create, add a device, rename and delete', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant(numberedDevices(3)));
  await signInAs(page, tenant, 'admin', '/devices/groups');
  await expect(page.getByTestId('device-groups-page')).toBeVisible();
  await expect(page.getByText('No device groups yet')).toBeVisible();

  await page.getByTestId('create-device-group').click();
  const form = page.getByTestId('device-group-form');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(form.getByText('Enter a name')).toBeVisible();
  await form.getByLabel('Name').fill('North hall');
  await form.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Device group North hall created.')).toBeVisible();

  await page.getByRole('button', { name: 'Open North hall' }).click();
  const drawer = page.getByRole('dialog', { name: 'North hall' });
  await expect(drawer.getByText('The group has no devices yet.')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Add a device' }).fill('dev-002');
  await page.getByRole('option', { name: 'dev-002' }).click();
  await drawer.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText('Device added to the group.')).toBeVisible();
  await expect(drawer.getByRole('table', { name: 'Devices of North hall' })).toContainText('dev-002');
  await page.keyboard.press('Escape');

  const row = page.getByRole('row').filter({ hasText: 'North hall' });
  await expect(row).toContainText('1');
  await page.getByRole('button', { name: 'Rename North hall' }).click();
  await page.getByTestId('device-group-form').getByLabel('Name').fill('South hall');
  await page.getByTestId('device-group-form').getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Device group South hall saved.')).toBeVisible();

  await page.getByRole('button', { name: 'Delete South hall' }).click();
  await expect(page.getByRole('dialog')).toContainText('Its 1 device stays');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Device group South hall deleted.')).toBeVisible();
  await expect(page.getByText('No device groups yet')).toBeVisible();

  // The device itself stays.
  await page.getByRole('tab', { name: 'Devices' }).click();
  await expect(deviceRow(page, 'dev-002')).toBeVisible();
  expect(errors).toEqual([]);
});
