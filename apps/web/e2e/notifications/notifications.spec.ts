import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { mosquittoPub } from '../support/mqtt.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { startSmtp } from '../support/receivers.ts';
import { type Permission, seedTenant, type TenantFixture } from '../support/seed.ts';
import { bearerFrom, utcHourFromNow } from './support.ts';

/** An administrator of every resource type (entries carry INHERIT, so sub-organizations too). */
const ADMINISTRATOR: Permission[] = RESOURCE_TYPES.map((rsname) => ({ rsname, scopes: [...ACTIONS] }));

function boilerHouse(): TenantFixture {
  return {
    organizations: [{ key: 'org', name: 'Boiler house', iotEnabled: true }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMINISTRATOR }] }],
    telemetry: [
      {
        org: 'org',
        model: 'Boiler',
        paths: [{ path: '/boiler/temperature', type: 'number', unit: '°C' }],
        preset: 'Boiler PLC',
        devices: ['Boiler 1'],
        points: 0,
        intervalMs: 1000,
        mqttCredentials: true,
      },
    ],
  };
}

/** Goes to another hash route of the loaded portal (no reload). */
async function open(page: Page, route: string) {
  await page.evaluate(`window.location.hash = ${JSON.stringify(`#${route}`)}`);
  await expectRoute(page, route);
}

test('an administrator sets the channels, creates a notification rule with an e-mail and a webhook, and a trigger that runs it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const smtp = await startSmtp();
  try {
    const tenant = await seedTenant(page.request, boilerHouse());
    const loopbackHook = 'http://127.0.0.1:9/hooks/boiler';
    // A receiver elsewhere: *.test names never resolve, so the rule saves and its deliveries fail (see the next test).
    const hook = 'http://hooks.boiler.test/hooks/boiler';

    await signInAs(page, tenant, 'admin', '/notifications');
    await expect(page.getByTestId('notifications-page')).toBeVisible();
    await expect(page.getByTestId('table-empty')).toContainText('No notification rules yet');

    // The form names what is missing, refuses a broken address, and shows the SSRF guard's refusal of a loopback hook.
    await page.getByTestId('create-notification').click();
    const dialog = page.getByRole('dialog', { name: 'New notification rule' });
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expect(dialog.getByText('Enter a name.')).toBeVisible();
    await expect(dialog.getByText('Add at least one recipient')).toBeVisible();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Boiler alarms');
    const emails = dialog.getByLabel('E-mail addresses');
    await emails.fill('ops@boiler.example');
    await emails.press('Enter');
    await emails.fill('broken');
    await emails.press('Enter');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expect(dialog.getByText('Not an e-mail address: broken')).toBeVisible();
    await emails.press('Backspace');
    const webhooks = dialog.getByLabel('Webhook URLs');
    await webhooks.fill(loopbackHook);
    await webhooks.press('Enter');
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    const refusal = dialog.getByTestId('notification-failure');
    await expect(refusal).toContainText('The webhook host 127.0.0.1 was refused');
    await expect(refusal.getByTestId('server-message')).toContainText('loopback');

    // The administrator sets the channels and narrows webhooks to the receiver's host (the link in the form leads
    // there); loopback cannot be allowed there either.
    await dialog.getByRole('link', { name: 'Channel settings' }).click();
    await expectRoute(page, '/admin/notifications');
    await expect(page.getByTestId('admin-notifications-page')).toBeVisible();
    const settings = page.getByTestId('channel-settings-form');
    await settings.getByLabel('Sender address').fill('alarms@boiler.example');
    await settings.getByRole('switch', { name: 'Hold back e-mail during quiet hours' }).click();
    await settings.getByLabel('From', { exact: true }).fill(utcHourFromNow(2));
    await settings.getByLabel('Until', { exact: true }).fill(utcHourFromNow(3));
    await settings.getByRole('combobox', { name: 'Time zone' }).fill('UTC');
    await page.getByRole('option', { name: 'UTC', exact: true }).click();
    const hosts = settings.getByLabel('Hosts', { exact: true });
    await hosts.fill('http://127.0.0.1:9/ignored');
    await hosts.press('Enter');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    const settingsFailure = page.getByTestId('settings-failure');
    await expect(settingsFailure.getByTestId('server-message')).toContainText('loopback');
    await hosts.press('Backspace');
    await hosts.fill('http://hooks.boiler.test:9/ignored');
    await hosts.press('Enter');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Channel settings saved.')).toBeVisible();
    // The pasted URL was kept as host:port; the plain host is what the rule's webhook needs.
    await expect(settings.getByText('hooks.boiler.test:9', { exact: true })).toBeVisible();
    await hosts.press('Backspace');
    await hosts.fill('hooks.boiler.test');
    await hosts.press('Enter');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings.getByText('hooks.boiler.test', { exact: true })).toBeVisible();
    await expect(settings.getByText('hooks.boiler.test:9', { exact: true })).toHaveCount(0);

    // The webhook secret is write-only: set, then only "Set" shows.
    await expect(page.getByTestId('secret-state')).toHaveText('Not set');
    await page.getByTestId('secret-edit').click();
    const secret = page.getByRole('dialog', { name: 'Set a secret' });
    await secret.getByRole('button', { name: 'Generate a random secret' }).click();
    await secret.getByRole('button', { name: 'Save secret' }).click();
    await expect(page.getByTestId('secret-state')).toHaveText('Set');

    // Now the rule is saved.
    await open(page, '/notifications');
    await page.getByTestId('create-notification').click();
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Boiler alarms');
    await emails.fill('ops@boiler.example');
    await emails.press('Enter');
    await webhooks.fill(hook);
    await webhooks.press('Enter');
    // Severities picked in any order are kept the most severe first.
    await dialog.getByRole('checkbox', { name: 'Major' }).check();
    await dialog.getByRole('checkbox', { name: 'Critical' }).check();
    await dialog.getByRole('button', { name: 'Create rule' }).click();
    await expect(page.getByText('Notification rule Boiler alarms created.')).toBeVisible();
    await expect(dialog).toBeHidden();
    const ruleRow = page
      .getByRole('table', { name: 'Notification rules' })
      .getByRole('row')
      .filter({ hasText: 'Boiler alarms' });
    await expect(ruleRow.getByTestId('recipient-counts')).toHaveText('1 address · 1 webhook');
    await expect(ruleRow).toContainText('Raised');
    await expect(ruleRow.locator('[data-severity]')).toHaveText(['Critical', 'Major']);

    // A trigger: when the temperature of any boiler exceeds 90, notify through the rule.
    await open(page, '/trigger');
    await expect(page.getByTestId('trigger-page')).toBeVisible();
    await expect(page.getByTestId('table-empty')).toContainText('No trigger rules yet');
    await page.getByTestId('create-trigger').click();
    const trigger = page.getByRole('dialog', { name: 'New trigger' });
    await trigger.getByRole('button', { name: 'Create trigger' }).click();
    await expect(trigger.getByText('A model path such as /motor/speed.')).toBeVisible();
    await trigger.getByRole('textbox', { name: 'Name' }).fill('Boiler too hot');
    await trigger.getByRole('combobox', { name: 'Model path' }).fill('/boiler/temperature');
    await trigger.getByRole('textbox', { name: 'Value' }).fill('90');
    await trigger.getByRole('combobox', { name: 'Notification rule' }).click();
    await page.getByRole('option', { name: 'Boiler alarms' }).click();
    await trigger.getByRole('button', { name: 'Create trigger' }).click();
    await expect(page.getByText('Trigger Boiler too hot created.')).toBeVisible();
    const triggerRow = page
      .getByRole('table', { name: 'Trigger rules' })
      .getByRole('row')
      .filter({ hasText: 'Boiler too hot' });
    await expect(triggerRow).toContainText('any device: /boiler/temperature > 90');
    await expect(triggerRow).toContainText('notify “Boiler alarms”');
    await expect(triggerRow.getByTestId('trigger-runs')).toContainText('0 runs');
    await expect(triggerRow.getByTestId('trigger-runs')).toContainText('Never ran');

    // "Run now" runs the action once: the rule's mailbox receives it. (Webhook delivery itself, signed, to a receiver
    // standing for a public host is proven by the server's delivery tests: no local receiver is reachable.)
    await triggerRow.getByRole('button', { name: 'Run Boiler too hot now' }).click();
    await expect(page.getByText('The action ran.')).toBeVisible();
    await expect(triggerRow.getByTestId('trigger-runs')).toContainText('1 run');
    await expect
      .poll(() => smtp.received.filter((mail) => mail.to.includes('ops@boiler.example')).length, {
        timeout: 15_000,
      })
      .toBe(1);
    // Another test's mail (an invitation) may reach the same port meanwhile: read this rule's own.
    const ruleMail = smtp.received.find((mail) => mail.to.includes('ops@boiler.example'));
    expect(ruleMail?.data).toContain('alarms@boiler.example');

    expect(errors.filter((error) => !isNetworkError(error, [400]))).toEqual([]);
  } finally {
    await smtp.close();
  }
});

