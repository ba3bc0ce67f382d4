import { vpn } from '@edgeport/contract';
import { clientAllowed } from '@edgeport/tunnel-protocol';
import { and, eq, isNull } from 'drizzle-orm';
import type { Static } from 'typebox';
import { baseOrigin, type Config, remoteOrigin } from '../../../config.ts';
import type { Db } from '../../../db/index.ts';
import { users, vpnSessions } from '../../../db/schema.ts';
import { conflict, forbidden, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { totpCodeIsValid } from '../../../identity/accounts.ts';
import type { GatewayTunnels } from '../../../tunnel/hub.ts';
import { recordAudit } from '../../audit/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import { isAuthorized } from '../../core/roles/service.ts';
import { actionNamed, findAction } from '../applications/store.ts';
import { callerName, requireEndpoint, requireGateway, vpnOrganization } from '../gateways/access.ts';
import { logGateway } from '../gateways/logs.ts';
import { type EndpointRow, endpointsOfGateway, type GatewayRow } from '../gateways/lookup.ts';
import {
  newSecret,
  openApplicationPassword,
  sealApplicationPassword,
  secretHash,
  sessionToken,
} from '../secrets.ts';
import { endConnections, endSessionsWhere, SESSION_MAX_MS } from './lifecycle.ts';
import { type LiveSessions, liveSessionsOf } from './live.ts';
import * as store from './store.ts';

/** What the sessions calls work with. */
export type SessionsContext = { db: Db; config: Config; tunnels: GatewayTunnels; live: LiveSessions };

export function sessionsContext(db: Db, config: Config, tunnels: GatewayTunnels): SessionsContext {
  return { db, config, tunnels, live: liveSessionsOf(tunnels, db) };
}

/** A browser-access ticket is valid this long, once. */
export const TICKET_MS = 60_000;
/** The application name that opens an endpoint with its own protocol and port. */
export const DEFAULT_ACTION = 'default';

const OS_CODES: Record<string, string> = { Linux: 'Lin', Win: 'Win', Mac: 'Mac' };

/** Whether an application is offered on a client system (`Linux`, `Win`, `Mac`, or a code; empty: any). */
export function fitsClientOs(action: { clientOs: string[] }, clientOs: string | undefined): boolean {
  if (!clientOs) return true;
  const code = OS_CODES[clientOs] ?? clientOs;
  return action.clientOs.length === 0 || action.clientOs.includes(code);
}

type Target = {
  protocol: 'HTTP' | 'HTTPS' | 'TCP';
  port: number;
  path: string;
  action: store.ActionRow | undefined;
};

// --- checks ------------------------------------------------------------------------------------------------------

/** The caller's VPN permission on the gateway: READ devices and a device role reaching it with vpn (or none). */
async function requireVpnPermission(db: Db, principal: Principal, org: OrganizationRow, gateway: GatewayRow) {
  const { authorized } = await isAuthorized(db, principal, org.id, {
    deviceId: gateway.deviceId,
    vpnName: gateway.name,
  });
  if (!authorized) throw forbidden(`vpn: remote access to gateway '${gateway.name}' is not granted`);
}

function requireClientAllowed(gateway: GatewayRow, clientIp: string) {
  if (!clientAllowed(clientIp, gateway.ipFilter))
    throw forbidden(`ipFilter: the client address ${clientIp} may not use gateway '${gateway.name}'`);
}

async function requireOnline(tunnels: GatewayTunnels, gateway: GatewayRow) {
  if (!(await tunnels.online(gateway.id))) throw conflict(`gateway: ${gateway.name} is offline`);
}

/** Checks the caller's one-time password (their TOTP): 403 naming `otp` when missing, not set up or wrong. */
async function verifyOtp(db: Db, userId: string, otp: string | undefined): Promise<void> {
  const [user] = await db
    .select({ email: users.email, totpSecret: users.totpSecret })
    .from(users)
    .where(eq(users.id, userId));
  if (!user?.totpSecret) throw forbidden('otp: set up two-factor sign-in first');
  if (!otp) throw forbidden('otp: this gateway needs a one-time password');
  if (!totpCodeIsValid(user, user.totpSecret, otp))
    throw forbidden('otp: the one-time password is not valid');
}

async function gatewayInOrganization(
  context: SessionsContext,
  principal: Principal,
  ref: string,
  gatewayName: string,
) {
  const org = await vpnOrganization(context.db, principal, ref, 'READ');
  const gateway = await requireGateway(context.db, org.id, gatewayName);
  return { org, gateway };
}

// --- answers -----------------------------------------------------------------------------------------------------

function toConnection(
  row: store.ConnectionRow,
  gateway: GatewayRow,
  endpoint: string | null,
): vpn.Connection {
  return {
    id: row.id,
    gateway: gateway.name,
    endpoint,
    status: row.endedAt ? 'DISCONNECTED' : 'CONNECTED',
    otpVerified: row.otpVerified,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

async function endpointNames(db: Db, gatewayId: string): Promise<Map<string, string>> {
  return new Map((await endpointsOfGateway(db, gatewayId)).map((row) => [row.id, row.name]));
}

// --- connections -------------------------------------------------------------------------------------------------

/** `jsonActions`: the endpoints × applications of the gateway's profile that fit the client system. */
export async function jsonActions(
  context: SessionsContext,
  principal: Principal,
  params: { org: string; gateway: string },
  clientOs: string | undefined,
): Promise<Static<typeof vpn.JsonActions>> {
  const { db, tunnels } = context;
  const { org, gateway } = await gatewayInOrganization(context, principal, params.org, params.gateway);
  await requireVpnPermission(db, principal, org, gateway);
  const endpoints = await endpointsOfGateway(db, gateway.id);
  const actions = (await store.actionsOfProfile(db, gateway.profileId)).filter((action) =>
    fitsClientOs(action, clientOs),
  );
  const items: Static<typeof vpn.JsonActions>['items'] = [];
  for (const endpoint of endpoints) {
    if (actions.length === 0)
      items.push({
        endpoint: endpoint.name,
        endpointId: endpoint.id,
        action: DEFAULT_ACTION,
        actionId: null,
        protocol: endpoint.protocol,
        port: endpoint.port,
        kind: endpoint.protocol === 'TCP' ? 'TCP' : 'BROWSER',
      });
    for (const action of actions)
      items.push({
        endpoint: endpoint.name,
        endpointId: endpoint.id,
        action: action.name,
        actionId: action.id,
        protocol: action.protocol,
        port: action.port,
        kind: action.protocol === 'TCP' ? 'TCP' : 'BROWSER',
      });
  }
  return {
    gateway: gateway.name,
    status: (await tunnels.online(gateway.id)) ? 'ONLINE' : 'OFFLINE',
    otpRequired: await store.profileOtpRequired(db, gateway.profileId),
    connected: (await store.openConnections(db, principal.userId, gateway.id)).length > 0,
    items,
  };
}

/** `connect`: opens (or reuses) the caller's connection to the gateway or one endpoint of it. */
export async function connect(
  context: SessionsContext,
  principal: Principal,
  params: { org: string; gateway: string; endpoint?: string },
  query: { clientOs?: string; otp?: string },
  clientIp: string,
): Promise<vpn.Connection> {
  const { db, tunnels } = context;
  const { org, gateway } = await gatewayInOrganization(context, principal, params.org, params.gateway);
  await requireVpnPermission(db, principal, org, gateway);
  const endpoint = params.endpoint ? await requireEndpoint(db, gateway, params.endpoint) : undefined;
  requireClientAllowed(gateway, clientIp);
  await requireOnline(tunnels, gateway);
  const otpRequired = await store.profileOtpRequired(db, gateway.profileId);
  if (otpRequired) await verifyOtp(db, principal.userId, query.otp);

  const [open] = await store.openConnections(db, principal.userId, gateway.id, endpoint?.id ?? null);
  if (open && (open.otpVerified || !otpRequired)) return toConnection(open, gateway, endpoint?.name ?? null);
  const connection = open
    ? ((await store.markOtpVerified(db, open.id)) ?? open)
    : await store.insertConnection(db, {
        organizationId: org.id,
        gatewayId: gateway.id,
        endpointId: endpoint?.id ?? null,
        userId: principal.userId,
        clientIp,
        clientOs: query.clientOs ?? '',
        otpVerified: otpRequired,
      });
  await recordConnect(context, principal, org, gateway, endpoint, connection, { reused: open !== undefined });
  return toConnection(connection, gateway, endpoint?.name ?? null);
}

async function recordConnect(
  context: SessionsContext,
  principal: Principal,
  org: OrganizationRow,
  gateway: GatewayRow,
  endpoint: EndpointRow | undefined,
  connection: store.ConnectionRow,
  extra: Record<string, unknown>,
) {
  const detail = {
    gateway: gateway.name,
    endpoint: endpoint?.name ?? null,
    clientIp: connection.clientIp,
    clientOs: connection.clientOs,
    otpVerified: connection.otpVerified,
    ...extra,
  };
  await recordAudit(context.db, principal, {
    organizationId: org.id,
    action: 'vpn.connect',
    resourceType: 'vpn',
    resourceId: connection.id,
    resourceName: endpoint ? `${gateway.name}/${endpoint.name}` : gateway.name,
    detail,
  });
  await logGateway(context.db, gateway, `connected: ${callerName(principal)}`, { detail });
}

/** `disconnect`: ends the caller's connections (all, or the gateway-wide one, or one endpoint's) and their sessions. */
export async function disconnect(
  context: SessionsContext,
  principal: Principal,
  params: { org: string; gateway: string; endpoint?: string },
  onlyGateway: boolean,
): Promise<Static<typeof vpn.DisconnectAnswer>> {
  const { db, live } = context;
  const { org, gateway } = await gatewayInOrganization(context, principal, params.org, params.gateway);
  const endpoint = params.endpoint ? await requireEndpoint(db, gateway, params.endpoint) : undefined;
  const scope = endpoint ? endpoint.id : onlyGateway ? null : undefined;
  const open = await store.openConnections(db, principal.userId, gateway.id, scope);
  const ended = await endConnections(
    db,
    live,
    open.map((row) => row.id),
    'disconnect',
  );
  let sessionsEnded = ended.sessions;
  // Sessions whose connection row is gone (or an endpoint's sessions under the gateway-wide connection).
  if (scope !== null) {
    const conditions = [eq(vpnSessions.userId, principal.userId), eq(vpnSessions.gatewayId, gateway.id)];
    if (endpoint) conditions.push(eq(vpnSessions.endpointId, endpoint.id));
    else conditions.push(isNull(vpnSessions.connectionId));
    const where = and(...conditions);
    if (where) sessionsEnded += await endSessionsWhere(db, live, where, 'disconnect');
  }
  const names = await endpointNames(db, gateway.id);
  const connections = ended.connections.map((row) =>
    toConnection(row, gateway, row.endpointId ? (names.get(row.endpointId) ?? null) : null),
  );
  if (connections.length > 0 || sessionsEnded > 0)
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'vpn.disconnect',
      resourceType: 'vpn',
      resourceId: gateway.id,
      resourceName: endpoint ? `${gateway.name}/${endpoint.name}` : gateway.name,
      detail: {
        gateway: gateway.name,
        endpoint: endpoint?.name ?? null,
        connections: connections.length,
        sessionsEnded,
        onlyGateway,
      },
    });
  return { gateway: gateway.name, connections, sessionsEnded };
}

/** `checkotp`: whether the code is the caller's current one-time password (nothing changes). */
export async function checkOtp(
  context: SessionsContext,
  principal: Principal,
  params: { org: string; gateway: string },
  otp: string,
): Promise<{ valid: boolean }> {
  const { db } = context;
  await gatewayInOrganization(context, principal, params.org, params.gateway);
  const [user] = await db
    .select({ email: users.email, totpSecret: users.totpSecret })
    .from(users)
    .where(eq(users.id, principal.userId));
  return { valid: Boolean(user?.totpSecret && totpCodeIsValid(user, user.totpSecret, otp)) };
}

// --- sessions ----------------------------------------------------------------------------------------------------

/**
 * The connection a new session runs under: an open one of the caller covering the endpoint (with a verified OTP
 * where the profile asks for one), else one opened now (verifying `otp` on the fly where needed).
 */
async function connectionForSession(
  context: SessionsContext,
  principal: Principal,
  org: OrganizationRow,
  gateway: GatewayRow,
  endpoint: EndpointRow,
  otp: string | undefined,
  clientIp: string,
): Promise<store.ConnectionRow> {
  const { db } = context;
  const otpRequired = await store.profileOtpRequired(db, gateway.profileId);
  const covering = (await store.openConnections(db, principal.userId, gateway.id)).filter(
    (row) => row.endpointId === null || row.endpointId === endpoint.id,
  );
  const usable = covering.filter((row) => row.otpVerified || !otpRequired);
  const found = usable.find((row) => row.endpointId === endpoint.id) ?? usable[0];
  if (found) return found;
  if (otpRequired) {
    if (otp === undefined) throw forbidden('otp: connect with a one-time password first');
    await verifyOtp(db, principal.userId, otp);
  }
  const connection = await store.insertConnection(db, {
    organizationId: org.id,
    gatewayId: gateway.id,
    endpointId: null,
    userId: principal.userId,
    clientIp,
    otpVerified: otpRequired,
  });
  await recordConnect(context, principal, org, gateway, undefined, connection, { opened: 'with a session' });
  return connection;
}

async function openSession(
  context: SessionsContext,
  principal: Principal,
  where: { org: OrganizationRow; gateway: GatewayRow; endpoint: EndpointRow },
  target: Target,
  otp: string | undefined,
  clientIp: string,
): Promise<vpn.AccessGrant> {
  const { db, tunnels, config } = context;
  const { org, gateway, endpoint } = where;
  requireClientAllowed(gateway, clientIp);
  await requireOnline(tunnels, gateway);
  const connection = await connectionForSession(context, principal, org, gateway, endpoint, otp, clientIp);
  const kind = target.protocol === 'TCP' ? 'TCP' : 'BROWSER';
  const secret = newSecret();
  const ticket = kind === 'BROWSER' ? newSecret() : undefined;
  const now = new Date();
  const session = await store.insertSession(db, {
    organizationId: org.id,
    gatewayId: gateway.id,
    endpointId: endpoint.id,
    connectionId: connection.id,
    userId: principal.userId,
    kind,
    protocol: target.protocol,
    targetAddress: endpoint.address,
    targetPort: target.port,
    clientIp,
    secretHash: secretHash(secret),
    ticketHash: ticket ? secretHash(ticket) : null,
    ticketExpiresAt: ticket ? new Date(now.getTime() + TICKET_MS) : null,
    startedAt: now,
    lastActivityAt: now,
  });
  const detail = {
    gateway: gateway.name,
    endpoint: endpoint.name,
    application: target.action?.name ?? DEFAULT_ACTION,
    kind,
    target: `${endpoint.address}:${target.port}`,
    clientIp,
  };
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'vpn.session.start',
    resourceType: 'vpn',
    resourceId: session.id,
    resourceName: `${gateway.name}/${endpoint.name}`,
    detail,
  });
  await logGateway(db, gateway, `session started: ${callerName(principal)}`, { detail });

  const grant: vpn.AccessGrant = {
    sessionId: session.id,
    kind,
    gateway: gateway.name,
    endpoint: endpoint.name,
    port: target.port,
    expiresAt: new Date(session.startedAt.getTime() + SESSION_MAX_MS).toISOString(),
  };
  if (ticket) {
    const path = target.path.replace(/^\/+/, '');
    // The session's own origin: the machine's page never runs in the portal's origin (see remoteOrigin).
    grant.url = `${remoteOrigin(config, session.id)}/remote/${session.id}/${path}${path.includes('?') ? '&' : '?'}${vpn.REMOTE_TICKET_PARAMETER}=${ticket}`;
  } else {
    const token = sessionToken(session.id, secret);
    grant.token = token;
    grant.command = `edgeport connect --server ${baseOrigin(config)} --token ${token} --local-port ${localPortFor(target.port)}`;
  }
  if (target.action) {
    const sealed = await store.storedApplicationPassword(db, principal.userId, target.action.id);
    const password = sealed
      ? await openApplicationPassword(db, { userId: principal.userId, actionId: target.action.id }, sealed)
      : undefined;
    if (password !== undefined) grant.applicationPassword = password;
  }
  return grant;
}

