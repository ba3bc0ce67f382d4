import type { OkBody, VpnPaths } from '@edgeport/api-client';
import type { Organization } from '../../auth/organizations.ts';
import { answer, bearer, vpnClient } from '../../shared/http/clients.ts';
import type { EndpointFormValues } from './endpoint-form.ts';
import { endpointCreateBody } from './endpoint-form.ts';

const ENDPOINTS = '/svc/vpn2/api/v1/endpoints';
const ENDPOINT_CREATE = '/svc/vpn2/api/v1/endpoints/';
const ENDPOINT = '/svc/vpn2/api/v1/endpoints/{endpointName}/{gateway}/{domain}';
const GATEWAYS = '/svc/vpn2/api/v1/gateways/{domain}';

export type EndpointPage = OkBody<VpnPaths, typeof ENDPOINTS, 'post'>;
export type Endpoint = EndpointPage['items'][number];
export type GatewayPage = OkBody<VpnPaths, typeof GATEWAYS, 'get'>;
export type Gateway = GatewayPage['items'][number];

/** TanStack Query key roots: the endpoints lists, and the gateways the pickers offer. */
export const VPN_ENDPOINTS_KEY = 'vpn-endpoints';
export const VPN_GATEWAY_OPTIONS_KEY = 'vpn-gateway-options';

/** Spec 7's `{domain}`: the organization's resourceId (its id when it has none). */
export function domainOf(organization: Pick<Organization, 'id' | 'resourceId'>): string {
  return organization.resourceId || organization.id;
}

export type EndpointListRequest = { page: number; pageSize: number; search?: string; gateway?: string };

/** Spec 7: the list is a POST with the filter in the body. */
export function fetchEndpoints(
  token: string,
  domain: string,
  request: EndpointListRequest,
  signal?: AbortSignal,
): Promise<EndpointPage> {
  const body = {
    domain,
    page: request.page,
    pageSize: request.pageSize,
    ...(request.search && { search: request.search }),
    ...(request.gateway && { gateway: request.gateway }),
  };
  return answer(vpnClient.POST(ENDPOINTS, { body, headers: bearer(token), signal }));
}

export function createEndpoint(token: string, domain: string, values: EndpointFormValues): Promise<Endpoint> {
  return answer(
    vpnClient.POST(ENDPOINT_CREATE, { body: endpointCreateBody(domain, values), headers: bearer(token) }),
  );
}

export async function deleteEndpoint(token: string, domain: string, endpoint: Endpoint): Promise<void> {
  await answer(
    vpnClient.DELETE(ENDPOINT, {
      params: { path: { endpointName: endpoint.name, gateway: endpoint.gateway, domain } },
      headers: bearer(token),
    }),
  );
}

/** The gateways a picker offers: the first 1000 of the organization. */
export async function fetchGatewayOptions(
  token: string,
  domain: string,
  signal?: AbortSignal,
): Promise<Gateway[]> {
  const page = await answer(
    vpnClient.GET(GATEWAYS, {
      params: { path: { domain }, query: { page: 0, pageSize: 1000 } },
      headers: bearer(token),
      signal,
    }),
  );
  return page.items;
}
