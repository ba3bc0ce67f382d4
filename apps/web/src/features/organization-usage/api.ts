import type { LicensePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, licenseClient } from '../../shared/http/clients.ts';
import { RESOURCE_CHOICES } from './consumption-params.ts';

const ORG = '/svc/license/api/v1/organizations/{org}';
const SUMMARY = `${ORG}/subscriptions/summary` as const;
const SUMMARY_BY_ORG = `${ORG}/subscriptions/summaryByOrg` as const;
const AGGREGATED = `${ORG}/subscriptions/aggregated` as const;
const AGGREGATED_BY_ORG = `${ORG}/subscriptions/aggregatedByOrg` as const;
const JOURNAL = `${ORG}/subscriptions/resource/{type}/journal` as const;
const HISTORY = `${ORG}/subscriptions/history` as const;
const TRIAL = `${ORG}/subscriptions/trialExpiration` as const;
const LICENSES = `${ORG}/licenses` as const;
const LICENSE_COUNT = `${ORG}/licenses/count` as const;
const AUTORENEW = `${ORG}/licenses/{id}/autorenew` as const;
const RENEW = `${ORG}/licenses/{id}/renew` as const;
const VALIDATE = `${ORG}/licenses/validate` as const;
const ACTIVATION = `${ORG}/licenses/activation` as const;
const EXPIRATION = `${ORG}/licenses/expirationDate` as const;
const DEVICE_LICENSES = `${ORG}/deviceLicenses` as const;
const INVOICES = `${ORG}/invoices` as const;
const TRANSACTIONS = `${ORG}/transactions` as const;
const TRANSACTION = `${ORG}/transaction/{id}` as const;
const EXECUTIONS = `${ORG}/transaction/{id}/executions` as const;
const EXECUTION = `${ORG}/transaction/{id}/execution/{n}` as const;

export type Summary = OkBody<LicensePaths, typeof SUMMARY, 'get'>;
export type ResourceSummary = Summary['resources'][number];
export type ResourceType = ResourceSummary['resourceType'];
export type SummaryByOrg = OkBody<LicensePaths, typeof SUMMARY_BY_ORG, 'get'>;
export type Aggregated = OkBody<LicensePaths, typeof AGGREGATED, 'get'>;
export type AggregatedByOrg = OkBody<LicensePaths, typeof AGGREGATED_BY_ORG, 'get'>;
export type JournalPage = OkBody<LicensePaths, typeof JOURNAL, 'get'>;
export type JournalEntry = JournalPage['items'][number];
export type HistoryPage = OkBody<LicensePaths, typeof HISTORY, 'get'>;
export type HistoryEntry = HistoryPage['items'][number];
export type TrialExpiration = OkBody<LicensePaths, typeof TRIAL, 'get'>;
export type LicensePage = OkBody<LicensePaths, typeof LICENSES, 'get'>;
export type License = LicensePage['items'][number];
export type LicenseStatus = License['status'];
export type Validation = OkBody<LicensePaths, typeof VALIDATE, 'get'>;
export type ExpirationDate = OkBody<LicensePaths, typeof EXPIRATION, 'get'>;
export type InvoicePage = OkBody<LicensePaths, typeof INVOICES, 'get'>;
export type Invoice = InvoicePage['items'][number];
export type TransactionPage = OkBody<LicensePaths, typeof TRANSACTIONS, 'get'>;
export type Transaction = TransactionPage['items'][number];
export type Execution = OkBody<LicensePaths, typeof EXECUTIONS, 'get'>['items'][number];
type DeviceLicenseStatus = NonNullable<
  NonNullable<LicensePaths[typeof DEVICE_LICENSES]['get']['parameters']['query']>['status']
>;

/** Every resource type, in the order the screens list them. */
export const RESOURCE_TYPES: readonly ResourceType[] = RESOURCE_CHOICES;

export type Range = { from: string; to: string };
export type Paging = { page: number; pageSize: number };

/** Query keys: every key holds the organization id, so entering another organization never shows stale data. */
export const usageKeys = {
  all: (org: string) => ['organization-usage', org] as const,
  summary: (org: string) => ['organization-usage', org, 'summary'] as const,
  summaryByOrg: (org: string) => ['organization-usage', org, 'summaryByOrg'] as const,
  trial: (org: string) => ['organization-usage', org, 'trial'] as const,
  expiration: (org: string) => ['organization-usage', org, 'expiration'] as const,
  licenses: (org: string, paging?: Paging) => ['organization-usage', org, 'licenses', paging] as const,
  licenseCounts: (org: string) => ['organization-usage', org, 'licenseCounts'] as const,
  deviceLicenses: (org: string) => ['organization-usage', org, 'deviceLicenses'] as const,
  invoices: (org: string, paging?: Paging) => ['organization-usage', org, 'invoices', paging] as const,
  transactions: (org: string, paging?: Paging) =>
    ['organization-usage', org, 'transactions', paging] as const,
  executions: (org: string, id: string) => ['organization-usage', org, 'executions', id] as const,
  aggregated: (org: string, query: object) => ['organization-usage', org, 'aggregated', query] as const,
  aggregatedByOrg: (org: string, query: object) =>
    ['organization-usage', org, 'aggregatedByOrg', query] as const,
  journal: (org: string, query: object) => ['organization-usage', org, 'journal', query] as const,
  history: (org: string, query: object) => ['organization-usage', org, 'history', query] as const,
};

