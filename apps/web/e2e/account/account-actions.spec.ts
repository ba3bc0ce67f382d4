import { expect, test } from '@playwright/test';
import { loginPage, submitLogin } from '../support/browser.ts';
import { expectRoute, openUserMenu, signInAs, signOut } from '../support/portal.ts';
import { PORTAL_ACCESS, seedTenant, userOf } from '../support/seed.ts';

test.describe('account actions through the identity server', () => {
  test('change password (kc_action=UPDATE_PASSWORD) returns to the portal; the new password signs in', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    });
    await signInAs(page, tenant, 'user', '/404');
    await expect(page.getByTestId('not-found')).toBeVisible();

    const authorize = page.waitForRequest((r) => r.url().includes('/protocol/openid-connect/auth?'));
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Change password' }).click();
    expect(new URL((await authorize).url()).searchParams.get('kc_action')).toBe('UPDATE_PASSWORD');
    await expect(page.locator('#kc-passwd-update-form')).toBeVisible();
    await page.locator('#password-new').fill('a brand new secret');
    await page.locator('#password-confirm').fill('a brand new secret');
    await page.locator('#kc-passwd-update-form button[type="submit"]').click();
    // Back where the user was.
    await expectRoute(page, '/404');
    await expect(page.getByTestId('not-found')).toBeVisible();

    await signOut(page);
    await expect(page).toHaveURL(loginPage(tenant.realm));
    await submitLogin(page, { email: userOf(tenant, 'user').email, password: 'a brand new secret' });
    await expectRoute(page, '/directaccess');
  });

  test('set up two-factor authentication opens the identity server with kc_action=CONFIGURE_TOTP', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    });
    await signInAs(page, tenant, 'user');
    await expectRoute(page, '/directaccess');
    const authorize = page.waitForRequest((r) => r.url().includes('/protocol/openid-connect/auth?'));
    await openUserMenu(page);
    await page.getByRole('menuitem', { name: 'Set up two-factor authentication' }).click();
    expect(new URL((await authorize).url()).searchParams.get('kc_action')).toBe('CONFIGURE_TOTP');
    await expect(page.locator('#kc-totp-settings-form')).toBeVisible();
    await expect(page.locator('#kc-totp-secret-key')).not.toBeEmpty();
  });
});