test('a webhook that cannot be delivered: retries, then one failed-notification entry; resend tries it again', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(page.request, boilerHouse());
  const org = tenant.organizations.org;
  const boiler = tenant.telemetryDevices['Boiler 1'];
  if (!org || !boiler?.password) throw new Error('the fixture seeded no boiler');
  // Not a local receiver (the SSRF guard refuses loopback whatever is allowed): a name that never resolves, a failure
  // that may heal, so it is retried.
  const hook = 'http://down.boiler.test/hooks/down';

  // Set up through the services with the administrator's own permission token, as the portal sends it.
  const token = bearerFrom(page, '/svc/audit/');
  await signInAs(page, tenant, 'admin', '/log');
  const headers = { authorization: `Bearer ${await token}` };
  const api = (path: string) => `http://127.0.0.1:${e2ePort()}${path}?organization=${org.id}`;
  const calls = [
    page.request.post(api('/svc/alarms/api/v1/rules'), {
      headers,
      data: {
        name: 'Boiler overheating',
        deviceId: boiler.id,
        condition: { kind: 'threshold', path: '/boiler/temperature', operator: '>', value: 90 },
        severity: 'MAJOR',
      },
    }),
  ];
  for (const call of calls) expect((await call).ok(), await (await call).text()).toBe(true);
  const rule = await page.request.post(api('/svc/notifications/api/v1/notifications'), {
    headers,
    data: {
      name: 'Boiler webhook',
      source: { alarmEvents: ['RAISED'], severities: [], alarmRuleIds: [] },
      recipients: { userIds: [], groupIds: [], emails: [], webhooks: [hook] },
    },
  });
  expect(rule.status(), await rule.text()).toBe(201);

  // The boiler overheats: the alarm's webhook cannot be delivered (no such host), is retried, then fails for good.
  await mosquittoPub(boiler, { boiler_temperature: 97 });

  await expect(page.getByTestId('audit-log')).toBeVisible();
  await page.getByRole('tab', { name: 'Failed notifications' }).click();
  await expectRoute(page, '/log/failed-notifications');
  await expect(page.getByRole('tab', { name: 'Failed notifications' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const table = page.getByRole('table', { name: 'Failed notification deliveries' });
  const row = table.getByRole('row').filter({ hasText: hook });
  await expect(async () => {
    await page.getByRole('button', { name: 'Refresh' }).click();
    await expect(row).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 30_000 });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Boiler webhook');
  await expect(row).toContainText('Webhook');
  await expect(row).toContainText('could not be resolved');
  const attempts = Number((await row.getByRole('cell').nth(4).textContent()) ?? '0');
  expect(attempts).toBeGreaterThan(1);

  // "Resend" queues it again; the row follows it through its attempts until it has failed again, still one entry.
  // (A resend that is delivered is proven by the server's delivery tests: no local receiver is reachable.)
  await row.getByRole('button', { name: `Resend to ${hook}` }).click();
  await expect(row.getByTestId('delivery-status')).toContainText('Failed again', { timeout: 20_000 });
  await expect(row.getByRole('button', { name: `Resend to ${hook}` })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(table.getByRole('row').filter({ hasText: hook })).toHaveCount(1);
  expect(errors).toEqual([]);
});

test('limits of a sub-organization with their usage; none defined is refused as undefined limits', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(page.request, {
    organizations: [
      { key: 'org', name: 'Works', iotEnabled: true },
      { key: 'plant', name: 'Plant North', parent: 'org', iotEnabled: true },
    ],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMINISTRATOR }] }],
    devices: [{ org: 'plant', label: 'Press 1' }],
  });
  await signInAs(page, tenant, 'admin', '/organizations');
  // Two organizations to enter: the selector asks first.
  await page.getByRole('button', { name: /^Works/ }).click();
  await expectRoute(page, '/organizations');
  const tree = page.getByTestId('organization-tree');
  await tree.getByRole('button', { name: /^Plant North/ }).click();
  await expect(page.getByTestId('organization-detail-name')).toHaveText('Plant North');
  await page.getByRole('tab', { name: 'Limits' }).click();
  const panel = page.getByTestId('limits-panel');
  await expect(panel).toContainText('No limits are defined for Plant North');
  await expect(panel.getByTestId('usage-devices')).toHaveText('1 (no limit)');

  await panel.getByRole('button', { name: 'Define limits' }).click();
  const form = panel.getByTestId('limits-form');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(form.getByTestId('limits-failure')).toContainText('The server refused the limits.');
  await expect(form.getByTestId('server-message')).toContainText('undefined limits');

  await form.getByLabel('Devices').fill('ten');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(form.getByText('Enter a whole number, or leave it empty.')).toBeVisible();
  await form.getByLabel('Devices').fill('4');
  await form.getByLabel('Notifications per day').fill('100');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(page.getByText('Limits of Plant North saved.')).toBeVisible();
  await expect(panel.getByTestId('usage-devices')).toHaveText('1 of 4');
  await expect(panel.getByRole('progressbar', { name: 'Devices: 25 % used' })).toBeVisible();
  await expect(panel.getByTestId('usage-notificationsPerDay')).toHaveText('0 of 100');
  await expect(panel.getByTestId('usage-users')).toContainText('(no limit)');

  // Replacing them (PUT) once they exist.
  await panel.getByRole('button', { name: 'Edit limits' }).click();
  await form.getByLabel('Devices').fill('1');
  await form.getByRole('button', { name: 'Save limits' }).click();
  await expect(panel.getByTestId('usage-devices')).toHaveText('1 of 1');
  expect(errors.filter((error) => !isNetworkError(error, [400]))).toEqual([]);
});

