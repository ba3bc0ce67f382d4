import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';

const CATALOGUE = '/svc/core/api/v1/apps';
const APP = '/svc/core/api/v1/apps/{id}';
const LIKE = '/svc/core/api/v1/apps/{id}/like';
const ORG_APPS = '/svc/core/api/v1/organizations/{org}/apps';
const ORG_APP = '/svc/core/api/v1/organizations/{org}/apps/{id}';
const PAYMENT = '/svc/core/api/v1/organizations/{org}/apps/{id}/payment';
const RESCHEDULE = '/svc/core/api/v1/organizations/{org}/apps/{id}/reschedule';
const PLAN = '/svc/core/api/v1/organizations/{org}/apps/{id}/plan/{plan}';
const UPGRADE = '/svc/core/api/v1/organizations/{org}/apps/{id}/upgrade';

export type CataloguePage = OkBody<CorePaths, typeof CATALOGUE, 'get'>;
export type CatalogueApp = OkBody<CorePaths, typeof APP, 'get'>;
export type AppPlan = CatalogueApp['plans'][number];
export type AppLike = OkBody<CorePaths, typeof LIKE, 'post'>;
export type InstalledApps = OkBody<CorePaths, typeof ORG_APPS, 'get'>;
export type InstalledApp = OkBody<CorePaths, typeof ORG_APP, 'get'>;

/** The catalogue is small: one page of this size holds it; search narrows it on the server. */
export const CATALOGUE_PAGE_SIZE = 48;

export type CatalogueRequest = { page: number; search?: string };

export function fetchCatalogue(token: string, request: CatalogueRequest, signal?: AbortSignal) {
  return answer(
    coreClient.GET(CATALOGUE, {
      params: {
        query: {
          page: request.page,
          pageSize: CATALOGUE_PAGE_SIZE,
          sort: 'name',
          order: 'asc',
          ...(request.search && { search: request.search }),
        },
      },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchApp(token: string, id: string, signal?: AbortSignal): Promise<CatalogueApp> {
  return answer(coreClient.GET(APP, { params: { path: { id } }, headers: bearer(token), signal }));
}

export function setLike(token: string, id: string, liked: boolean): Promise<AppLike> {
  const options = { params: { path: { id } }, headers: bearer(token) };
  return answer(liked ? coreClient.POST(LIKE, options) : coreClient.DELETE(LIKE, options));
}

export function fetchInstalledApps(token: string, org: string, signal?: AbortSignal): Promise<InstalledApps> {
  return answer(coreClient.GET(ORG_APPS, { params: { path: { org } }, headers: bearer(token), signal }));
}

export function installApp(
  token: string,
  org: string,
  input: { appId: string; plan: string; approved: boolean },
) {
  return answer(
    coreClient.POST(ORG_APPS, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export function changePlan(token: string, org: string, id: string, plan: string, approved: boolean) {
  return answer(
    coreClient.PATCH(PLAN, {
      params: { path: { org, id, plan } },
      body: { approved },
      headers: bearer(token),
    }),
  );
}

export function payNow(token: string, org: string, id: string) {
  return answer(coreClient.POST(PAYMENT, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function reschedule(token: string, org: string, id: string, nextBillingAt: string) {
  return answer(
    coreClient.POST(RESCHEDULE, {
      params: { path: { org, id } },
      body: { nextBillingAt },
      headers: bearer(token),
    }),
  );
}

export function upgrade(token: string, org: string, id: string) {
  return answer(coreClient.POST(UPGRADE, { params: { path: { org, id } }, headers: bearer(token) }));
}

export async function uninstall(token: string, org: string, id: string, force: boolean): Promise<void> {
  await answer(
    coreClient.DELETE(ORG_APP, {
      params: { path: { org, id }, ...(force && { query: { force: true } }) },
      headers: bearer(token),
    }),
  );
}

export const STORE_QUERY_KEY = 'store';

/** Query keys: the catalogue is the same for every organization, but `liked` is per user (and organizations share). */
export const storeKeys = {
  all: [STORE_QUERY_KEY] as const,
  catalogue: (organizationId: string, request?: CatalogueRequest) =>
    request
      ? ([STORE_QUERY_KEY, organizationId, 'catalogue', request] as const)
      : ([STORE_QUERY_KEY, organizationId, 'catalogue'] as const),
  app: (organizationId: string, id: string) => [STORE_QUERY_KEY, organizationId, 'app', id] as const,
  installed: (organizationId: string) => [STORE_QUERY_KEY, organizationId, 'installed'] as const,
};
