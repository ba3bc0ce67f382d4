import { expect, test } from '@playwright/test';
import { collectConsoleErrors } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const ADMIN: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'roles', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  { rsname: 'usergroups', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  { rsname: 'users', scopes: ['READ'] },
];

test('an administrator builds a role in the grid, gives it to a new group, and the group screens show it', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works' }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: ADMIN }] }],
  });
  await signInAs(page, tenant, 'admin', '/roles');
  await expectRoute(page, '/roles');
  await expect(page.getByTestId('roles-general')).toBeVisible();

  // The role, in the grid of actions x resource types.
  await page.getByRole('link', { name: 'New role' }).click();
  const editor = page.getByTestId('role-editor');
  await editor.getByRole('textbox', { name: /^Name/ }).fill('Auditor');
  for (const box of ['ACCESS portal', 'READ roles', 'READ users']) {
    await editor.getByRole('checkbox', { name: box, exact: true }).check();
  }
  const conditions = editor.getByRole('textbox', { name: 'Conditions for users' });
  await conditions.fill('{oops');
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor.getByText('The conditions for users are no valid JSON.')).toBeVisible();
  await conditions.fill('');
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor).toHaveCount(0);
  const roles = page.getByRole('table', { name: 'Roles' });
  await expect(roles.getByRole('link', { name: 'Auditor' })).toBeVisible();

  // Reopening shows what was saved.
  await roles.getByRole('link', { name: 'Auditor' }).click();
  await expect(
    page.getByTestId('role-editor').getByRole('checkbox', { name: 'READ users', exact: true }),
  ).toBeChecked();
  await expect(
    page.getByTestId('role-editor').getByRole('checkbox', { name: 'DELETE users', exact: true }),
  ).not.toBeChecked();
  await page.getByRole('button', { name: 'Cancel' }).click();

  // The group, and the role given to it.
  await page.goto(`${tenant.origin}/#/permission/groups`);
  await expect(page.getByRole('tab', { name: 'Groups' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('button', { name: 'New group' }).click();
  const form = page.getByTestId('group-form');
  await form.getByRole('textbox', { name: /^Name/ }).fill('Inspectors');
  await form.getByRole('button', { name: 'Create group' }).click();
  await page.getByRole('button', { name: 'Open group Inspectors' }).click();
  const drawer = page.getByTestId('group-drawer');
  await drawer.getByRole('tab', { name: /^Roles/ }).click();
  await expect(drawer.getByTestId('group-roles-empty')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Roles to add' }).click();
  await page.getByRole('option', { name: 'Auditor' }).click();
  await drawer.getByRole('button', { name: 'Add roles' }).click();
  await expect(drawer.getByTestId('group-roles')).toContainText('Auditor');
  await expect(drawer.getByRole('tab', { name: 'Roles (1)' })).toBeVisible();
  await page.keyboard.press('Escape');
  // The drawer closes with an animation; its own "Roles (1)" tab must be gone before the page's "Roles" tab is used.
  await expect(drawer).toBeHidden();

  const groups = page.getByRole('table', { name: 'User groups' });
  await expect(groups.locator('tr', { hasText: 'Inspectors' })).toContainText('Auditor');

  // The roles tab of /permission counts the group, and deleting the role in use says why it cannot.
  await page.getByRole('tab', { name: 'Roles', exact: true }).click();
  await expectRoute(page, '/permission/roles');
  const row = page.getByRole('table', { name: 'Roles' }).locator('tr', { hasText: 'Auditor' });
  await expect(row).toContainText('used by 1 group and 0 users');
  await row.getByRole('button', { name: 'Delete role Auditor' }).click();
  await expect(page.getByTestId('role-in-use')).toContainText('used by 1 group and 0 users');
  expect(errors).toEqual([]);
});
