import { expect, type Page, test } from '@playwright/test';
import { expectRoute, signInAs } from '../support/portal.ts';
import { PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const PREFIX = 'edgeport.feature.';

function storedFlags(page: Page): Promise<Record<string, string>> {
  return page.evaluate((prefix) => {
    const flags: Record<string, string> = {};
    for (let index = 0; index < localStorage.length; index += 1) {
      const key = localStorage.key(index);
      if (key?.startsWith(prefix)) flags[key.slice(prefix.length)] = localStorage.getItem(key) ?? '';
    }
    return flags;
  }, PREFIX);
}

/** Presses a shortcut that asks for confirmation; answers it and returns the question. */
async function pressConfirmed(page: Page, keys: string, accept: boolean): Promise<string> {
  // The confirmation blocks the page until answered, so the answer must be ready before the key is pressed.
  const asked = new Promise<string>((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(`${dialog.type()}: ${dialog.message()}`);
      void (accept ? dialog.accept() : dialog.dismiss());
    });
  });
  await page.keyboard.press(keys);
  return asked;
}

test.describe('experimental features (spec 2/3)', () => {
  test('Ctrl+Alt+Shift+E enables all, D disables all, each after the confirmation and followed by a reload', async ({
    page,
    request,
  }) => {
    test.setTimeout(60_000);
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    });
    await signInAs(page, tenant, 'user');
    await expectRoute(page, '/directaccess');
    await expect(page.getByTestId('direct-access')).toBeVisible();
    expect(await storedFlags(page)).toEqual({});

    // Declining changes nothing and does not reload.
    let reloaded = false;
    page.once('load', () => {
      reloaded = true;
    });
    expect(await pressConfirmed(page, 'Control+Alt+Shift+KeyE', false)).toBe(
      'confirm: Do you want to enable all experimental feature?',
    );
    expect(await storedFlags(page)).toEqual({});

    const reload = page.waitForEvent('load');
    await pressConfirmed(page, 'Control+Alt+Shift+KeyE', true);
    await reload;
    // The reloaded portal signs in again (a redirect of its own): read the flags once the shell stands.
    await expect(page.getByTestId('shell')).toBeVisible();
    const enabled = await storedFlags(page);
    expect(Object.keys(enabled)).toHaveLength(27);
    expect(new Set(Object.values(enabled))).toEqual(new Set(['true']));

    const reloadAgain = page.waitForEvent('load');
    expect(await pressConfirmed(page, 'Control+Alt+Shift+KeyD', true)).toBe(
      'confirm: Do you want to disable all experimental feature?',
    );
    await reloadAgain;
    await expect(page.getByTestId('shell')).toBeVisible();
    expect(new Set(Object.values(await storedFlags(page)))).toEqual(new Set(['false']));
    expect(reloaded).toBe(true);
  });

  test('Ctrl+Alt+Shift+S opens the selection; saving keeps the choice and reloads', async ({
    page,
    request,
  }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'org', name: 'Works' }],
      users: [{ key: 'user', memberships: [{ org: 'org', permissions: [PORTAL_ACCESS] }] }],
    });
    await signInAs(page, tenant, 'user');
    await expectRoute(page, '/directaccess');
    await expect(page.getByTestId('direct-access')).toBeVisible();
    const modal = page.getByRole('dialog', { name: 'Experimental features' });
    // Opening is idempotent: on a slow machine a press during the first render may be missed, so press until it opens.
    await expect(async () => {
      await page.keyboard.press('Control+Alt+Shift+KeyS');
      await expect(modal).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    // All off by default except dataTable.
    await expect(modal.getByLabel('Data tables')).toBeChecked();
    await expect(modal.getByLabel('High-frequency data')).not.toBeChecked();
    await modal.getByLabel('High-frequency data').check();
    await modal.getByLabel('Data tables').uncheck();
    const reload = page.waitForEvent('load');
    await modal.getByRole('button', { name: 'Save and reload' }).click();
    await reload;
    await expect(page.getByTestId('shell')).toBeVisible();
    const flags = await storedFlags(page);
    expect(flags.highFreq).toBe('true');
    expect(flags.dataTable).toBe('false');
    expect(flags.structs).toBe('false');

    // The user menu opens the same selection.
    await page.getByTestId('user-menu').click();
    await page.getByRole('menuitem', { name: 'Experimental features' }).click();
    await expect(
      page.getByRole('dialog', { name: 'Experimental features' }).getByLabel('High-frequency data'),
    ).toBeChecked();
  });
});
