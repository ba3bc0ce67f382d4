import type { LicensePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, licenseClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

const CLIENTS = '/svc/license/api/v1/organizations/{org}/clients';
const CLIENT = '/svc/license/api/v1/organizations/{org}/clients/{client}';
const CLIENT_LICENSES = '/svc/license/api/v1/organizations/{org}/clients/{client}/licenses';
const ISSUED = '/svc/license/api/v1/organizations/{org}/issuedLicenses';
const ISSUED_RENEW = '/svc/license/api/v1/organizations/{org}/issuedLicenses/{id}/renew';
const ISSUED_AUTORENEW = '/svc/license/api/v1/organizations/{org}/issuedLicenses/{id}/autorenew';
const ISSUED_REVOKE = '/svc/license/api/v1/organizations/{org}/issuedLicenses/{id}/revoke';
const PRODUCTS = '/svc/license/api/v1/organizations/{org}/products';
const PRODUCT = '/svc/license/api/v1/organizations/{org}/products/{id}';
const VERSIONS = '/svc/license/api/v1/organizations/{org}/products/{id}/versions';
const CLIENT_INVOICES = '/svc/license/api/v1/organizations/{org}/clientInvoices';
const INVOICE_PAID = '/svc/license/api/v1/organizations/{org}/invoices/{id}/paid';
const CLIENT_DEVICE_LICENSES = '/svc/license/api/v1/organizations/{org}/clients/{client}/deviceLicenses';

export type ClientPage = OkBody<LicensePaths, typeof CLIENTS, 'get'>;
export type Client = ClientPage['items'][number];
export type ClientDetail = OkBody<LicensePaths, typeof CLIENT, 'get'>;
export type ClientResource = ClientDetail['resources'][number];
export type LicensePage = OkBody<LicensePaths, typeof ISSUED, 'get'>;
export type License = LicensePage['items'][number];
export type LicenseStatus = License['status'];
export type ResourceType = License['product']['resourceType'];
export type Renewal = OkBody<LicensePaths, typeof ISSUED_RENEW, 'post'>;
export type ProductPage = OkBody<LicensePaths, typeof PRODUCTS, 'get'>;
export type Product = ProductPage['items'][number];
export type ProductVersion = Product['current'];
export type ProductVersionList = OkBody<LicensePaths, typeof VERSIONS, 'get'>;
export type InvoicePage = OkBody<LicensePaths, typeof CLIENT_INVOICES, 'get'>;
export type Invoice = InvoicePage['items'][number];
export type InvoiceStatus = Invoice['status'];
export type DeviceLicensePage = OkBody<LicensePaths, typeof CLIENT_DEVICE_LICENSES, 'get'>;
export type DeviceLicense = DeviceLicensePage['items'][number];
export type DeviceLicenseStatus = DeviceLicense['status'];

export const RESOURCE_TYPES: readonly ResourceType[] = ['devices', 'users', 'dataPoints', 'vpnMinutes'];
export const LICENSE_STATUSES: readonly LicenseStatus[] = ['ISSUED', 'ACTIVE', 'EXPIRED', 'REVOKED'];

export type ClientInput = { name: string; iotEnabled: boolean; vpnEnabled: boolean };
export type IssueInput = { productId: string; quantity: number; activate: boolean; autorenew: boolean };
export type VersionInput = {
  quantity: number;
  termDays: number;
  priceMinor: number;
  currency: string;
  vpn: boolean;
};
export type ProductInput = VersionInput & {
  code: string;
  name: string;
  description: string;
  resourceType: ResourceType;
};
export type IssuedListRequest = PageRequest & { status?: LicenseStatus; clientId?: string };

// ---- Clients ----

export function fetchClients(token: string, org: string, request: PageRequest, signal?: AbortSignal) {
  return answer(
    licenseClient.GET(CLIENTS, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function createClient(token: string, org: string, input: ClientInput) {
  return answer(
    licenseClient.POST(CLIENTS, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export function fetchClient(token: string, org: string, client: string, signal?: AbortSignal) {
  return answer(
    licenseClient.GET(CLIENT, { params: { path: { org, client } }, headers: bearer(token), signal }),
  );
}

export function issueLicense(token: string, org: string, client: string, input: IssueInput) {
  return answer(
    licenseClient.POST(CLIENT_LICENSES, {
      params: { path: { org, client } },
      body: input,
      headers: bearer(token),
    }),
  );
}

// ---- Issued licences ----

export function fetchIssuedLicenses(
  token: string,
  org: string,
  request: IssuedListRequest,
  signal?: AbortSignal,
) {
  return answer(
    licenseClient.GET(ISSUED, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function renewLicense(token: string, org: string, id: string) {
  return answer(licenseClient.POST(ISSUED_RENEW, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function setAutorenew(token: string, org: string, id: string, autorenew: boolean) {
  return answer(
    licenseClient.PUT(ISSUED_AUTORENEW, {
      params: { path: { org, id } },
      body: { autorenew },
      headers: bearer(token),
    }),
  );
}

export function revokeLicense(token: string, org: string, id: string) {
  return answer(licenseClient.POST(ISSUED_REVOKE, { params: { path: { org, id } }, headers: bearer(token) }));
}

// ---- Products ----

/** Spec 9: the product list is one call of up to 10000 products. */
export const PRODUCT_LIST_SIZE = 10_000;
/** Spec 9: fetching every product reads them 200 a page. */
export const PRODUCT_PAGE_SIZE = 200;

const BY_CODE = { sort: 'code', order: 'asc' } as const;

/** The product list a licence is issued from (spec 9: one call of 10000), by code. */
export function fetchProducts(token: string, org: string, signal?: AbortSignal) {
  return answer(
    licenseClient.GET(PRODUCTS, {
      params: { path: { org }, query: { pageSize: PRODUCT_LIST_SIZE, ...BY_CODE } },
      headers: bearer(token),
      signal,
    }),
  );
}

/** Every product of the dealer, page after page (spec 9: 200 a page when fetching all), by code. */
export async function fetchAllProducts(token: string, org: string, signal?: AbortSignal): Promise<Product[]> {
  const all: Product[] = [];
  for (let page = 0; ; page++) {
    const result = await answer(
      licenseClient.GET(PRODUCTS, {
        params: { path: { org }, query: { page, pageSize: PRODUCT_PAGE_SIZE, ...BY_CODE } },
        headers: bearer(token),
        signal,
      }),
    );
    all.push(...result.items);
    if (result.items.length < PRODUCT_PAGE_SIZE || all.length >= result.total) return all;
  }
}

export function createProduct(token: string, org: string, input: ProductInput) {
  return answer(
    licenseClient.POST(PRODUCTS, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export async function deleteProduct(token: string, org: string, id: string): Promise<void> {
  await answer(licenseClient.DELETE(PRODUCT, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function fetchVersions(token: string, org: string, id: string, signal?: AbortSignal) {
  return answer(
    licenseClient.GET(VERSIONS, { params: { path: { org, id } }, headers: bearer(token), signal }),
  );
}

export function createVersion(token: string, org: string, id: string, input: VersionInput) {
  return answer(
    licenseClient.POST(VERSIONS, { params: { path: { org, id } }, body: input, headers: bearer(token) }),
  );
}

// ---- Invoices of the clients ----

export function fetchClientInvoices(
  token: string,
  org: string,
  request: { page: number; pageSize: number; organizationId?: string; status?: InvoiceStatus },
  signal?: AbortSignal,
) {
  return answer(
    licenseClient.GET(CLIENT_INVOICES, {
      params: { path: { org }, query: request },
      headers: bearer(token),
      signal,
    }),
  );
}

export function markInvoicePaid(token: string, org: string, id: string) {
  return answer(licenseClient.POST(INVOICE_PAID, { params: { path: { org, id } }, headers: bearer(token) }));
}

// ---- Activation keys of a client (the dealer issued them: read through the dealer, in full) ----

export function fetchClientDeviceLicenses(
  token: string,
  org: string,
  client: string,
  request: { page: number; pageSize: number; status?: DeviceLicenseStatus },
  signal?: AbortSignal,
) {
  return answer(
    licenseClient.GET(CLIENT_DEVICE_LICENSES, {
      params: { path: { org, client }, query: request },
      headers: bearer(token),
      signal,
    }),
  );
}
