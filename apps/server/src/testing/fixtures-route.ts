import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/index.ts';
import { REALM_NAME_PATTERN, type RealmRegistry } from '../identity/realms.ts';
import { recentMail } from '../mail/outbox.ts';
import { publishAgreement } from '../services/core/agreements/store.ts';
import {
  addMember,
  createOrganization,
  createRole,
  createUser,
} from '../services/core/organizations/provisioning.ts';
import { insertIssue } from '../services/core/status/store.ts';

const Permission = Type.Object({ rsname: Type.String(), scopes: Type.Array(Type.String()) });

const TenantFixture = Type.Object({
  realm: Type.String({ pattern: REALM_NAME_PATTERN.source }),
  organizations: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String({ minLength: 1 }),
      parent: Type.Optional(Type.String()),
      iotEnabled: Type.Optional(Type.Boolean()),
      vpnEnabled: Type.Optional(Type.Boolean()),
    }),
  ),
  users: Type.Array(
    Type.Object({
      key: Type.String(),
      email: Type.String({ minLength: 3 }),
      password: Type.String({ minLength: 8 }),
      requiredActions: Type.Optional(Type.Array(Type.String())),
      memberships: Type.Array(Type.Object({ org: Type.String(), permissions: Type.Array(Permission) })),
    }),
  ),
  agreements: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal('TERM'), Type.Literal('PRIVACY'), Type.Literal('MAINTENANCE')]),
        title: Type.String(),
        version: Type.String(),
      }),
    ),
  ),
  statusIssues: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal('incident'), Type.Literal('maintenance')]),
        status: Type.String(),
        title: Type.String(),
      }),
    ),
  ),
});
type TenantFixture = Static<typeof TenantFixture>;

/**
 * Browser tests seed their own realm through this route, using the same provisioning code as the product. It is
 * mounted only when EDGEPORT_TEST_FIXTURES=true, which nothing but the test setup sets.
 */
export const testFixtureRoutes: FastifyPluginAsyncTypebox<{ db: Db; realms: RealmRegistry }> = async (
  app,
  { db, realms },
) => {
  app.post(
    '/test-support/tenants',
    { schema: { hide: true, body: TenantFixture } },
    async (request, reply) => {
      return reply.code(201).send(await seedTenant(db, realms, request.body));
    },
  );

  // The newest mails to one address (invitations, password changes), newest first: browser tests follow their links.
  app.get(
    '/test-support/outbox',
    { schema: { hide: true, querystring: Type.Object({ recipient: Type.String({ minLength: 3 }) }) } },
    async (request) =>
      (await recentMail(db, request.query.recipient)).map((mail) => ({
        recipient: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        sentAt: mail.sentAt?.toISOString() ?? null,
        lastError: mail.lastError,
        createdAt: mail.createdAt.toISOString(),
      })),
  );
};

async function seedTenant(db: Db, realms: RealmRegistry, fixture: TenantFixture) {
  await realms.create(fixture.realm, fixture.realm);
  const organizations: Record<string, { id: string; resourceId: string }> = {};
  for (const org of fixture.organizations) {
    const parentId = org.parent ? organizations[org.parent]?.id : undefined;
    const row = await createOrganization(db, {
      realm: fixture.realm,
      name: org.name,
      parentId: parentId ?? null,
      iotEnabled: org.iotEnabled,
      vpnEnabled: org.vpnEnabled,
    });
    organizations[org.key] = { id: row.id, resourceId: row.resourceId };
  }
  const users: Record<string, { id: string; email: string }> = {};
  for (const person of fixture.users) {
    const user = await createUser(db, {
      realm: fixture.realm,
      email: person.email,
      password: person.password,
      requiredActions: person.requiredActions,
    });
    for (const membership of person.memberships) {
      const org = organizations[membership.org];
      if (!org)
        throw Object.assign(new Error(`memberships.org '${membership.org}' is not a seeded organization`), {
          statusCode: 400,
        });
      const role = await createRole(db, org.id, `${person.key} in ${membership.org}`, membership.permissions);
      await addMember(db, org.id, user.id, [role.id]);
    }
    users[person.key] = { id: user.id, email: user.email };
  }
  for (const agreement of fixture.agreements ?? []) {
    await publishAgreement(db, { realm: fixture.realm, serviceName: 'portal', url: '', ...agreement });
  }
  for (const issue of fixture.statusIssues ?? []) {
    await insertIssue(db, fixture.realm, { ...issue, date: new Date() });
  }
  return { realm: fixture.realm, organizations, users };
}