test('someone who may only read sees the rules, triggers and channel settings without ways to change them', async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(page.request, {
    organizations: [{ key: 'org', name: 'Boiler house', iotEnabled: true }],
    users: [
      {
        key: 'reader',
        memberships: [
          {
            org: 'org',
            permissions: [
              { rsname: 'portal', scopes: ['ACCESS'] },
              { rsname: 'notifications', scopes: ['READ'] },
              { rsname: 'organizations', scopes: ['READ'] },
            ],
          },
        ],
      },
    ],
  });
  await signInAs(page, tenant, 'reader', '/notifications');
  await expect(page.getByTestId('table-empty')).toContainText(
    'Ask an administrator to set up notifications.',
  );
  await expect(page.getByTestId('create-notification')).toHaveCount(0);

  await open(page, '/trigger');
  await expect(page.getByTestId('table-empty')).toContainText('Ask an administrator to set up triggers.');
  await expect(page.getByTestId('create-trigger')).toHaveCount(0);

  await open(page, '/admin/notifications');
  await expect(page.getByTestId('read-only-note')).toBeVisible();
  await expect(page.getByTestId('secret-state')).toHaveText('Not set');
  await expect(page.getByTestId('secret-edit')).toHaveCount(0);
  const settings = page.getByTestId('channel-settings-form');
  await expect(settings.getByLabel('Sender address')).toBeDisabled();
  await expect(settings.getByRole('button', { name: 'Save settings' })).toHaveCount(0);
  expect(errors).toEqual([]);
});
