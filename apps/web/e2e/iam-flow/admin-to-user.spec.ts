import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isUmaExchange, submitLogin } from '../support/browser.ts';
import { e2ePort } from '../support/environment.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { type Permission, seedTenant } from '../support/seed.ts';

/** Every action on every resource type: the organization's administrator. */
const EVERYTHING: Permission[] = RESOURCE_TYPES.map((rsname) => ({ rsname, scopes: [...ACTIONS] }));

const ROLE = 'Line viewer';
const GROUP = 'Line 3';
const ROLE_BOXES = ['ACCESS portal', 'READ roles', 'READ users', 'READ organizations'];
const PASSWORD = 'line three viewer';
/** A permission-token round trip (sign-in, entry, reload) on a busy machine. */
const TOKEN_ROUND_TRIP = { timeout: 30_000 };

type Mail = { recipient: string; subject: string; text: string };

/** The newest mail to `recipient` in the test server's outbox (newest first). */
async function newestMail(request: APIRequestContext, recipient: string): Promise<Mail> {
  let mails: Mail[] = [];
  await expect
    .poll(async () => {
      const response = await request.get(
        `http://127.0.0.1:${e2ePort()}/test-support/outbox?recipient=${encodeURIComponent(recipient)}`,
      );
      expect(response.status()).toBe(200);
      mails = (await response.json()) as Mail[];
      return mails.length;
    }, TOKEN_ROUND_TRIP)
    .toBeGreaterThan(0);
  return mails[0] as Mail;
}

function sideMenu(page: Page): Locator {
  return page.getByTestId('side-menu');
}

/** The screens the side menu offers, in order (the menu's `data-screen` marks). */
async function menuScreens(page: Page): Promise<(string | null)[]> {
  return sideMenu(page)
    .locator('section[data-area] [data-screen]')
    .evaluateAll((entries) => entries.map((entry) => entry.getAttribute('data-screen')));
}

async function expectMenuScreens(page: Page, screens: string[]): Promise<void> {
  await expect.poll(() => menuScreens(page), TOKEN_ROUND_TRIP).toEqual(screens);
}

function menuLink(page: Page, name: string): Locator {
  return sideMenu(page).getByRole('link', { name, exact: true });
}

/** A menu entry by screen, linked or not (screens whose pages are not built yet show without a link). */
function menuEntry(page: Page, screen: string): Locator {
  return sideMenu(page).locator(`[data-screen="${screen}"]`);
}

