import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { REPO_ROOT } from '../support/environment.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { organizationOf, PORTAL_ACCESS, seedTenant, type Tenant } from '../support/seed.ts';

type Translations = { [key: string]: string | Translations };

const LOCALES = { 'en-US': 'en', 'de-DE': 'de', 'es-ES': 'es', 'fr-FR': 'fr', 'it-IT': 'it' } as const;
type Locale = keyof typeof LOCALES;

function translations(file: string): Map<string, string> {
  const json = JSON.parse(
    readFileSync(path.join(REPO_ROOT, 'apps/web/src/locales', `${file}.json`), 'utf8'),
  ) as Translations;
  const flat = new Map<string, string>();
  const walk = (node: Translations, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === 'string') flat.set(`${prefix}${key}`, value);
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(json, '');
  return flat;
}

const ENGLISH = translations('en');

/**
 * The English texts that must not show in `locale`: every English value (split around its placeholders) whose key
 * the locale translates differently. Words the locale keeps as they are in English (IoT, VPN, Dashboards) pass.
 */
function englishLeaks(locale: Locale, pageText: string): string[] {
  const target = translations(LOCALES[locale]);
  const leaks: string[] = [];
  for (const [key, english] of ENGLISH) {
    const localized = target.get(key) ?? target.get(key.replace(/_(one|other)$/, '_other'));
    if (localized === english) continue;
    for (const fragment of english.split(/\{\{[^}]+\}\}/)) {
      const text = fragment.trim().replace(/^[,.:;]\s*/, '');
      // A word the translation itself keeps (German "Version") is no leak.
      if (localized?.includes(text)) continue;
      if (text.length >= 5 && /[a-z]{3}/i.test(text) && pageText.includes(text))
        leaks.push(`${key}: "${text}"`);
    }
  }
  return leaks;
}

/** What the user sees (rendered text), not the DOM's hidden text. */
function visibleText(page: Page): Promise<string> {
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point (hidden text is no leak).
  return page.locator('body').innerText();
}

async function seedWalk(request: Parameters<typeof seedTenant>[0]): Promise<Tenant> {
  const all = (rsname: string) => ({ rsname, scopes: ['READ', 'CREATE', 'UPDATE', 'ACCESS'] });
  const everything = [
    PORTAL_ACCESS,
    ...[
      'models',
      'dashboards',
      'devices',
      'devicegroups',
      'roles',
      'users',
      'organizations',
      'notifications',
    ].map(all),
    { rsname: 'products', scopes: ['CREATE'] },
    { rsname: 'audit', scopes: ['ACCESS'] },
  ];
  return seedTenant(request, {
    organizations: [
      { key: 'iot', name: 'Works North', iotEnabled: true, vpnEnabled: true },
      { key: 'vpn', name: 'Works South', vpnEnabled: true },
    ],
    users: [
      {
        key: 'user',
        memberships: [
          { org: 'iot', permissions: everything },
          { org: 'vpn', permissions: [PORTAL_ACCESS] },
        ],
      },
    ],
    agreements: [{ type: 'TERM', title: 'Rules', version: '1' }],
    statusIssues: [{ type: 'maintenance', status: 'planned', title: 'Upgrade' }],
  });
}

test.describe('languages (spec 1/9)', () => {
  test('the shell in all five languages shows no English text', async ({ page, request, context }) => {
    test.setTimeout(90_000);
    const errors = collectConsoleErrors(page);
    const tenant = await seedWalk(request);
    const iot = organizationOf(tenant, 'iot');
    await signInAs(page, tenant, 'user');

    for (const locale of Object.keys(LOCALES) as Locale[]) {
      await context.addCookies([{ name: 'locale', value: locale, url: tenant.origin }]);
      // A fresh page load in this language, starting on the (still pending) agreements.
      // (A query makes it a new document rather than a hash change.)
      await page.goto(`${tenant.origin}/?walk=${locale}#/agreements?redirectTo=%2Fhome`);
      await expectRoute(page, '/agreements');
      await expect(page.getByTestId('agreement')).toBeVisible();
      await expect(page.getByTestId('status-notice')).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', locale);
      const agreementsText = await visibleText(page);

      await page.goto(`${tenant.origin}/#/organization?redirectTo=/home`);
      await expect(page.getByTestId('organization')).toHaveCount(2);
      const selectorText = await visibleText(page);

      // Home of this user (everything, IoT on) is the dashboards list (spec 2 home order).
      await page.locator(`[data-testid="organization"][data-organization-id="${iot.id}"]`).click();
      await expect(page.getByTestId('flows-page')).toBeVisible();
      await page.getByTestId('user-menu').click();
      await expect(page.getByTestId('sign-out')).toBeVisible();
      const shellText = await visibleText(page);
      await page.keyboard.press('Escape');

      await page.getByTestId('organization-switcher').click();
      await expect(page.getByRole('menuitem').first()).toBeVisible();
      const switcherText = await visibleText(page);
      await page.keyboard.press('Escape');

      await page.goto(`${tenant.origin}/#/no-such-page`);
      await expect(page.getByTestId('not-found')).toBeVisible();
      const notFoundText = await visibleText(page);

      const walked = [agreementsText, selectorText, shellText, switcherText, notFoundText].join('\n');
      if (locale === 'en-US') expect(walked).toContain('Sign out');
      else expect(englishLeaks(locale, walked), `English text in ${locale}`).toEqual([]);
    }
    expect(errors).toEqual([]);
  });

  test('choosing a language switches at once, sets the locale cookie on the parent domain and saves the preference', async ({
    page,
    request,
    browser,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    });
    // First visit without a locale cookie: the current locale is saved as the preference.
    const saved = page.waitForRequest(
      (r) => r.url().endsWith('/svc/core/api/v1/userPreferences') && r.method() === 'POST',
    );
    await signInAs(page, tenant, 'user');
    expect(JSON.parse((await saved).postData() ?? '{}')).toEqual({
      serviceName: 'portal',
      property: 'locale',
      value1: 'en-US',
    });
    await expectRoute(page, '/directaccess');

    const changed = page.waitForRequest(
      (r) => r.url().includes('/properties/locale') && r.method() === 'PUT',
    );
    await page.getByTestId('language-picker').click();
    await page.getByRole('menuitem', { name: 'Deutsch' }).click();
    await expect(page.getByTestId('direct-access')).toContainText('Keine Produktseite verfügbar');
    expect(JSON.parse((await changed).postData() ?? '{}')).toEqual({ value1: 'de-DE' });
    const cookie = (await page.context().cookies()).find((candidate) => candidate.name === 'locale');
    expect(cookie?.value).toBe('de-DE');
    expect(cookie?.domain).toBe('.app.localhost');

    // Another browser without the cookie: the saved preference decides.
    const other = await browser.newContext();
    const fresh = await other.newPage();
    await signInAs(fresh, tenant, 'user');
    await expect(fresh.getByTestId('direct-access')).toContainText('Keine Produktseite verfügbar');
    await other.close();
  });
});
