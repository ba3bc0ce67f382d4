import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { auditLog, deviceLicenses, organizations } from '../../db/schema.ts';
import { createOrganization } from '../core/organizations/provisioning.ts';
import { MAKES_NO_DEALERS } from './dealer/service.ts';
import { UNLICENSED_KEYS_REFUSED } from './service.ts';

/*
 * Issue 32 "any administrator can mint free device licences": "Generate a key" (POST /deviceLicenses) gave any
 * administrator activation keys without a licence, that is free devices. Only the realm's operator may now; everyone
 * else activates the keys of a licence a dealer issued, and only the operator (or a dealer it made) makes dealers.
 * Org A owns the realm (the operator); Org B shares it like a self-onboarded tenant and holds no licence.
 */

let server: TestServer;
let call: ReturnType<typeof caller>;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let rptA: string;
let rptA1: string;
let rptB: string;

const licensesOf = (org: string) => `/svc/license/api/v1/organizations/${org}/deviceLicenses`;
const accountOf = (org: string, by: string) => `/svc/license/api/v1/organizations/${org}/account?by=${by}`;

async function keysOf(organizationId: string) {
  return server.database.db
    .select()
    .from(deviceLicenses)
    .where(eq(deviceLicenses.organizationId, organizationId));
}

async function issueAudits(organizationId: string) {
  return (
    await server.database.db.select().from(auditLog).where(eq(auditLog.organizationId, organizationId))
  ).filter((row) => row.action === 'deviceLicenses.issue');
}

async function isDealer(organizationId: string) {
  const [row] = await server.database.db
    .select()
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.dealer;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server, 'acme');
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  // A's administrator inside its sub-organization (inherited rights): not the operator's own organization.
  rptA1 = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA1.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

describe('keys without a licence (POST /deviceLicenses, "Generate a key")', () => {
  it("are refused to B's administrator in B's own organization (403 naming why); no key is created", async () => {
    for (const body of [{ count: 1 }, { count: 100, vpn: true }]) {
      const response = await call('POST', licensesOf(tenants.orgB.id), rptB, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(UNLICENSED_KEYS_REFUSED);
    }
    expect(await keysOf(tenants.orgB.id)).toEqual([]);
    expect(await issueAudits(tenants.orgB.id)).toEqual([]);
  });

  it("are refused in a sub-organization of the operator's (not the operator's own organization)", async () => {
    const response = await call('POST', licensesOf(tenants.orgA1.id), rptA1, { count: 1 });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(UNLICENSED_KEYS_REFUSED);
    expect(await keysOf(tenants.orgA1.id)).toEqual([]);
  });

  it("are issued by the realm's operator in its own organization", async () => {
    const response = await call('POST', licensesOf(tenants.orgA.id), rptA, { count: 2 });
    expect(response.statusCode).toBe(201);
    expect(response.json().items).toHaveLength(2);
    expect(await keysOf(tenants.orgA.id)).toHaveLength(2);
    expect(await issueAudits(tenants.orgA.id)).toHaveLength(1);
  });

  it('tell the portal whether to offer "Generate a key" (GET /deviceLicenses/issuing)', async () => {
    expect((await call('GET', `${licensesOf(tenants.orgA.id)}/issuing`, rptA)).json()).toEqual({
      mayIssue: true,
      reason: null,
    });
    for (const [org, token] of [
      [tenants.orgB.id, rptB],
      [tenants.orgA1.id, rptA1],
    ] as const) {
      const answer = await call('GET', `${licensesOf(org)}/issuing`, token);
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ mayIssue: false, reason: UNLICENSED_KEYS_REFUSED });
    }
    expect([403, 404]).toContain(
      (await call('GET', `${licensesOf(tenants.orgA.id)}/issuing`, rptB)).statusCode,
    );
    expect((await call('GET', `${licensesOf(tenants.orgA.id)}/issuing`)).statusCode).toBe(401);
  });
});

describe('dealers (their licences bring activation keys)', () => {
  it("cannot be made by B: B's sub-organization stays no dealer (403) and mints nothing", async () => {
    const b1 = await createOrganization(server.database.db, {
      realm: 'acme',
      name: 'B1',
      parentId: tenants.orgB.id,
    });
    const response = await call('PUT', accountOf(b1.id, tenants.orgB.id), rptB, { dealer: true });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(MAKES_NO_DEALERS);
    expect(await isDealer(b1.id)).toBe(false);
    // B may still set the other flags of its sub-organization.
    const other = await call('PUT', accountOf(b1.id, tenants.orgB.id), rptB, { inAppPurchases: false });
    expect(other.statusCode).toBe(200);
  });

  it("are made by the realm's operator, and by a dealer it made", async () => {
    const made = await call('PUT', accountOf(tenants.orgA1.id, tenants.orgA.id), rptA, { dealer: true });
    expect(made.statusCode).toBe(200);
    expect(await isDealer(tenants.orgA1.id)).toBe(true);
    const a2 = await createOrganization(server.database.db, {
      realm: 'acme',
      name: 'A2',
      parentId: tenants.orgA1.id,
    });
    const byDealer = await call('PUT', accountOf(a2.id, tenants.orgA1.id), rptA1, { dealer: true });
    expect(byDealer.statusCode).toBe(200);
    expect(await isDealer(a2.id)).toBe(true);
  });
});
