import type { Db } from '../../db/index.ts';
import { insertWithFreshKeys } from './service.ts';
import { insertLicenses } from './store.ts';

/**
 * Gives the organization `count` AVAILABLE device licences (for the demo and fixtures) and answers their activation
 * keys, so a newcomer can walk through activation at once.
 */
export async function seedDemoLicenses(
  db: Db,
  organizationId: string,
  count: number,
  options: { vpn?: boolean } = {},
): Promise<string[]> {
  const rows = await insertWithFreshKeys(db, organizationId, count, options.vpn ?? false);
  return rows.map((row) => row.activationKey);
}

/** Gives the organization AVAILABLE device licences with the given activation keys (browser-test fixtures). */
export async function seedLicenseKeys(
  db: Db,
  organizationId: string,
  keys: string[],
  options: { vpn?: boolean } = {},
): Promise<void> {
  const rows = await insertLicenses(
    db,
    keys.map((activationKey) => ({ organizationId, activationKey, vpn: options.vpn ?? false })),
  );
  if (rows.length !== keys.length) throw new Error('an activation key of the fixture is already in use');
}
