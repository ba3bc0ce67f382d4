import { expect, type Page } from '@playwright/test';
import type { DemoLogin } from './environment.ts';

/** Network failures the browser reports for responses with these statuses (expected in negative tests). */
export function isNetworkError(text: string, statuses: number[]): boolean {
  return statuses.some((status) =>
    text.includes(`Failed to load resource: the server responded with a status of ${status}`),
  );
}

/** Every console error and uncaught exception of the page, as text. */
export function collectConsoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  return errors;
}

export const TOKEN_PATH = '/protocol/openid-connect/token';

/** Fills the server-rendered login form (Keycloak's ids) and submits it. */
export async function submitLogin(page: Page, login: Pick<DemoLogin, 'email' | 'password'>) {
  await expect(page.locator('#kc-form-login')).toBeVisible();
  await page.locator('#username').fill(login.email);
  await page.locator('#password').fill(login.password);
  await page.locator('#kc-login').click();
}

export const UMA_GRANT = 'urn:ietf:params:oauth:grant-type:uma-ticket';

/** The login page of a realm (the identity server's form). */
export function loginPage(realm: string): RegExp {
  return new RegExp(`/auth/realms/${realm}/login-actions/`);
}

/** Opens `url` (which needs sign-in), fills the realm's login form and waits for the portal to answer. */
export async function signIn(
  page: Page,
  url: string,
  login: Pick<DemoLogin, 'email' | 'password'>,
  realm: string,
): Promise<void> {
  await page.goto(url);
  await expect(page).toHaveURL(loginPage(realm));
  await submitLogin(page, login);
  await expect(page).not.toHaveURL(loginPage(realm));
}

/** A token-endpoint POST with the UMA grant (a permission-token exchange). */
export function isUmaExchange(request: {
  url(): string;
  method(): string;
  postData(): string | null;
}): boolean {
  return (
    request.url().endsWith(TOKEN_PATH) &&
    request.method() === 'POST' &&
    new URLSearchParams(request.postData() ?? '').get('grant_type') === UMA_GRANT
  );
}
