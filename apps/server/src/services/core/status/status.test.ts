import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { statusIssues } from '../../../db/schema.ts';

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

  it("is the realm operator's: another tenant's administrator cannot post, edit or delete, and nothing changes", async () => {
    const operator = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    const tenantB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
    const incident = { type: 'incident', status: 'investigating', title: 'Ingest delays' };
    const posted = await call('POST', '/svc/core/api/v1/status/issues', operator, incident);
    expect(posted.statusCode, posted.body).toBe(201);
    const id = posted.json().id as string;
    const stored = async () =>
      server.database.db.select().from(statusIssues).where(eq(statusIssues.realm, 'acme'));
    const before = await stored();

    const phishing = {
      type: 'incident',
      status: 'resolved',
      title: 'Re-enter your password at https://evil.example/login',
    };
    const attempts = [
      await call('POST', '/svc/core/api/v1/status/issues', tenantB, phishing),
      await call('PUT', `/svc/core/api/v1/status/issues/${id}`, tenantB, phishing),
      await call('DELETE', `/svc/core/api/v1/status/issues/${id}`, tenantB),
    ];
    for (const answer of attempts) {
      expect(answer.statusCode, answer.body).toBe(403);
      expect(answer.json().message).toContain('operator');
    }
    expect(await stored()).toEqual(before);
    // Every tenant still reads the operator's feed.
    const feed = await call('GET', '/svc/core/api/v1/status/issues', tenantB);
    expect(feed.json()).toEqual([
      expect.objectContaining({ id, title: 'Ingest delays', status: 'investigating' }),
    ]);

    // The operator's administrator can.
    const updated = await call('PUT', `/svc/core/api/v1/status/issues/${id}`, operator, {
      ...incident,
      status: 'resolved',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await call('DELETE', `/svc/core/api/v1/status/issues/${id}`, operator)).statusCode).toBe(204);
    expect(await stored()).toEqual([]);
  });

  it("refuses an administrator of the operator's sub-organization (a token for another organization)", async () => {
    const admin = await userWithRole(server, 'acme', tenants.orgA1.id, 'status-a1@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS', 'UPDATE'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', admin.email, tenants.orgA1.resourceId);
    const issue = { type: 'maintenance', status: 'scheduled', title: 'Upgrade' };
    expect((await call('POST', '/svc/core/api/v1/status/issues', rpt, issue)).statusCode).toBe(403);
    expect((await call('GET', '/svc/core/api/v1/status/issues')).json()).toEqual([]);
  });
});
