import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import {
  organizationOf,
  type Permission,
  PORTAL_ACCESS,
  seedTenant,
  type TenantFixture,
} from '../support/seed.ts';

/** Spec 6: the walkthrough needs READ models and CREATE devices. */
const INSTALLER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ', 'CREATE'] },
];

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
/** A fresh activation key in the product's format (keys are unique across the server). */
function newKey(): string {
  const group = () => Array.from({ length: 4 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `EP-${group()}-${group()}-${group()}`;
}

function plant(key: string): TenantFixture {
  return {
    organizations: [{ key: 'org', name: 'Press plant', iotEnabled: true }],
    users: [{ key: 'installer', memberships: [{ org: 'org', permissions: INSTALLER }] }],
    deviceLicenses: [{ org: 'org', activationKey: key }],
    telemetry: [
      {
        org: 'org',
        model: 'Press',
        paths: [
          { path: '/motor/speed', type: 'number', unit: 'rpm' },
          { path: '/motor/running', type: 'boolean' },
        ],
        preset: 'Press preset',
        devices: [],
        points: 0,
        intervalMs: 1000,
      },
    ],
  };
}

async function enterKey(page: Page, key: string) {
  const input = page.getByRole('textbox', { name: 'Activation key' });
  await input.fill(key);
  await page.getByRole('button', { name: 'Check key' }).click();
}

test('an installer activates a device: key, licence, label and preset, credentials and the edge configuration file', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const key = newKey();
  const tenant = await seedTenant(request, plant(key));
  const org = organizationOf(tenant, 'org');
  await signInAs(page, tenant, 'installer', '/walkthrough');

  await expect(page.getByRole('heading', { name: 'Activate a device' })).toBeVisible();
  // The key field has the focus; typing in lower case with spaces around is fine; Enter submits.
  await expect(page.getByRole('textbox', { name: 'Activation key' })).toBeFocused();
  await page.keyboard.type(` ${key.toLowerCase()} `);
  await page.keyboard.press('Enter');

  const licence = page.getByTestId('walkthrough-licence');
  await expect(licence).toBeVisible();
  await expect(licence.getByText(key)).toBeVisible();
  await expect(licence.getByText('Available', { exact: true })).toBeVisible();
  await expect(licence.getByText('Device licence', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  const label = page.getByRole('textbox', { name: 'Device label' });
  await expect(label).toBeFocused();
  await label.fill('press-07');
  await page.getByRole('textbox', { name: 'Serial number' }).fill('SN-0007');
  await page.getByRole('textbox', { name: 'Description' }).fill('Line 1, north hall');
  const preset = page.getByRole('combobox', { name: 'Preset' });
  await expect(preset).toBeEnabled();
  await preset.click();
  await page.getByRole('option', { name: 'Press preset (Press)' }).click();

  const activation = page.waitForRequest((req) => req.url().endsWith('/deviceLicenses/activate'));
  await page.getByRole('button', { name: 'Activate device' }).click();
  const authorization = (await activation).headers().authorization ?? '';

  const credentials = page.getByTestId('walkthrough-credentials');
  await expect(credentials.getByRole('heading', { name: 'Device “press-07” is activated.' })).toBeVisible();
  await expect(credentials.getByText('The password is shown only now', { exact: false })).toBeVisible();
  const deviceId = (await page.getByTestId('walkthrough-username').textContent()) ?? '';
  const password = (await page.getByTestId('walkthrough-password').textContent()) ?? '';
  expect(deviceId).toMatch(/^[0-9a-f-]{36}$/);
  expect(password).toMatch(/^eps_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByTestId('walkthrough-dataTopic')).toHaveText(`devices/${deviceId}/data`);
  await expect(page.getByTestId('walkthrough-mqttUrl')).toHaveText(/^(mqtt|ws):\/\//);
  await expect(page.getByRole('button', { name: 'Copy Password' })).toBeVisible();

  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download edge configuration' }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('edgeport-press-07.json');
  const config = JSON.parse(await readFile(await file.path(), 'utf8'));
  expect(config).toMatchObject({
    format: 'edgeport-edge-config/1',
    device: { id: deviceId, label: 'press-07', organizationId: org.id },
    mqtt: { clientId: deviceId, username: deviceId, password },
    topics: { data: `devices/${deviceId}/data`, setpoints: `devices/${deviceId}/setpoints` },
    preset: { name: 'Press preset' },
  });
  expect(config.dataTags.map((tag: { path: string }) => tag.path).sort()).toEqual([
    '/motor/running',
    '/motor/speed',
  ]);
  await expect(page.getByText('Saved as edgeport-press-07.json')).toBeVisible();

  // The device exists in the organization, with its serial number.
  const stored = await page.evaluate(
    async ([url, auth]) => {
      const response = await fetch(url ?? '', { headers: { authorization: auth ?? '' } });
      return { status: response.status, body: await response.json() };
    },
    [`/svc/core/api/v1/organizations/${org.id}/devices/label/press-07`, authorization],
  );
  expect(stored.status).toBe(200);
  expect(stored.body).toMatchObject({ id: deviceId, label: 'press-07', serialNumber: 'SN-0007' });
  await expect(page.getByRole('link', { name: 'Open the device' })).toHaveAttribute(
    'href',
    `#/devices?device=${deviceId}`,
  );

  // Another round with the same key: the key is now in use by that device.
  await page.getByRole('button', { name: 'Activate another device' }).click();
  await enterKey(page, key);
  await expect(
    page.getByText('This activation key is already in use by the device “press-07”.'),
  ).toBeVisible();
  expect(errors).toEqual([]);
});

test('a wrong key is refused with its reason, a generated key works, and hidden fields stay hidden', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, plant(newKey()));
  await page.addInitScript(() => {
    localStorage.setItem('edgeport.feature.hideDeviceSerialNumber', 'true');
    localStorage.setItem('edgeport.feature.hideDeviceDescription', 'true');
  });
  await signInAs(page, tenant, 'installer', '/walkthrough');

  await page.getByRole('button', { name: 'Check key' }).click();
  await expect(page.getByText('Enter an activation key.')).toBeVisible();
  await enterKey(page, 'EP-2222-3333-4444');
  await expect(
    page.getByText('This activation key is not known in this organization. Check it and try again.'),
  ).toBeVisible();
  await expect(page.getByTestId('walkthrough-licence')).toHaveCount(0);

  // A new key for the organization, filled in for the user.
  await page.getByRole('button', { name: 'Generate a key' }).click();
  await expect(page.getByTestId('walkthrough-key-issued')).toBeVisible();
  const generated = await page.getByRole('textbox', { name: 'Activation key' }).inputValue();
  expect(generated).toMatch(/^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$/);
  await page.getByRole('button', { name: 'Check key' }).click();
  await expect(page.getByTestId('walkthrough-licence').getByText(generated)).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page.getByRole('textbox', { name: 'Device label' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Serial number' })).toHaveCount(0);
  await expect(page.getByRole('textbox', { name: 'Description' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Activate device' }).click();
  await expect(page.getByText('Enter a label for the device.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Device label' }).fill('gateway-1');
  await page.getByRole('button', { name: 'Activate device' }).click();
  await expect(page.getByRole('heading', { name: 'Device “gateway-1” is activated.' })).toBeVisible();

  expect(errors.filter((error) => !isNetworkError(error, [404]))).toEqual([]);
});

test('a tenant that is not the realm\'s operator gets no "Generate a key", and the server refuses it keys without a licence', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const key = newKey();
  const fixture = plant(key);
  // The realm's first root organization is its operator; the plant is another tenant sharing the realm.
  const tenant = await seedTenant(request, {
    ...fixture,
    organizations: [{ key: 'operator', name: 'Operator' }, ...fixture.organizations],
  });
  const org = organizationOf(tenant, 'org');
  const issuing = page.waitForResponse((res) => res.url().endsWith('/deviceLicenses/issuing'));
  await signInAs(page, tenant, 'installer', '/walkthrough');

  const answer = await issuing;
  expect(await answer.json()).toMatchObject({ mayIssue: false });
  await expect(page.getByTestId('walkthrough-key-licensed-only')).toHaveText(
    "Activation keys come with your organization's licences. If you need more, ask your dealer.",
  );
  await expect(page.getByRole('button', { name: 'Generate a key' })).toHaveCount(0);

  // Calling the server directly does not help: 403, and no key is made.
  const authorization = (await answer.request().headerValue('authorization')) ?? '';
  const minted = await page.evaluate(
    async ([url, auth]) => {
      const response = await fetch(url ?? '', {
        method: 'POST',
        headers: { authorization: auth ?? '', 'content-type': 'application/json' },
        body: JSON.stringify({ count: 5 }),
      });
      const list = await fetch(`${url}?pageSize=100`, { headers: { authorization: auth ?? '' } });
      return { status: response.status, total: ((await list.json()) as { total: number }).total };
    },
    [`/svc/license/api/v1/organizations/${org.id}/deviceLicenses`, authorization],
  );
  expect(minted).toEqual({ status: 403, total: 1 });

  // The key of its licence still works.
  await enterKey(page, key);
  await expect(page.getByTestId('walkthrough-licence').getByText(key)).toBeVisible();
  expect(errors.filter((error) => !isNetworkError(error, [403]))).toEqual([]);
});
