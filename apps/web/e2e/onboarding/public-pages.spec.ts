import { expect, test } from '@playwright/test';
import { collectConsoleErrors, loginPage } from '../support/browser.ts';
import { realmOrigin } from '../support/environment.ts';

const DEMO = realmOrigin('demo');

test.describe('public pages (spec 2)', () => {
  test('/login needs no sign-in, wears the host’s theme and leads to the identity server or to /register', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await page.goto(`${DEMO}/#/login`);
    // The theme by host name, before any sign-in.
    await expect(page.getByRole('heading', { name: 'Welcome to Edgeport Demo' })).toBeVisible();
    await expect(page).toHaveTitle('Edgeport Demo');
    await page.getByRole('link', { name: 'Register an organization' }).click();
    await expect(page.getByRole('heading', { name: 'Register your organization' })).toBeVisible();
    await page.goBack();
    await page.getByTestId('sign-in').click();
    await expect(page).toHaveURL(loginPage('demo'));
    expect(errors).toEqual([]);
  });

  test('/vpn_logout says the remote-access session is over without asking to sign in', async ({ page }) => {
    await page.goto(`${DEMO}/#/vpn_logout`);
    await expect(page.getByTestId('vpn-logout')).toHaveText(
      'You are signed out of remote access. You can close this tab.',
    );
  });
});
