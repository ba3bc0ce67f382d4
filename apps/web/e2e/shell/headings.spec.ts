import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import { PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const all = (rsname: string) => ({ rsname, scopes: ['READ', 'CREATE', 'UPDATE', 'ACCESS'] });

test('every screen of the side menu names itself in one level-1 heading', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works', iotEnabled: true, vpnEnabled: true }],
    users: [
      {
        key: 'admin',
        memberships: [
          {
            org: 'org',
            permissions: [
              PORTAL_ACCESS,
              ...['models', 'dashboards', 'devices', 'devicegroups', 'roles', 'users', 'usergroups'].map(all),
              ...['organizations', 'notifications'].map(all),
              { rsname: 'products', scopes: ['CREATE'] },
              { rsname: 'audit', scopes: ['ACCESS'] },
            ],
          },
        ],
      },
    ],
  });
  // No tile server is reachable here: the maps' tiles fail, as on a plant network without internet.
  await page.route(/tile\.openstreetmap\.org/, (route) => route.abort('internetdisconnected'));
  await signInAs(page, tenant, 'admin', '/');
  const menu = page.getByTestId('side-menu');
  await expect(menu.getByRole('link').first()).toBeVisible();
  const screens = await menu
    .getByRole('link')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
  // Every area of the menu is there for this user: data, devices, remote access, administration, store, dealer.
  expect(screens.length).toBeGreaterThanOrEqual(20);

  // A screen reader's "next heading of level 1" lands on the screen's title: one per screen, inside the main region.
  const titles: string[] = [];
  for (const [index, href] of screens.entries()) {
    // A new document each time (the query makes it one): no title of the screen before can answer for this one.
    await page.goto(`${tenant.origin}/?screen=${index}${href}`);
    const title = page.getByRole('main').getByRole('heading', { level: 1 });
    await expect(title, href).toHaveCount(1);
    await expect(title, href).toBeVisible();
    expect(await page.getByRole('heading', { level: 1 }).count(), href).toBe(1);
    titles.push((await title.textContent()) ?? '');
  }
  expect(titles).toContain('Devices');
  expect(titles).toContain('Endpoints');
  expect(errors.filter((error) => !/tile\.openstreetmap\.org/.test(error))).toEqual([]);
});
