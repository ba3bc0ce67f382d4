import type { StoredPermission } from '../../src/db/schema.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createRole,
  createUser,
} from '../../src/services/core/organizations/provisioning.ts';
import type { TestServer } from './server.ts';

export const PASSWORD = 'correct horse battery';

/** A realm with organization A (and sub-organization A1) and organization B, each with its own administrator. */
export async function seedTenants(server: TestServer, realm = 'acme') {
  const { db } = server.database;
  await server.app.realms.create(realm, realm.toUpperCase());
  const orgA = await createOrganization(db, {
    realm,
    name: 'Org A',
    resourceId: `${realm}-a`,
    ownsRealm: true,
  });
  const orgA1 = await createOrganization(db, {
    realm,
    name: 'Org A1',
    resourceId: `${realm}-a1`,
    parentId: orgA.id,
  });
  const orgB = await createOrganization(db, {
    realm,
    name: 'Org B',
    resourceId: `${realm}-b`,
    iotEnabled: false,
  });
  const rolesA = await addDefaultRoles(db, orgA.id);
  const rolesB = await addDefaultRoles(db, orgB.id);
  const adminA = await createUser(db, { realm, email: `admin@${realm}-a.test`, password: PASSWORD });
  const adminB = await createUser(db, { realm, email: `admin@${realm}-b.test`, password: PASSWORD });
  await addMember(db, orgA.id, adminA.id, [rolesA.administrator.id]);
  await addMember(db, orgB.id, adminB.id, [rolesB.administrator.id]);
  return { realm, orgA, orgA1, orgB, rolesA, rolesB, adminA, adminB };
}

export async function userWithRole(
  server: TestServer,
  realm: string,
  organizationId: string,
  email: string,
  permissions: StoredPermission[],
) {
  const { db } = server.database;
  const role = await createRole(db, organizationId, `role for ${email}`, permissions);
  const user = await createUser(db, { realm, email, password: PASSWORD });
  await addMember(db, organizationId, user.id, [role.id]);
  return user;
}
