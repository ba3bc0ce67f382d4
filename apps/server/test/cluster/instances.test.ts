import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboards } from '../../src/db/schema.ts';
import { caller } from '../support/calls.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startAnotherInstance, startTestServer, type TestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';

// Two server instances on one PostgreSQL database, as a cluster runs them behind a load balancer. PGlite is one
// process's own database, so this runs in the PostgreSQL pass of the suite (TEST_DATABASE_URL).
const HOST = 'acme.app.localhost:8080';
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(500, 7),
]);

describe.runIf(process.env.TEST_DATABASE_URL)('two instances on one PostgreSQL', () => {
  let first: TestServer;
  let second: TestServer;
  let rpt = '';
  let dashboardId = '';

  beforeAll(async () => {
    first = await startTestServer();
    second = await startAnotherInstance(first);
    const tenants = await seedTenants(first, 'acme');
    rpt = (await rptFor(first, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    const [board] = await first.database.db
      .insert(dashboards)
      .values({
        organizationId: tenants.orgA.id,
        kind: 'dashboard',
        name: 'Line 1',
        ownerId: tenants.adminA.id,
      })
      .returning();
    dashboardId = board?.id ?? '';
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('a dashboard asset uploaded through one instance downloads through the other', async () => {
    const asset = `/svc/dashboard/api/v1/dashboards/${dashboardId}/assets/logo.png`;
    const upload = await caller(first)('GET', `${asset}/upload`, rpt);
    expect(upload.statusCode, upload.body).toBe(200);
    const put = await first.app.inject({
      method: 'PUT',
      url: upload.json().url,
      headers: { host: HOST, authorization: `Bearer ${rpt}`, 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(put.statusCode, put.body).toBeLessThan(300);
    const download = await caller(second)('GET', `${asset}/download`, rpt);
    expect(download.statusCode, download.body).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    const deleted = await caller(second)('DELETE', asset, rpt);
    expect(deleted.statusCode).toBe(204);
    expect((await caller(first)('GET', `${asset}/download`, rpt)).statusCode).toBe(404);
  });

  it('a rate limit counts the requests of both instances together', async () => {
    // Self-onboarding allows 10 requests a minute per client; invalid bodies are counted too and create nothing.
    const onboard = (server: TestServer) =>
      caller(server)('POST', '/svc/core/api/v1/organizations/selfOnBoarding', undefined, {});
    const answers = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push((await onboard(first)).statusCode, (await onboard(second)).statusCode);
    }
    expect(answers.filter((status) => status === 429)).toHaveLength(2);
    expect(answers.slice(0, 10).every((status) => status === 400)).toBe(true);
  });
});
