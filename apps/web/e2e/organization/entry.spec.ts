import { expect, test } from '@playwright/test';
import { collectConsoleErrors, isUmaExchange, TOKEN_PATH } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { organizationOf, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const READ_DEVICES = { rsname: 'devices', scopes: ['READ'] };
const STORED_SELECTION = 'edgeport.selectedOrganization';
const STORED_SCOPE = 'edgeport.scope';

test.describe('organization entry (spec 4)', () => {
  test('a user with exactly one organization enters it without the selector', async ({ page, request }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'plant', name: 'Plant Lyon', iotEnabled: true }],
      users: [
        { key: 'operator', memberships: [{ org: 'plant', permissions: [PORTAL_ACCESS, READ_DEVICES] }] },
      ],
    });
    const plant = organizationOf(tenant, 'plant');
    const exchange = page.waitForRequest(isUmaExchange);
    await signInAs(page, tenant, 'operator');

    const form = new URLSearchParams((await exchange).postData() ?? '');
    expect(form.get('permission')).toBe(plant.resourceId);
    expect(form.get('scope')).toBe(`org:${plant.id} app:*`);
    await expect(page.getByTestId('shell')).toHaveAttribute('data-organization', plant.id);
    await expect(page.getByTestId('organization-switcher')).toHaveText('Plant Lyon');
    // Home of READ devices: the devices table.
    await expectRoute(page, '/devices');
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_SCOPE)).toBe(
      `org:${plant.id} app:*`,
    );
    expect(errors).toEqual([]);
  });

  test('two organizations open the selector; search, badges, sub-organizations; choosing one enters it', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedTenant(request, {
      organizations: [
        { key: 'north', name: 'North Works', iotEnabled: true, vpnEnabled: true },
        { key: 'south', name: 'South Works', iotEnabled: false, vpnEnabled: true },
        { key: 'southPlant', name: 'South plant Seville', parent: 'south' },
      ],
      users: [
        {
          key: 'engineer',
          memberships: [
            { org: 'north', permissions: [PORTAL_ACCESS] },
            { org: 'south', permissions: [PORTAL_ACCESS, READ_DEVICES] },
          ],
        },
      ],
    });
    await signInAs(page, tenant, 'engineer');
    await expectRoute(page, '/organization', { redirectTo: '/home' });

    const rows = page.getByTestId('organization');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('North Works');
    await expect(rows.nth(0)).toContainText('IoT');
    await expect(rows.nth(0)).toContainText('VPN');
    await expect(rows.nth(1)).toContainText('South Works');
    await expect(rows.nth(1)).not.toContainText('IoT');
    await expect(rows.nth(2)).toContainText('Sub-organization of South Works');

    await page.getByLabel('Search organizations').fill('sevil');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('South plant Seville');
    await page.getByLabel('Search organizations').fill('zzz');
    await expect(page.getByText('No organization matches “zzz”.')).toBeVisible();
    await page.getByLabel('Search organizations').fill('');

    const south = organizationOf(tenant, 'south');
    const exchange = page.waitForRequest(isUmaExchange);
    await page.locator(`[data-testid="organization"][data-organization-id="${south.id}"]`).click();
    expect(new URLSearchParams((await exchange).postData() ?? '').get('scope')).toBe(`org:${south.id} app:*`);
    await expect(page.getByTestId('shell')).toHaveAttribute('data-organization', south.id);
    // IoT off, VPN on, READ devices: the first screen of the home order is vpn-devices.
    await expect(page.getByTestId('shell')).toHaveAttribute('data-home-screen', 'vpn-devices');
    await expectRoute(page, '/vpn');

    // With no organization in the address, a reload of a user with two shows the selector (spec 4), the one entered
    // last preselected: marked, focused, Enter enters it.
    await page.reload();
    await expectRoute(page, '/organization', { redirectTo: '/vpn' });
    const lastUsed = page.locator(`[data-testid="organization"][data-organization-id="${south.id}"]`);
    await expect(lastUsed).toContainText('Last used');
    await expect(rows.nth(0)).not.toContainText('Last used');
    await expect(lastUsed).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('shell')).toHaveAttribute('data-organization', south.id);
    await expectRoute(page, '/vpn');
    expect(errors).toEqual([]);
  });

  test('an organization named in the address is entered; an unknown one leads to the selector', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [
        { key: 'a', name: 'Alpha' },
        { key: 'b', name: 'Beta' },
      ],
      users: [
        {
          key: 'user',
          memberships: [
            { org: 'a', permissions: [PORTAL_ACCESS] },
            { org: 'b', permissions: [PORTAL_ACCESS] },
          ],
        },
      ],
    });
    const beta = organizationOf(tenant, 'b');
    await signInAs(page, tenant, 'user', `/home?org=${beta.resourceId}`);
    await expect(page.getByTestId('shell')).toHaveAttribute('data-organization', beta.id);

    await page.goto(`${tenant.origin}/#/home?org=not-mine`);
    await expectRoute(page, '/organization', { redirectTo: '/home', org: 'not-mine' });
    await expect(page.getByTestId('unknown-organization')).toContainText('not-mine');
  });

  test('a permission token without permissions: the selector with the login error', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'empty', name: 'Empty Org' }],
      users: [{ key: 'nobody', memberships: [{ org: 'empty', permissions: [] }] }],
    });
    const empty = organizationOf(tenant, 'empty');
    await signInAs(page, tenant, 'nobody');
    await expectRoute(page, '/organization', { redirectTo: '/home' });
    await expect(page.getByTestId('login-error')).toHaveText(
      `No permissions in token to enter organization ${empty.id}`,
    );
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_SELECTION)).toBeNull();
  });

  test('any other entry error: the login error, selection cleared, scope removed, selector with redirectTo', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [
        { key: 'a', name: 'Alpha' },
        { key: 'b', name: 'Beta' },
      ],
      users: [
        {
          key: 'user',
          memberships: [
            { org: 'a', permissions: [PORTAL_ACCESS] },
            { org: 'b', permissions: [PORTAL_ACCESS] },
          ],
        },
      ],
    });
    const alpha = organizationOf(tenant, 'a');
    await signInAs(page, tenant, 'user', `/home?org=${alpha.id}`);
    await expect(page.getByTestId('shell')).toHaveAttribute('data-organization', alpha.id);
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_SELECTION)).toBe(alpha.id);

    // The identity server fails the next permission-token exchange.
    await page.route(`**${TOKEN_PATH}`, async (route) => {
      if (isUmaExchange(route.request())) await route.fulfill({ status: 503, body: 'unavailable' });
      else await route.fallback();
    });
    const beta = organizationOf(tenant, 'b');
    await page.goto(`${tenant.origin}/#/devices?org=${beta.id}&tab=list`);
    await expectRoute(page, '/organization', { redirectTo: '/devices', tab: 'list', org: beta.id });
    await expect(page.getByTestId('login-error')).toHaveText(
      'Reload organization selector after error Error exchanging token!!',
    );
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_SELECTION)).toBeNull();
    expect(await page.evaluate((key) => localStorage.getItem(key), STORED_SCOPE)).toBeNull();

    // Once the identity server answers again, choosing an organization goes where the user was going.
    await page.unroute(`**${TOKEN_PATH}`);
    await page.locator(`[data-testid="organization"][data-organization-id="${alpha.id}"]`).click();
    await expect(page.getByTestId('shell')).toHaveAttribute('data-organization', alpha.id);
  });

  test('failed and empty organization lists say so and offer a way on', async ({ page, request }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'a', name: 'Alpha' }],
      users: [
        { key: 'lonely', memberships: [] },
        { key: 'member', memberships: [{ org: 'a', permissions: [PORTAL_ACCESS] }] },
      ],
    });
    await signInAs(page, tenant, 'lonely');
    await expect(page.getByTestId('no-organizations')).toContainText(
      'You are not a member of any organization yet',
    );
    await expect(
      page.getByTestId('no-organizations').getByRole('button', { name: 'Sign out' }),
    ).toBeVisible();

    const other = await page.context().browser()?.newContext();
    if (!other) throw new Error('no browser');
    const second = await other.newPage();
    await second.route('**/svc/core/api/v1/organizations/mine', (route) => route.abort('connectionrefused'));
    await signInAs(second, tenant, 'member');
    await expect(second.getByTestId('login-error')).toHaveText(
      'Reload organization selector after error Network Error',
    );
    await expect(second.getByText('Your organizations could not be loaded')).toBeVisible();
    await expect(second.getByText(/^Network Error: the server cannot be reached/)).toBeVisible();
    await second.unroute('**/svc/core/api/v1/organizations/mine');
    await second.getByRole('button', { name: 'Try again' }).click();
    await expect(second.getByTestId('organization')).toHaveCount(1);
    await other.close();
  });
});
