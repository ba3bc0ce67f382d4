import { expect, test } from '@playwright/test';
import { collectConsoleErrors, loginPage, submitLogin } from '../support/browser.ts';
import { expectRoute, signInAs, signOut } from '../support/portal.ts';
import { PORTAL_ACCESS, seedTenant, userOf } from '../support/seed.ts';

const AGREEMENTS = [
  { type: 'TERM' as const, title: 'Terms of service 2026', version: '3' },
  { type: 'PRIVACY' as const, title: 'Privacy notice', version: '2' },
];

async function seedWithAgreements(request: Parameters<typeof seedTenant>[0]) {
  return seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works' }],
    users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    agreements: AGREEMENTS,
  });
}

test.describe('agreements (spec 4)', () => {
  test('pending agreements are shown first; accepting them returns to where the user was going', async ({
    page,
    request,
  }) => {
    const errors = collectConsoleErrors(page);
    const tenant = await seedWithAgreements(request);
    await signInAs(page, tenant, 'user', '/404');
    await expectRoute(page, '/agreements', { redirectTo: '/404' });
    const cards = page.getByTestId('agreement');
    await expect(cards).toHaveCount(2);
    await expect(cards.filter({ hasText: 'Terms of service 2026' })).toContainText('Terms of use');
    await expect(cards.filter({ hasText: 'Privacy notice' })).toContainText('Privacy policy');

    const accept = page.getByTestId('accept-agreements');
    await expect(accept).toBeDisabled();
    await page.getByLabel('I have read and accept “Terms of service 2026”').check();
    await expect(accept).toBeDisabled();
    await page.getByLabel('I have read and accept “Privacy notice”').check();
    const accepted = page.waitForRequest(
      (r) => r.url().endsWith('/svc/core/api/v1/agreements/accept') && r.method() === 'POST',
    );
    await accept.click();
    expect(JSON.parse((await accepted).postData() ?? '{}').ids).toHaveLength(2);
    await expectRoute(page, '/404');
    await expect(page.getByTestId('not-found')).toBeVisible();

    // Accepted: a new session is not sent to the agreements again.
    await signOut(page);
    await expect(page).toHaveURL(loginPage(tenant.realm));
    await submitLogin(page, userOf(tenant, 'user'));
    await expectRoute(page, '/directaccess');
    expect(errors).toEqual([]);
  });

  test('once per session: leaving the agreements screen is not undone until the next sign-in', async ({
    page,
    request,
  }) => {
    const tenant = await seedWithAgreements(request);
    await signInAs(page, tenant, 'user');
    await expectRoute(page, '/agreements', { redirectTo: '/home' });

    await page.goto(`${tenant.origin}/#/home`);
    await expectRoute(page, '/directaccess');
    await page.reload();
    await expectRoute(page, '/directaccess');

    await signOut(page);
    await expect(page).toHaveURL(loginPage(tenant.realm));
    await submitLogin(page, userOf(tenant, 'user'));
    await expectRoute(page, '/agreements', { redirectTo: '/home' });
  });
});