/** The local port suggested for forwarding: the machine's port, or 10000 + it for privileged ports. */
export function localPortFor(port: number): number {
  return port < 1024 ? 10_000 + port : port;
}

/** `executeAction`: opens an application of the gateway's profile (or `default`) on an endpoint. */
export async function executeAction(
  context: SessionsContext,
  principal: Principal,
  domain: string | undefined,
  query: Static<typeof vpn.ExecuteActionQuery>,
  clientIp: string,
): Promise<vpn.AccessGrant> {
  const { db } = context;
  const ref = domain ?? principal.organizationId;
  if (!ref) throw notFound('domain: the token was not issued for an organization; name it in the path');
  const { org, gateway } = await gatewayInOrganization(context, principal, ref, query.gatewayName);
  await requireVpnPermission(db, principal, org, gateway);
  const endpoint = await requireEndpoint(db, gateway, query.endpointName);
  const target = await applicationTarget(db, org, gateway, endpoint, query.actionName);
  return openSession(context, principal, { org, gateway, endpoint }, target, undefined, clientIp);
}

async function applicationTarget(
  db: Db,
  org: OrganizationRow,
  gateway: GatewayRow,
  endpoint: EndpointRow,
  name: string,
): Promise<Target> {
  const action = await actionNamed(db, org.id, name);
  if (!action) {
    if (name === DEFAULT_ACTION)
      return { protocol: endpoint.protocol, port: endpoint.port, path: '/', action };
    throw notFound(`application '${name}' not found`);
  }
  if (!gateway.profileId || action.profileId !== gateway.profileId)
    throw notFound(`application '${name}' is not offered on gateway '${gateway.name}' (not in its profile)`);
  return { protocol: action.protocol, port: action.port, path: action.path || '/', action };
}

