import { and, eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { gateways, vpnEndpoints } from '../../../db/schema.ts';

/** Plain row readers other remote-access areas (sessions, tunnel) share; no permission checks here. */

export type GatewayRow = typeof gateways.$inferSelect;
export type EndpointRow = typeof vpnEndpoints.$inferSelect;

/** The organization's gateway of that name, or undefined. */
export async function gatewayByName(
  db: Db,
  organizationId: string,
  name: string,
): Promise<GatewayRow | undefined> {
  const [row] = await db
    .select()
    .from(gateways)
    .where(and(eq(gateways.organizationId, organizationId), eq(gateways.name, name)));
  return row;
}

/** The gateway with that id, or undefined. */
export async function gatewayById(db: Db, id: string): Promise<GatewayRow | undefined> {
  const [row] = await db.select().from(gateways).where(eq(gateways.id, id));
  return row;
}

/** The gateway's endpoint of that name, or undefined. */
export async function endpointByName(
  db: Db,
  gatewayId: string,
  name: string,
): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(vpnEndpoints)
    .where(and(eq(vpnEndpoints.gatewayId, gatewayId), eq(vpnEndpoints.name, name)));
  return row;
}

/** The gateway's endpoints by name. */
export async function endpointsOfGateway(db: Db, gatewayId: string): Promise<EndpointRow[]> {
  return db
    .select()
    .from(vpnEndpoints)
    .where(eq(vpnEndpoints.gatewayId, gatewayId))
    .orderBy(vpnEndpoints.name);
}
