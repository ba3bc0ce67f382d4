import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import {
  organizationOf,
  type Permission,
  PORTAL_ACCESS,
  seedTenant,
  type TenantFixture,
} from '../support/seed.ts';

/** Spec 6: the organization screens need READ organizations; activating and seeing devices needs the device rights. */
const ADMIN: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'organizations', scopes: ['READ', 'UPDATE'] },
  { rsname: 'devices', scopes: ['READ', 'CREATE'] },
  { rsname: 'models', scopes: ['READ'] },
];

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A fresh activation key in the product's format (keys are unique across the server). */
function newKey(): string {
  const group = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `EP-${group()}-${group()}-${group()}`;
}

function plant(key: string): TenantFixture {
  return {
    organizations: [
      { key: 'org', name: 'Press plant', iotEnabled: true },
      { key: 'line2', name: 'Line 2', parent: 'org', iotEnabled: true },
    ],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMIN }] }],
    deviceLicenses: [{ org: 'org', activationKey: key }],
  };
}

/** Local midnight of today + `days`, as the browser computes it (the consumption range is in local days). */
function localDay(page: Page, days: number): Promise<{ iso: string; day: string }> {
  return page.evaluate((offset) => {
    const now = new Date();
    const date = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offset);
    const pad = (value: number) => String(value).padStart(2, '0');
    return {
      iso: date.toISOString(),
      day: `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`,
    };
  }, days);
}

