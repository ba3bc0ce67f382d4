import { randomBytes } from 'node:crypto';
import { ACTIONS, RESOURCE_TYPES } from '@edgeport/permissions';
import { and, eq } from 'drizzle-orm';
import { type StoredPermission, users } from '../../../src/db/schema.ts';
import { UMA_GRANT_TYPE } from '../../../src/identity/rpt.ts';
import {
  addDefaultRoles,
  addMember,
  createUser,
} from '../../../src/services/core/organizations/provisioning.ts';
import { PASSWORD, seedTenants } from '../../support/fixtures.ts';
import { decodePayload, passwordLogin, TestBrowser } from '../../support/oidc-client.ts';
import type { TestServer } from '../../support/server.ts';
import { rptFor } from '../../support/tokens.ts';
import type { Operation } from './openapi.ts';
import { buildRequest, send } from './requests.ts';
import { SEED_PNG, seedTenantObjects, sessionOf, type Tenant } from './world.ts';

export const REALM = 'acme';

export type World = {
  /** Organization A; its admin holds the Administrator role (every action, INHERIT included). */
  A: Tenant;
  /** A1, a sub-organization of A, with an administrator of its own who is no member of A. */
  A1: Tenant;
  /** Organization B, the other tenant (IoT off). */
  B: Tenant;
  /**
   * Organization C, made through the public self-onboarding endpoint in A's realm (as anyone on the internet can):
   * its administrator signed up, signed in through the login and holds an RPT of C. A owns the realm, C does not.
   */
  C: Tenant;
  rpt: { A: string; A1: string; B: string; C: string };
};

/** What self-onboarding made: the new organization and its administrator (password {@link PASSWORD}). */
export type SelfOnboarded = {
  org: { id: string; resourceId: string; name: string; realm: string };
  admin: { id: string; email: string };
};

/**
 * Signs a new organization up through the public self-onboarding endpoint of the realm (`POST
 * .../organizations/selfOnBoarding`, no token), accepting the realm's current agreements as the sign-up form does.
 */
export async function selfOnboard(server: TestServer, label: string): Promise<SelfOnboarded> {
  const serviceName = 'portal';
  const agreements = await send(
    server,
    { method: 'GET', url: `/svc/core/api/v1/agreements/last?serviceName=${serviceName}` },
    undefined,
  );
  if (agreements.status !== 200) throw new Error(`agreements: ${agreements.status} ${agreements.body}`);
  const email = `founder-${label}-${randomBytes(3).toString('hex')}@self-onboarded.test`;
  const name = `Self-onboarded ${label.toUpperCase()}`;
  const created = await send(
    server,
    {
      method: 'POST',
      url: '/svc/core/api/v1/organizations/selfOnBoarding',
      payload: {
        agreementsServiceName: serviceName,
        organizationName: name,
        email,
        password: PASSWORD,
        firstName: 'Mallory',
        lastName: `Founder ${label}`,
        acceptedAgreementIds: (agreements.json as Array<{ id: string }>).map((agreement) => agreement.id),
      },
    },
    undefined,
  );
  if (created.status !== 201) throw new Error(`self-onboarding refused: ${created.status} ${created.body}`);
  const { organizationId, resourceId } = created.json as { organizationId: string; resourceId: string };
  const [admin] = await server.database.db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(eq(users.realm, REALM), eq(users.email, email)));
  if (!admin) throw new Error('self-onboarding made no account');
  return { org: { id: organizationId, resourceId, name, realm: REALM }, admin };
}

/**
 * Organizations A (with sub-organization A1) and B, each with an administrator, and C, signed up through
 * self-onboarding in the same realm; each with one object of every kind, and RPTs of each administrator for their
 * own organization (real sign-ins, so each has a live session).
 */
