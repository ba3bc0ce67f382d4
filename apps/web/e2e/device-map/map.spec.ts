import { expect, type Page, test } from '@playwright/test';
import { deviceRow, plant } from '../devices/support.ts';
import { collectConsoleErrors } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import { seedTenant } from '../support/seed.ts';

/** No tile server is reachable: every tile request fails, as on a plant network without internet. */
async function blockTiles(page: Page): Promise<string[]> {
  const blocked: string[] = [];
  await page.route(/tile\.openstreetmap\.org/, async (route) => {
    blocked.push(route.request().url());
    await route.abort('internetdisconnected');
  });
  return blocked;
}

/** Console errors other than the browser's own notes about the blocked tiles. */
function pageErrors(errors: string[]): string[] {
  return errors.filter((error) => !/tile\.openstreetmap\.org/.test(error));
}

const CITIES = [
  { label: 'press-munich', latitude: 48.137, longitude: 11.575, status: 'ONLINE' as const },
  { label: 'oven-lyon', latitude: 45.764, longitude: 4.835, status: 'OFFLINE' as const },
  { label: 'pump-milan', latitude: 45.464, longitude: 9.19, status: 'ONLINE' as const },
];

test('the map shows the devices on a plain background when no tile server answers, and opens a device', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const blocked = await blockTiles(page);
  const tenant = await seedTenant(
    request,
    plant([
      ...CITIES.map((city) => ({ org: 'org', ...city })),
      { org: 'org', label: 'robot-unplaced', status: 'OFFLINE' as const },
    ]),
  );
  await signInAs(page, tenant, 'reader', '/devicemap');
  await expect(page.getByTestId('device-map')).toBeVisible();
  for (const city of CITIES) await expect(page.getByTitle(city.label)).toBeVisible();
  await expect(page.getByTitle('robot-unplaced')).toHaveCount(0);
  await expect(page.getByTestId('map-legend')).toContainText('2 online in view');
  await expect(page.getByTestId('map-legend')).toContainText('1 offline in view');
  expect(blocked.length).toBeGreaterThan(0);
  await expect(page.getByTestId('tiles-unavailable')).toBeVisible();
  // Markers carry the status colours; a reader gets no editing tools.
  await expect(page.getByTitle('press-munich').locator('[data-status="ONLINE"]')).toHaveCount(1);
  await expect(page.getByTitle('oven-lyon').locator('[data-status="OFFLINE"]')).toHaveCount(1);
  await expect(page.getByTestId('place-devices')).toHaveCount(0);
  await expect(page.getByText('Move markers')).toHaveCount(0);

  // The popup (keyboard: the marker is focusable, Enter opens it) leads to the drawer.
  await page.getByTitle('oven-lyon').focus();
  await page.keyboard.press('Enter');
  const popup = page.getByTestId('device-popup');
  await expect(popup).toContainText('oven-lyon');
  await expect(popup).toContainText('Offline');
  await popup.getByRole('button', { name: 'Open details' }).click();
  await expect(page.getByRole('dialog', { name: 'oven-lyon' })).toBeVisible();

  expect(pageErrors(errors)).toEqual([]);
});

test('an administrator places a device without a position on the map, and the table shows the map toggle', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  await blockTiles(page);
  const tenant = await seedTenant(
    request,
    plant([
      { org: 'org', ...CITIES[0], label: 'press-munich' },
      { org: 'org', label: 'robot-unplaced', status: 'OFFLINE' },
    ]),
  );
  await signInAs(page, tenant, 'admin', '/devices?view=map');
  await expect(page.getByTitle('press-munich')).toBeVisible();
  await expect(page.getByTestId('map-legend')).toContainText('0 offline in view');
  const panel = page.getByTestId('place-devices');
  await expect(panel).toContainText('robot-unplaced');
  await panel.getByRole('button', { name: 'Place robot-unplaced on the map' }).click();
  await expect(page.getByTestId('placing-hint')).toContainText('robot-unplaced');
  await page.getByTestId('placing-hint').getByRole('button', { name: 'Place at the centre' }).click();
  await expect(page.getByText('Position of robot-unplaced saved.')).toBeVisible();
  // Placed at the centre, right by the other device: the two show as one cluster of 2.
  await expect(page.getByTestId('map-legend')).toContainText('1 offline in view');
  await expect(
    page.getByRole('region', { name: 'Map of the devices' }).getByRole('button', { name: '2' }),
  ).toBeVisible();
  await expect(panel).toContainText('Every device has a position.');

  // The table view has it too, with its position in the drawer.
  await page.getByRole('radiogroup', { name: 'Show devices as' }).getByText('Table').click();
  await page.getByRole('button', { name: 'Open robot-unplaced' }).click();
  await expect(page.getByRole('dialog', { name: 'robot-unplaced' }).getByLabel('Latitude')).not.toHaveValue(
    '',
  );
  await expect(deviceRow(page, 'press-munich')).toBeVisible();

  expect(pageErrors(errors)).toEqual([]);
});
