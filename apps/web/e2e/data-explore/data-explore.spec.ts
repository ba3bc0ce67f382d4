import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant, type TenantFixture } from '../support/seed.ts';

/** Spec 6: data-explore needs READ models and READ devices (IoT only). */
const ANALYST: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
];

/** 600 values per device, 5 s apart, the newest now: all inside the default range (the last hour). */
const POINTS = 600;

function plant(): TenantFixture {
  return {
    organizations: [{ key: 'org', name: 'Press plant', iotEnabled: true }],
    users: [{ key: 'analyst', memberships: [{ org: 'org', permissions: ANALYST }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [
          { path: '/motor/speed', type: 'number', unit: 'rpm' },
          { path: '/motor/running', type: 'boolean' },
          { path: '/state', type: 'string' },
        ],
        preset: 'Press preset',
        devices: ['press-01', 'pump-02'],
        points: POINTS,
        intervalMs: 5_000,
      },
    ],
  };
}

function chart(page: Page): Locator {
  return page.getByTestId('time-series-chart');
}

async function pickOption(page: Page, label: string, search: string, option: string | RegExp) {
  const input = page.getByRole('combobox', { name: label });
  await input.click();
  await input.fill(search);
  await page.getByRole('option', { name: option }).click();
  await page.keyboard.press('Escape');
}

function rowCount(page: Page): Locator {
  return page.getByTestId('table-row-count');
}

test('an analyst picks a device and paths, reads the chart, the table and exports the values as CSV', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  await signInAs(page, tenant, 'analyst', '/data-explore');

  await expect(page.getByRole('heading', { name: 'Data explorer' })).toBeVisible();
  await expect(page.getByTestId('data-explore-empty')).toHaveText(
    'Pick a device and a path to see their values.',
  );
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeDisabled();

  await pickOption(page, 'Devices', 'press', 'press-01');
  await pickOption(page, 'Data paths', 'speed', '/motor/speed (rpm)');

  // The chart: a canvas, a legend naming the series with its unit, and values under the pointer.
  await expect(chart(page).locator('canvas')).toBeVisible();
  const legend = chart(page).locator('.u-legend');
  await expect(legend).toContainText('press-01 /motor/speed (rpm)');
  const plot = chart(page).locator('.u-over');
  const box = await plot.boundingBox();
  if (!box) throw new Error('the plot has no size');
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await expect(legend.locator('.u-series').nth(1).locator('.u-value')).toHaveText(/^-?[\d.,]+ rpm$/);

  // The table (the dataTable feature is on by default): one row per value.
  await expect(rowCount(page)).toHaveText(`${POINTS} rows`);
  const table = page.getByRole('table', { name: 'Values' });
  const firstRow = table.getByRole('row').nth(1);
  await expect(firstRow).toContainText('press-01');
  await expect(firstRow).toContainText('/motor/speed');
  await expect(firstRow).toContainText(/[\d.]+ rpm/);

  // A second path: a boolean, charted as steps and shown as true/false in the table.
  await pickOption(page, 'Data paths', 'running', '/motor/running');
  await expect(legend).toContainText('press-01 /motor/running');
  await expect(rowCount(page)).toHaveText('1,200 rows');
  await page.screenshot({ path: test.info().outputPath('data-explore.png'), fullPage: true });

  // Series follow each other; the keyboard scrolls the table to the boolean rows at the end.
  await page.getByTestId('data-table-scroller').focus();
  await page.keyboard.press('End');
  await expect(table.getByRole('row').last()).toContainText(/press-01\/motor\/running.*(true|false)$/);

  // CSV export: streamed with progress, saved under the server's file name, every value once.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^data-[\w-]+-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = (await readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter((line) => line !== '');
  expect(lines[0]).toBe('device,label,path,ts,value');
  expect(lines).toHaveLength(1 + 2 * POINTS);
  expect(lines[1]).toMatch(/^[0-9a-f-]{36},press-01,\/motor\/speed,\d{4}-\d{2}-\d{2}T[\d:.]+Z,-?[\d.]+$/);
  expect(
    lines.filter((line) => line.includes(',/motor/running,')).every((line) => /,(true|false)$/.test(line)),
  ).toBe(true);
  await expect(page.getByText(/^CSV saved: 1,200 rows/)).toBeVisible();

  // Zoom: dragging over the left half asks for that span only; Back returns to the hour.
  await page.mouse.move(box.x + 5, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  await expect(page.getByRole('radio', { name: 'Custom' })).toBeChecked();
  await expect
    .poll(async () => Number((await rowCount(page).textContent())?.replace(/\D/g, '')))
    .toBeLessThan(2 * POINTS);
  await page.getByRole('button', { name: 'Back to the time range before the last zoom' }).click();
  await expect(page.getByRole('radio', { name: '1 hour' })).toBeChecked();
  await expect(rowCount(page)).toHaveText('1,200 rows');

  expect(errors).toEqual([]);
});

test('with highFreq on and dataTable off: millisecond times, no table; a text path is not charted', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant());
  await page.addInitScript(() => {
    localStorage.setItem('edgeport.feature.highFreq', 'true');
    localStorage.setItem('edgeport.feature.dataTable', 'false');
  });
  await signInAs(page, tenant, 'analyst', '/data-explore');

  await pickOption(page, 'Devices', 'pump', 'pump-02');
  await pickOption(page, 'Data paths', 'state', /^\/state/);
  await expect(page.getByText('Text data paths are not charted', { exact: false })).toBeVisible();
  await expect(chart(page)).toHaveCount(0);

  await pickOption(page, 'Data paths', 'speed', '/motor/speed (rpm)');
  await expect(chart(page).locator('canvas')).toBeVisible();
  const box = await chart(page).locator('.u-over').boundingBox();
  if (!box) throw new Error('the plot has no size');
  await page.mouse.move(box.x + box.width / 3, box.y + box.height / 2);
  // The legend's time carries milliseconds.
  await expect(chart(page).locator('.u-legend .u-series').first().locator('.u-value')).toHaveText(
    /\d{2}:\d{2}:\d{2}[.,]\d{3}/,
  );
  await expect(page.getByRole('table', { name: 'Values' })).toHaveCount(0);

  // The custom range takes milliseconds too.
  await page.getByText('Custom', { exact: true }).click();
  // (Chromium drops trailing zeros from the value, '…:32.600' reads '…:32.6': the step says what may be typed.)
  await expect(page.getByLabel('From')).toHaveAttribute('step', '0.001');
  await expect(page.getByLabel('From')).toHaveValue(/T\d{2}:\d{2}:\d{2}(\.\d{1,3})?$/);

  expect(errors).toEqual([]);
});