/** `credentials/request`: TCP forwarding of any port of an endpoint (the vpnTcpOption flag). */
export async function requestCredentials(
  context: SessionsContext,
  principal: Principal,
  body: Static<typeof vpn.CredentialsRequest>,
  clientIp: string,
): Promise<vpn.AccessGrant> {
  const { db } = context;
  const { org, gateway } = await gatewayInOrganization(context, principal, body.domain, body.gateway);
  await requireVpnPermission(db, principal, org, gateway);
  const endpoint = await requireEndpoint(db, gateway, body.endpoint);
  return openSession(
    context,
    principal,
    { org, gateway, endpoint },
    { protocol: 'TCP', port: body.port, path: '/', action: undefined },
    body.otp,
    clientIp,
  );
}

/** `setApplicationPassword`: stores the caller's password of an application, encrypted. */
export async function setApplicationPassword(
  context: SessionsContext,
  principal: Principal,
  body: Static<typeof vpn.SetApplicationPassword>,
): Promise<void> {
  const { db } = context;
  const org = await vpnOrganization(db, principal, body.domain, 'READ');
  const action = await findAction(db, org.id, body.actionId);
  if (!action) throw notFound(`application '${body.actionId}' not found`);
  const owner = { userId: principal.userId, actionId: action.id };
  await store.upsertApplicationPassword(db, {
    organizationId: org.id,
    ...owner,
    secret: await sealApplicationPassword(db, owner, body.password),
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'vpn.applicationPassword.set',
    resourceType: 'vpn',
    resourceId: action.id,
    resourceName: action.name,
  });
}
