import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { organizationOf, type Permission, PORTAL_ACCESS, seedTenant, userOf } from '../support/seed.ts';

/*
 * The app store against the real server: the catalogue holds the two sample store apps the server registers at start
 * (shift-report, energy-cost), served at apps.localhost; paid plans go through a preauthorized transaction whose
 * charges are invoices of the default provider (they stay OPEN until an operator marks them paid).
 */

/** Spec 6: the store needs READ organizations; installing and managing needs UPDATE organizations. */
const ADMIN: Permission[] = [PORTAL_ACCESS, { rsname: 'organizations', scopes: ['READ', 'UPDATE'] }];

async function seedStoreTenant(request: Parameters<typeof seedTenant>[0]) {
  return seedTenant(request, {
    organizations: [{ key: 'org', name: 'Energy works' }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMIN }] }],
  });
}

function card(page: Page, name: string) {
  return page.getByRole('article', { name });
}

function installedRow(page: Page, appId: string) {
  return page.locator(`[data-testid="installed-app"][data-app="${appId}"]`);
}

async function rowAction(page: Page, name: string, action: string) {
  await page.getByRole('button', { name: `More actions for ${name}` }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Only the refusals this test provokes on purpose (402 declined payment, 409 open invoice) may reach the console. */
function unexpected(errors: string[]): string[] {
  return errors.filter((text) => !isNetworkError(text, [402, 409]));
}

test('an administrator likes an app, installs energy-cost on a paid plan, opens it, changes its plan and deletes it with force', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedStoreTenant(request);
  const admin = userOf(tenant, 'admin');
  const org = organizationOf(tenant, 'org');

  await signInAs(page, tenant, 'admin', '/store');
  const energy = card(page, 'Energy cost');
  await expect(energy).toBeVisible();
  await expect(card(page, 'Shift report')).toBeVisible();
  // Integer minor units, formatted for the locale: 900 cents.
  await expect(energy.getByTestId('price-from')).toHaveText('From €9.00 per month');
  await expect(energy.getByText('Latest version 1.0.0')).toBeVisible();
  await expect(energy.getByTestId('installed-badge')).toHaveCount(0);

  // Search narrows the catalogue (on the server).
  await page.getByRole('searchbox', { name: 'Search apps' }).fill('tariff');
  await expect(card(page, 'Shift report')).toHaveCount(0);
  await expect(energy).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search apps' }).fill('');
  await expect(card(page, 'Shift report')).toBeVisible();

  // Like: the count goes up by one at once and stays after a reload; unlike takes it back.
  const like = energy.getByRole('button', { name: 'Like Energy cost' });
  const count = energy.getByTestId('like-count');
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  const before = Number(await count.textContent());
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(count).toHaveText(String(before + 1));
  await expect(like).toBeEnabled();
  await page.reload();
  await expect(like).toHaveAttribute('aria-pressed', 'true');
  await expect(count).toHaveText(String(before + 1));
  await like.click();
  await expect(like).toHaveAttribute('aria-pressed', 'false');
  await expect(count).toHaveText(String(before));
  await expect(like).toBeEnabled();
  await page.reload();
  await expect(count).toHaveText(String(before));

  // Install on the paid Pro plan, authorizing its payments.
  await energy.getByRole('link', { name: 'Install Energy cost' }).click();
  await expectRoute(page, '/store/install/energy-cost');
  await expect(page.getByRole('heading', { name: 'Install Energy cost' })).toBeVisible();
  await page.getByRole('radio', { name: 'Pro plan, €29.00 per month' }).click();
  await page.getByRole('button', { name: 'Next' }).click();
  const consent = page.getByRole('checkbox', {
    name: 'I authorize recurring payments of €29.00 per month to Edgeport',
  });
  const authorize = page.getByRole('button', { name: 'Authorize and install' });
  await expect(authorize).toBeDisabled();
  await consent.check();
  await authorize.click();
  const done = page.getByTestId('install-done');
  await expect(done).toContainText('Energy cost is installed on the Pro plan.');
  await expect(done.getByTestId('invoice-notice')).toContainText('of €29.00 is open');

  // Open it: the embedded sample app shows what it received through the bridge.
  await done.getByRole('link', { name: 'Open the app' }).click();
  await expectRoute(page, '/store/container/energy-cost');
  const app = page.frameLocator('[data-testid="app-frame"]');
  await expect(app.locator('#status')).toHaveAttribute('data-state', 'connected');
  await expect(app.locator('#user')).toHaveText(admin.email);
  await expect(app.locator('#organization')).toHaveText(org.resourceId);
  await expect(page.getByTestId('app-container')).toHaveAttribute('data-status', 'connected');

  // The catalogue now says it is installed and offers to open it.
  await page.goto(`${tenant.origin}/#/store`);
  await expect(energy.getByTestId('installed-badge')).toHaveText('Installed');
  await expect(energy.getByRole('link', { name: 'Open Energy cost' })).toBeVisible();

  // Installed apps: Pro, version 1.0.0, payment due (the first invoice is open).
  await page.getByRole('tab', { name: 'Installed apps' }).click();
  await expectRoute(page, '/store/manage');
  const row = installedRow(page, 'energy-cost');
  await expect(row).toContainText('Pro');
  await expect(row).toContainText('€29.00 per month');
  await expect(row).toContainText('1.0.0');
  await expect(row.getByTestId('installed-status')).toHaveText('Payment due');
  await expect(row).toContainText('is open');

  // Pay now while the invoice is open: the portal says it is still waiting (no second charge).
  await rowAction(page, 'Energy cost', 'Pay now');
  await expect(page.getByText(/for Energy cost is waiting to be paid/)).toBeVisible();

  // Reschedule the next billing to a day in ten days.
  const target = new Date();
  target.setDate(target.getDate() + 10);
  const day = `${target.getFullYear()}-${String(target.getMonth() + 1).padStart(2, '0')}-${String(target.getDate()).padStart(2, '0')}`;
  await rowAction(page, 'Energy cost', 'Reschedule billing');
  const dialog = page.getByRole('dialog', { name: 'Reschedule the billing of Energy cost' });
  await dialog.getByLabel('Next billing').fill('2020-01-01');
  await dialog.getByRole('button', { name: 'Reschedule' }).click();
  await expect(dialog.getByText('Choose a day after today.')).toBeVisible();
  await dialog.getByLabel('Next billing').fill(day);
  await dialog.getByRole('button', { name: 'Reschedule' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(target));

  // Change the plan to Basic, authorizing the new amount.
  await rowAction(page, 'Energy cost', 'Change plan');
  const change = page.getByRole('dialog', { name: 'Change the plan of Energy cost' });
  await expect(change.getByRole('radio', { name: 'Pro plan, €29.00 per month' })).toBeDisabled();
  await change.getByRole('radio', { name: 'Basic plan, €9.00 per month' }).click();
  await change
    .getByRole('checkbox', { name: 'I authorize recurring payments of €9.00 per month to Edgeport' })
    .check();
  await change.getByRole('button', { name: 'Authorize and change plan' }).click();
  await expect(change).toBeHidden();
  await expect(page.getByText('Energy cost is now on the Basic plan.')).toBeVisible();
  await expect(row).toContainText('Basic');
  await expect(row).toContainText('€9.00 per month');

  // Delete: refused while an invoice is open, then deleted anyway (force), each step confirmed.
  await rowAction(page, 'Energy cost', 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete Energy cost?' });
  await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
  const force = page.getByRole('dialog', { name: 'Energy cost has an open invoice' });
  await expect(force).toContainText('cannot be deleted while an invoice is open');
  await expect(row).toBeVisible();
  await force.getByRole('button', { name: 'Delete anyway' }).click();
  await expect(page.getByText('Energy cost is deleted.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(page.getByText('No apps installed')).toBeVisible();

  expect(unexpected(errors)).toEqual([]);
});

test('an app the organization has not installed does not open: the container says so and offers to install it', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedStoreTenant(request);
  // Nothing of the app may load: its page would get the user's token through the bridge.
  const appRequests: string[] = [];
  page.on('request', (req) => {
    if (req.url().includes('/store-apps/')) appRequests.push(req.url());
  });

  await signInAs(page, tenant, 'admin', '/store/container/energy-cost');
  const refusal = page.getByTestId('app-container-not-installed');
  await expect(refusal).toContainText('Energy cost is not installed');
  await expect(refusal).toContainText('Install it from the store to open it here.');
  await expect(page.getByTestId('app-frame')).toHaveCount(0);
  await expect(page.getByTestId('app-container')).toHaveCount(0);
  expect(appRequests).toEqual([]);

  // The way out: the install page of that app.
  await refusal.getByRole('link', { name: 'Install Energy cost' }).click();
  await expectRoute(page, '/store/install/energy-cost');
  await expect(page.getByRole('heading', { name: 'Install Energy cost' })).toBeVisible();
  await page.goto(`${tenant.origin}/#/store/manage`);
  await expect(page.getByText('No apps installed')).toBeVisible();
  expect(appRequests).toEqual([]);
  // The launch answered 404 "not installed": the only failed request.
  expect(errors.filter((text) => !isNetworkError(text, [404]))).toEqual([]);
});

test('declining the payment answers USER_REJECTED and installs nothing', async ({ page, request }) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedStoreTenant(request);

  await signInAs(page, tenant, 'admin', '/store/install/energy-cost');
  await expect(page.getByRole('heading', { name: 'Install Energy cost' })).toBeVisible();
  // With the keyboard: the cheapest plan is preselected; Space picks Pro, Enter goes on and declines.
  const basic = page.getByRole('radio', { name: 'Basic plan, €9.00 per month' });
  const pro = page.getByRole('radio', { name: 'Pro plan, €29.00 per month' });
  await expect(basic).toHaveAttribute('aria-checked', 'true');
  await pro.focus();
  await page.keyboard.press('Space');
  await expect(pro).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Next' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('checkbox', { name: /€29.00 per month/ })).not.toBeChecked();
  await page.getByRole('button', { name: 'Decline' }).press('Enter');
  const result = page.getByTestId('transaction-result');
  await expect(result).toHaveAttribute('data-result', 'USER_REJECTED');
  await expect(result).toContainText('You declined the payments, so nothing was installed or changed.');
  await expect(page.getByTestId('install-done')).toHaveCount(0);

  await page.goto(`${tenant.origin}/#/store/manage`);
  await expect(page.getByText('No apps installed')).toBeVisible();
  await page.goto(`${tenant.origin}/#/store`);
  await expect(card(page, 'Energy cost')).toBeVisible();
  await expect(card(page, 'Energy cost').getByTestId('installed-badge')).toHaveCount(0);

  expect(unexpected(errors)).toEqual([]);
});

test('a reader sees the catalogue and the installed apps but no install or change buttons', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Readers' }],
    users: [
      {
        key: 'reader',
        memberships: [
          { org: 'org', permissions: [PORTAL_ACCESS, { rsname: 'organizations', scopes: ['READ'] }] },
        ],
      },
    ],
  });
  await signInAs(page, tenant, 'reader', '/store');
  const energy = card(page, 'Energy cost');
  await expect(energy).toBeVisible();
  await expect(energy.getByRole('button', { name: 'Like Energy cost' })).toBeVisible();
  await expect(energy.getByRole('link', { name: 'Install Energy cost' })).toHaveCount(0);
  await page.goto(`${tenant.origin}/#/store/install/energy-cost`);
  await expect(page.getByText('You may not install apps')).toBeVisible();
  await page.goto(`${tenant.origin}/#/store/manage`);
  await expect(page.getByText('No apps installed')).toBeVisible();
  await expect(
    page.getByText('An administrator of your organization can install apps from the catalogue.'),
  ).toBeVisible();
  expect(errors).toEqual([]);
});
