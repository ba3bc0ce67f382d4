import type { AppAbility } from '@edgeport/permissions';
import type { Organization } from '../auth/organizations.ts';
import { currentPortal } from './portal.ts';
import { useEnteredOrganization } from './shell/useEnteredOrganization.ts';

export type OrganizationApi = {
  organization: Organization;
  ability: AppAbility;
  /** A permission token for the organization, renewed when it is about to expire (spec 4). */
  token: () => Promise<string>;
};

/** What a product screen needs to call the services inside the entered organization. */
export function useOrganizationApi(): OrganizationApi {
  const entered = useEnteredOrganization();
  if (!entered) throw new Error('useOrganizationApi() outside an entered organization');
  const { organizations } = currentPortal();
  return {
    organization: entered.organization,
    ability: entered.ability,
    token: () => organizations.permissionToken(),
  };
}
