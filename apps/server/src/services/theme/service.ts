import type { theme as contract } from '@edgeport/contract';
import type { Db } from '../../db/index.ts';
import type { Principal } from '../../http/principal.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import * as store from './store.ts';

export const DEFAULT_THEME: contract.Theme = {
  brandName: 'Edgeport',
  primaryColor: '#1c7ed6',
  logoUrl: null,
  colorScheme: 'auto',
};

function toTheme(row: store.ThemeRow | undefined): contract.Theme {
  if (!row) return DEFAULT_THEME;
  return {
    brandName: row.brandName,
    primaryColor: row.primaryColor,
    logoUrl: row.logoUrl,
    colorScheme: row.colorScheme,
  };
}

/** Before login: the theme of the realm the host names (or the default). */
export async function themeForRealm(db: Db, realm: string | undefined): Promise<contract.Theme> {
  return toTheme(realm ? await store.themeOfRealm(db, realm) : undefined);
}

export async function organizationTheme(db: Db, principal: Principal, ref: string): Promise<contract.Theme> {
  const org = await authorizeInOrganization(db, principal, ref, 'ACCESS', 'portal');
  return toTheme(await store.themeOf(db, org.id));
}

export async function changeOrganizationTheme(
  db: Db,
  principal: Principal,
  ref: string,
  theme: contract.ThemeUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  return toTheme(await store.saveTheme(db, org.id, theme));
}
