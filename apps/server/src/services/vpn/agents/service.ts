/**
 * Gateway agents: who may open a tunnel (the `Gateway {id}:{secret}` header against `gateways.agentSecretHash`),
 * and what their tunnel's life does to the gateway (status, log, LAN network, agent-reported endpoints).
 */
import { endpointAddressProblem, type HelloMessage, parseLanNetwork } from '@edgeport/tunnel-protocol';
import type { Db } from '../../../db/index.ts';
import { type GatewayLogLine, logGatewayLines } from '../gateways/logs.ts';
import { endpointsOfGateway } from '../gateways/lookup.ts';
import { secretMatches } from '../secrets.ts';
import * as store from './store.ts';

export type { AgentGateway } from './store.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The gateway id claimed by an `Authorization: Gateway {id}:{secret}` header (whether or not the secret is right). */
export function claimedGateway(
  header: string | undefined,
): { gatewayId: string; secret: string } | undefined {
  const match = /^Gateway ([^:\s]+):(\S+)$/.exec(header?.trim() ?? '');
  if (!match?.[1] || !match[2] || !UUID.test(match[1])) return undefined;
  return { gatewayId: match[1].toLowerCase(), secret: match[2] };
}

export type AgentAuthentication =
  | { ok: true; gateway: store.AgentGateway }
  | { ok: false; reason: string; gateway?: store.AgentGateway };

/** Checks the agent's credentials. A refusal names the gateway only when the id was a real one (for its log). */
export async function authenticateAgent(db: Db, header: string | undefined): Promise<AgentAuthentication> {
  const claim = claimedGateway(header);
  if (!claim)
    return { ok: false, reason: 'missing or malformed Authorization: Gateway {gatewayId}:{secret}' };
  const gateway = await store.gatewayForAgent(db, claim.gatewayId);
  if (!gateway) return { ok: false, reason: 'unknown gateway' };
  if (!gateway.agentSecretHash)
    return { ok: false, reason: 'the gateway has no agent credentials yet', gateway };
  if (!secretMatches(claim.secret, gateway.agentSecretHash))
    return { ok: false, reason: 'wrong gateway secret (an older edge configuration file?)', gateway };
  return { ok: true, gateway };
}

/** A refused tunnel of a known gateway (the caller limits how often). */
export async function agentRefused(
  db: Db,
  gateway: store.AgentGateway,
  ip: string,
  reason: string,
  at: Date,
) {
  await logGatewayLines(
    db,
    gateway,
    [{ level: 'WARN', message: `Tunnel refused from ${ip}: ${reason}`, detail: { ip } }],
    at,
  );
}

/**
 * The agent said hello: the gateway is ONLINE, its LAN is the agent's when it reports one, and the endpoints it
 * reports are added (source AGENT) when they lie in that LAN. Answers the LAN the gateway has now.
 */
export async function agentRegistered(
  db: Db,
  gateway: store.AgentGateway,
  hello: HelloMessage,
  ip: string,
  at: Date,
): Promise<{ lanNetwork: string | null }> {
  const logs: GatewayLogLine[] = [];
  await store.markOnline(db, gateway.id, { agentVersion: hello.agentVersion, agentAddress: ip, at });
  logs.push({
    message: `Tunnel connected from ${ip} (agent ${hello.agentVersion})`,
    detail: { ip, agentVersion: hello.agentVersion },
  });
  const current = await store.gatewayForAgent(db, gateway.id);
  let lanNetwork = current?.lanNetwork ?? gateway.lanNetwork;
  if (hello.lanNetwork !== null) {
    const reported = parseLanNetwork(hello.lanNetwork);
    if (!reported)
      logs.push({
        level: 'WARN',
        message: `The agent reports a LAN that is not one: '${hello.lanNetwork}' (kept ${lanNetwork ?? 'none'})`,
      });
    else if (reported.cidr !== lanNetwork) {
      await store.setLanNetwork(db, gateway.id, reported.cidr);
      logs.push({
        system: true,
        message: `LAN network ${reported.cidr} reported by the agent${lanNetwork ? ` (was ${lanNetwork})` : ''}`,
        detail: { lanNetwork: reported.cidr, previous: lanNetwork },
      });
      lanNetwork = reported.cidr;
    }
  }
  if (hello.endpoints.length > 0) logs.push(...(await agentEndpoints(db, gateway, hello, lanNetwork)));
  await logGatewayLines(db, gateway, logs, at);
  return { lanNetwork };
}

async function agentEndpoints(
  db: Db,
  gateway: store.AgentGateway,
  hello: HelloMessage,
  lanNetwork: string | null,
): Promise<GatewayLogLine[]> {
  const logs: GatewayLogLine[] = [];
  const lan = lanNetwork ? parseLanNetwork(lanNetwork) : undefined;
  const existing = new Map((await endpointsOfGateway(db, gateway.id)).map((e) => [e.name, e]));
  const added: string[] = [];
  for (const endpoint of hello.endpoints) {
    const where = `${endpoint.name} (${endpoint.address}:${endpoint.port}/${endpoint.protocol})`;
    const problem = endpointAddressProblem(endpoint.address, lan);
    if (problem) {
      logs.push({
        level: 'WARN',
        message: `Endpoint ${where} reported by the agent was refused: ${problem}`,
      });
      continue;
    }
    const stored = existing.get(endpoint.name);
    if (!stored) {
      await store.insertAgentEndpoint(db, gateway, endpoint);
      added.push(where);
    } else if (stored.source === 'PORTAL') {
      if (
        stored.address !== endpoint.address ||
        stored.port !== endpoint.port ||
        stored.protocol !== endpoint.protocol
      )
        logs.push({
          level: 'WARN',
          system: true,
          message: `Endpoint ${where} reported by the agent differs from the portal's endpoint of that name (kept)`,
        });
    } else if (
      stored.address !== endpoint.address ||
      stored.port !== endpoint.port ||
      stored.protocol !== endpoint.protocol
    ) {
      await store.updateAgentEndpoint(db, gateway.id, stored.id, endpoint);
      added.push(where);
    }
  }
  if (added.length > 0)
    logs.push({ system: true, message: `Endpoints reported by the agent: ${added.join(', ')}`, detail: {} });
  return logs;
}

/** The tunnel closed: OFFLINE (unless `stillOnline`: another connection of the gateway replaced it). */
export async function agentDisconnected(
  db: Db,
  gateway: store.AgentGateway,
  reason: string,
  at: Date,
  { stillOnline = false }: { stillOnline?: boolean } = {},
): Promise<void> {
  if (!stillOnline) await store.markOffline(db, gateway.id, at);
  await logGatewayLines(
    db,
    gateway,
    [{ message: `Tunnel disconnected: ${reason}`, system: stillOnline }],
    at,
  );
}

export async function agentSeen(db: Db, gatewayId: string, at: Date): Promise<void> {
  await store.touchLastSeen(db, gatewayId, at);
}
