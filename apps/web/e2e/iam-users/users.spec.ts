import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, submitLogin } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const ADMIN: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'users', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  { rsname: 'usergroups', scopes: ['READ'] },
  { rsname: 'roles', scopes: ['READ'] },
  { rsname: 'organizations', scopes: ['READ'] },
];
const READER: Permission[] = [PORTAL_ACCESS, { rsname: 'users', scopes: ['READ'] }];

type Mail = { subject: string; text: string };

/** The newest mail to `recipient`, read from the test server's outbox. */
async function newestMail(request: APIRequestContext, recipient: string): Promise<Mail> {
  let mails: Mail[] = [];
  await expect
    .poll(async () => {
      const response = await request.get(
        `http://127.0.0.1:${e2ePort()}/test-support/outbox?recipient=${encodeURIComponent(recipient)}`,
      );
      mails = (await response.json()) as Mail[];
      return mails.length;
    })
    .toBeGreaterThan(0);
  return mails[0] as Mail;
}

function row(page: Page, email: string) {
  return page
    .getByRole('table', { name: 'Users of the organization' })
    .getByRole('row')
    .filter({ hasText: email });
}

test('an administrator invites a user, who sets a password from the e-mail and signs in; then edits, disables and removes them', async ({
  page,
  request,
  browser,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works' }],
    users: [
      { key: 'admin', memberships: [{ org: 'org', permissions: ADMIN }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
    ],
  });
  const invited = `invited-${tenant.realm}@example.test`;

  await signInAs(page, tenant, 'admin', '/permission');
  await expect(page.getByTestId('users-page')).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Users' })).toBeVisible();
  await expect(row(page, tenant.users.admin?.email ?? '')).toBeVisible();

  // Invite with a role of the organization (the reader's: portal access and READ users).
  await page.getByTestId('invite-user').click();
  const form = page.getByTestId('invite-form');
  await form.getByLabel('E-mail').fill('not an address');
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(form.getByText('Enter a valid e-mail address')).toBeVisible();
  await form.getByLabel('E-mail').fill(invited);
  await form.getByLabel('First name').fill('Ivy');
  await form.getByLabel('Last name').fill('Invitee');
  await form.getByRole('combobox', { name: 'Roles' }).click();
  await page.getByRole('option', { name: 'reader in org' }).click();
  await form.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${invited}.`)).toBeVisible();
  await expect(row(page, invited)).toContainText('Invited');
  await expect(row(page, invited)).toContainText('reader in org');

  // The invitation's link sets a password; the new user then signs in and sees the list, without "Invite user".
  const mail = await newestMail(request, invited);
  expect(mail.subject).toBe('You are invited to Works on Edgeport');
  const link = /(http\S+action-token\?key=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link).toContain(tenant.origin);
  const context = await browser.newContext();
  const invitee = await context.newPage();
  await invitee.goto(link);
  await expect(invitee.getByRole('heading', { name: 'Update password' })).toBeVisible();
  await invitee.getByLabel('New password').fill('ivy chose this');
  await invitee.getByLabel('Confirm password').fill('ivy chose this');
  await invitee.getByRole('button', { name: 'Submit' }).click();
  await submitLogin(invitee, { email: invited, password: 'ivy chose this' });
  await expectRoute(invitee, '/permission');
  await expect(invitee.getByTestId('users-page')).toBeVisible();
  await expect(row(invitee, invited)).toBeVisible();
  await expect(invitee.getByTestId('invite-user')).toHaveCount(0);
  await expect(invitee.getByRole('button', { name: `Remove ${tenant.users.admin?.email}` })).toHaveCount(0);
  // The link works once.
  await invitee.goto(link);
  await expect(invitee.locator('#kc-error-message')).toContainText('invalid');
  await context.close();

  // Edit the name in the drawer.
  await page.reload();
  await expect(row(page, invited)).not.toContainText('Invited');
  await page.getByRole('button', { name: `Edit ${invited}` }).click();
  const drawer = page.getByTestId('user-details-form');
  await drawer.getByLabel('First name').fill('Ivana');
  await drawer.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`Changes to ${invited} saved.`)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(row(page, invited)).toContainText('Ivana');

  // Disable (with confirmation), then remove (with confirmation).
  await page.getByRole('button', { name: `Disable ${invited}` }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
  await expect(row(page, invited)).toContainText('Disabled');
  await page.getByRole('button', { name: `Remove ${invited}` }).click();
  await expect(page.getByRole('dialog')).toContainText(`Remove ${invited} from Works?`);
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText(`${invited} was removed.`)).toBeVisible();
  await expect(row(page, invited)).toHaveCount(0);
  // Nobody removes or disables themselves.
  await expect(page.getByRole('button', { name: `Remove ${tenant.users.admin?.email}` })).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a user with only READ on users sees the list but no way to invite, change or remove', async ({
  page,
  request,
}) => {
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'org', name: 'Works' }],
    users: [
      { key: 'reader', memberships: [{ org: 'org', permissions: READER }] },
      { key: 'other', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] },
    ],
  });
  await signInAs(page, tenant, 'reader', '/permission');
  await expect(row(page, tenant.users.other?.email ?? '')).toBeVisible();
  await expect(page.getByTestId('invite-user')).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Disable ${tenant.users.other?.email}` })).toHaveCount(0);
  await expect(page.getByRole('button', { name: `Remove ${tenant.users.other?.email}` })).toHaveCount(0);
  await page.getByRole('button', { name: `View ${tenant.users.other?.email}` }).click();
  await expect(page.getByTestId('user-details-form').getByLabel('E-mail')).toBeDisabled();
  expect(errors).toEqual([]);
});
