import type { vpn } from '@edgeport/contract';
import {
  endpointAddressProblem,
  ipFilterEntryProblem,
  type LanNetwork,
  networkSize,
  parseLanNetwork,
} from '@edgeport/tunnel-protocol';
import { and, eq } from 'drizzle-orm';
import { baseOrigin, type Config } from '../../../config.ts';
import type { Db } from '../../../db/index.ts';
import { deviceLicenses } from '../../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import type { GatewayTunnels } from '../../../tunnel/hub.ts';
import { recordAudit } from '../../audit/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import { normalizeActivationKey } from '../../license/keys.ts';
import { newSecret, secretHash } from '../secrets.ts';
import { endGatewaySessions } from '../sessions/lifecycle.ts';
import { liveSessionsOf } from '../sessions/live.ts';
import { callerName, requireGateway, vpnOrganization } from './access.ts';
import { gatewayLogLines, logGateway } from './logs.ts';
import { endpointsOfGateway, type GatewayRow } from './lookup.ts';
import * as store from './store.ts';

export const GATEWAYS_RESOURCE = 'gateways';

export function toGateway(view: store.GatewayView, domain: string): vpn.Gateway {
  const lan = view.lanNetwork ? parseLanNetwork(view.lanNetwork) : undefined;
  return {
    id: view.id,
    name: view.name,
    domain,
    organizationId: view.organizationId,
    deviceId: view.deviceId,
    description: view.description,
    status: view.status,
    connectedAt: view.connectedAt?.toISOString() ?? null,
    lastSeenAt: view.lastSeenAt?.toISOString() ?? null,
    agentVersion: view.agentVersion,
    lanNetwork: view.lanNetwork,
    networkSize: lan ? networkSize(lan) : null,
    vpnIp: view.vpnIp,
    latitude: view.latitude,
    longitude: view.longitude,
    profileId: view.profileId,
    otpRequired: view.otpRequired,
    ipFilter: view.ipFilter,
    endpointCount: view.endpointCount,
    configured: view.agentSecretHash !== null,
  };
}

/** The gateway as answered, read again after a change. */
async function answerOf(db: Db, org: OrganizationRow, gatewayId: string): Promise<vpn.Gateway> {
  const view = await store.gatewayView(db, gatewayId);
  if (!view) throw notFound('gateway not found');
  return toGateway(view, org.resourceId);
}

async function audit(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  gateway: GatewayRow,
  verb: string,
  detail: Record<string, unknown>,
) {
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `${GATEWAYS_RESOURCE}.${verb}`,
    resourceType: GATEWAYS_RESOURCE,
    resourceId: gateway.id,
    resourceName: gateway.name,
    detail,
  });
}

/** The organization's gateways, paged by name; search matches name and description (READ devices). */
export async function listGateways(
  db: Db,
  principal: Principal,
  domain: string,
  query: { page?: number; pageSize?: number; search?: string; status?: 'ONLINE' | 'OFFLINE' },
) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? 50;
  const result = await store.pageOfGateways(
    db,
    org.id,
    { search: query.search, status: query.status },
    { offset: page * pageSize, pageSize },
  );
  return {
    items: result.items.map((view) => toGateway(view, org.resourceId)),
    total: result.total,
    page,
    pageSize,
  };
}

/** One gateway (READ devices). */
export async function getGateway(db: Db, principal: Principal, domain: string, name: string) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const gateway = await requireGateway(db, org.id, name);
  return answerOf(db, org, gateway.id);
}

/** Moves the gateway on the map: the position is its device's (UPDATE devices). */
export async function setPosition(
  db: Db,
  principal: Principal,
  domain: string,
  name: string,
  position: { latitude: number; longitude: number },
) {
  const org = await vpnOrganization(db, principal, domain, 'UPDATE');
  const gateway = await requireGateway(db, org.id, name);
  await store.setDevicePosition(db, gateway.deviceId, position.latitude, position.longitude);
  await logGateway(db, gateway, `position set by ${callerName(principal)}`, { detail: position });
  await audit(db, principal, org, gateway, 'position', { ...position, deviceId: gateway.deviceId });
  return answerOf(db, org, gateway.id);
}

/** The LAN of a patch, normalised; 400 naming the field for one that is not a usable IPv4 network. */
function lanOfPatch(value: string): LanNetwork {
  const lan = parseLanNetwork(value);
  if (!lan)
    throw badRequest(
      `body/lanNetwork: '${value}' is not a usable IPv4 network such as 192.168.10.0/24 (prefix 8 to 30, not ` +
        'loopback, link-local, multicast or reserved)',
    );
  return lan;
}

/**
 * Changes description, LAN network, profile or IP filter (UPDATE devices). A LAN that would leave endpoints outside
 * it is refused (409 naming them); the profile must be one of the organization's (404). A new LAN is told to the
 * gateway's connected agent.
 */
