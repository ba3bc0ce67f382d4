import { expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { mosquittoPub } from '../support/mqtt.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { organizationOf, type Permission, seedTenant } from '../support/seed.ts';

/**
 * Spec 6: the dealer area needs CREATE or UPDATE on products; the client's activation keys are read through the dealer
 * (no device rights in the client needed). The dealer's role also reaches into its clients (INHERIT on organizations
 * and users): it opens the client's screens and invites the client's administrator.
 */
const DEALER: Permission[] = [
  { rsname: 'portal', scopes: ['ACCESS', 'INHERIT'] },
  { rsname: 'products', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  { rsname: 'organizations', scopes: ['READ', 'CREATE', 'UPDATE', 'INHERIT'] },
  { rsname: 'devices', scopes: ['READ', 'CREATE'] },
  { rsname: 'users', scopes: ['READ', 'CREATE', 'INHERIT'] },
  { rsname: 'usergroups', scopes: ['READ', 'INHERIT'] },
  { rsname: 'roles', scopes: ['READ', 'INHERIT'] },
];

const DAY_MS = 86_400_000;
const CLIENT = 'Hall 7 Stamping GmbH';

/** Moves the server's clock (licence terms) forward; the licence expiry sweep has run when it answers. */
async function advanceClock(page: Page, ms: number): Promise<void> {
  const response = await page.request.post(`http://127.0.0.1:${e2ePort()}/test-support/clock`, {
    data: { advanceMs: ms },
  });
  expect(response.status()).toBe(200);
}

// Browser tests share one server: put its clock back on the system time for the tests after this one.
test.afterAll(async ({ request }) => {
  const response = await request.post(`http://127.0.0.1:${e2ePort()}/test-support/clock`, {
    data: { reset: true },
  });
  expect(response.status()).toBe(200);
});

/** The page size of a call listing the products of `org`, or null for any other call. */
function productPageSize(url: string, org: string): string | null {
  const parsed = new URL(url);
  return parsed.pathname.endsWith(`/organizations/${org}/products`)
    ? parsed.searchParams.get('pageSize')
    : null;
}

function licenceRow(scope: Page | Locator, code: string): Locator {
  return scope.locator(`tr[data-license-code="${code}"]`);
}

test('a dealer sells a device licence to a new client, the client activates a device with it, and the licence expiry ends the device’s access', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'dealer', name: 'Northwind Automation', iotEnabled: true, dealer: true }],
    users: [
      { key: 'dealer', memberships: [{ org: 'dealer', permissions: DEALER }] },
      // The client's future administrator: an account without any organization until the dealer invites it.
      { key: 'clientAdmin', memberships: [] },
    ],
  });
  const dealerOrg = organizationOf(tenant, 'dealer');
  const clientAdminEmail = tenant.users.clientAdmin?.email ?? '';

  // ---- A product: one device, one year, 49.90 EUR typed with a comma (converted exactly to 4990 cents) ----
  // Spec 9: the products panel fetches every product 200 a page; the issue form's list is one call of 10000.
  const allProducts = page.waitForRequest((req) => productPageSize(req.url(), dealerOrg.id) === '200');
  await signInAs(page, tenant, 'dealer', '/dealer/licenses?view=products');
  await allProducts;
  await expect(page.getByRole('heading', { level: 1, name: 'Licences' })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Products', selected: true })).toBeVisible();
  await expect(page.getByTestId('products-empty')).toBeVisible();
  await page.getByTestId('new-product').click();
  const productForm = page.getByTestId('product-form');
  await productForm.getByRole('textbox', { name: 'Code' }).fill('DEV-1Y');
  await productForm.getByRole('textbox', { name: 'Name' }).fill('Device licence, one year');
  await productForm.getByRole('textbox', { name: 'Price per licence unit and term' }).fill('49.905');
  await productForm.getByRole('button', { name: 'Create product' }).click();
  await expect(productForm.getByText('This currency has at most 2 decimals.')).toBeVisible();
  await productForm.getByRole('textbox', { name: 'Price per licence unit and term' }).fill('49,90');
  await expect(page.getByTestId('product-price-preview')).toHaveText(
    'One licence unit costs €49.90 per 365 days.',
  );
  const created = page.waitForRequest(
    (req) => req.method() === 'POST' && req.url().endsWith(`/organizations/${dealerOrg.id}/products`),
  );
  await productForm.getByRole('button', { name: 'Create product' }).click();
  expect((await created).postDataJSON()).toMatchObject({
    code: 'DEV-1Y',
    resourceType: 'devices',
    quantity: 1,
    termDays: 365,
    priceMinor: 4990,
    currency: 'EUR',
  });
  const product = page.locator('tr[data-product-code="DEV-1Y"]');
  await expect(product).toContainText('Device licence, one year');
  await expect(product.getByTestId('product-price')).toHaveText('€49.90');
  await page.screenshot({ path: test.info().outputPath('dealer-products.png'), fullPage: true });

  // ---- A client organization, created in the dealer area ----
  await page.getByRole('tab', { name: 'Clients', exact: true }).click();
  await expectRoute(page, '/dealer/clients');
  await expect(page.getByRole('heading', { level: 1, name: 'Clients' })).toBeVisible();
  await expect(page.getByText('No clients yet')).toBeVisible();
  await page.getByTestId('new-client').click();
  const clientForm = page.getByTestId('new-client-form');
  await expect(clientForm.getByRole('switch', { name: 'IoT' })).toBeChecked();
  await clientForm.getByRole('textbox', { name: 'Client name' }).fill(CLIENT);
  await clientForm.getByRole('button', { name: 'Create client' }).click();
  await expect(page.getByText(`Client “${CLIENT}” created.`)).toBeVisible();

  // The new client opens in the drawer; the table lists it.
  const drawer = page.getByTestId('client-drawer');
  await expect(drawer).toBeVisible();
  await expect(page.getByRole('button', { name: `Open client ${CLIENT}` })).toBeVisible();
  const clientId = new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '').get('client') ?? '';
  expect(clientId).toMatch(/^[0-9a-f-]{36}$/);
  await expect(drawer.getByTestId('client-licenses-empty')).toBeVisible();
  const clientRow = page
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Open client ${CLIENT}` }) });
  await expect(clientRow.getByTestId('client-devices')).toHaveText('0');

  // ---- Issue it a device licence, active at once ----
  const productList = page.waitForRequest((req) => productPageSize(req.url(), dealerOrg.id) === '10000');
  await drawer.getByTestId('issue-license').click();
  await productList;
  const issueForm = page.getByTestId('issue-license-form');
  await issueForm.getByRole('combobox', { name: 'Product' }).click();
  await page.getByRole('option', { name: /^Device licence, one year \(DEV-1Y\)/ }).click();
  await expect(page.getByTestId('issue-summary')).toContainText('Grants 1 Devices for 365 days.');
  await expect(page.getByTestId('issue-summary')).toContainText('€49.90 is charged to the client now.');
  await expect(page.getByTestId('issue-summary')).toContainText('Comes with 1 activation key.');
  await page.screenshot({ path: test.info().outputPath('dealer-issue.png'), fullPage: true });
  await issueForm.getByRole('button', { name: 'Issue licence' }).click();
  await expect(
    page.getByText(/^Licence LIC-[A-Z0-9-]+ issued to Hall 7 Stamping GmbH and active\.$/),
  ).toBeVisible();
  const licence = drawer.locator('tr[data-license-code]');
  await expect(licence).toHaveCount(1);
  const code = (await licence.getAttribute('data-license-code')) ?? '';
  expect(code).toMatch(/^LIC(-[2-9A-HJKMNP-TV-Z]{4}){3}$/);
  await expect(licence.getByTestId('license-status')).toHaveText('Active');
  await expect(licence).toContainText('Device licence, one year');
  await page.screenshot({ path: test.info().outputPath('dealer-client-licences.png'), fullPage: true });

  // Its activation key, read through the dealer, in full.
  await drawer.getByRole('tab', { name: 'Activation keys (1)' }).click();
  const key = drawer.getByTestId('client-key');
  await expect(key).toHaveCount(1);
  await expect(key).toHaveAttribute('data-status', 'AVAILABLE');
  const activationKey = (await key.getByTestId('activation-key').textContent()) ?? '';
  expect(activationKey).toMatch(/^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$/);
  await expect(key.getByRole('button', { name: `Copy activation key ${activationKey}` })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('dealer-client-keys.png'), fullPage: true });

  // The term was charged: an open invoice of 49.90, which the dealer marks paid.
  await drawer.getByRole('tab', { name: 'Invoices' }).click();
  const invoice = drawer.locator('tr[data-invoice]');
  await expect(invoice).toHaveCount(1);
  await expect(invoice).toContainText('€49.90');
  await expect(invoice).toContainText('Open');
  await invoice.getByRole('button', { name: /^Mark invoice \d+ paid$/ }).click();
  await page
    .getByRole('dialog', { name: 'Mark invoice paid' })
    .getByRole('button', { name: 'Mark paid' })
    .click();
  await expect(invoice).toContainText('Paid');
  await expect(invoice.getByRole('button', { name: /^Mark invoice/ })).toHaveCount(0);

  // The dealer's list of issued licences shows it too.
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Licences', exact: true }).click();
  await expectRoute(page, '/dealer/licenses');
  const issued = page.getByRole('table', { name: 'Licences you issued' });
  await expect(issued.getByRole('row').filter({ hasText: code })).toContainText(CLIENT);
  await expect(issued.getByRole('row').filter({ hasText: code })).toContainText('Active');
  await page.screenshot({ path: test.info().outputPath('dealer-issued.png'), fullPage: true });

  // ---- The dealer enters the client organization and invites the client's administrator ----
  await page.getByRole('tab', { name: 'Clients', exact: true }).click();
  await page.getByRole('button', { name: `Open client ${CLIENT}` }).click();
  await drawer.getByRole('tab', { name: 'Activation keys (1)' }).click();
  // Spec 9: the resources screen counts the licences with the count call, page size 1000.
  const counted = page.waitForRequest(
    (req) =>
      req.url().includes('/licenses/count?') && new URL(req.url()).searchParams.get('pageSize') === '1000',
  );
  await drawer.getByRole('link', { name: "Open the client's resources" }).click();
  await expectRoute(page, '/organizations/resources');
  await expect(page.getByTestId('organization-resources-page')).toContainText(CLIENT);
  await counted;
  await expect(page.getByTestId('licence-count-ACTIVE')).toHaveText('Active: 1');
  await expect(page.getByTestId('licence-count-EXPIRED')).toHaveText('Expired: 0');
  await page.goto(`${tenant.origin}/#/permission`);
  await expect(page.getByTestId('users-page')).toBeVisible();
  await page.getByTestId('invite-user').click();
  const invite = page.getByTestId('invite-form');
  await invite.getByLabel('E-mail').fill(clientAdminEmail);
  await invite.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'Administrator' }).click();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  // The account exists already (it is the client's): it is invited and joins when its owner accepts (issue 32).
  await expect(
    page.getByText(
      `${clientAdminEmail} already has an account: they are invited and become a member when they accept.`,
    ),
  ).toBeVisible();

  // ---- The client's administrator accepts, then activates a device with the key (walkthrough) ----
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  const clientErrors = collectConsoleErrors(client);
  await signInAs(client, tenant, 'clientAdmin', '/walkthrough');
  await expectRoute(client, '/organization');
  await client.getByRole('button', { name: `Accept the invitation of ${CLIENT}` }).click();
  await client.getByTestId('organization').filter({ hasText: CLIENT }).click();
  await expect(client.getByRole('heading', { name: 'Activate a device' })).toBeVisible();
  await client.getByRole('textbox', { name: 'Activation key' }).fill(activationKey);
  await client.getByRole('button', { name: 'Check key' }).click();
  await expect(client.getByTestId('walkthrough-licence').getByText(activationKey)).toBeVisible();
  await client.getByRole('button', { name: 'Continue' }).click();
  await client.getByRole('textbox', { name: 'Device label' }).fill('stamping-press-1');
  await client.getByRole('button', { name: 'Activate device' }).click();
  await expect(
    client.getByRole('heading', { name: 'Device “stamping-press-1” is activated.' }),
  ).toBeVisible();
  const device = {
    id: (await client.getByTestId('walkthrough-username').textContent()) ?? '',
    password: (await client.getByTestId('walkthrough-password').textContent()) ?? '',
  };
  expect(device.id).toMatch(/^[0-9a-f-]{36}$/);

  // The device signs in over MQTT and reports.
  await mosquittoPub(device, { speed: 1200 });

  // The client's consumption screen shows the device.
  await client.goto(`${tenant.origin}/#/organizations/consumptions`);
  await expect(client.getByRole('heading', { level: 1, name: 'Consumption' })).toBeVisible();
  await expect(client.getByTestId('usage-closing')).toContainText('1');
  await expect(client.getByTestId('usage-change')).toContainText('+1');

  // The dealer sees the key in use by the device, and the client's use of its allowance.
  await page.goto(`${tenant.origin}/#/dealer/clients?org=${dealerOrg.id}&client=${clientId}`);
  await expect(drawer).toBeVisible();
  await drawer.getByRole('tab', { name: 'Activation keys (1)' }).click();
  await expect(key).toHaveAttribute('data-status', 'ACTIVE');
  await expect(key).toContainText('stamping-press-1');
  await expect(clientRow.getByTestId('client-devices')).toHaveText('1');
  await drawer.getByRole('tab', { name: 'Resources' }).click();
  const devicesRow = drawer.getByTestId('client-resources').locator('tr[data-resource="devices"]');
  await expect(devicesRow.getByRole('cell')).toHaveText(['Devices', '1', '1', '0']);

  // ---- A year and a day later the licence has expired: so has the key, and the device may no longer connect ----
  await advanceClock(page, 366 * DAY_MS);
  await page.reload();
  await expect(drawer).toBeVisible();
  await expect(licenceRow(drawer, code).getByTestId('license-status')).toHaveText('Expired');
  await drawer.getByRole('tab', { name: 'Activation keys (1)' }).click();
  await expect(key).toHaveAttribute('data-status', 'EXPIRED');
  await expect(key.getByText('Expired', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('dealer-expired.png'), fullPage: true });
  await expect(mosquittoPub(device, { speed: 1300 })).rejects.toThrow();

  // The client sees its device licence expired on its resources screen.
  await client.goto(`${tenant.origin}/#/organizations/resources`);
  await expect(client.getByTestId('device-licences-expired')).toContainText('1');

  expect(errors).toEqual([]);
  expect(clientErrors).toEqual([]);
  await clientContext.close();
});

