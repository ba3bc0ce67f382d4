import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
});
afterAll(() => server.close());

describe('status feed', () => {
  it('lets an administrator post an incident that the realm then sees publicly, and update and delete it', async () => {
    const { rpt } = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
    const posted = await call('POST', '/svc/core/api/v1/status/issues', rpt, {
      type: 'incident',
      status: 'investigating',
      title: 'Data delays',
    });
    expect(posted.statusCode).toBe(201);
    const feed = await call('GET', '/svc/core/api/v1/status/issues');
    expect(feed.json()).toEqual([
      expect.objectContaining({ type: 'incident', title: 'Data delays', status: 'investigating' }),
    ]);
    expect((await caller(server, 'other')('GET', '/svc/core/api/v1/status/issues')).json()).toEqual([]);

    const id = posted.json().id as string;
    const updated = await call('PUT', `/svc/core/api/v1/status/issues/${id}`, rpt, {
      type: 'incident',
      status: 'resolved',
      title: 'Data delays',
    });
    expect(updated.json().status).toBe('resolved');
    expect((await call('DELETE', `/svc/core/api/v1/status/issues/${id}`, rpt)).statusCode).toBe(204);
    expect((await call('GET', '/svc/core/api/v1/status/issues')).json()).toEqual([]);
  });

  it('refuses posting without UPDATE on portal, without an RPT, and with a bad type', async () => {
    const viewer = await userWithRole(server, 'acme', tenants.orgA.id, 'status-viewer@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    const session = await rptFor(server, 'acme', viewer.email, tenants.orgA.resourceId);
    const issue = { type: 'maintenance', status: 'scheduled', title: 'Upgrade' };
    expect((await call('POST', '/svc/core/api/v1/status/issues', session.rpt, issue)).statusCode).toBe(403);
    expect(
      (await call('POST', '/svc/core/api/v1/status/issues', session.accessToken, issue)).statusCode,
    ).toBe(403);
    const admin = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
    const bad = await call('POST', '/svc/core/api/v1/status/issues', admin.rpt, { ...issue, type: 'outage' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('type');
    expect((await call('GET', '/svc/core/api/v1/status/issues')).json()).toEqual([]);
  });
});