export async function buildWorld(server: TestServer, operations: Operation[]): Promise<World> {
  const { db } = server.database;
  const seeded = await seedTenants(server, REALM);
  const rolesA1 = await addDefaultRoles(db, seeded.orgA1.id);
  const adminA1 = await createUser(db, { realm: REALM, email: `admin@${REALM}-a1.test`, password: PASSWORD });
  await addMember(db, seeded.orgA1.id, adminA1.id, [rolesA1.administrator.id]);

  const onboarded = await selfOnboard(server, 'c');

  const A = await seedTenantObjects(db, { label: 'a', org: seeded.orgA, admin: seeded.adminA });
  const A1 = await seedTenantObjects(db, { label: 'a1', org: seeded.orgA1, admin: adminA1 });
  const B = await seedTenantObjects(db, { label: 'b', org: seeded.orgB, admin: seeded.adminB });
  const C = await seedTenantObjects(db, { label: 'c', ...onboarded });
  const rpt = {
    A: (await rptFor(server, REALM, seeded.adminA.email, seeded.orgA.resourceId)).rpt,
    A1: (await rptFor(server, REALM, adminA1.email, seeded.orgA1.resourceId)).rpt,
    B: (await rptFor(server, REALM, seeded.adminB.email, seeded.orgB.resourceId)).rpt,
    C: (await rptFor(server, REALM, onboarded.admin.email, onboarded.org.resourceId)).rpt,
  };
  for (const tenant of [A, A1, B, C]) tenant.sessionId = await sessionOf(db, tenant.admin.id);
  for (const tenant of [A, A1, B, C]) {
    await server.app.blobs.put(tenant.dashboardAsset.blobKey, SEED_PNG);
    await server.app.blobs.put(tenant.galleryAsset.blobKey, SEED_PNG);
  }

  // Import tokens exist only as hashes; a plaintext one comes from the API, when the API exists.
  const createToken = operations.find(
    (op) => op.method === 'POST' && /\/organizations\/\{org\}\/importToken$/.test(op.path),
  );
  if (createToken) {
    for (const [tenant, token] of [
      [A, rpt.A],
      [A1, rpt.A1],
      [B, rpt.B],
      [C, rpt.C],
    ] as const) {
      const answer = await send(
        server,
        { method: 'POST', url: createToken.path.replace('{org}', tenant.org.id), payload: {} },
        token,
      );
      const body = answer.json as { token?: unknown } | undefined;
      if (answer.status < 300 && typeof body?.token === 'string') tenant.importToken = body.token;
    }
  }
  // Some reads initialise data on first use (the application-permission catalogue, for one): done now, so that
  // such first-use writes are not mistaken for changes made by the requests under test.
  for (const op of operations.filter((candidate) => candidate.method === 'GET')) {
    await send(server, buildRequest(op, { orgOf: A, objectsOf: A, caller: A }), rpt.A);
  }
  return { A, A1, B, C, rpt };
}

/** Every action on every resource type except INHERIT: an administrator of A alone, not of its children. */
export const EVERYTHING_BUT_INHERIT: StoredPermission[] = RESOURCE_TYPES.map((rsname) => ({
  rsname,
  scopes: ACTIONS.filter((action) => action !== 'INHERIT'),
}));

/** Signs in and asks for an RPT of the organization; the status and the permissions it carries. */
export async function requestRpt(server: TestServer, email: string, resourceId: string) {
  const browser = new TestBrowser(server.app, REALM);
  const tokens = await passwordLogin(browser, REALM, email, PASSWORD);
  const response = await browser.request(
    'POST',
    `/auth/realms/${REALM}/protocol/openid-connect/token`,
    { grant_type: UMA_GRANT_TYPE, audience: 'platform', permission: resourceId },
    { authorization: `Bearer ${tokens.access_token}` },
  );
  if (response.statusCode !== 200) return { status: response.statusCode, permissions: [], rpt: undefined };
  const rpt = response.json().access_token as string;
  const authorization = decodePayload(rpt).authorization as { permissions?: unknown[] } | undefined;
  return { status: 200, permissions: authorization?.permissions ?? [], rpt };
}