export async function patchGateway(
  db: Db,
  tunnels: GatewayTunnels,
  principal: Principal,
  domain: string,
  name: string,
  patch: vpn.GatewayPatch,
) {
  const org = await vpnOrganization(db, principal, domain, 'UPDATE');
  const gateway = await requireGateway(db, org.id, name);
  const changes: store.GatewayChanges = {};
  if (patch.description !== undefined) changes.description = patch.description;
  if (patch.lanNetwork !== undefined) {
    const lan = patch.lanNetwork === null ? undefined : lanOfPatch(patch.lanNetwork);
    const outside = (await endpointsOfGateway(db, gateway.id)).filter(
      (endpoint) => endpointAddressProblem(endpoint.address, lan) !== undefined,
    );
    if (outside.length > 0)
      throw conflict(
        `lanNetwork: the endpoints ${outside.map((endpoint) => `'${endpoint.name}'`).join(', ')} would lie ` +
          'outside it; move or delete them first',
      );
    changes.lanNetwork = lan?.cidr ?? null;
  }
  if (patch.ipFilter !== undefined) {
    patch.ipFilter.forEach((entry, index) => {
      const problem = ipFilterEntryProblem(entry);
      if (problem) throw badRequest(`body/ipFilter/${index}: ${problem}`);
    });
    changes.ipFilter = [...new Set(patch.ipFilter)];
  }
  if (patch.profileId !== undefined) {
    if (patch.profileId !== null && !(await store.profileInOrganization(db, org.id, patch.profileId)))
      throw notFound(`body/profileId: application profile '${patch.profileId}' not found`);
    changes.profileId = patch.profileId;
  }
  await store.updateGateway(db, gateway.id, changes);
  // The connected agent, wherever it is held, checks targets against the new LAN (when it has none of its own).
  if (changes.lanNetwork !== undefined && changes.lanNetwork !== gateway.lanNetwork)
    await tunnels.lanNetworkChanged(gateway.id, changes.lanNetwork);
  await logGateway(db, gateway, `configuration changed by ${callerName(principal)}`, {
    detail: { changed: Object.keys(changes) },
  });
  await audit(db, principal, org, gateway, 'update', {
    before: {
      description: gateway.description,
      lanNetwork: gateway.lanNetwork,
      profileId: gateway.profileId,
      ipFilter: gateway.ipFilter,
    },
    after: changes,
  });
  return answerOf(db, org, gateway.id);
}

/**
 * Copies the gateway's profile, IP filter and portal-made endpoints onto `target` (UPDATE devices). Endpoints that do
 * not fit the target's LAN, or whose name the target already has, are left out. Answers the target.
 */
export async function cloneGateway(
  db: Db,
  principal: Principal,
  domain: string,
  name: string,
  targetName: string,
) {
  const org = await vpnOrganization(db, principal, domain, 'UPDATE');
  const source = await requireGateway(db, org.id, name);
  const target = await requireGateway(db, org.id, targetName);
  if (source.id === target.id) throw badRequest('target: must be another gateway than the one cloned');
  const targetLan = target.lanNetwork ? parseLanNetwork(target.lanNetwork) : undefined;
  const copied: string[] = [];
  const skipped: string[] = [];
  await db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    await store.updateGateway(tx, target.id, { profileId: source.profileId, ipFilter: source.ipFilter });
    const taken = new Set((await endpointsOfGateway(tx, target.id)).map((endpoint) => endpoint.name));
    for (const endpoint of await endpointsOfGateway(tx, source.id)) {
      if (endpoint.source !== 'PORTAL') continue;
      if (taken.has(endpoint.name) || endpointAddressProblem(endpoint.address, targetLan) !== undefined) {
        skipped.push(endpoint.name);
        continue;
      }
      await store.insertEndpoint(tx, target, {
        name: endpoint.name,
        address: endpoint.address,
        protocol: endpoint.protocol,
        port: endpoint.port,
        description: endpoint.description,
        source: 'PORTAL',
      });
      copied.push(endpoint.name);
    }
  });
  const detail = { source: source.name, target: target.name, endpoints: copied, skipped };
  await logGateway(db, target, `configuration cloned from '${source.name}' by ${callerName(principal)}`, {
    detail,
  });
  await audit(db, principal, org, target, 'clone', detail);
  return answerOf(db, org, target.id);
}

/** Where agents connect: the public origin's host with ws:// or wss://, path /tunnel. */
export function tunnelUrlOf(config: Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain'>): string {
  const origin = new URL(baseOrigin(config));
  return `${config.publicScheme === 'https' ? 'wss' : 'ws'}://${origin.host}/tunnel`;
}

