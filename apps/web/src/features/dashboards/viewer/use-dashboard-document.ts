import { type DashboardDocument, readDocument } from '@edgeport/dashboard-schema';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { hasStatus, isNotFound } from '../../../shared/http/errors.ts';
import {
  collectionKeys,
  DASHBOARD_VIEW_KEY,
  type Dashboard,
  type DashboardPage,
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

const gone = (error: unknown) => isNotFound(error) || hasStatus(error, 403);

type Read = ReturnType<typeof readDocument<'dashboard'>>;
const reads = new WeakMap<object, Read>();

/**
 * A version's document read (checked, migrated) once for as long as the query cache keeps it: opening the dashboard
 * again does not check its hundreds of widgets again.
 */
function readOnce(raw: DashboardVersion['document']): Read {
  const known = reads.get(raw);
  if (known) return known;
  const read = readDocument('dashboard', raw);
  reads.set(raw, read);
  return read;
}

type Token = () => Promise<string>;

const retry = (count: number, error: unknown) => !gone(error) && count < 2;

function dashboardQuery(organizationId: string, token: Token, dashboardId: string) {
  return queryOptions({
    // Under the collections' key: whatever changes a dashboard (a save, a version made current) refreshes it too.
    queryKey: [...collectionKeys.all(organizationId), 'view', dashboardId],
    queryFn: async ({ signal }) => fetchDashboard(await token(), dashboardId, signal),
    retry,
  });
}

function versionQuery(organizationId: string, token: Token, dashboardId: string, wanted: number | undefined) {
  return queryOptions({
    queryKey: [DASHBOARD_VIEW_KEY, organizationId, 'version', dashboardId, wanted],
    queryFn: async ({ signal }) => fetchDashboardVersion(await token(), dashboardId, wanted ?? 1, signal),
    retry,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/**
 * Starts loading a dashboard and its version (the current one unless `version` is given) into the query cache, for
 * `useDashboardDocument` to find: the viewer page does while it still waits for the user's remembered choices.
 * Failures are left to the queries that show them.
 */
export function prefetchDashboardDocument(
  client: QueryClient,
  organizationId: string,
  token: Token,
  dashboardId: string,
  version?: number,
): void {
  // The dashboards list the user comes from names the current version: asking for it at once (beside the row, which
  // says which version to show) saves a round trip; if the list was behind, the row's version is asked for as well.
  const listed =
    version === undefined
      ? client
          .getQueriesData<DashboardPage>({
            queryKey: [...collectionKeys.all(organizationId), 'dashboards', 'page'],
          })
          .flatMap(([, page]) => page?.items ?? [])
          .find((row) => row.id === dashboardId)
      : undefined;
  if (listed) {
    client
      .prefetchQuery(versionQuery(organizationId, token, dashboardId, listed.currentVersion))
      .catch(() => {});
  }
  void (async () => {
    try {
      // The cached row when there is one (the viewer refreshes it as it always does), else the row asked for now.
      const dashboard = await client.fetchQuery({
        ...dashboardQuery(organizationId, token, dashboardId),
        staleTime: Number.POSITIVE_INFINITY,
      });
      const wanted = versionQuery(organizationId, token, dashboardId, version ?? dashboard.currentVersion);
      await client.prefetchQuery(wanted);
      // Checked now, while the viewer may still wait for the user's remembered choices: it finds the answer read.
      const loaded = client.getQueryData(wanted.queryKey);
      if (loaded) readOnce(loaded.document);
    } catch {
      // The viewer's own queries ask again and show the error.
    }
  })();
}

/**
 * A dashboard and one of its versions (the current one unless `version` is given), its document read through
 * `readDocument('dashboard', …)` so that older schema versions open migrated and a broken one is reported by field.
 */
export function useDashboardDocument(dashboardId: string, version?: number): LoadedDashboard {
  const { organization, token } = useOrganizationApi();
  const dashboard = useQuery(dashboardQuery(organization.id, token, dashboardId));
  const wanted = version ?? dashboard.data?.currentVersion;
  const loadedVersion = useQuery({
    ...versionQuery(organization.id, token, dashboardId, wanted),
    enabled: dashboard.isSuccess && wanted !== undefined,
  });
  const read = useMemo(
    () => (loadedVersion.data ? readOnce(loadedVersion.data.document) : undefined),
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
