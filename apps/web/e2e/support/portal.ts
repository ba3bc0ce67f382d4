import { expect, type Locator, type Page } from '@playwright/test';
import { loginPage, submitLogin } from './browser.ts';
import { type Tenant, userOf } from './seed.ts';

/** Opens `route` (a hash route) on the tenant's host, signs `userKey` in and waits until the portal shows a page. */
export async function signInAs(page: Page, tenant: Tenant, userKey: string, route = '/'): Promise<void> {
  await page.goto(`${tenant.origin}/#${route}`);
  await expect(page).toHaveURL(loginPage(tenant.realm));
  await submitLogin(page, userOf(tenant, userKey));
  await expect(page).not.toHaveURL(loginPage(tenant.realm));
  await throttleWhenAsked(page);
}

/**
 * `E2E_CPU_THROTTLE=4` slows Chromium's CPU that many times for the page once signed in: races that a busy CI machine
 * shows once in many runs (a deferred render arriving late) then show every time. Not set in `npm test`.
 */
async function throttleWhenAsked(page: Page): Promise<void> {
  const rate = Number(process.env.E2E_CPU_THROTTLE ?? 1);
  if (rate <= 1) return;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate });
}

/** The hash route the page is on, without the query (`#/home?x` -> `/home`). */
export function routePath(page: Page): string {
  return new URL(page.url()).hash.replace(/^#/, '').split('?')[0] ?? '';
}

/** Waits until the hash route is `path` (query ignored unless `search` is given). */
export async function expectRoute(page: Page, path: string, search?: Record<string, string>): Promise<void> {
  await expect.poll(() => routePath(page)).toBe(path);
  if (search) {
    const query = new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
    expect(Object.fromEntries(query)).toEqual(search);
  }
}

export async function openUserMenu(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await expect(page.getByTestId('sign-out')).toBeVisible();
}

export async function signOut(page: Page): Promise<void> {
  await openUserMenu(page);
  await page.getByTestId('sign-out').click();
}

/** The message (a Mantine notification) with `text` is shown wholly below `target`, so it cannot cover it. */
export async function expectMessageBelow(page: Page, text: string, target: Locator): Promise<void> {
  const message = await page.locator('.mantine-Notification-root', { hasText: text }).boundingBox();
  const box = await target.boundingBox();
  expect(message && box && message.y > box.y + box.height).toBe(true);
}