/** `<input type="datetime-local">`'s value of an instant in the browser's (this machine's) time zone. */
function localInput(ms: number): string {
  const date = new Date(ms);
  const pad = (value: number) => String(value).padStart(2, '0');
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

test('a long range is drawn from the minute or hour summaries and says so, on a phone too; a short one is not', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  // A value every 5 minutes for about 35 days: 30 days hold 8,640 values, more than the 4,000 points asked for.
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Press plant', iotEnabled: true }],
    users: [{ key: 'analyst', memberships: [{ org: 'org', permissions: ANALYST }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [{ path: '/motor/speed', type: 'number', unit: 'rpm' }],
        preset: 'Press preset',
        devices: ['press-01'],
        points: 10_000,
        intervalMs: 5 * 60_000,
      },
    ],
  });
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, tenant, 'analyst', '/data-explore');
  await pickOption(page, 'Devices', 'press', 'press-01');
  await pickOption(page, 'Data paths', 'speed', '/motor/speed (rpm)');

  // The last hour: the stored values themselves, no badge.
  await expect(chart(page).locator('canvas')).toBeVisible();
  await expect(rowCount(page)).toHaveText(/^1[23] rows$/);
  await expect(page.getByTestId('resolution-badges')).toHaveCount(0);

  // 30 days: the 1-minute summaries, named above the chart and above the table.
  await page.getByText('30 days', { exact: true }).click();
  const chartBadge = page.getByTestId('chart-resolution').getByTestId('resolution-badges');
  await expect(chartBadge).toHaveText('1-minute min/max');
  await expect(page.getByTestId('table-resolution').getByTestId('resolution-badges')).toHaveText(
    '1-minute min/max',
  );
  const box = await chartBadge.boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  // Nothing widens the page beyond the phone's width (the range control scrolls within it).
  const pageWidth = await page
    .locator('html')
    .evaluate((html) => (html as unknown as { scrollWidth: number }).scrollWidth);
  expect(pageWidth).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('data-explore-rollup-390.png'), fullPage: true });

  // 200 days (custom): the 1-hour summaries.
  await page.getByText('Custom', { exact: true }).click();
  await page.getByLabel('From').fill(localInput(Date.now() - 200 * 86_400_000));
  await expect(chartBadge).toHaveText('1-hour min/max');

  // Back to a short range: the stored values again.
  await page.getByText('24 hours', { exact: true }).click();
  await expect(rowCount(page)).toHaveText(/^28[89] rows$/);
  await expect(page.getByTestId('resolution-badges')).toHaveCount(0);

  expect(errors).toEqual([]);
});
