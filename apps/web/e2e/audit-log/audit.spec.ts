import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isUmaExchange } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { organizationOf, PORTAL_ACCESS, seedTenant } from '../support/seed.ts';

const XSS_NAME = '<img src=x onerror="window.__xss=1">';

/** Renames the organization through the core API, from inside the page (same origin, the user's own token). */
async function renameOrganization(page: Page, orgId: string, token: string, name: string): Promise<number> {
  return page.evaluate(
    async ({ orgId, token, name }) => {
      const response = await fetch(`/svc/core/api/v1/organizations/${orgId}`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name }),
      });
      return response.status;
    },
    { orgId, token, name },
  );
}

test.describe('audit log (/log)', () => {
  test('shows audited changes, filters them, opens details and exports CSV; names stay text', async ({
    page,
    request,
  }) => {
    // Sign-in, two reloads and a download: longer than the default budget on a busy machine.
    test.setTimeout(60_000);
    const errors = collectConsoleErrors(page);
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'plant', name: 'Plant Lyon' }],
      users: [
        {
          key: 'admin',
          memberships: [
            {
              org: 'plant',
              permissions: [
                PORTAL_ACCESS,
                { rsname: 'audit', scopes: ['ACCESS'] },
                { rsname: 'roles', scopes: ['READ'] },
                { rsname: 'organizations', scopes: ['READ', 'UPDATE'] },
                { rsname: 'users', scopes: ['READ'] },
              ],
            },
          ],
        },
      ],
    });
    const plant = organizationOf(tenant, 'plant');
    const exchange = page.waitForResponse((response) => isUmaExchange(response.request()));
    await signInAs(page, tenant, 'admin', '/log');
    const rpt = ((await (await exchange).json()) as { access_token: string }).access_token;
    await expectRoute(page, '/log');

    // Nothing has happened yet: the empty state says what will appear.
    const log = page.getByTestId('audit-log');
    await expect(log.getByTestId('table-empty')).toContainText(
      'Changes made in this organization appear here.',
    );

    expect(await renameOrganization(page, plant.id, rpt, 'Plant Lyon North')).toBe(200);
    expect(await renameOrganization(page, plant.id, rpt, XSS_NAME)).toBe(200);
    await page.reload();

    const table = page.getByRole('table', { name: 'Audit log entries' });
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(2);
    // Newest first; the stored name is shown literally, as text.
    await expect(rows.nth(0).getByTestId('entry-resource-name')).toHaveText(XSS_NAME);
    await expect(rows.nth(1).getByTestId('entry-resource-name')).toHaveText('Plant Lyon North');
    await expect(rows.nth(1)).toContainText('organizations.update');
    await expect(rows.nth(1)).toContainText(tenant.users.admin?.email ?? 'missing');
    expect(await page.locator('img[src="x"]').count()).toBe(0);

    // Filter by what: the choice goes into the address so the view can be shared.
    await page.getByRole('combobox', { name: 'What' }).click();
    await page.getByRole('option', { name: 'organizations.update', exact: true }).click();
    await expect.poll(() => new URL(page.url()).hash).toContain('what=organizations.update');
    await expect(rows).toHaveCount(2);
    // A who that matches nobody empties the list with the filtered empty state.
    await page.getByRole('textbox', { name: 'Who' }).fill('nobody@');
    await expect(log.getByTestId('table-empty')).toContainText('No entries match these filters');
    await page.getByRole('textbox', { name: 'Who' }).fill('admin@');
    await expect(rows).toHaveCount(2);
    // The shared link opens the same view.
    await page.reload();
    await expect(page.getByRole('textbox', { name: 'Who' })).toHaveValue('admin@');
    await expect(rows).toHaveCount(2);

    // Details: the recorded change as JSON text.
    await rows.nth(1).getByRole('button', { name: 'Show details of organizations.update' }).click();
    const details = page.getByTestId('entry-details');
    await expect(details).toBeVisible();
    const json = details.getByTestId('entry-detail-json');
    await expect(json).toContainText('"name": "Plant Lyon North"');
    await expect(json).toContainText('"before"');
    await page.keyboard.press('Escape');
    await expect(details).toBeHidden();

    await rows.nth(0).getByRole('button', { name: 'Show details of organizations.update' }).click();
    await expect(page.getByTestId('entry-detail-json')).toContainText('window.__xss=1');
    await page.keyboard.press('Escape');

    // Export CSV with the current filters; progress shows while the answer is on its way.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(
      (url) => url.pathname.endsWith('/entries.csv'),
      async (route) => {
        await held;
        await route.continue();
      },
    );
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expect(page.getByTestId('export-progress')).toContainText('Downloading');
    release();
    const file = await download;
    await expect(page.getByTestId('export-progress')).toHaveCount(0);
    expect(file.suggestedFilename()).toMatch(
      new RegExp(`^audit-${plant.resourceId}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
    );
    const csv = await readFile((await file.path()) ?? '', 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('at,actorEmail,actorId,action,resourceType,resourceId,resourceName,detail');
    expect(lines).toHaveLength(3);
    expect(csv).toContain(`organizations.update,organizations,${plant.id},Plant Lyon North,`);
    await expect(page.getByText(/CSV saved/)).toBeVisible();

    expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();
    expect(errors).toEqual([]);
  });

  test('a user without ACCESS on audit does not get the screen', async ({ page, request }) => {
    const tenant = await seedTenant(request, {
      organizations: [{ key: 'plant', name: 'Plant Lyon' }],
      users: [
        {
          key: 'reader',
          memberships: [
            { org: 'plant', permissions: [PORTAL_ACCESS, { rsname: 'roles', scopes: ['READ'] }] },
          ],
        },
      ],
    });
    await signInAs(page, tenant, 'reader', '/log');
    await expect(page.getByTestId('shell')).toBeVisible();
    await expect(page.getByTestId('audit-log')).toHaveCount(0);
    await expect.poll(() => new URL(page.url()).hash).not.toMatch(/^#\/log/);
  });
});
