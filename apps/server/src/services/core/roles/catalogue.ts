import type { Db } from '../../../db/index.ts';
import { applicationPermissions } from '../../../db/schema.ts';

export type CatalogueEntry = typeof applicationPermissions.$inferInsert;

/**
 * The permissions the platform's own applications define; roles pick from them. Apps of the store add theirs to the
 * same table when they are installed.
 */
export const PLATFORM_APPLICATION_PERMISSIONS: readonly CatalogueEntry[] = [
  {
    id: 'dashboards.designer',
    name: 'dashboards.designer',
    application: 'Dashboards',
    description: 'Create and edit dashboards and flows in the designer',
  },
  {
    id: 'dashboards.share',
    name: 'dashboards.share',
    application: 'Dashboards',
    description: 'Share dashboards with other users',
  },
  {
    id: 'data.export',
    name: 'data.export',
    application: 'Data explorer',
    description: 'Export device data as files',
  },
  {
    id: 'vpn.connect',
    name: 'vpn.connect',
    application: 'Remote access',
    description: 'Open VPN connections to devices',
  },
  {
    id: 'vpn.configure',
    name: 'vpn.configure',
    application: 'Remote access',
    description: 'Change endpoints, applications and profiles of remote access',
  },
  {
    id: 'store.install',
    name: 'store.install',
    application: 'App store',
    description: 'Install and remove applications of the store',
  },
  {
    id: 'store.purchase',
    name: 'store.purchase',
    application: 'App store',
    description: 'Buy applications and change their plans',
  },
  {
    id: 'alarms.configure',
    name: 'alarms.configure',
    application: 'Alarms',
    description: 'Define alarm rules and limits',
  },
];

const seeded = new WeakMap<Db, Promise<void>>();

/** Makes sure the platform's entries exist (once per database handle; existing rows are left as they are). */
export function ensureCatalogue(db: Db): Promise<void> {
  let pending = seeded.get(db);
  if (!pending) {
    pending = db
      .insert(applicationPermissions)
      .values([...PLATFORM_APPLICATION_PERMISSIONS])
      .onConflictDoNothing()
      .then(() => undefined);
    pending.catch(() => seeded.delete(db));
    seeded.set(db, pending);
  }
  return pending;
}
