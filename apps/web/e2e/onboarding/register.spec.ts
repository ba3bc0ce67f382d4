import { expect, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError, loginPage, submitLogin } from '../support/browser.ts';
import { expectRoute } from '../support/portal.ts';
import { seedTenant } from '../support/seed.ts';

test.describe('self-onboarding (public /register)', () => {
  test('registers an organization with the agreements, then its administrator signs in to it', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedTenant(request, {
      organizations: [],
      users: [],
      agreements: [{ type: 'TERM', title: 'Terms of service', version: '1' }],
    });
    await page.goto(`${tenant.origin}/#/register`);
    await expect(page.getByRole('heading', { name: 'Register your organization' })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`^${tenant.origin}/#/register$`));

    await page.getByTestId('register-submit').click();
    await expect(page.getByText('This field is required').first()).toBeVisible();
    await expect(page.getByText('Accept every agreement to register')).toBeVisible();

    const email = `founder@${tenant.realm}.test`;
    await page.getByLabel('Organization name').fill('Founders Ltd');
    await page.getByLabel('First name').fill('Fran');
    await page.getByLabel('Last name').fill('Founder');
    await page.getByLabel('Email address').fill(email);
    await page.locator('input[name="password"]').fill('short');
    await page.getByLabel('Repeat the password').fill('different');
    await page.getByLabel('I accept “Terms of service”').check();
    await page.getByTestId('register-submit').click();
    await expect(page.getByText('Use at least 8 characters')).toBeVisible();
    await expect(page.getByText('The passwords do not match')).toBeVisible();

    await page.locator('input[name="password"]').fill('correct horse battery');
    await page.getByLabel('Repeat the password').fill('correct horse battery');
    const created = page.waitForResponse((r) => r.url().endsWith('/organizations/selfOnBoarding'));
    await page.getByTestId('register-submit').click();
    const response = await created;
    expect(response.status()).toBe(201);
    expect(JSON.parse(response.request().postData() ?? '{}')).toMatchObject({
      agreementsServiceName: 'portal',
      organizationName: 'Founders Ltd',
      email,
    });
    await expect(page.getByTestId('registered')).toContainText('Founders Ltd is ready');

    await page.getByTestId('registered').getByRole('link', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(loginPage(tenant.realm));
    await submitLogin(page, { email, password: 'correct horse battery' });
    // The only organization is entered; the agreements were accepted while registering. Its administrator holds
    // everything and the organization has IoT: home is the dashboards list (spec 2 home order).
    await expect(page.getByTestId('organization-switcher')).toHaveText('Founders Ltd');
    await expectRoute(page, '/flows/dashboards');
    expect(errors).toEqual([]);

    // The same email again: the form says so on the email field.
    await page.goto(`${tenant.origin}/#/register`);
    await page.reload();
    await page.getByLabel('Organization name').fill('Second Ltd');
    await page.getByLabel('First name').fill('Fran');
    await page.getByLabel('Last name').fill('Founder');
    await page.getByLabel('Email address').fill(email);
    await page.locator('input[name="password"]').fill('correct horse battery');
    await page.getByLabel('Repeat the password').fill('correct horse battery');
    await page.getByLabel('I accept “Terms of service”').check();
    await page.getByTestId('register-submit').click();
    await expect(
      page.getByText('An account with this email address already exists. Sign in instead.'),
    ).toBeVisible();
    expect(errors.filter((error) => !isNetworkError(error, [409]))).toEqual([]);
  });
});
