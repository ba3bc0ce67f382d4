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
