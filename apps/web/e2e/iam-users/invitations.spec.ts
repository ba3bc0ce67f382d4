import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const ADMIN: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'users', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  { rsname: 'usergroups', scopes: ['READ'] },
  { rsname: 'roles', scopes: ['READ'] },
  { rsname: 'organizations', scopes: ['READ'] },
];

test("an administrator invites another organization's user, who accepts in the selector and enters; the account stays its owner's", async ({
  page,
  request,
  browser,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [
      { key: 'alpha', name: 'Alpha Works' },
      { key: 'beta', name: 'Beta Works' },
    ],
    users: [
      { key: 'adminB', memberships: [{ org: 'beta', permissions: ADMIN }] },
      { key: 'ada', memberships: [{ org: 'alpha', permissions: [PORTAL_ACCESS] }] },
    ],
  });
  const ada = tenant.users.ada?.email ?? '';
  const usersTable = page.getByRole('table', { name: 'Users of the organization' });

  // B's administrator adds Ada, who has an account of Alpha Works: she is only invited, not a member.
  await signInAs(page, tenant, 'adminB', '/permission');
  await expect(page.getByTestId('users-page')).toBeVisible();
  await page.getByTestId('invite-user').click();
  const form = page.getByTestId('invite-form');
  await form.getByLabel('E-mail').fill(ada);
  await form.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'adminB in beta' }).click();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(
    page.getByText(`${ada} already has an account: they are invited and become a member when they accept.`),
  ).toBeVisible();
  const pending = page.getByTestId('pending-invitation').filter({ hasText: ada });
  await expect(pending).toContainText('Invitation pending');
  await expect(pending).toContainText('adminB in beta');
  await expect(usersTable.getByRole('row').filter({ hasText: ada })).toHaveCount(0);

  // Ada signs in (she enters Alpha Works, her only organization), opens the selector and accepts with the keyboard.
  const adaContext = await browser.newContext();
  const adaPage = await adaContext.newPage();
  const adaErrors = collectConsoleErrors(adaPage);
  await signInAs(adaPage, tenant, 'ada');
  await expect(adaPage.getByTestId('organization-switcher')).toHaveText('Alpha Works');
  await adaPage.goto(`${tenant.origin}/#/organization`);
  const invitations = adaPage.getByRole('region', { name: 'Invitations' });
  await expect(invitations.getByTestId('my-invitation')).toContainText('Beta Works');
  await expect(adaPage.getByTestId('organization').filter({ hasText: 'Beta Works' })).toHaveCount(0);
  const accept = invitations.getByRole('button', { name: 'Accept the invitation of Beta Works' });
  await accept.focus();
  await adaPage.keyboard.press('Enter');
  await expect(adaPage.getByText('You are now a member of Beta Works.', { exact: false })).toBeVisible();
  await expect(invitations).toHaveCount(0);

  // Beta Works is now in her list; she enters it.
  await adaPage.getByTestId('organization').filter({ hasText: 'Beta Works' }).click();
  await expect(adaPage).not.toHaveURL(/#\/organization(\?|$)/);
  await expect(adaPage.getByTestId('organization-switcher')).toHaveText('Beta Works');

  // B's administrator sees her as a member now, but her account stays hers: its details are read-only here.
  await page.reload();
  await expect(page.getByTestId('pending-invitation')).toHaveCount(0);
  const adaRow = usersTable.getByRole('row').filter({ hasText: ada });
  await expect(adaRow).toBeVisible();
  await expect(adaRow.getByRole('button', { name: `Disable ${ada}` })).toHaveCount(0);
  await adaRow.getByRole('button', { name: `Edit ${ada}` }).click();
  await expect(page.getByTestId('account-not-managed')).toContainText('also belongs to another organization');
  await expect(page.getByTestId('user-details-form').getByLabel('E-mail')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Send password-change e-mail' })).toHaveCount(0);
  await page.getByTestId('user-drawer').getByRole('tab', { name: 'Security policies' }).click();
  await expect(page.getByTestId('policies-not-managed')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Add security policy groups' })).toHaveCount(0);

  expect(errors).toEqual([]);
  expect(adaErrors).toEqual([]);
  await adaContext.close();
});
