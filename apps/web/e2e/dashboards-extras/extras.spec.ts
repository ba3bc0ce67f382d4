/**
 * The dashboard service's extra calls on screen: the viewer's CSV export of the values its widgets show, the viewer
 * remembering the last page and the devices picked (the address wins), the palette's gallery widgets inserted into
 * the editor, and the image inspector's asset storage gauge.
 */
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const DESIGNER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'dashboards', scopes: ['READ', 'CREATE', 'UPDATE'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ'] },
];

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

const pressDashboard = {
  schemaVersion: 2,
  rootPageId: 'overview',
  slots: [
    { name: 'press', label: 'Press', modelId: '{{model:Press}}', defaultDeviceId: '{{device:Press 1}}' },
  ],
  variables: [],
  pages: [
    {
      id: 'overview',
      title: 'Overview',
      widgets: [
        {
          id: 'temp',
          type: 'value',
          title: 'Temperature',
          layout: { x: 0, y: 0, w: 6, h: 4 },
          binding: { slot: 'press', path: '/press/temperature' },
          options: {},
        },
      ],
    },
    {
      id: 'details',
      title: 'Details',
      widgets: [
        {
          id: 'note',
          type: 'text',
          title: 'Note',
          layout: { x: 0, y: 0, w: 6, h: 3 },
          options: { text: 'Details page', size: 'md' },
        },
      ],
    },
  ],
};

const galleryGauge = {
  schemaVersion: 2,
  widgets: [
    {
      id: 'g1',
      type: 'gauge',
      title: 'Gallery gauge',
      layout: { x: 0, y: 0, w: 6, h: 6 },
      binding: { slot: 'press', path: '/press/temperature' },
      options: { min: 0, max: 100 },
    },
  ],
};

/** The bearer token the page sends to the dashboard service (the permission token of the entered organization). */
function dashboardBearer(page: Page): Promise<string> {
  return page
    .waitForRequest((r) => r.url().includes('/svc/dashboard/api/v1/') && Boolean(r.headers().authorization))
    .then((r) => r.headers().authorization ?? '');
}

/** Opens a hash route afresh (a full load, not an in-page hash change). */
async function open(page: Page, url: string) {
  await page.goto(url);
  await page.reload();
}