const request = (token: string, signal?: AbortSignal) => ({ headers: bearer(token), signal });

/** Per resource type: allowance of the active licences, used and available. */
export function fetchSummary(token: string, org: string, signal?: AbortSignal): Promise<Summary> {
  return answer(licenseClient.GET(SUMMARY, { params: { path: { org } }, ...request(token, signal) }));
}

/** The summary of every direct sub-organization. */
export function fetchSummaryByOrg(token: string, org: string, signal?: AbortSignal): Promise<SummaryByOrg> {
  return answer(licenseClient.GET(SUMMARY_BY_ORG, { params: { path: { org } }, ...request(token, signal) }));
}

export function fetchTrial(token: string, org: string, signal?: AbortSignal): Promise<TrialExpiration> {
  return answer(licenseClient.GET(TRIAL, { params: { path: { org } }, ...request(token, signal) }));
}

export function fetchExpiration(token: string, org: string, signal?: AbortSignal): Promise<ExpirationDate> {
  return answer(licenseClient.GET(EXPIRATION, { params: { path: { org } }, ...request(token, signal) }));
}

/** The organization's licences, newest first (spec 9: 200 a page). */
export function fetchLicenses(
  token: string,
  org: string,
  paging: Paging & { search?: string },
  signal?: AbortSignal,
): Promise<LicensePage> {
  return answer(
    licenseClient.GET(LICENSES, { params: { path: { org }, query: paging }, ...request(token, signal) }),
  );
}

/** Spec 9: the licence count call is made with page size 1000. */
export const LICENSE_COUNT_PAGE_SIZE = 1000;
/** The statuses the licence counts show, in their order. */
export const LICENSE_STATUSES: readonly LicenseStatus[] = ['ACTIVE', 'ISSUED', 'EXPIRED', 'REVOKED'];

export type LicenseCounts = Record<LicenseStatus, number>;

/** How many licences of one status the organization holds (the licence count call). */
async function fetchLicenseCount(
  token: string,
  org: string,
  status: LicenseStatus,
  signal?: AbortSignal,
): Promise<number> {
  const query = { status, pageSize: LICENSE_COUNT_PAGE_SIZE };
  return (
    await answer(
      licenseClient.GET(LICENSE_COUNT, { params: { path: { org }, query }, ...request(token, signal) }),
    )
  ).count;
}

