import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const read = (rsname: string): Permission => ({ rsname, scopes: ['READ'] });

type HomeCase = {
  name: string;
  iot: boolean;
  vpn: boolean;
  permissions: Permission[];
  home: string;
  /** Where /home ends: the home screen's page when it is built, else the final fallback /directaccess. */
  lands: string;
  /** The side menu's areas, in order. */
  areas: string[];
};

const HOME_CASES: HomeCase[] = [
  {
    name: 'IoT on, VPN off, models + dashboards + devices: dashboards',
    iot: true,
    vpn: false,
    permissions: [PORTAL_ACCESS, read('models'), read('dashboards'), read('devices')],
    home: 'dashboards',
    lands: '/flows/dashboards',
    areas: ['Data', 'Devices'],
  },
  {
    name: 'IoT off, VPN on, devices: vpn-devices',
    iot: false,
    vpn: true,
    permissions: [PORTAL_ACCESS, read('devices'), read('dashboards'), read('models')],
    home: 'vpn-devices',
    lands: '/vpn',
    areas: ['Devices', 'Remote access'],
  },
  {
    name: 'IoT on, VPN on, devices only: devices (vpn-devices only heads the order without IoT)',
    iot: true,
    vpn: true,
    permissions: [PORTAL_ACCESS, read('devices')],
    home: 'devices',
    lands: '/devices',
    areas: ['Data', 'Devices', 'Remote access'],
  },
  {
    name: 'IoT off, VPN off, organizations: organizations',
    iot: false,
    vpn: false,
    permissions: [PORTAL_ACCESS, read('organizations'), read('dashboards')],
    home: 'organizations',
    lands: '/organizations',
    areas: ['Administration', 'Store'],
  },
  {
    name: 'IoT off, VPN off, portal access only: directaccess',
    iot: false,
    vpn: false,
    permissions: [PORTAL_ACCESS],
    home: 'directaccess',
    lands: '/directaccess',
    areas: [],
  },
];

async function menuAreas(page: Page): Promise<string[]> {
  return page.getByTestId('side-menu').locator('section[data-area] > p').allTextContents();
}

test.describe('home redirect (spec 2) for permission sets and organization features', () => {
  for (const homeCase of HOME_CASES) {
    test(homeCase.name, async ({ page, request }) => {
      const errors = collectConsoleErrors(page);
      const tenant = await seedTenant(request, {
        organizations: [{ key: 'org', name: 'Works', iotEnabled: homeCase.iot, vpnEnabled: homeCase.vpn }],
        users: [{ key: 'user', memberships: [{ org: 'org', permissions: homeCase.permissions }] }],
      });
      await signInAs(page, tenant, 'user', '/');
      const shell = page.getByTestId('shell');
      await expect(shell).toHaveAttribute('data-home-screen', homeCase.home);
      await expectRoute(page, homeCase.lands);
      if (homeCase.lands === '/directaccess') {
        await expect(page.getByTestId('direct-access')).toContainText('No product screen available');
      }
      expect(await menuAreas(page)).toEqual(homeCase.areas);
      expect(errors).toEqual([]);
    });
  }
});

test.describe('route guards (spec 5/8)', () => {
  test('a route the user lacks the permission for sends them home with a notice; a permitted one does not', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works', iotEnabled: false, vpnEnabled: false }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS, read('roles')] }] }],
    });
    await signInAs(page, tenant, 'user', '/roles');
    await expectRoute(page, '/roles');
    await expect(page.getByText('No access')).toHaveCount(0);

    // Home is 'permission' (READ roles opens it; it comes before 'roles' in the home order) on its roles tab.
    await page.goto(`${tenant.origin}/#/devices`);
    await expectRoute(page, '/permission/roles');
    await expect(
      page.getByText('You do not have the permissions to open Devices in this organization.'),
    ).toBeVisible();

    // IoT-only screens are denied without IoT whatever the permissions.
    await page.goto(`${tenant.origin}/#/alarms/alarms-history`);
    await expect(
      page.getByText('You do not have the permissions to open Alarms in this organization.'),
    ).toBeVisible();
  });

  test('/ goes home; an unknown address and /404 show the not-found screen inside the shell', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    });
    await signInAs(page, tenant, 'user', '/');
    await expectRoute(page, '/directaccess');
    await page.goto(`${tenant.origin}/#/no/such/page`);
    await expect(page.getByTestId('not-found')).toContainText('There is no page at /no/such/page.');
    await expect(page.getByTestId('shell')).toBeVisible();
    await page.goto(`${tenant.origin}/#/404`);
    await expect(page.getByTestId('not-found')).toContainText('Page not found');
    await page.getByRole('link', { name: 'Go to the start page' }).click();
    await expectRoute(page, '/directaccess');
    expect(errors).toEqual([]);
  });

  test('a deep link survives the sign-in round trip', async ({ page, request }) => {
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
    await signInAs(page, tenant, 'user', '/devices?tab=list');
    await expectRoute(page, '/organization', { redirectTo: '/devices', tab: 'list' });
  });
});

test.describe('shell', () => {
  test('Ctrl+M toggles the side menu; the switcher enters another organization', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [
        { key: 'a', name: 'Alpha', iotEnabled: true },
        { key: 'b', name: 'Beta' },
      ],
      users: [
        {
          key: 'user',
          memberships: [
            { org: 'a', permissions: [PORTAL_ACCESS, read('devices')] },
            { org: 'b', permissions: [PORTAL_ACCESS, read('organizations')] },
          ],
        },
      ],
    });
    await signInAs(page, tenant, 'user', `/home?org=${tenant.organizations.a?.id ?? ''}`);
    const shell = page.getByTestId('shell');
    const menu = page.getByTestId('side-menu');
    await expect(shell).toHaveAttribute('data-menu-open', 'true');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Control+m');
    await expect(shell).toHaveAttribute('data-menu-open', 'false');
    await page.keyboard.press('Control+m');
    await expect(shell).toHaveAttribute('data-menu-open', 'true');

    const header = page.locator('header').first();
    expect((await header.boundingBox())?.height).toBe(50);

    // Light and dark mode.
    const html = page.locator('html');
    const scheme = await html.getAttribute('data-mantine-color-scheme');
    await page.getByTestId('user-menu').click();
    await page
      .getByRole('menuitem', { name: scheme === 'dark' ? 'Switch to light mode' : 'Switch to dark mode' })
      .click();
    await expect(html).toHaveAttribute('data-mantine-color-scheme', scheme === 'dark' ? 'light' : 'dark');

    await page.getByTestId('organization-switcher').click();
    await page.getByRole('menuitem', { name: 'Beta' }).click();
    await expect(shell).toHaveAttribute('data-organization', tenant.organizations.b?.id ?? '');
    await expect(shell).toHaveAttribute('data-home-screen', 'organizations');
  });
});
