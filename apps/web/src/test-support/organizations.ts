import type { Organization } from '../auth/organizations.ts';

export function organization(fields: Partial<Organization> & Pick<Organization, 'id'>): Organization {
  return {
    resourceId: `res-${fields.id}`,
    name: `Org ${fields.id}`,
    parentId: null,
    iotEnabled: false,
    vpnEnabled: false,
    dealer: false,
    hasOwnResources: true,
    ...fields,
  };
}
