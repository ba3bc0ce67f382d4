/** What gateway agents' tunnels read and write: the gateway's credentials and state, its log, agent endpoints. */
import { and, eq, not } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { type EndpointProtocol, gateways, vpnEndpoints } from '../../../db/schema.ts';
import { tunnelUp } from '../gateways/store.ts';

export type AgentGateway = {
  id: string;
  organizationId: string;
  name: string;
  agentSecretHash: string | null;
  lanNetwork: string | null;
};

export async function gatewayForAgent(db: Db, gatewayId: string): Promise<AgentGateway | undefined> {
  const [row] = await db
    .select({
      id: gateways.id,
      organizationId: gateways.organizationId,
      name: gateways.name,
      agentSecretHash: gateways.agentSecretHash,
      lanNetwork: gateways.lanNetwork,
    })
    .from(gateways)
    .where(eq(gateways.id, gatewayId));
  return row;
}

export async function markOnline(
  db: Db,
  gatewayId: string,
  state: { agentVersion: string; agentAddress: string; at: Date },
): Promise<void> {
  await db
    .update(gateways)
    .set({
      status: 'ONLINE',
      connectedAt: state.at,
      lastSeenAt: state.at,
      agentVersion: state.agentVersion,
      agentAddress: state.agentAddress,
    })
    .where(eq(gateways.id, gatewayId));
}

/** OFFLINE, unless a connection (on any instance) holds the gateway's tunnel again by now. */
export async function markOffline(db: Db, gatewayId: string, at: Date): Promise<void> {
  await db
    .update(gateways)
    .set({ status: 'OFFLINE', lastSeenAt: at })
    .where(and(eq(gateways.id, gatewayId), not(tunnelUp)));
}

export async function touchLastSeen(db: Db, gatewayId: string, at: Date): Promise<void> {
  await db.update(gateways).set({ lastSeenAt: at }).where(eq(gateways.id, gatewayId));
}

export async function setLanNetwork(db: Db, gatewayId: string, lanNetwork: string): Promise<void> {
  await db.update(gateways).set({ lanNetwork }).where(eq(gateways.id, gatewayId));
}

export async function insertAgentEndpoint(
  db: Db,
  gateway: Pick<AgentGateway, 'id' | 'organizationId'>,
  endpoint: { name: string; address: string; protocol: EndpointProtocol; port: number },
): Promise<void> {
  await db
    .insert(vpnEndpoints)
    .values({ ...endpoint, organizationId: gateway.organizationId, gatewayId: gateway.id, source: 'AGENT' })
    .onConflictDoNothing();
}

export async function updateAgentEndpoint(
  db: Db,
  gatewayId: string,
  endpointId: string,
  endpoint: { address: string; protocol: EndpointProtocol; port: number },
): Promise<void> {
  await db
    .update(vpnEndpoints)
    .set(endpoint)
    .where(
      and(
        eq(vpnEndpoints.id, endpointId),
        eq(vpnEndpoints.gatewayId, gatewayId),
        eq(vpnEndpoints.source, 'AGENT'),
      ),
    );
}