test('the dealer area explains itself in an organization that is not a dealer, and stays closed without product rights', async ({
  page,
  request,
  browser,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'plant', name: 'Press plant', iotEnabled: true }],
    users: [
      {
        key: 'seller',
        memberships: [
          {
            org: 'plant',
            permissions: [
              { rsname: 'portal', scopes: ['ACCESS'] },
              { rsname: 'products', scopes: ['READ', 'UPDATE'] },
            ],
          },
        ],
      },
      {
        key: 'reader',
        memberships: [
          {
            org: 'plant',
            permissions: [
              { rsname: 'portal', scopes: ['ACCESS'] },
              { rsname: 'products', scopes: ['READ'] },
              { rsname: 'organizations', scopes: ['READ'] },
            ],
          },
        ],
      },
    ],
  });

  // UPDATE products opens the area (spec 6), but the organization is no dealer: the screens say so and call nothing.
  const dealerCalls: string[] = [];
  page.on('request', (req) => {
    if (/\/(clients|issuedLicenses)(\?|$|\/)/.test(req.url())) dealerCalls.push(req.url());
  });
  await signInAs(page, tenant, 'seller', '/dealer');
  await expectRoute(page, '/dealer/clients');
  await expect(page.getByTestId('dealer-not-dealer')).toContainText(
    'Press plant is not a dealer organization',
  );
  await expect(page.getByTestId('new-client')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Clients', exact: true })).toBeVisible();
  await page.getByRole('tab', { name: 'Licences', exact: true }).click();
  await expectRoute(page, '/dealer/licenses');
  await expect(page.getByTestId('dealer-not-dealer')).toBeVisible();
  expect(dealerCalls).toEqual([]);
  expect(errors).toEqual([]);

  // READ products alone does not open it: the route sends the user home and the menu has no dealer entries.
  const readerContext = await browser.newContext();
  const reader = await readerContext.newPage();
  await signInAs(reader, tenant, 'reader', '/dealer/clients');
  await expect.poll(() => new URL(reader.url()).hash).not.toContain('/dealer');
  await expect(reader.getByRole('link', { name: 'Clients', exact: true })).toHaveCount(0);
  await readerContext.close();
});
