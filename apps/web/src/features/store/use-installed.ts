import { useQuery } from '@tanstack/react-query';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { fetchInstalledApps, storeKeys } from './api.ts';

/** The apps the entered organization installed (READ organizations, which the store screen needs anyway). */
export function useInstalledApps() {
  const { organization, token } = useOrganizationApi();
  return useQuery({
    queryKey: storeKeys.installed(organization.id),
    queryFn: async ({ signal }) => fetchInstalledApps(await token(), organization.id, signal),
  });
}
