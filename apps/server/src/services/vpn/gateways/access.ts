import type { Action } from '@edgeport/permissions';
import type { Db } from '../../../db/index.ts';
import { forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { authorizeInOrganization } from '../../core/organizations/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import { type EndpointRow, endpointByName, type GatewayRow, gatewayByName } from './lookup.ts';

export const VPN_DISABLED = 'VPN is not enabled for this organization';

/**
 * The organization `ref` once the caller may do `action` on devices there (remote access is part of the device
 * rights) and the organization has VPN enabled: unknown or foreign organization 404, missing right or VPN off 403.
 */
export async function vpnOrganization(
  db: Db,
  principal: Principal,
  ref: string,
  action: Action,
): Promise<OrganizationRow> {
  const org = await authorizeInOrganization(db, principal, ref, action, 'devices');
  if (!org.vpnEnabled) throw forbidden(VPN_DISABLED);
  return org;
}

/** The organization's gateway of that name; 404 naming it otherwise. */
export async function requireGateway(db: Db, organizationId: string, name: string): Promise<GatewayRow> {
  const gateway = await gatewayByName(db, organizationId, name);
  if (!gateway) throw notFound(`gateway '${name}' not found`);
  return gateway;
}

/** The gateway's endpoint of that name; 404 naming it otherwise. */
export async function requireEndpoint(db: Db, gateway: GatewayRow, name: string): Promise<EndpointRow> {
  const endpoint = await endpointByName(db, gateway.id, name);
  if (!endpoint) throw notFound(`endpoint '${name}' not found on gateway '${gateway.name}'`);
  return endpoint;
}

/** Who the caller is, for log lines: the token's e-mail, else its user name, else the user id. */
export function callerName(principal: Principal): string {
  const { email, preferred_username: username } = principal.token as {
    email?: unknown;
    preferred_username?: unknown;
  };
  if (typeof email === 'string' && email) return email;
  if (typeof username === 'string' && username) return username;
  return principal.userId;
}
