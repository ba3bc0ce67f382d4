import { expect, test } from '@playwright/test';
import {
  collectConsoleErrors,
  isNetworkError,
  isUmaExchange,
  loginPage,
  signIn,
} from '../support/browser.ts';
import { demoLogin, realmOrigin } from '../support/environment.ts';
import { signOut } from '../support/portal.ts';

const DEMO = realmOrigin('demo');
const LOGOUT = /\/auth\/realms\/demo\/protocol\/openid-connect\/logout/;

test("a logout request answered with an error code is reported ('Logout failed, request returned an error code.'), the user stays signed in and can try again", async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  await signIn(page, `${DEMO}/`, demoLogin('admin@demo.local'), 'demo');
  const exchange = page.waitForRequest(isUmaExchange);
  await page.locator('[data-testid="organization"][data-resource-id="demo"]').click();
  await exchange;
  await expect(page.getByTestId('shell')).toBeVisible();

  await page.route(LOGOUT, (route) =>
    route.request().method() === 'POST' ? route.fulfill({ status: 500, body: '' }) : route.continue(),
  );
  await signOut(page);
  const message = page.locator('.mantine-Notification-root', {
    hasText: 'Signing out failed: the identity server answered with an error. Please try again.',
  });
  await expect(message).toBeVisible();
  await expect(page.getByTestId('shell')).toBeVisible();
  expect(warnings.some((warning) => warning.includes('Logout failed, request returned an error code.'))).toBe(
    true,
  );

  // The message sits over the user menu until it is closed.
  await message.getByRole('button').click();
  await expect(message).toBeHidden();
  await page.unroute(LOGOUT);
  await signOut(page);
  await expect(page).toHaveURL(loginPage('demo'));
  expect(errors.filter((error) => !isNetworkError(error, [500]))).toEqual([]);
});
