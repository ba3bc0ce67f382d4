import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { dashboardUserPreferences } from '../../../db/schema.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const token: Record<string, string> = {};
const ids: Record<string, string> = {};

const API = '/svc/dashboard/api/v1';
const PREFS = `${API}/userPreferences`;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { orgA, orgB } = tenants;
  token.adminA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  token.adminB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  for (const name of ['bob', 'dave']) {
    const created = await userWithRole(server, 'acme', orgA.id, `${name}@acme-a.test`, [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'dashboards', scopes: ['READ'] },
    ]);
    ids[name] = created.id;
    token[name] = (await rptFor(server, 'acme', created.email, orgA.resourceId)).rpt;
  }
  ids.dashboard = (await call('POST', `${API}/dashboards`, token.adminA, { name: 'Board' })).json().id;
  ids.flow = (await call('POST', `${API}/flows`, token.adminA, { name: 'Flow' })).json().id;
  const shared = await call('POST', `${API}/dashboards/${ids.dashboard}/readers/${ids.bob}`, token.adminA);
  expect(shared.statusCode).toBe(200);
});
afterAll(() => server.close());

describe('dashboard user preferences', () => {
  it("saves, replaces, lists and deletes the caller's own preferences", async () => {
    const saved = await call('PUT', PREFS, token.bob, {
      dashboardId: ids.dashboard,
      key: 'page',
      value: { pageId: 'p2', zoom: 1.5 },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      dashboardId: ids.dashboard,
      key: 'page',
      value: { pageId: 'p2', zoom: 1.5 },
    });
    await call('PUT', PREFS, token.bob, { dashboardId: ids.dashboard, key: 'page', value: { pageId: 'p3' } });
    await call('PUT', PREFS, token.bob, { dashboardId: ids.dashboard, key: 'theme', value: 'dark' });
    await call('PUT', PREFS, token.adminA, { dashboardId: ids.dashboard, key: 'page', value: 'admin' });

    const list = await call('GET', `${PREFS}?dashboardId=${ids.dashboard}`, token.bob);
    expect(list.statusCode).toBe(200);
    expect(list.json().map((p: { key: string; value: unknown }) => [p.key, p.value])).toEqual([
      ['page', { pageId: 'p3' }],
      ['theme', 'dark'],
    ]);
    const one = await call('GET', `${PREFS}?dashboardId=${ids.dashboard}&key=theme`, token.bob);
    expect(one.json()).toHaveLength(1);

    expect(
      (await call('DELETE', `${PREFS}?dashboardId=${ids.dashboard}&key=theme`, token.bob)).statusCode,
    ).toBe(204);
    expect((await call('GET', `${PREFS}?dashboardId=${ids.dashboard}`, token.bob)).json()).toHaveLength(1);
    expect((await call('DELETE', `${PREFS}?dashboardId=${ids.dashboard}`, token.bob)).statusCode).toBe(204);
    expect((await call('GET', `${PREFS}?dashboardId=${ids.dashboard}`, token.bob)).json()).toEqual([]);
    // The admin's own preference is untouched.
    const admin = await call('GET', `${PREFS}?dashboardId=${ids.dashboard}`, token.adminA);
    expect(admin.json().map((p: { value: unknown }) => p.value)).toEqual(['admin']);
  });

  it('works for flows and widgets too', async () => {
    const saved = await call('PUT', PREFS, token.adminA, {
      dashboardId: ids.flow,
      key: 'entry',
      value: 'e1',
    });
    expect(saved.statusCode).toBe(200);
  });

  it('refuses values that are too large or null, naming the field', async () => {
    const large = await call('PUT', PREFS, token.bob, {
      dashboardId: ids.dashboard,
      key: 'big',
      value: 'x'.repeat(70_000),
    });
    expect(large.statusCode).toBe(400);
    expect(large.json().message).toContain('body/value');
    const empty = await call('PUT', PREFS, token.bob, {
      dashboardId: ids.dashboard,
      key: 'none',
      value: null,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toContain('body/value');
  });

  it('needs access to the dashboard: others get 404 and change nothing', async () => {
    const before = await server.database.db.select().from(dashboardUserPreferences);
    const dave = await call('PUT', PREFS, token.dave, { dashboardId: ids.dashboard, key: 'page', value: 1 });
    expect(dave.statusCode).toBe(404);
    expect((await call('GET', `${PREFS}?dashboardId=${ids.dashboard}`, token.dave)).statusCode).toBe(404);
    const foreign = await call('PUT', PREFS, token.adminB, {
      dashboardId: ids.dashboard,
      key: 'page',
      value: 1,
    });
    expect([403, 404]).toContain(foreign.statusCode);
    expect([403, 404]).toContain(
      (await call('DELETE', `${PREFS}?dashboardId=${ids.dashboard}`, token.adminB)).statusCode,
    );
    expect(await server.database.db.select().from(dashboardUserPreferences)).toEqual(before);
    expect((await call('GET', `${PREFS}?dashboardId=not-a-uuid`, token.bob)).statusCode).toBe(400);
  });
});
