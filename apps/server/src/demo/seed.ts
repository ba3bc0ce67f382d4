import { eq } from 'drizzle-orm';
import { type Config, realmOrigin } from '../config.ts';
import type { Db } from '../db/index.ts';
import { realms } from '../db/schema.ts';
import type { RealmRegistry } from '../identity/realms.ts';
import { registerSampleApp } from '../samples/routes.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
  generatePassword,
} from '../services/core/organizations/provisioning.ts';
import { seedDealerDemo } from '../services/license/dealer/demo.ts';
import { saveTheme } from '../services/theme/store.ts';
import { seedDemoGateway } from './vpn.ts';

export const DEMO_REALM = 'demo';
export const DEMO_ORGANIZATION = 'demo';

export type DemoLogin = { email: string; password: string; url: string };

/**
 * On an empty database: realm and organization `demo` (with one plant as sub-organization), an administrator and an
 * operator with fresh passwords. Returns the logins once; a database that already has the realm gets nothing.
 */
export async function seedDemo(db: Db, registry: RealmRegistry, config: Config): Promise<DemoLogin[]> {
  // The host/app bridge sample app in the store catalogue (on every start: its address follows the port).
  if (config.samples) await registerSampleApp(db, config);
  const [existing] = await db.select().from(realms).where(eq(realms.name, DEMO_REALM));
  if (existing) return [];
  await registry.create(DEMO_REALM, 'Edgeport Demo');
  const org = await createOrganization(db, {
    realm: DEMO_REALM,
    name: 'Demo',
    resourceId: DEMO_ORGANIZATION,
    ownsRealm: true,
  });
  const plant = await createOrganization(db, {
    realm: DEMO_REALM,
    name: 'Demo plant Eindhoven',
    resourceId: 'demo-plant-eindhoven',
    parentId: org.id,
  });
  await saveTheme(db, org.id, {
    brandName: 'Edgeport Demo',
    primaryColor: '#0b7285',
    logoUrl: null,
    colorScheme: 'auto',
  });
  const orgRoles = await addDefaultRoles(db, org.id);
  await addDefaultRoles(db, plant.id);
  // The dealer area: two products and a client holding an ACTIVE device licence pack.
  await seedDealerDemo(db, org, new Date());
  // Remote access: a plant gateway with an HMI and a PLC.
  await seedDemoGateway(db, org.id);
  const url = realmOrigin(config, DEMO_REALM);
  const people = [
    { email: 'admin@demo.local', firstName: 'Ada', lastName: 'Admin', role: orgRoles.administrator.id },
    { email: 'operator@demo.local', firstName: 'Otto', lastName: 'Operator', role: orgRoles.operator.id },
  ];
  const logins: DemoLogin[] = [];
  for (const person of people) {
    const password = generatePassword();
    const user = await createUser(db, { realm: DEMO_REALM, password, ...person });
    await addMember(db, org.id, user.id, [person.role]);
    logins.push({ email: person.email, password, url });
  }
  return logins;
}

export function loginLine(login: DemoLogin): string {
  return `Sign in at ${login.url} as ${login.email} with password ${login.password}`;
}