test('an administrator creates a role and a group, invites a user into it; the user sees exactly what the role allows and loses a screen when it changes', async ({
  page,
  request,
  browser,
}) => {
  // Two sign-ins, an invitation e-mail, a password form and a reload with a new permission token.
  test.setTimeout(120_000);
  const adminErrors = collectConsoleErrors(page);
  // IoT and VPN off: the role's READ organizations then opens Organizations and the App store, and nothing IoT-only.
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'plant', name: 'Plant Lyon', iotEnabled: false, vpnEnabled: false }],
    users: [{ key: 'admin', memberships: [{ org: 'plant', permissions: EVERYTHING }] }],
  });
  const invited = `line3-${tenant.realm}@example.test`;

  // --- The administrator builds the role in the permission grid.
  await signInAs(page, tenant, 'admin', '/roles');
  await expectRoute(page, '/roles');
  await expect(page.getByTestId('roles-general')).toBeVisible(TOKEN_ROUND_TRIP);
  // The administrator's own menu has the screens the new user must not get.
  await expect(menuLink(page, 'Audit log')).toBeVisible();
  await expect(menuEntry(page, 'devices').first()).toBeVisible();

  await page.getByRole('link', { name: 'New role' }).click();
  const editor = page.getByTestId('role-editor');
  await editor.getByRole('textbox', { name: /^Name/ }).fill(ROLE);
  for (const box of ROLE_BOXES) {
    await editor.getByRole('checkbox', { name: box, exact: true }).check();
  }
  await editor.getByRole('button', { name: 'Create role' }).click();
  await expect(editor).toHaveCount(0);
  const roles = page.getByRole('table', { name: 'Roles' });
  await expect(roles.getByRole('link', { name: ROLE })).toBeVisible();

  // --- The group, given that role.
  await page.goto(`${tenant.origin}/#/permission/groups`);
  await expect(page.getByTestId('groups-page')).toBeVisible();
  await page.getByRole('button', { name: 'New group' }).click();
  const groupForm = page.getByTestId('group-form');
  await groupForm.getByRole('textbox', { name: /^Name/ }).fill(GROUP);
  await groupForm.getByRole('button', { name: 'Create group' }).click();
  await expect(groupForm).toHaveCount(0);
  await page.getByRole('button', { name: `Open group ${GROUP}` }).click();
  const drawer = page.getByTestId('group-drawer');
  await drawer.getByRole('tab', { name: /^Roles/ }).click();
  await drawer.getByRole('combobox', { name: 'Roles to add' }).click();
  await page.getByRole('option', { name: ROLE, exact: true }).click();
  await drawer.getByRole('button', { name: 'Add roles' }).click();
  await expect(drawer.getByTestId('group-roles')).toContainText(ROLE);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  const groups = page.getByRole('table', { name: 'User groups' });
  await expect(groups.getByRole('row').filter({ hasText: GROUP })).toContainText(ROLE);

  // --- The invitation: into the organization and the group; no role of their own.
  await page.goto(`${tenant.origin}/#/permission`);
  await expect(page.getByTestId('users-page')).toBeVisible();
  await page.getByTestId('invite-user').click();
  const invite = page.getByTestId('invite-form');
  await invite.getByLabel('E-mail').fill(invited);
  await invite.getByLabel('First name').fill('Lina');
  await invite.getByLabel('Last name').fill('Linethree');
  const groupPicker = invite.getByRole('combobox', { name: 'Groups' });
  await groupPicker.click();
  await page.getByRole('option', { name: GROUP, exact: true }).click();
  // A multi-select stays open for further picks and would cover the buttons: leave it as a keyboard user does.
  await groupPicker.press('Tab');
  await expect(page.getByRole('option', { name: GROUP, exact: true })).toBeHidden();
  await invite.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText(`Invitation sent to ${invited}.`)).toBeVisible();
  await expect(invite).toHaveCount(0);

  // The group now counts the new member.
  await page.goto(`${tenant.origin}/#/permission/groups`);
  await expect(groups.getByRole('row').filter({ hasText: GROUP })).toContainText(ROLE);
  await page.getByRole('button', { name: `Open group ${GROUP}` }).click();
  await expect(drawer.getByRole('tab', { name: 'Members (1)' })).toBeVisible();
  await page.keyboard.press('Escape');

  // --- The invited user sets a password from the e-mail's link, in a browser of their own, and signs in.
  const mail = await newestMail(request, invited);
  expect(mail.subject).toBe('You are invited to Plant Lyon on Edgeport');
  const link = /(http\S+action-token\?key=\S+)/.exec(mail.text)?.[1] ?? '';
  expect(link.startsWith(tenant.origin)).toBe(true);

  const context = await browser.newContext();
  try {
    const user = await context.newPage();
    const userErrors = collectConsoleErrors(user);
    await user.goto(link);
    await expect(user.getByRole('heading', { name: 'Update password' })).toBeVisible();
    await user.getByLabel('New password').fill(PASSWORD);
    await user.getByLabel('Confirm password').fill(PASSWORD);
    await user.getByRole('button', { name: 'Submit' }).click();
    await submitLogin(user, { email: invited, password: PASSWORD });

    // Home is the first screen of the home order the role opens: Organizations.
    await expect(user.getByTestId('shell')).toHaveAttribute(
      'data-home-screen',
      'organizations',
      TOKEN_ROUND_TRIP,
    );
    await expectRoute(user, '/organizations');

    // Exactly the screens the role allows: the three administration screens and, from READ organizations, the store.
    await expectMenuScreens(user, ['permission', 'roles', 'organizations', 'store', 'store']);
    for (const name of ['Users and groups', 'Roles', 'Organizations']) {
      await expect(menuLink(user, name)).toBeVisible();
    }
    await expect(menuLink(user, 'Audit log')).toHaveCount(0);
    for (const screen of ['log', 'devices', 'devicegroups', 'walkthrough', 'dealer']) {
      await expect(menuEntry(user, screen)).toHaveCount(0);
    }
    await expect(sideMenu(user).locator('section[data-area="administration"] [data-screen]')).toHaveText([
      'Users and groups',
      'Roles',
      'Organizations',
    ]);

    // The audit log needs ACCESS on audit: opened directly it sends the user home with a notice.
    await user.goto(`${tenant.origin}/#/log`);
    await expect(
      user.getByText('You do not have the permissions to open Audit log in this organization.'),
    ).toBeVisible();
    await expectRoute(user, '/organizations');
    await expect(user.getByTestId('audit-log')).toHaveCount(0);

    // --- The administrator takes READ organizations out of the role.
    await page.goto(`${tenant.origin}/#/roles`);
    await roles.getByRole('link', { name: ROLE }).click();
    const readOrganizations = editor.getByRole('checkbox', { name: 'READ organizations', exact: true });
    await expect(readOrganizations).toBeChecked();
    await readOrganizations.uncheck();
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText(`Role “${ROLE}” saved.`)).toBeVisible();
    await expect(editor).toHaveCount(0);
    await roles.getByRole('link', { name: ROLE }).click();
    await expect(readOrganizations).not.toBeChecked();
    await editor.getByRole('button', { name: 'Cancel' }).click();

    // The web keeps the permission token only in memory (PermissionTokens in src/auth/rpt.ts, held by the page's
    // session in src/auth/session.ts; nothing of it goes to local or session storage). A reload therefore starts a
    // new session that exchanges a new token, computed from the roles as they are now: no sign-out is needed.
    const exchange = user.waitForRequest((candidate) => isUmaExchange(candidate), TOKEN_ROUND_TRIP);
    await user.reload();
    await exchange;
    // /organizations is no longer allowed: the reload lands on the new home, Users and groups.
    await expect(user.getByTestId('shell')).toHaveAttribute(
      'data-home-screen',
      'permission',
      TOKEN_ROUND_TRIP,
    );
    await expectRoute(user, '/permission');
    await expectMenuScreens(user, ['permission', 'roles']);
    await expect(menuEntry(user, 'organizations')).toHaveCount(0);
    await expect(menuLink(user, 'Users and groups')).toBeVisible();
    await expect(menuLink(user, 'Roles')).toBeVisible();

    await user.goto(`${tenant.origin}/#/organizations`);
    await expect(
      user.getByText('You do not have the permissions to open Organizations in this organization.'),
    ).toBeVisible();
    await expectRoute(user, '/permission');
    await expect(user.getByTestId('users-page')).toBeVisible();
    expect(userErrors).toEqual([]);
  } finally {
    await context.close();
  }
  expect(adminErrors).toEqual([]);
});
