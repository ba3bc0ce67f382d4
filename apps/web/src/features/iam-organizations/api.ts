import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../../shared/http/clients.ts';
import type { PageRequest } from '../../shared/ui/DataTable.tsx';

const ORGANIZATION = '/svc/core/api/v1/organizations/{org}';
const CHILDREN = '/svc/core/api/v1/organizations/{org}/organizations';
const IMPORT_TOKEN = '/svc/core/api/v1/organizations/{org}/importToken';
const IMPORT_TOKEN_INFO = '/svc/core/api/v1/organizations/importToken/{token}';
const POLICIES = '/svc/core/api/v1/organizations/{org}/securityPolicies';
const POLICY = '/svc/core/api/v1/organizations/{org}/securityPolicies/{id}';
const POLICY_DEVICES = '/svc/core/api/v1/organizations/{org}/securityPolicies/{id}/devices';
const POLICY_DEVICE = '/svc/core/api/v1/organizations/{org}/securityPolicies/{id}/devices/{dev}';
const DEVICE_SEARCH = '/svc/core/api/v1/organizations/{org}/devices/search';
const CLIENTS = '/svc/core/api/v1/organizations/{org}/clients';
const CLIENT = '/svc/core/api/v1/organizations/{org}/clients/{id}';
const CLIENT_SECRET = '/svc/core/api/v1/organizations/{org}/clients/{id}/secret';

export type OrganizationNode = OkBody<CorePaths, typeof ORGANIZATION, 'get'>;
export type ImportToken = OkBody<CorePaths, typeof IMPORT_TOKEN, 'post'>;
export type ImportTokenInfo = OkBody<CorePaths, typeof IMPORT_TOKEN_INFO, 'get'>;
export type PolicyPage = OkBody<CorePaths, typeof POLICIES, 'get'>;
export type SecurityPolicy = PolicyPage['items'][number];
export type PolicyRules = SecurityPolicy['rules'];
export type PolicyDevicePage = OkBody<CorePaths, typeof POLICY_DEVICES, 'get'>;
export type PolicyDevice = PolicyDevicePage['items'][number];
export type DevicePage = OkBody<CorePaths, typeof DEVICE_SEARCH, 'get'>;
export type ClientPage = OkBody<CorePaths, typeof CLIENTS, 'get'>;
export type ServiceClient = ClientPage['items'][number];
export type ClientSecret = OkBody<CorePaths, typeof CLIENT_SECRET, 'post'>;

export type OrganizationInput = { name: string; iotEnabled: boolean; vpnEnabled: boolean };
export type PolicyInput = { name: string; description: string; parentId: string | null; rules: PolicyRules };

export function fetchOrganization(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<OrganizationNode> {
  return answer(coreClient.GET(ORGANIZATION, { params: { path: { org } }, headers: bearer(token), signal }));
}

/** Every descendant of `org` (each with its parentId), in one call. */
export function fetchDescendants(
  token: string,
  org: string,
  signal?: AbortSignal,
): Promise<OrganizationNode[]> {
  return answer(
    coreClient.GET(CHILDREN, {
      params: { path: { org }, query: { recursive: true } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function createSubOrganization(
  token: string,
  parent: string,
  input: OrganizationInput,
  addDefaultRoles: boolean,
): Promise<OrganizationNode> {
  return answer(
    coreClient.POST(ORGANIZATION, {
      params: { path: { org: parent }, query: { addDefaultRoles } },
      body: input,
      headers: bearer(token),
    }),
  );
}

export function updateOrganization(
  token: string,
  org: string,
  changes: Partial<OrganizationInput>,
): Promise<OrganizationNode> {
  return answer(
    coreClient.PUT(ORGANIZATION, { params: { path: { org } }, body: changes, headers: bearer(token) }),
  );
}

export async function deleteOrganization(token: string, org: string): Promise<void> {
  await answer(coreClient.DELETE(ORGANIZATION, { params: { path: { org } }, headers: bearer(token) }));
}

export function createImportToken(token: string, org: string): Promise<ImportToken> {
  return answer(coreClient.POST(IMPORT_TOKEN, { params: { path: { org } }, headers: bearer(token) }));
}

export function fetchImportTokenInfo(token: string, importToken: string): Promise<ImportTokenInfo> {
  return answer(
    coreClient.GET(IMPORT_TOKEN_INFO, { params: { path: { token: importToken } }, headers: bearer(token) }),
  );
}

export function moveOrganization(token: string, org: string, importToken: string): Promise<OrganizationNode> {
  return answer(
    coreClient.POST('/svc/core/api/v1/organizations/{org}/move', {
      params: { path: { org } },
      body: { organizationImportToken: importToken },
      headers: bearer(token),
    }),
  );
}

export function fetchPolicies(
  token: string,
  org: string,
  request: PageRequest,
  signal?: AbortSignal,
): Promise<PolicyPage> {
  return answer(
    coreClient.GET(POLICIES, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function createPolicy(token: string, org: string, input: PolicyInput): Promise<SecurityPolicy> {
  return answer(
    coreClient.POST(POLICIES, { params: { path: { org } }, body: input, headers: bearer(token) }),
  );
}

export function updatePolicy(
  token: string,
  org: string,
  id: string,
  input: PolicyInput,
): Promise<SecurityPolicy> {
  return answer(
    coreClient.PUT(POLICY, { params: { path: { org, id } }, body: input, headers: bearer(token) }),
  );
}

export async function deletePolicy(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(POLICY, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function fetchPolicyDevices(
  token: string,
  org: string,
  id: string,
  signal?: AbortSignal,
): Promise<PolicyDevicePage> {
  return answer(
    coreClient.GET(POLICY_DEVICES, {
      params: { path: { org, id }, query: { pageSize: 200, sort: 'label' } },
      headers: bearer(token),
      signal,
    }),
  );
}

export async function assignPolicyDevice(token: string, org: string, id: string, dev: string): Promise<void> {
  await answer(
    coreClient.POST(POLICY_DEVICE, { params: { path: { org, id, dev } }, headers: bearer(token) }),
  );
}

export async function unassignPolicyDevice(
  token: string,
  org: string,
  id: string,
  dev: string,
): Promise<void> {
  await answer(
    coreClient.DELETE(POLICY_DEVICE, { params: { path: { org, id, dev } }, headers: bearer(token) }),
  );
}

export function searchDevices(
  token: string,
  org: string,
  q: string,
  signal?: AbortSignal,
): Promise<DevicePage> {
  return answer(
    coreClient.GET(DEVICE_SEARCH, {
      params: { path: { org }, query: { q, pageSize: 20 } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchClients(
  token: string,
  org: string,
  request: PageRequest,
  signal?: AbortSignal,
): Promise<ClientPage> {
  return answer(
    coreClient.GET(CLIENTS, { params: { path: { org }, query: request }, headers: bearer(token), signal }),
  );
}

export function createClient(token: string, org: string, name: string): Promise<ServiceClient> {
  return answer(
    coreClient.POST(CLIENTS, { params: { path: { org } }, body: { name }, headers: bearer(token) }),
  );
}

export async function deleteClient(token: string, org: string, id: string): Promise<void> {
  await answer(coreClient.DELETE(CLIENT, { params: { path: { org, id } }, headers: bearer(token) }));
}

export function regenerateClientSecret(token: string, org: string, id: string): Promise<ClientSecret> {
  return answer(coreClient.POST(CLIENT_SECRET, { params: { path: { org, id } }, headers: bearer(token) }));
}
