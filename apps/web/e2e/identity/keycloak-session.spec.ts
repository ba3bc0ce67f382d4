import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError, submitLogin, TOKEN_PATH } from '../support/browser.ts';
import { bareOrigin, demoLogin, realmOrigin } from '../support/environment.ts';

const DEMO = realmOrigin('demo');
const LOGIN_PAGE = /\/auth\/realms\/demo\/login-actions\//;
const ADMIN = 'admin@demo.local';

type TokenResponse = { access_token: string; refresh_token: string; id_token: string };

function tokenResponse(page: Page) {
  return page.waitForResponse(
    (response) => response.url().endsWith(TOKEN_PATH) && response.request().method() === 'POST',
  );
}

async function signInAsAdmin(page: Page): Promise<TokenResponse> {
  await page.goto(`${DEMO}/`);
  await expect(page).toHaveURL(LOGIN_PAGE);
  const exchanged = tokenResponse(page);
  await submitLogin(page, demoLogin(ADMIN));
  const response = await exchanged;
  expect(response.status()).toBe(200);
  await expect(page.getByTestId('user-email')).toHaveText(ADMIN);
  return (await response.json()) as TokenResponse;
}

/** A refresh-token grant sent by the page itself (same origin as the identity server). */
async function refreshGrant(page: Page, refreshToken: string) {
  return page.evaluate(
    async ({ url, token }) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: token,
          client_id: 'web-portal',
        }),
      });
      const body = (await response.json()) as { error?: string; refresh_token?: string };
      return { status: response.status, body };
    },
    { url: `${DEMO}/auth/realms/demo${TOKEN_PATH}`, token: refreshToken },
  );
}

test.describe('keycloak-js session against the built-in identity server', () => {
  test('a wrong password shows the error and stays on the login page without a token', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const tokenRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith(TOKEN_PATH)) tokenRequests.push(request.url());
    });

    await page.goto(`${DEMO}/`);
    await expect(page).toHaveURL(LOGIN_PAGE);
    await submitLogin(page, { email: ADMIN, password: 'not-the-password' });

    await expect(page.locator('#input-error')).toBeVisible();
    await expect(page).toHaveURL(LOGIN_PAGE);
    await expect(page.locator('#kc-form-login')).toBeVisible();
    await expect(page.getByTestId('user-email')).toHaveCount(0);
    expect(tokenRequests).toEqual([]);
    expect(errors.filter((error) => !isNetworkError(error, [400, 401]))).toEqual([]);
  });

  test('the administrator signs in, sees the organizations, refreshes the token and enters demo', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const login = await signInAsAdmin(page);
    expect(login.refresh_token).toBeTruthy();

    await expect(page.locator('[data-testid="organization"][data-resource-id="demo"]')).toBeVisible();

    const iat = page.getByTestId('token-iat');
    await expect(iat).toHaveText(/^\d+$/);
    const before = await iat.textContent();
    // iat has a resolution of one second.
    await page.waitForTimeout(1_100);
    const refreshed = tokenResponse(page);
    await page.getByRole('button', { name: 'Refresh token' }).click();
    const refreshResponse = await refreshed;
    expect(refreshResponse.status()).toBe(200);
    const tokens = (await refreshResponse.json()) as TokenResponse;
    expect(tokens.access_token).not.toBe(login.access_token);
    await expect(iat).not.toHaveText(before ?? '');
    expect(Number(await iat.textContent())).toBeGreaterThan(Number(before));

    const exchange = tokenResponse(page);
    await page
      .locator('[data-testid="organization"][data-resource-id="demo"]')
      .getByRole('button', { name: 'Enter organization' })
      .click();
    const rpt = await exchange;
    const form = new URLSearchParams(rpt.request().postData() ?? '');
    expect(form.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:uma-ticket');
    expect(form.get('permission')).toBe('demo');
    expect(form.get('scope')).toMatch(/^org:\S+ app:\*$/);
    expect(rpt.request().headers().authorization).toMatch(/^Bearer /);
    await expect(page.getByTestId('rpt-permissions')).toContainText('portal: ACCESS');

    expect(errors).toEqual([]);
  });

  test('signing out returns to the login page and ends the session on the server', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const login = await signInAsAdmin(page);

    // Control: the session's refresh token works before signing out (and is rotated: keep the new one).
    const before = await refreshGrant(page, login.refresh_token);
    expect(before.status).toBe(200);
    const held = before.body.refresh_token;
    expect(held).toBeTruthy();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(LOGIN_PAGE);
    await expect(page.locator('#kc-form-login')).toBeVisible();

    const after = await refreshGrant(page, held ?? '');
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
    expect(errors.filter((error) => !isNetworkError(error, [400]))).toEqual([]);
  });

  test('a realm that does not exist shows the fatal error instead of a blank page', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    await page.goto(`${realmOrigin('nope')}/`);
    await expect(page.getByTestId('fatal-error')).toHaveText("Cannot navigate to organization 'nope'.");
    expect(page.url()).toBe(`${realmOrigin('nope')}/`);
    expect(errors.filter((error) => !isNetworkError(error, [404]))).toEqual([]);
  });

  test('without a realm in the host name or a realm cookie the fatal initialisation error is shown', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    await page.goto(`${bareOrigin()}/`);
    await expect(page.getByTestId('fatal-error')).toHaveText(
      'Error initializing. Please check the hostname is correct and retry',
    );
    expect(errors).toEqual([]);
  });
});
