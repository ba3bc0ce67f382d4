import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isNetworkError } from '../support/browser.ts';
import { realmOrigin } from '../support/environment.ts';

const DEMO = realmOrigin('demo');

/** Warnings the page logs, as text. */
function collectWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'warning') warnings.push(message.text());
  });
  return warnings;
}

test('the UI font is loaded and worn, without errors or warnings', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  const warnings = collectWarnings(page);
  await page.goto(`${DEMO}/#/login`);
  await expect(page.getByTestId('sign-in')).toBeVisible();
  await expect(page.locator('body')).toHaveCSS('font-family', /^"Inter Variable", /);
  expect(await page.evaluate(`document.fonts.check('16px "Inter Variable"')`)).toBe(true);
  expect(errors).toEqual([]);
  expect(warnings).toEqual([]);
});

test("a font stylesheet that fails leaves the fallback font and logs 'Stylesheet failed to load'", async ({
  page,
}) => {
  const errors = collectConsoleErrors(page);
  const warnings = collectWarnings(page);
  // The font's stylesheet is the one that declares its faces; the app's own stylesheet goes through.
  await page.route(/\.css(\?|$)/, async (route) => {
    // Asked from the test runner, which does not resolve *.localhost as the browser does.
    const url = new URL(route.request().url());
    url.hostname = '127.0.0.1';
    const response = await route.fetch({ url: url.href });
    const body = await response.text();
    if (body.includes('Inter Variable')) return route.fulfill({ status: 503, body: '' });
    return route.fulfill({ response, body });
  });
  await page.goto(`${DEMO}/#/login`);
  await expect(page.getByTestId('sign-in')).toBeVisible();
  await expect.poll(() => warnings.join('\n')).toContain('Stylesheet failed to load');
  await expect(page.locator('body')).toHaveCSS('font-family', /^system-ui, /);
  expect(errors.filter((error) => !isNetworkError(error, [503]))).toEqual([]);
});
