import type { OkBody, VpnPaths } from '@edgeport/api-client';
import { answer, bearer, vpnClient } from '../../shared/http/clients.ts';
import type { RemoteClientOs } from './client-os.ts';
import { serverClockOffset } from './server-clock.ts';

const GATEWAYS = '/svc/vpn2/api/v1/gateways/{domain}';
const GATEWAY = '/svc/vpn2/api/v1/gateways/{domain}/{gateway}';
const POSITION = '/svc/vpn2/api/v1/gateways/{domain}/{gateway}/position';
const CLONE = '/svc/vpn2/api/v1/gateways/{domain}/{gateway}/clone/{target}';
const EDGE_CONFIG = '/svc/vpn2/api/v1/gateways/{domain}/{gateway}/edge-config-file';
const LOGS = '/svc/vpn2/api/v1/gateways/{domain}/{gateway}/logs';
const RESET = '/svc/vpn2/api/v1/gateways/{gateway}/{orgResourceId}/resetVpnConnection';
const ENDPOINTS = '/svc/vpn2/api/v1/endpoints';
const PROFILES = '/svc/vpn2/api/v1/domains/{domain}/actionProfiles';
const JSON_ACTIONS = '/svc/vpn2/api/v1/connections/{org}/{gateway}/jsonActions';
const CONNECT = '/svc/vpn2/api/v1/connections/{org}/{gateway}/connect';
const DISCONNECT = '/svc/vpn2/api/v1/connections/{org}/{gateway}/disconnect';
const CHECK_OTP = '/svc/vpn2/api/v1/connections/{org}/{gateway}/checkotp';
const EXECUTE = '/svc/vpn2/api/v1/executeAction/{domain}';
const CREDENTIALS = '/svc/vpn2/api/v1/credentials/request';

export type GatewayPage = OkBody<VpnPaths, typeof GATEWAYS, 'get'>;
export type Gateway = OkBody<VpnPaths, typeof GATEWAY, 'get'>;
export type GatewayStatus = Gateway['status'];
/** A gateway and how far the server's clock is ahead of this computer's. */
export type GatewayDetail = Gateway & { clockOffset: number };
export type GatewayLogs = OkBody<VpnPaths, typeof LOGS, 'get'>;
export type GatewayLog = GatewayLogs['items'][number];
export type EndpointPage = OkBody<VpnPaths, typeof ENDPOINTS, 'post'>;
export type Endpoint = EndpointPage['items'][number];
export type ProfileList = OkBody<VpnPaths, typeof PROFILES, 'get'>;
export type Profile = ProfileList['items'][number];
export type JsonActions = OkBody<VpnPaths, typeof JSON_ACTIONS, 'get'>;
export type Opening = JsonActions['items'][number];
export type Connection = OkBody<VpnPaths, typeof CONNECT, 'get'>;
export type AccessGrant = OkBody<VpnPaths, typeof EXECUTE, 'get'>;
export type ResetAnswer = OkBody<VpnPaths, typeof RESET, 'get'>;
export type CheckOtpAnswer = OkBody<VpnPaths, typeof CHECK_OTP, 'get'>;

export type GatewayListRequest = {
  page: number;
  pageSize: number;
  search?: string;
  status?: GatewayStatus;
};
/** A page of gateways and how far the server's clock is ahead of this computer's (spec 7: the `Date` header). */
export type GatewayPageWithClock = GatewayPage & { clockOffset: number };
export type GatewayChanges = {
  description?: string;
  lanNetwork?: string | null;
  profileId?: string | null;
  ipFilter?: string[];
};
export type LogRange = { fromTimestamp?: number; toTimestamp?: number; showSystem: boolean };

export async function fetchGateways(
  token: string,
  domain: string,
  request: GatewayListRequest,
  signal?: AbortSignal,
): Promise<GatewayPageWithClock> {
  const query = { ...request, search: request.search || undefined };
  const result = await vpnClient.GET(GATEWAYS, {
    params: { path: { domain }, query },
    headers: bearer(token),
    signal,
  });
  const page = await answer(Promise.resolve(result));
  return { ...page, clockOffset: serverClockOffset(result.response.headers.get('date'), Date.now()) };
}

