import type { vpn } from '@edgeport/contract';
import { endpointAddressProblem, parseLanNetwork } from '@edgeport/tunnel-protocol';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { callerName, requireEndpoint, requireGateway, vpnOrganization } from './access.ts';
import { logGateway } from './logs.ts';
import { type EndpointRow, endpointByName } from './lookup.ts';
import * as store from './store.ts';

export const ENDPOINTS_RESOURCE = 'vpnEndpoints';

export function toEndpoint(row: EndpointRow, gatewayName: string, domain: string): vpn.Endpoint {
  return {
    id: row.id,
    name: row.name,
    gateway: gatewayName,
    gatewayId: row.gatewayId,
    domain,
    address: row.address,
    protocol: row.protocol,
    port: row.port,
    description: row.description,
    source: row.source,
  };
}

/** The endpoints of the domain (or of one gateway of it), paged; search matches names, address, description. */
export async function listEndpoints(
  db: Db,
  principal: Principal,
  request: { domain: string; gateway?: string; search?: string; page?: number; pageSize?: number },
) {
  const org = await vpnOrganization(db, principal, request.domain, 'READ');
  const gateway = request.gateway ? await requireGateway(db, org.id, request.gateway) : undefined;
  const page = request.page ?? 0;
  const pageSize = request.pageSize ?? 50;
  const result = await store.pageOfEndpoints(
    db,
    org.id,
    { gatewayId: gateway?.id, search: request.search },
    { offset: page * pageSize, pageSize },
  );
  return {
    items: result.items.map((row) => toEndpoint(row, row.gatewayName, org.resourceId)),
    total: result.total,
    page,
    pageSize,
  };
}

/**
 * Adds a machine of the gateway's LAN (CREATE devices): the address must be an IPv4 host inside the LAN and outside
 * the forbidden ranges (400 'body/address: ...'); a name the gateway already has is 409.
 */
export async function createEndpoint(db: Db, principal: Principal, input: vpn.EndpointCreate) {
  const org = await vpnOrganization(db, principal, input.domain, 'CREATE');
  const gateway = await requireGateway(db, org.id, input.gateway);
  const name = input.name.trim();
  if (!name) throw badRequest('body/name must not be blank');
  const lan = gateway.lanNetwork ? parseLanNetwork(gateway.lanNetwork) : undefined;
  const problem = endpointAddressProblem(input.address, lan);
  if (problem) throw badRequest(`body/address: ${problem}`);
  const taken = `name: gateway '${gateway.name}' already has an endpoint named '${name}'`;
  if (await endpointByName(db, gateway.id, name)) throw conflict(taken);
  let row: EndpointRow;
  try {
    row = await store.insertEndpoint(db, gateway, {
      name,
      address: input.address,
      protocol: input.protocol,
      port: input.port,
      description: input.description ?? '',
      source: 'PORTAL',
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(taken);
    throw error;
  }
  const detail = { gateway: gateway.name, address: row.address, protocol: row.protocol, port: row.port };
  await logGateway(db, gateway, `endpoint '${row.name}' added by ${callerName(principal)}`, { detail });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `${ENDPOINTS_RESOURCE}.create`,
    resourceType: ENDPOINTS_RESOURCE,
    resourceId: row.id,
    resourceName: row.name,
    detail,
  });
  return toEndpoint(row, gateway.name, org.resourceId);
}

/** Removes an endpoint of a gateway (DELETE devices). */
export async function deleteEndpoint(
  db: Db,
  principal: Principal,
  params: { endpointName: string; gateway: string; domain: string },
) {
  const org = await vpnOrganization(db, principal, params.domain, 'DELETE');
  const gateway = await requireGateway(db, org.id, params.gateway);
  const endpoint = await requireEndpoint(db, gateway, params.endpointName);
  await store.deleteEndpoint(db, endpoint.id);
  const detail = { gateway: gateway.name, address: endpoint.address, port: endpoint.port };
  await logGateway(db, gateway, `endpoint '${endpoint.name}' removed by ${callerName(principal)}`, {
    detail,
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `${ENDPOINTS_RESOURCE}.delete`,
    resourceType: ENDPOINTS_RESOURCE,
    resourceId: endpoint.id,
    resourceName: endpoint.name,
    detail,
  });
}
