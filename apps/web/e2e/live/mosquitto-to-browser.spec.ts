import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { mosquittoPub, mosquittoSubOnce } from '../support/mqtt.ts';
import { signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const OPERATOR: Permission[] = [PORTAL_ACCESS, { rsname: 'devices', scopes: ['READ'] }];

test('a value published with mosquitto_pub appears in the browser within a second; refused clients change nothing', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Bottling plant', iotEnabled: true }],
    users: [{ key: 'operator', memberships: [{ org: 'org', permissions: OPERATOR }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Filler',
        paths: [{ path: '/filler/speed', type: 'number', unit: 'bottles/min' }],
        preset: 'Filler PLC',
        devices: ['Filler 1', 'Filler 2'],
        points: 0,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
  });
  const filler = tenant.telemetryDevices['Filler 1'];
  const neighbour = tenant.telemetryDevices['Filler 2'];
  if (!filler?.password || !neighbour?.password) throw new Error('the fixture issued no credentials');

  await signInAs(page, tenant, 'operator', `/devices?device=${filler.id}`);
  await page.getByRole('tab', { name: 'Live values' }).click();
  await expect(page.getByTestId('live-connection')).toHaveText('Live');

  // The preset maps the data tag `filler_speed` to /filler/speed (the fixture names tags after their paths).
  const published = Date.now();
  await mosquittoPub(filler, { filler_speed: 431.25 });
  await expect(page.getByText('431.25')).toBeVisible({ timeout: 1000 });
  expect(Date.now() - published).toBeLessThan(1000 + 500);

  // Wrong credentials: refused at CONNECT; another device's topic: the broker drops the connection. The clients see it.
  await expect(mosquittoPub({ ...filler, password: 'eps_wrong' }, { filler_speed: 1 })).rejects.toMatchObject(
    { stderr: expect.stringMatching(/not authori[sz]ed|bad user/i) },
  );
  await expect(
    mosquittoPub(neighbour, { filler_speed: 2 }, `devices/${filler.id}/data`),
  ).rejects.toBeTruthy();
  // The device itself still gets through, and the page follows.
  await mosquittoPub(filler, { filler_speed: 512.5 });
  await expect(page.getByText('512.5')).toBeVisible({ timeout: 1000 });
  expect(errors).toEqual([]);
});

test('an operator writes a set-point in the device drawer and mosquitto_sub, as the device, receives it', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Bottling plant', iotEnabled: true }],
    users: [
      {
        key: 'operator',
        memberships: [
          { org: 'org', permissions: [PORTAL_ACCESS, { rsname: 'devices', scopes: ['READ', 'UPDATE'] }] },
        ],
      },
    ],
    telemetry: [
      {
        org: 'org',
        model: 'Filler',
        paths: [{ path: '/filler/target', type: 'number', unit: 'bottles/min', writable: true }],
        preset: 'Filler PLC',
        devices: ['Filler 1'],
        points: 1,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
  });
  const filler = tenant.telemetryDevices['Filler 1'];
  if (!filler?.password) throw new Error('the fixture issued no credentials');

  // The device reports its current set-point, then listens on its set-point topic with Debian's mosquitto_sub.
  await mosquittoPub(filler, { filler_target: 120 });
  const received = mosquittoSubOnce(filler, `devices/${filler.id}/setpoints`);
  await signInAs(page, tenant, 'operator', `/devices?device=${filler.id}`);
  await page.getByRole('tab', { name: 'Live values' }).click();
  await expect(page.getByTestId('live-connection')).toHaveText('Live');
  await page.getByRole('button', { name: 'Write…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write /filler/target' });
  await dialog.getByLabel('New value for /filler/target').fill('180');
  await dialog.getByRole('button', { name: 'Send to the device' }).click();
  await expect(page.getByText('Set-point for /filler/target sent to the device.')).toBeVisible();
  const { stdout } = await received;
  expect(JSON.parse(stdout)).toMatchObject({ path: '/filler/target', tag: 'filler_target', value: 180 });
  expect(errors).toEqual([]);
});