/** One gateway, with the server's clock like the list (its `Date` header). */
export async function fetchGateway(
  token: string,
  domain: string,
  gateway: string,
  signal?: AbortSignal,
): Promise<GatewayDetail> {
  const result = await vpnClient.GET(GATEWAY, {
    params: { path: { domain, gateway } },
    headers: bearer(token),
    signal,
  });
  const found = await answer(Promise.resolve(result));
  return { ...found, clockOffset: serverClockOffset(result.response.headers.get('date'), Date.now()) };
}

export function updateGateway(token: string, domain: string, gateway: string, changes: GatewayChanges) {
  return answer(
    vpnClient.PATCH(GATEWAY, {
      params: { path: { domain, gateway } },
      body: changes,
      headers: bearer(token),
    }),
  );
}

export function saveGatewayPosition(
  token: string,
  domain: string,
  gateway: string,
  position: { latitude: number; longitude: number },
) {
  return answer(
    vpnClient.POST(POSITION, {
      params: { path: { domain, gateway }, query: position },
      headers: bearer(token),
    }),
  );
}

export function cloneGateway(token: string, domain: string, gateway: string, target: string) {
  return answer(
    vpnClient.POST(CLONE, { params: { path: { domain, gateway, target } }, headers: bearer(token) }),
  );
}

/** The edge configuration file: its exact bytes and the name the server gives it (content-disposition). */
export async function fetchEdgeConfigFile(
  token: string,
  domain: string,
  gateway: string,
  activationKey: string,
): Promise<{ file: Blob; contentDisposition: string | null }> {
  const result = await vpnClient.POST(EDGE_CONFIG, {
    params: { path: { domain, gateway } },
    body: { activationKey },
    headers: bearer(token),
    parseAs: 'blob',
  });
  const file = await answer(Promise.resolve(result));
  return { file, contentDisposition: result.response.headers.get('content-disposition') };
}

export function fetchGatewayLogs(
  token: string,
  domain: string,
  gateway: string,
  range: LogRange,
  limit: number,
  signal?: AbortSignal,
) {
  return answer(
    vpnClient.GET(LOGS, {
      params: { path: { domain, gateway }, query: { ...range, limit } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function resetVpnConnection(token: string, orgResourceId: string, gateway: string) {
  return answer(
    vpnClient.GET(RESET, { params: { path: { gateway, orgResourceId } }, headers: bearer(token) }),
  );
}

/** The gateway's endpoints (the first 1000 by name). */
export function fetchGatewayEndpoints(token: string, domain: string, gateway: string, signal?: AbortSignal) {
  return answer(
    vpnClient.POST(ENDPOINTS, {
      body: { domain, gateway, page: 0, pageSize: 1000 },
      headers: bearer(token),
      signal,
    }),
  );
}

export function fetchProfiles(token: string, domain: string, signal?: AbortSignal) {
  return answer(vpnClient.GET(PROFILES, { params: { path: { domain } }, headers: bearer(token), signal }));
}

export function fetchJsonActions(
  token: string,
  org: string,
  gateway: string,
  clientOs: RemoteClientOs,
  signal?: AbortSignal,
) {
  return answer(
    vpnClient.GET(JSON_ACTIONS, {
      params: { path: { org, gateway }, query: { clientOs } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function connectGateway(
  token: string,
  org: string,
  gateway: string,
  options: { clientOs: RemoteClientOs; otp?: string },
) {
  return answer(
    vpnClient.GET(CONNECT, {
      params: { path: { org, gateway }, query: { ...options, onlyGateway: false } },
      headers: bearer(token),
    }),
  );
}

export function disconnectGateway(token: string, org: string, gateway: string) {
  return answer(
    vpnClient.GET(DISCONNECT, {
      params: { path: { org, gateway }, query: { onlyGateway: false } },
      headers: bearer(token),
    }),
  );
}

export function checkOtp(token: string, org: string, gateway: string, otp: string, signal?: AbortSignal) {
  return answer(
    vpnClient.GET(CHECK_OTP, {
      params: { path: { org, gateway }, query: { otp } },
      headers: bearer(token),
      signal,
    }),
  );
}

export function executeAction(
  token: string,
  domain: string,
  opening: { gatewayName: string; endpointName: string; actionName: string; clientOs: RemoteClientOs },
) {
  return answer(
    vpnClient.GET(EXECUTE, { params: { path: { domain }, query: opening }, headers: bearer(token) }),
  );
}

export function requestCredentials(
  token: string,
  request: { domain: string; gateway: string; endpoint: string; port: number; otp?: string },
) {
  return answer(vpnClient.POST(CREDENTIALS, { body: request, headers: bearer(token) }));
}
