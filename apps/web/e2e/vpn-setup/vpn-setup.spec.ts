import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type TenantFixture } from '../support/seed.ts';

const ADMIN: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
];
const READER: Permission[] = [PORTAL_ACCESS, { rsname: 'devices', scopes: ['READ'] }];
const LAN = '10.213.0.0/24';

/** A VPN-only organization with one gateway on the test plant LAN; the reader also finds a profile, endpoint, app. */
function plant(withContent: boolean): TenantFixture {
  return {
    organizations: [{ key: 'org', name: 'Remote Works', vpnEnabled: true }],
    users: [
      { key: 'admin', memberships: [{ org: 'org', permissions: ADMIN }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
    ],
    gateways: [
      {
        org: 'org',
        name: 'plant-gw',
        lanNetwork: LAN,
        ...(withContent && {
          profile: { name: 'Plant', otpRequired: false },
          endpoints: [{ name: 'plc', address: '10.213.0.7', protocol: 'TCP', port: 22 }],
          actions: [{ name: 'SSH', protocol: 'TCP', port: 22 }],
        }),
      },
    ],
  };
}

function table(page: Page, name: string): Locator {
  return page.getByRole('table', { name });
}

function row(page: Page, tableName: string, text: string): Locator {
  return table(page, tableName).getByRole('row').filter({ hasText: text });
}

async function pick(page: Page, field: Locator, option: string): Promise<void> {
  await field.click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

async function confirmDelete(page: Page, title: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: title });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(dialog).toBeHidden();
}

const PROFILES = 'Application profiles of the organization';
const APPLICATIONS = 'Applications of the organization';
const ENDPOINTS = 'Endpoints of the organization';
const SHORTCUTS = 'My shortcuts';

test('an administrator sets up remote access: an OTP profile, an application for Windows and Linux, an endpoint in the LAN and a shortcut, then removes them', async ({
  page,
  request,
}) => {
  // A long walk through three screens on a shared, busy machine.
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant(false));

  // Profiles: create one that requires a one-time password, then edit it (edit is also a POST).
  await signInAs(page, tenant, 'admin', '/vpn/profiles');
  await expect(page.getByTestId('vpn-profiles-page')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Application profiles' })).toBeVisible();
  await expect(page.getByTestId('table-empty')).toContainText('No application profiles yet');
  await page.getByRole('button', { name: 'New profile' }).click();
  const profileForm = page.getByRole('dialog', { name: 'New application profile' });
  await profileForm.getByRole('button', { name: 'Create' }).click();
  await expect(profileForm.getByText('Enter a name.')).toBeVisible();
  await profileForm.getByLabel('Name').fill('Secure plant');
  await profileForm.getByLabel('Description').fill('<b>Shift</b> access');
  await profileForm.getByLabel('Require a one-time password').check();
  await profileForm.getByRole('button', { name: 'Create' }).click();
  await expect(profileForm).toBeHidden();
  const profile = row(page, PROFILES, 'Secure plant');
  await expect(profile).toContainText('OTP required');
  // Stored text is shown as text.
  await expect(profile).toContainText('<b>Shift</b> access');
  await page.getByRole('button', { name: 'Edit profile Secure plant' }).click();
  const profileEdit = page.getByRole('dialog', { name: 'Edit profile Secure plant' });
  await expect(profileEdit.getByLabel('Require a one-time password')).toBeChecked();
  await profileEdit.getByLabel('Description').fill('Night shift access');
  await profileEdit.getByRole('button', { name: 'Save' }).click();
  await expect(profileEdit).toBeHidden();
  await expect(profile).toContainText('Night shift access');
  await expect(profile).toContainText('OTP required');

  // Applications: one on the profile, for Windows and Linux.
  await page.getByRole('tab', { name: 'Applications' }).click();
  await expectRoute(page, '/vpn/applications');
  await expect(page.getByRole('heading', { name: 'Remote applications' })).toBeVisible();
  await page.getByRole('button', { name: 'New application' }).click();
  const appForm = page.getByRole('dialog', { name: 'New application' });
  await appForm.getByLabel('Name').fill('Panel web');
  await pick(page, appForm.getByLabel('Profile'), 'Secure plant');
  await expect(appForm.getByLabel('Port')).toHaveValue('80');
  await pick(page, appForm.getByLabel('Protocol'), 'HTTPS');
  await expect(appForm.getByLabel('Port')).toHaveValue('443');
  await pick(page, appForm.getByLabel('Protocol'), 'HTTP');
  await expect(appForm.getByLabel('Port')).toHaveValue('80');
  await appForm.getByLabel('Path').fill('index.html');
  await appForm.getByRole('checkbox', { name: 'Windows' }).check();
  await appForm.getByRole('checkbox', { name: 'Linux' }).check();
  await appForm.getByRole('button', { name: 'Create' }).click();
  await expect(appForm.getByText('A path starts with /.')).toBeVisible();
  await appForm.getByLabel('Path').fill('/index.html');
  await appForm.getByRole('button', { name: 'Create' }).click();
  await expect(appForm).toBeHidden();
  const application = row(page, APPLICATIONS, 'Panel web');
  for (const text of ['Secure plant', 'OTP required', 'HTTP', '80', '/index.html', 'Windows', 'Linux'])
    await expect(application).toContainText(text);
  await expect(application).not.toContainText('macOS');

  // Endpoints: the form checks the address and port; the server refuses an address outside the gateway's LAN.
  await page.getByRole('tab', { name: 'Endpoints' }).click();
  await expectRoute(page, '/vpn/endpoints');
  await expect(page.getByRole('heading', { name: 'Endpoints' })).toBeVisible();
  await expect(page.getByTestId('table-empty')).toContainText('No endpoints yet');
  await page.getByRole('button', { name: 'New endpoint' }).click();
  const endpointForm = page.getByRole('dialog', { name: 'New endpoint' });
  await expect(endpointForm.getByLabel('Gateway')).toHaveValue('plant-gw');
  await expect(endpointForm.getByText(`An address inside the gateway's LAN ${LAN}`)).toBeVisible();
  await endpointForm.getByLabel('Name').fill('hmi');
  await endpointForm.getByLabel('IPv4 address').fill('10.213.0');
  await endpointForm.getByLabel('Port').fill('70000');
  await endpointForm.getByRole('button', { name: 'Create' }).click();
  await expect(endpointForm.getByText('Enter an IPv4 address such as 192.168.10.20.')).toBeVisible();
  await expect(endpointForm.getByText('Enter a port from 1 to 65535.')).toBeVisible();
  await endpointForm.getByLabel('Port').fill('8080');
  await endpointForm.getByLabel('IPv4 address').fill('10.9.0.5');
  const refused = page.waitForResponse(
    (response) =>
      response.url().endsWith('/svc/vpn2/api/v1/endpoints/') && response.request().method() === 'POST',
  );
  await endpointForm.getByRole('button', { name: 'Create' }).click();
  expect((await refused).status()).toBe(400);
  await expect(endpointForm.getByText(`The address is outside the gateway's LAN ${LAN}.`)).toBeVisible();
  await expect(endpointForm.getByLabel('IPv4 address')).toBeFocused();
  await endpointForm.getByLabel('IPv4 address').fill('10.213.0.20');
  await endpointForm.getByLabel('Description').fill('Operator panel');
  await endpointForm.getByRole('button', { name: 'Create' }).click();
  await expect(endpointForm).toBeHidden();
  const endpoint = row(page, ENDPOINTS, 'hmi');
  for (const text of ['plant-gw', '10.213.0.20', 'HTTP', '8080', 'Added in the portal', 'Operator panel'])
    await expect(endpoint).toContainText(text);
  // Only the accepted endpoint exists.
  await expect(page.getByText('1 entry')).toBeVisible();
  await expect(endpoint.getByRole('link', { name: 'Open gateway plant-gw' })).toHaveAttribute(
    'href',
    /#\/vpn\?gateway=plant-gw$/,
  );
  // The gateway filter keeps its choice in the address.
  await pick(page, page.getByRole('combobox', { name: 'Filter by gateway' }), 'plant-gw');
  await expectRoute(page, '/vpn/endpoints', { gateway: 'plant-gw' });
  await expect(endpoint).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('nothing-like-it');
  await expect(page.getByTestId('table-empty')).toContainText('No endpoint matches');
  await page.getByRole('textbox', { name: 'Search' }).fill('');
  await expect(endpoint).toBeVisible();

  // A shortcut of the user: the gateway, its endpoint, an application for this browser's system.
  await page.getByRole('tab', { name: 'Applications' }).click();
  await expect(page.getByTestId('vpn-shortcuts')).toContainText('You have no shortcuts yet');
  await page.getByRole('button', { name: 'New shortcut' }).click();
  const shortcutForm = page.getByRole('dialog', { name: 'New shortcut' });
  await pick(page, shortcutForm.getByLabel('Gateway'), 'plant-gw');
  await pick(page, shortcutForm.getByLabel('Endpoint'), 'hmi (10.213.0.20:8080)');
  await expect(shortcutForm.getByLabel('System')).toHaveValue('Linux');
  await pick(page, shortcutForm.getByLabel('Application to open'), 'Panel web');
  await expect(shortcutForm.getByLabel('Label')).toHaveValue('Panel web hmi');
  await shortcutForm.getByLabel('Label').fill('HMI panel');
  await shortcutForm.getByRole('button', { name: 'Save shortcut' }).click();
  await expect(shortcutForm).toBeHidden();
  const shortcut = row(page, SHORTCUTS, 'HMI panel');
  for (const text of ['plant-gw', 'hmi', 'Panel web', 'Linux']) await expect(shortcut).toContainText(text);

  // The profile counts its application.
  await page.getByRole('tab', { name: 'Profiles' }).click();
  await expect(profile.getByRole('cell').nth(3)).toHaveText('1');

  // Removing everything again.
  await page.getByRole('tab', { name: 'Applications' }).click();
  await page.getByRole('button', { name: 'Delete shortcut HMI panel' }).click();
  await confirmDelete(page, 'Delete shortcut');
  await expect(shortcut).toHaveCount(0);
  await page.getByRole('button', { name: 'Delete application Panel web' }).click();
  await confirmDelete(page, 'Delete application');
  await expect(application).toHaveCount(0);
  await page.getByRole('tab', { name: 'Endpoints' }).click();
  await page.getByRole('button', { name: 'Delete endpoint hmi of plant-gw' }).click();
  await confirmDelete(page, 'Delete endpoint');
  await expect(endpoint).toHaveCount(0);
  await page.getByRole('tab', { name: 'Profiles' }).click();
  await page.getByRole('button', { name: 'Delete profile Secure plant' }).click();
  await confirmDelete(page, 'Delete application profile');
  await expect(profile).toHaveCount(0);
  await expect(page.getByTestId('table-empty')).toContainText('No application profiles yet');

  expect(errors.filter((error) => !isNetworkError(error, [400]))).toEqual([]);
});

test('a read-only user sees the remote-access setup without create, edit or delete buttons, and in German', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant(true));

  await signInAs(page, tenant, 'reader', '/vpn/endpoints');
  const endpoint = row(page, ENDPOINTS, 'plc');
  await expect(endpoint).toContainText('10.213.0.7');
  await expect(endpoint).toContainText('TCP');
  await expect(page.getByRole('button', { name: 'New endpoint' })).toHaveCount(0);
  await expect(endpoint.getByRole('button')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Applications' }).click();
  const application = row(page, APPLICATIONS, 'SSH');
  await expect(application).toContainText('Plant');
  await expect(application).toContainText('All systems');
  await expect(page.getByRole('button', { name: 'New application' })).toHaveCount(0);
  await expect(application.getByRole('button')).toHaveCount(0);
  // Shortcuts are the user's own: reading the gateways is enough.
  await expect(page.getByRole('button', { name: 'New shortcut' })).toBeVisible();

  await page.getByRole('tab', { name: 'Profiles' }).click();
  const profile = row(page, PROFILES, 'Plant');
  await expect(profile).toContainText('Not required');
  await expect(page.getByRole('button', { name: 'New profile' })).toHaveCount(0);
  await expect(profile.getByRole('button')).toHaveCount(0);

  // The same screens in German.
  await page.getByTestId('language-picker').click();
  await page.getByRole('menuitem', { name: 'Deutsch' }).click();
  await expect(page.getByRole('heading', { name: 'Anwendungsprofile' })).toBeVisible();
  await expect(table(page, 'Anwendungsprofile der Organisation')).toContainText('Nicht erforderlich');
  await page.getByRole('tab', { name: 'Endpunkte' }).click();
  await expect(page.getByRole('heading', { name: 'Endpunkte' })).toBeVisible();
  await expect(
    table(page, 'Endpunkte der Organisation').getByRole('columnheader', { name: 'Adresse' }),
  ).toBeVisible();
  await page.getByRole('tab', { name: 'Anwendungen' }).click();
  await expect(page.getByRole('heading', { name: 'Fernanwendungen' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Meine Verknüpfungen' })).toBeVisible();
  await expect(row(page, 'Anwendungen der Organisation', 'SSH')).toContainText('Alle Systeme');

  expect(errors).toEqual([]);
});
