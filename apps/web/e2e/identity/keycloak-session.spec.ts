import { expect, type Page, test } from '@playwright/test';
import {
  collectConsoleErrors,
  isNetworkError,
  isUmaExchange,
  loginPage,
  submitLogin,
  TOKEN_PATH,
} from '../support/browser.ts';
import { bareOrigin, demoLogin, realmOrigin } from '../support/environment.ts';

const DEMO = realmOrigin('demo');
const LOGIN_PAGE = loginPage('demo');
const ADMIN = 'admin@demo.local';

type TokenResponse = { access_token: string; refresh_token: string; id_token: string };

function tokenResponse(page: Page, grantType: string) {
  return page.waitForResponse(
    (response) =>
      response.url().endsWith(TOKEN_PATH) &&
      response.request().method() === 'POST' &&
      new URLSearchParams(response.request().postData() ?? '').get('grant_type') === grantType,
  );
}

/** Signs the demo administrator in; the demo has an organization with a plant, so the selector opens. */
async function signInAsAdmin(page: Page): Promise<TokenResponse> {
  await page.goto(`${DEMO}/`);
  await expect(page).toHaveURL(LOGIN_PAGE);
  const exchanged = tokenResponse(page, 'authorization_code');
  await submitLogin(page, demoLogin(ADMIN));
  const response = await exchanged;
  expect(response.status()).toBe(200);
  await expect(page.getByTestId('organizations')).toBeVisible();
  return (await response.json()) as TokenResponse;
}

async function enterDemo(page: Page) {
  const exchange = page.waitForRequest(isUmaExchange);
  await page.locator('[data-testid="organization"][data-resource-id="demo"]').click();
  const rpt = await exchange;
  await expect(page.getByTestId('shell')).toBeVisible();
  return rpt;
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
    expect(tokenRequests).toEqual([]);
    expect(errors.filter((error) => !isNetworkError(error, [400, 401]))).toEqual([]);
  });

  test('the administrator signs in, enters demo with a permission token scoped to it', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const login = await signInAsAdmin(page);
    expect(login.refresh_token).toBeTruthy();

    const rpt = await enterDemo(page);
    const form = new URLSearchParams(rpt.postData() ?? '');
    expect(form.get('permission')).toBe('demo');
    expect(form.get('audience')).toBe('platform');
    expect(form.get('scope')).toMatch(/^org:\S+ app:\*$/);
    expect(form.get('client_id')).toBeNull();
    expect(rpt.headers().authorization).toBe(`Bearer ${login.access_token}`);
    await expect(page.getByTestId('organization-switcher')).toHaveText('Demo');
    // The organization's theme dresses the shell: its brand name and primary colour.
    await expect(page.getByTestId('brand')).toHaveText('Edgeport Demo');
    await expect(page.locator('html')).toHaveCSS('--mantine-primary-color-filled', '#0b7285');
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-email')).toHaveText(ADMIN);
    expect(errors).toEqual([]);
  });

  test('the login token is refreshed by the 60 s check once under 70 s remain (controlled clock)', async ({
    page,
  }) => {
    await page.clock.install();
    const login = await signInAsAdmin(page);
    const refreshes: string[] = [];
    page.on('request', (request) => {
      const grant = new URLSearchParams(request.postData() ?? '').get('grant_type');
      if (request.url().endsWith(TOKEN_PATH) && grant === 'refresh_token') refreshes.push(request.url());
    });
    await page.clock.pauseAt(Date.now() + 1_000);

    // The access token lives 300 s: the checks at 60, 120 and 180 s find more than 70 s left.
    await page.clock.runFor('03:00');
    expect(refreshes).toEqual([]);

    // The check at 240 s finds 60 s left and refreshes.
    const refreshed = tokenResponse(page, 'refresh_token');
    await page.clock.runFor('01:00');
    const response = await refreshed;
    expect(response.status()).toBe(200);
    const tokens = (await response.json()) as TokenResponse;
    expect(tokens.access_token).not.toBe(login.access_token);
    expect(refreshes).toHaveLength(1);
  });

  test('signing out returns to the login page and ends the session on the server', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const login = await signInAsAdmin(page);
    await enterDemo(page);

    // Control: the session's refresh token works before signing out (and is rotated: keep the new one).
    const before = await refreshGrant(page, login.refresh_token);
    expect(before.status).toBe(200);
    const held = before.body.refresh_token;
    expect(held).toBeTruthy();

    await page.evaluate(() => localStorage.setItem('edgeport.castingDeviceMessageShown', 'true'));
    const stored = () =>
      page.evaluate(() =>
        ['edgeport.scope', 'edgeport.selectedOrganization', 'edgeport.castingDeviceMessageShown'].map((key) =>
          localStorage.getItem(key),
        ),
      );
    expect((await stored()).every((value) => value !== null)).toBe(true);

    await page.getByTestId('user-menu').click();
    await page.getByTestId('sign-out').click();
    await expect(page).toHaveURL(LOGIN_PAGE);
    await expect(page.locator('#kc-form-login')).toBeVisible();
    // Spec 4: the stored scope, the selected organization and the casting-device message flag are gone.
    expect(await stored()).toEqual([null, null, null]);

    const after = await refreshGrant(page, held ?? '');
    expect(after.status).toBe(400);
    expect(after.body.error).toBe('invalid_grant');
    expect(errors.filter((error) => !isNetworkError(error, [400]))).toEqual([]);
  });
});

test.describe('realm resolution (spec 1)', () => {
  test('the host-name prefix before .app. names the realm', async ({ page }) => {
    await page.goto(`${DEMO}/`);
    await expect(page).toHaveURL(LOGIN_PAGE);
  });

  test('without a prefix the realm cookie names the realm', async ({ page, context }) => {
    await context.addCookies([{ name: 'realm', value: 'demo', domain: 'localhost', path: '/' }]);
    await page.goto(`${bareOrigin()}/`);
    await expect(page).toHaveURL(/\/auth\/realms\/demo\/login-actions\//);
  });

  test('a realm the server does not know is announced, then the browser goes to the base host', async ({
    page,
  }) => {
    const errors = collectConsoleErrors(page);
    const alerts: string[] = [];
    page.on('dialog', (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      void dialog.accept();
    });
    await page.goto(`${realmOrigin('nope')}/`);
    await expect(page).toHaveURL(`${bareOrigin()}/`);
    expect(alerts).toEqual(["alert: Cannot navigate to organization 'nope'."]);
    // The base host names no realm either (no realm cookie): the fatal error.
    await expect(page.getByTestId('fatal-error')).toHaveText(
      'Error initializing. Please check the hostname is correct and retry',
    );
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
