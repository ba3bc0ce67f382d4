import { type DashboardDocument, readDocument } from '@edgeport/dashboard-schema';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { hasStatus } from '../../../shared/http/errors.ts';
import {
  collectionKeys,
  DASHBOARD_VIEW_KEY,
  type Dashboard,
  type DashboardVersion,
  fetchDashboard,
  fetchDashboardVersion,
} from '../api.ts';

export type LoadedDashboard =
  | { state: 'loading' }
  | {
      state: 'error';
      error: unknown;
      /** 404: the dashboard (or the version asked for) does not exist or is not shared with the caller. */
      notFound: boolean;
      /** The dashboard is there but not the version asked for. */
      versionMissing: boolean;
      retry: () => void;
    }
  | { state: 'invalid'; dashboard: Dashboard; version: DashboardVersion; errors: string[] }
  | { state: 'ready'; dashboard: Dashboard; version: DashboardVersion; document: DashboardDocument };

const gone = (error: unknown) => hasStatus(error, 404) || hasStatus(error, 400) || hasStatus(error, 403);

/**
 * A dashboard and one of its versions (the current one unless `version` is given), its document read through
 * `readDocument('dashboard', …)` so that older schema versions open migrated and a broken one is reported by field.
 */
export function useDashboardDocument(dashboardId: string, version?: number): LoadedDashboard {
  const { organization, token } = useOrganizationApi();
  const dashboard = useQuery({
    // Under the collections' key: whatever changes a dashboard (a save, a version made current) refreshes it too.
    queryKey: [...collectionKeys.all(organization.id), 'view', dashboardId],
    queryFn: async ({ signal }) => fetchDashboard(await token(), dashboardId, signal),
    retry: (count, error) => !gone(error) && count < 2,
  });
  const wanted = version ?? dashboard.data?.currentVersion;
  const loadedVersion = useQuery({
    queryKey: [DASHBOARD_VIEW_KEY, organization.id, 'version', dashboardId, wanted],
    queryFn: async ({ signal }) => fetchDashboardVersion(await token(), dashboardId, wanted ?? 1, signal),
    enabled: dashboard.isSuccess && wanted !== undefined,
    retry: (count, error) => !gone(error) && count < 2,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const read = useMemo(
    () => (loadedVersion.data ? readDocument('dashboard', loadedVersion.data.document) : undefined),
    [loadedVersion.data],
  );

  if (dashboard.isError) {
    return {
      state: 'error',
      error: dashboard.error,
      notFound: gone(dashboard.error),
      versionMissing: false,
      retry: () => void dashboard.refetch(),
    };
  }
  if (loadedVersion.isError) {
    return {
      state: 'error',
      error: loadedVersion.error,
      notFound: gone(loadedVersion.error),
      versionMissing: gone(loadedVersion.error),
      retry: () => void loadedVersion.refetch(),
    };
  }
  if (!dashboard.data || !loadedVersion.data || !read) return { state: 'loading' };
  if (!read.ok) {
    return { state: 'invalid', dashboard: dashboard.data, version: loadedVersion.data, errors: read.errors };
  }
  return { state: 'ready', dashboard: dashboard.data, version: loadedVersion.data, document: read.document };
}