test('CSV export, remembered page and device, gallery widgets in the palette, asset storage', async ({
  page,
  request,
}) => {
  test.setTimeout(150_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Press shop', iotEnabled: true }],
    users: [{ key: 'designer', memberships: [{ org: 'org', permissions: DESIGNER }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [{ path: '/press/temperature', type: 'number', unit: '°C' }],
        preset: 'Press PLC',
        devices: ['Press 1', 'Press 2'],
        points: 30,
        intervalMs: 60_000,
      },
    ],
    dashboards: [{ org: 'org', name: 'Press board', owner: 'designer', document: pressDashboard }],
  });
  const dashboardId = tenant.dashboards['Press board'];
  const press2 = tenant.telemetryDevices['Press 2']?.id;
  if (!dashboardId || !press2) throw new Error('fixture incomplete');

  // Export: the last hour of Press 1 as CSV, saved under the server's name.
  const bearer = dashboardBearer(page);
  await signInAs(page, tenant, 'designer', `/dashboards/${dashboardId}`);
  await expect(page.getByTestId('dashboard-name')).toHaveText('Press board');
  await page.getByTestId('dashboard-export').click();
  const dialog = page.getByTestId('dashboard-export-dialog');
  await expect(dialog).toBeVisible();
  await dialog.getByText('Last hour').click();
  await expect(dialog.getByTestId('dashboard-export-holds')).toHaveText('The stored values, a row per time.');
  await expect(dialog.getByTestId('dashboard-export-raw')).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await dialog.getByTestId('dashboard-export-download').click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^Press_board-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = (await readFile(await download.path(), 'utf8')).replace(/^\uFEFF/, '');
  const [header, first] = csv.split('\r\n');
  expect(header).toBe('time,press:/press/temperature');
  expect(first).toMatch(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z,-?[\d.]+$/);
  await expect(dialog).toBeHidden();

  // Seven days: 1-minute averages, said before the download and in the file's name; the stored values on request.
  await page.getByTestId('dashboard-export').click();
  await dialog.getByText('Last 7 days').click();
  await expect(dialog.getByTestId('dashboard-export-holds')).toHaveText(
    '1-minute averages, a row per minute.',
  );
  const averaging = page.waitForEvent('download');
  await dialog.getByTestId('dashboard-export-download').click();
  const averages = await averaging;
  expect(averages.suggestedFilename()).toMatch(/^Press_board-\d{4}-\d{2}-\d{2}-minute-averages\.csv$/);
  const minutes = (await readFile(await averages.path(), 'utf8')).replace(/^\uFEFF/, '').split('\r\n');
  expect(minutes[0]).toBe('time,press:/press/temperature');
  expect(minutes[1]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00\.000Z,-?[\d.]+$/);
  await page.getByTestId('dashboard-export').click();
  await dialog.getByText('Last 7 days').click();
  await dialog.getByTestId('dashboard-export-raw').click();
  await expect(dialog.getByTestId('dashboard-export-holds')).toHaveText('The stored values, a row per time.');
  await page.keyboard.press('Escape');

  // A bad range says why, and nothing is asked for.
  await page.getByTestId('dashboard-export').click();
  await dialog.getByText('From–to').click();
  await dialog.getByTestId('dashboard-export-from').fill('2026-01-02T00:00:00');
  await dialog.getByTestId('dashboard-export-to').fill('2026-01-01T00:00:00');
  await expect(dialog.getByRole('alert')).toHaveText('The end must be after the start.');
  await expect(dialog.getByTestId('dashboard-export-download')).toBeDisabled();
  await page.keyboard.press('Escape');

  // Remembered: pick Press 2 and the Details page, then open the dashboard without parameters.
  const stored = page.waitForResponse(
    (r) => r.url().includes('/userPreferences') && r.request().method() === 'PUT' && r.status() === 200,
  );
  await page.getByTestId('slot-picker-press').click();
  await page.getByRole('option', { name: 'Press 2' }).click();
  await expectRoute(page, `/dashboards/${dashboardId}`, { ecc_device_press: press2 });
  await page.getByTestId('dashboard-page-details').click();
  await expect(page.getByText('Details page')).toBeVisible();
  await stored;
  await expect
    .poll(async () => {
      const answer = await request.get(
        `http://127.0.0.1:${e2ePort()}/svc/dashboard/api/v1/userPreferences?dashboardId=${dashboardId}`,
        { headers: { authorization: await bearer } },
      );
      return (await answer.json()) as { key: string; value: unknown }[];
    })
    .toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'viewer.page', value: 'details' }),
        expect.objectContaining({ key: 'viewer.slots', value: { press: press2 } }),
      ]),
    );
  await open(page, `${tenant.origin}/#/dashboards/${dashboardId}`);
  await expect(page.getByTestId('dashboard-page-details')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Details page')).toBeVisible();
  await expect(page.getByTestId('slot-picker-press')).toHaveValue('Press 2');
  // The address wins over what was remembered.
  await open(
    page,
    `${tenant.origin}/#/dashboards/${dashboardId}?page=overview&ecc_device_press=${tenant.telemetryDevices['Press 1']?.id}`,
  );
  await expect(page.getByTestId('dashboard-page-overview')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('slot-picker-press')).toHaveValue('Press 1');

  // Gallery: an asset uploaded through the API lists its widget in the palette; clicking inserts it.
  const form = {
    manifest: JSON.stringify({
      name: 'Press kit',
      description: 'Ready-made press widgets',
      widgets: [
        { name: 'Press gauge', description: 'A gauge of the press temperature', document: galleryGauge },
      ],
    }),
    file: { name: 'kit.png', mimeType: 'image/png', buffer: PNG },
  };
  const uploaded = await request.put(
    `http://127.0.0.1:${e2ePort()}/svc/dashboard/api/v1/gallery/assets/press-kit/upload`,
    { headers: { authorization: await bearer }, multipart: form },
  );
  expect(uploaded.status(), await uploaded.text()).toBeLessThan(300);
  await open(page, `${tenant.origin}/#/dashboards/${dashboardId}/edit`);
  const gallery = page.getByTestId('editor-gallery-widgets');
  await expect(gallery.getByRole('button', { name: 'Press gauge' })).toBeVisible();
  const widgets = page.locator('[data-testid^="canvas-widget-"]');
  await expect(widgets).toHaveCount(1);
  await gallery.getByRole('button', { name: 'Press gauge' }).focus();
  await page.keyboard.press('Enter');
  await expect(widgets).toHaveCount(2);
  await expect(page.getByText('Gallery gauge')).toBeVisible();

  // The image inspector shows the organization's storage use (the gallery file counts).
  await page.getByTestId('palette-item-image').click();
  await expect(widgets).toHaveCount(3);
  await expect(page.getByTestId('asset-storage')).toContainText(
    /Asset storage: \d+ byte of [\d.,]+ [kMG]B used/,
  );

  expect(errors).toEqual([]);
});