/** How many licences the organization holds in each status. */
export async function fetchLicenseCounts(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<LicenseCounts> {
  const count = (status: LicenseStatus) => fetchLicenseCount(token, org, status, signal);
  const [ACTIVE, ISSUED, EXPIRED, REVOKED] = await Promise.all([
    count('ACTIVE'),
    count('ISSUED'),
    count('EXPIRED'),
    count('REVOKED'),
  ]);
  return { ACTIVE, ISSUED, EXPIRED, REVOKED };
}

export function setAutorenew(token: string, org: string, id: string, autorenew: boolean) {
  return answer(
    licenseClient.PUT(AUTORENEW, { params: { path: { org, id } }, body: { autorenew }, ...request(token) }),
  );
}

export type Renewal = OkBody<LicensePaths, typeof RENEW, 'post'>;

/** Renews a licence by one term (charged to the organization); an expired one becomes active again. */
export function renewLicense(token: string, org: string, id: string): Promise<Renewal> {
  return answer(licenseClient.POST(RENEW, { params: { path: { org, id } }, ...request(token) }));
}

/** What a licence code is: can it be activated (ISSUED), is it in force, or neither. */
export function validateCode(token: string, org: string, licenseCode: string, signal?: AbortSignal) {
  return answer(
    licenseClient.GET(VALIDATE, {
      params: { path: { org }, query: { licenseCode } },
      ...request(token, signal),
    }),
  );
}

/** Activates a licence code for the organization: the licence becomes ACTIVE and its term starts. */
export function activateCode(token: string, org: string, licenseCode: string) {
  return answer(
    licenseClient.POST(ACTIVATION, { params: { path: { org } }, body: { licenseCode }, ...request(token) }),
  );
}

export type DeviceLicenseCounts = Record<DeviceLicenseStatus, number>;

/** How many device licences (activation keys) are available, active and expired (the lists' totals). */
export async function fetchDeviceLicenseCounts(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<DeviceLicenseCounts> {
  const count = async (status: DeviceLicenseStatus) =>
    (
      await answer(
        licenseClient.GET(DEVICE_LICENSES, {
          params: { path: { org }, query: { status, pageSize: 1 } },
          ...request(token, signal),
        }),
      )
    ).total;
  const [AVAILABLE, ACTIVE, EXPIRED] = await Promise.all([
    count('AVAILABLE'),
    count('ACTIVE'),
    count('EXPIRED'),
  ]);
  return { AVAILABLE, ACTIVE, EXPIRED };
}

export function fetchInvoices(
  token: string,
  org: string,
  paging: Paging,
  signal?: AbortSignal,
): Promise<InvoicePage> {
  return answer(
    licenseClient.GET(INVOICES, { params: { path: { org }, query: paging }, ...request(token, signal) }),
  );
}

export function fetchTransactions(
  token: string,
  org: string,
  paging: Paging,
  signal?: AbortSignal,
): Promise<TransactionPage> {
  return answer(
    licenseClient.GET(TRANSACTIONS, { params: { path: { org }, query: paging }, ...request(token, signal) }),
  );
}

export async function fetchExecutions(token: string, org: string, id: string, signal?: AbortSignal) {
  return (
    await answer(licenseClient.GET(EXECUTIONS, { params: { path: { org, id } }, ...request(token, signal) }))
  ).items;
}

export function revokeTransaction(token: string, org: string, id: string): Promise<Transaction> {
  return answer(licenseClient.DELETE(TRANSACTION, { params: { path: { org, id } }, ...request(token) }));
}

export function retryExecution(token: string, org: string, id: string, n: number): Promise<Execution> {
  return answer(licenseClient.POST(EXECUTION, { params: { path: { org, id, n } }, ...request(token) }));
}

export type AggregationQuery = Range & { bucket: 'day' | 'month'; type: ResourceType };

/** The journal summed per bucket for one resource type, with the running total at each bucket's end. */
export function fetchAggregated(
  token: string,
  org: string,
  query: AggregationQuery,
  signal?: AbortSignal,
): Promise<Aggregated> {
  return answer(
    licenseClient.GET(AGGREGATED, { params: { path: { org }, query }, ...request(token, signal) }),
  );
}

/** As fetchAggregated, for the organization itself and each direct sub-organization. */
export function fetchAggregatedByOrg(
  token: string,
  org: string,
  query: AggregationQuery,
  signal?: AbortSignal,
): Promise<AggregatedByOrg> {
  return answer(
    licenseClient.GET(AGGREGATED_BY_ORG, { params: { path: { org }, query }, ...request(token, signal) }),
  );
}

export type JournalQuery = Range & Paging & { type: ResourceType };

/** One page of the usage journal of a resource type, newest first. */
export function fetchJournal(
  token: string,
  org: string,
  query: JournalQuery,
  signal?: AbortSignal,
): Promise<JournalPage> {
  const { type, ...rest } = query;
  return answer(
    licenseClient.GET(JOURNAL, { params: { path: { org, type }, query: rest }, ...request(token, signal) }),
  );
}

/** One page of the subscription history (licence events), newest first. */
export function fetchHistory(
  token: string,
  org: string,
  query: Range & Paging,
  signal?: AbortSignal,
): Promise<HistoryPage> {
  return answer(licenseClient.GET(HISTORY, { params: { path: { org }, query }, ...request(token, signal) }));
}

/** The largest journal page the server gives: the export reads the range in pages of this size. */
export const EXPORT_PAGE_SIZE = 1000;

/**
 * Every journal entry of the range, page after page (newest first), reporting after each page how many were read
 * of how many. `signal` cancels between and during pages.
 */
export async function readWholeJournal(
  token: () => Promise<string>,
  org: string,
  query: Range & { type: ResourceType },
  onPage: (entries: JournalEntry[], fetched: number, total: number) => void,
  signal: AbortSignal,
): Promise<number> {
  let fetched = 0;
  for (let page = 0; ; page++) {
    const result = await fetchJournal(
      await token(),
      org,
      { ...query, page, pageSize: EXPORT_PAGE_SIZE },
      signal,
    );
    fetched += result.items.length;
    onPage(result.items, fetched, Math.max(result.total, fetched));
    if (result.items.length < EXPORT_PAGE_SIZE || fetched >= result.total) return fetched;
  }
}
