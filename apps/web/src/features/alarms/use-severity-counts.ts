import { useQuery } from '@tanstack/react-query';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { fetchSeverityCounts } from './api.ts';
import { ALARMS_KEY } from './query-keys.ts';

/** The organization's open alarms per severity: one query shared by the top-bar badge and the alarms screen. */
export function useSeverityCounts(enabled = true) {
  const { organization, token } = useOrganizationApi();
  return useQuery({
    queryKey: [ALARMS_KEY, organization.id, 'counts'],
    queryFn: async ({ signal }) => fetchSeverityCounts(await token(), organization.id, signal),
    enabled,
    // Live changes reload it; this only covers a broken live connection.
    refetchInterval: 60_000,
  });
}