test('an activation is metered: the consumption chart, the journal row, its CSV export and the resources usage', async ({
  page,
  request,
}) => {
  // Two screens, a download and a device activation on a shared machine.
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const key = newKey();
  const tenant = await seedTenant(request, plant(key));
  const org = organizationOf(tenant, 'org');
  const line2 = organizationOf(tenant, 'line2');

  const licenseCall = page.waitForRequest((req) =>
    req.url().includes(`/svc/license/api/v1/organizations/${org.id}/`),
  );
  await signInAs(page, tenant, 'admin', `/organizations/consumptions?org=${org.resourceId}`);
  const authorization = (await licenseCall).headers().authorization ?? '';
  expect(authorization).toMatch(/^Bearer /);

  await expect(page.getByRole('heading', { level: 1, name: 'Consumption' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Consumption', selected: true })).toBeVisible();
  const journal = page.getByRole('table', { name: 'Usage journal' });
  await expect(journal).toBeVisible();
  await expect(page.getByText('No usage was recorded in this range.')).toBeVisible();

  // A device is activated with the organization's key: the licence service meters +1 device.
  const activation = await page.evaluate(
    async ([url, auth, activationKey]) => {
      const response = await fetch(url ?? '', {
        method: 'POST',
        headers: { authorization: auth ?? '', 'content-type': 'application/json' },
        body: JSON.stringify({ activationKey, label: 'press-07' }),
      });
      return { status: response.status, body: (await response.json()) as { device: { id: string } } };
    },
    [`/svc/license/api/v1/organizations/${org.id}/deviceLicenses/activate`, authorization, key],
  );
  expect(activation.status).toBe(201);
  const deviceId = activation.body.device.id;

  // Another range asks again; spec 9: the server gets the chosen end (today) plus one day.
  const journalCall = page.waitForRequest((req) =>
    req.url().includes('/subscriptions/resource/devices/journal'),
  );
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  const asked = new URL((await journalCall).url());
  const tomorrow = await localDay(page, 1);
  const sixDaysAgo = await localDay(page, -6);
  const today = await localDay(page, 0);
  expect(asked.searchParams.get('to')).toBe(tomorrow.iso);
  expect(asked.searchParams.get('from')).toBe(sixDaysAgo.iso);
  await expect(page.getByTestId('range-start')).toHaveValue(sixDaysAgo.day);
  await expect(page.getByTestId('range-end')).toHaveValue(today.day);

  // The journal row: newest first, the reason in words, +1, the device as the subject.
  const row = journal.getByRole('row').filter({ hasText: 'Device activated' });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('device.activated');
  await expect(row).toContainText('+1');
  await expect(row.getByRole('link', { name: deviceId })).toHaveAttribute(
    'href',
    `#/devices?device=${deviceId}`,
  );

  // The chart of devices in use over the 7 days, with the amounts at its start and end.
  const chart = page.getByRole('figure', { name: /^Devices in use from/ });
  await expect(chart).toBeVisible();
  await expect(chart.locator('canvas')).toHaveCount(1);
  await expect(page.getByTestId('usage-opening')).toContainText('0');
  await expect(page.getByTestId('usage-closing')).toContainText('1');
  await expect(page.getByTestId('usage-change')).toContainText('+1');

  // Per organization: the organization itself (+1) and its sub-organization (nothing).
  const byOrg = page.getByRole('table', { name: 'Consumption by organization' });
  await expect(byOrg.locator(`tr[data-organization="${org.id}"]`)).toContainText('Press plant (itself)');
  await expect(byOrg.locator(`tr[data-organization="${org.id}"]`)).toContainText('+1');
  await expect(byOrg.locator(`tr[data-organization="${line2.id}"]`)).toContainText('Line 2');

  // The CSV export of the range: the header and the one entry, named after the organization and the days.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`consumption-press-plant-devices-${sixDaysAgo.day}-${today.day}.csv`);
  const text = (await readFile(await file.path(), 'utf8')).replace(/^\uFEFF/, '');
  const lines = text.split('\r\n').filter((line) => line !== '');
  expect(lines[0]).toBe('time,resourceType,delta,reason,subjectId');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z,devices,1,device\\.activated,${deviceId}$`),
  );
  await expect(page.getByText(/^CSV saved: 1 entry in consumption-press-plant-devices-/)).toBeVisible();

  // Another resource type: nothing was metered for data points.
  await page.getByRole('combobox', { name: 'Resource' }).click();
  await page.getByRole('option', { name: 'Data points' }).click();
  await expect(page.getByRole('figure', { name: /^Data points in use from/ })).toBeVisible();
  await expect(page.getByText('No usage was recorded in this range.')).toBeVisible();

  // The resources screen: one device used, no licence grants devices yet (trial), the device licence is active.
  await page.getByRole('tab', { name: 'Resources' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Resources' })).toBeVisible();
  const usage = page.getByRole('table', { name: 'Resource usage' });
  await expect(usage.getByTestId('used-devices')).toHaveText('1');
  await expect(usage.getByTestId('allowance-devices')).toHaveText('No licence');
  await expect(page.getByTestId('trial-notice')).toContainText('runs on the trial');
  await expect(page.getByTestId('device-licences-active')).toContainText('1');
  await expect(page.getByTestId('device-licences-available')).toContainText('0');
  await expect(page.getByText('No licences yet.', { exact: false })).toBeVisible();
  await expect(
    page
      .getByRole('table', { name: 'Resources of the sub-organizations' })
      .getByRole('rowheader', { name: /Line 2/ }),
  ).toBeVisible();
  await expect(page.getByRole('table', { name: 'Invoices' })).toBeVisible();
  await expect(page.getByText('No invoices yet.')).toBeVisible();

  // A code that names no licence is said to be unknown; a malformed one is refused before asking.
  const code = page.getByRole('textbox', { name: 'Licence code' });
  await code.fill('lic-22');
  await page.getByRole('button', { name: 'Check code' }).click();
  await expect(page.getByText('A licence code looks like LIC-XXXX-XXXX-XXXX.')).toBeVisible();
  await code.fill(' lic-2345-6789-abcd ');
  await code.press('Enter');
  await expect(page.getByText('No licence has this code.', { exact: false })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Activate licence' })).toHaveCount(0);

  // The organizations page has the same tabs.
  await page.getByRole('tab', { name: 'Organizations' }).click();
  await expect(page.getByTestId('organizations-page')).toBeVisible();
  expect(errors).toEqual([]);
});
