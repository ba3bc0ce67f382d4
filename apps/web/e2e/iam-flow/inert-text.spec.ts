import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { expect, type Page, test } from '@playwright/test';
import { collectConsoleErrors, isUmaExchange } from '../support/browser.ts';
import { expectRoute, signInAs } from '../support/portal.ts';
import { organizationOf, seedTenant } from '../support/seed.ts';

/** Markup that would run if any screen put stored text into the page as HTML. */
const PAYLOAD = '<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>';

type Created = { status: number; body: { id?: string } };

/** Calls the core API from inside the page (same origin) with the administrator's permission token. */
async function post(page: Page, token: string, path: string, body: unknown): Promise<Created> {
  return page.evaluate(
    async ({ token, path, body }) => {
      const response = await fetch(`/svc/core/api/v1${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as { id?: string } };
    },
    { token, path, body },
  );
}

async function expectInert(page: Page, text: string): Promise<void> {
  await expect(page.getByText(text).first()).toBeVisible();
  expect(await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
}

test('names stored with markup are shown as text on every administration screen and nothing runs', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const errors = collectConsoleErrors(page);
  const tenant = await seedTenant(request, {
    organizations: [{ key: 'plant', name: 'Plant Lyon', iotEnabled: false, vpnEnabled: false }],
    users: [
      {
        key: 'admin',
        memberships: [
          { org: 'plant', permissions: RESOURCE_TYPES.map((rsname) => ({ rsname, scopes: [...ACTIONS] })) },
        ],
      },
    ],
  });
  const plant = organizationOf(tenant, 'plant');
  const exchange = page.waitForResponse((response) => isUmaExchange(response.request()));
  await signInAs(page, tenant, 'admin', '/permission');
  const token = ((await (await exchange).json()) as { access_token: string }).access_token;

  const names = {
    role: `Role ${PAYLOAD}`,
    group: `Group ${PAYLOAD}`,
    person: `Ada ${PAYLOAD}`,
    policy: `Policy ${PAYLOAD}`,
    child: `Hall ${PAYLOAD}`,
  };
  const org = `/organizations/${plant.id}`;
  const role = await post(page, token, `${org}/roles`, { name: names.role });
  expect(role.status).toBeLessThan(300);
  expect((await post(page, token, `${org}/userGroups`, { name: names.group })).status).toBeLessThan(300);
  const invited = await post(page, token, `${org}/users`, {
    email: `ada-${tenant.realm}@example.test`,
    firstName: names.person,
    roleIds: [role.body.id],
  });
  expect(invited.status).toBeLessThan(300);
  const policy = await post(page, token, `${org}/securityPolicies`, {
    name: names.policy,
    rules: { allowedIpRanges: [], requireTotp: false, maxSessionMinutes: 0 },
  });
  expect(policy.status).toBeLessThan(300);
  expect((await post(page, token, org, { name: names.child })).status).toBeLessThan(300);

  // The new sub-organization gives the admin two: a reload enters the one the address names (spec 4).
  await page.goto(`${tenant.origin}/#/permission?org=${plant.id}`);
  await page.reload();
  await expectRoute(page, '/permission');
  await expectInert(page, names.person);
  await expectInert(page, names.role);

  await page.goto(`${tenant.origin}/#/permission/groups`);
  await expectInert(page, names.group);

  await page.goto(`${tenant.origin}/#/roles`);
  await expectInert(page, names.role);

  await page.goto(`${tenant.origin}/#/organizations`);
  await expectInert(page, names.child);

  await page.goto(`${tenant.origin}/#/log`);
  await expectInert(page, names.policy);
  await expectInert(page, names.group);
  expect(errors).toEqual([]);
});