/** A file name safe in a content-disposition header: the gateway's name with anything unusual as '_'. */
export function edgeConfigFileName(gatewayName: string): string {
  return `edgeport-gateway-${gatewayName.replace(/[^A-Za-z0-9._-]/g, '_')}.json`;
}

/**
 * Issues the gateway agent's edge configuration file (UPDATE devices): `activationKey` must be the VPN device licence
 * of the gateway's device (404 otherwise). A new secret replaces the old one, whose tunnel is dropped.
 */
export async function edgeConfigFile(
  db: Db,
  config: Config,
  tunnels: GatewayTunnels,
  principal: Principal,
  domain: string,
  name: string,
  activationKey: string,
  now: Date,
): Promise<{ filename: string; file: vpn.EdgeConfigFile }> {
  const org = await vpnOrganization(db, principal, domain, 'UPDATE');
  const gateway = await requireGateway(db, org.id, name);
  const [licence] = await db
    .select({ id: deviceLicenses.id })
    .from(deviceLicenses)
    .where(
      and(
        eq(deviceLicenses.organizationId, org.id),
        eq(deviceLicenses.activationKey, normalizeActivationKey(activationKey)),
        eq(deviceLicenses.deviceId, gateway.deviceId),
        eq(deviceLicenses.vpn, true),
      ),
    );
  if (!licence) throw notFound('activationKey: not the activation key of this gateway');
  const secret = newSecret();
  await store.updateGateway(db, gateway.id, { agentSecretHash: secretHash(secret) });
  const dropped = await tunnels.drop(gateway.id, 'a new edge configuration file was issued');
  await logGateway(db, gateway, `edge configuration file issued by ${callerName(principal)}`, {
    detail: { replacedSecret: gateway.agentSecretHash !== null, tunnelDropped: dropped },
  });
  await audit(db, principal, org, gateway, 'edgeConfig', {
    licenseId: licence.id,
    replacedSecret: gateway.agentSecretHash !== null,
  });
  const server = baseOrigin(config);
  return {
    filename: edgeConfigFileName(gateway.name),
    file: {
      version: 1,
      server,
      tunnelUrl: tunnelUrlOf(config),
      gatewayId: gateway.id,
      secret,
      name: gateway.name,
      domain: org.resourceId,
      lanNetwork: gateway.lanNetwork,
      issuedAt: now.toISOString(),
    },
  };
}

/** The gateway's log, newest first: system lines only when asked, from inclusive, to exclusive (READ devices). */
export async function gatewayLogs(
  db: Db,
  principal: Principal,
  domain: string,
  name: string,
  query: { showSystem?: boolean; fromTimestamp?: number; toTimestamp?: number; limit?: number },
): Promise<{ items: vpn.GatewayLog[] }> {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const gateway = await requireGateway(db, org.id, name);
  if (
    query.fromTimestamp !== undefined &&
    query.toTimestamp !== undefined &&
    query.fromTimestamp > query.toTimestamp
  )
    throw badRequest('querystring/fromTimestamp must not be after querystring/toTimestamp');
  const rows = await gatewayLogLines(db, gateway.id, {
    showSystem: query.showSystem ?? false,
    from: query.fromTimestamp === undefined ? undefined : new Date(query.fromTimestamp),
    to: query.toTimestamp === undefined ? undefined : new Date(query.toTimestamp),
    limit: query.limit ?? 1000,
  });
  return {
    items: rows.map((row) => ({
      id: String(row.id),
      at: row.at.toISOString(),
      level: row.level,
      system: row.system,
      message: row.message,
      detail: row.detail,
    })),
  };
}

/** Drops the gateway's live tunnel; the agent reconnects by itself (UPDATE devices). */
export async function resetConnection(
  db: Db,
  tunnels: GatewayTunnels,
  principal: Principal,
  name: string,
  orgRef: string,
): Promise<{ gateway: string; reset: boolean }> {
  const org = await vpnOrganization(db, principal, orgRef, 'UPDATE');
  const gateway = await requireGateway(db, org.id, name);
  const who = callerName(principal);
  const reset = await tunnels.drop(gateway.id, `reset by ${who}`);
  // The streams broke with the tunnel: end the sessions now (audit, VPN minutes), not at the sweeper's next round.
  const sessionsEnded = await endGatewaySessions(
    db,
    liveSessionsOf(tunnels, db),
    gateway.id,
    'gateway reset',
  );
  await logGateway(db, gateway, `VPN connection reset by ${who}`, {
    level: 'WARN',
    detail: { tunnelDropped: reset, sessionsEnded },
  });
  await audit(db, principal, org, gateway, 'reset', { tunnelDropped: reset, sessionsEnded });
  return { gateway: gateway.name, reset };
}
