import { and, asc, count, eq, ilike, not, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { containsPattern } from '../../../db/paging.ts';
import { devices, gateways, vpnActionProfiles, vpnEndpoints } from '../../../db/schema.ts';
import type { EndpointRow, GatewayRow } from './lookup.ts';

/** A gateway with what its answer shows from elsewhere: the device's position, the profile's OTP rule, endpoints. */
export type GatewayView = GatewayRow & {
  latitude: number | null;
  longitude: number | null;
  otpRequired: boolean;
  endpointCount: number;
};

const endpointCount =
  sql<number>`(select count(*) from vpn_endpoints e where e.gateway_id = "gateways"."id")`.mapWith(Number);

/**
 * Whether the gateway's tunnel is up: a live lease in `gateway_leases`, whichever server instance holds it (the
 * `status` column follows it, but a dead instance cannot write OFFLINE; its lease simply expires).
 */
export const tunnelUp = sql<boolean>`exists (select 1 from gateway_leases l where l.gateway_id = "gateways"."id" and l.expires_at > now())`;

const leaseStatus = sql<'ONLINE' | 'OFFLINE'>`(case when ${tunnelUp} then 'ONLINE' else 'OFFLINE' end)`;

function viewQuery(db: Db) {
  return db
    .select({
      gateway: gateways,
      latitude: devices.latitude,
      longitude: devices.longitude,
      otpRequired: vpnActionProfiles.otpRequired,
      endpointCount,
      status: leaseStatus,
    })
    .from(gateways)
    .innerJoin(devices, eq(devices.id, gateways.deviceId))
    .leftJoin(vpnActionProfiles, eq(vpnActionProfiles.id, gateways.profileId));
}

type ViewRow = {
  gateway: GatewayRow;
  latitude: number | null;
  longitude: number | null;
  otpRequired: boolean | null;
  endpointCount: number;
  status: 'ONLINE' | 'OFFLINE';
};

function toView(row: ViewRow): GatewayView {
  return {
    ...row.gateway,
    status: row.status,
    latitude: row.latitude,
    longitude: row.longitude,
    otpRequired: row.otpRequired ?? false,
    endpointCount: row.endpointCount,
  };
}

export type GatewayFilter = { search?: string; status?: 'ONLINE' | 'OFFLINE' };

function gatewayConditions(organizationId: string, filter: GatewayFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [eq(gateways.organizationId, organizationId)];
  if (filter.search?.trim()) {
    const pattern = containsPattern(filter.search);
    conditions.push(or(ilike(gateways.name, pattern), ilike(gateways.description, pattern)));
  }
  if (filter.status) conditions.push(filter.status === 'ONLINE' ? tunnelUp : not(tunnelUp));
  return and(...conditions);
}

/** A page of the organization's gateways by name. */
export async function pageOfGateways(
  db: Db,
  organizationId: string,
  filter: GatewayFilter,
  window: { offset: number; pageSize: number },
): Promise<{ items: GatewayView[]; total: number }> {
  const where = gatewayConditions(organizationId, filter);
  const rows = await viewQuery(db)
    .where(where)
    .orderBy(asc(gateways.name), asc(gateways.id))
    .limit(window.pageSize)
    .offset(window.offset);
  const [total] = await db.select({ total: count() }).from(gateways).where(where);
  return { items: rows.map(toView), total: total?.total ?? 0 };
}

/** One gateway as shown, by id. */
export async function gatewayView(db: Db, gatewayId: string): Promise<GatewayView | undefined> {
  const [row] = await viewQuery(db).where(eq(gateways.id, gatewayId));
  return row ? toView(row) : undefined;
}

export type GatewayChanges = Partial<
  Pick<
    typeof gateways.$inferInsert,
    'description' | 'lanNetwork' | 'profileId' | 'ipFilter' | 'agentSecretHash'
  >
>;

export async function updateGateway(db: Db, gatewayId: string, changes: GatewayChanges): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.update(gateways).set(changes).where(eq(gateways.id, gatewayId));
}

/** Moves the gateway's device on the map. */
export async function setDevicePosition(db: Db, deviceId: string, latitude: number, longitude: number) {
  await db.update(devices).set({ latitude, longitude }).where(eq(devices.id, deviceId));
}

// --- endpoints ----------------------------------------------------------------------------------------------------

export type EndpointView = EndpointRow & { gatewayName: string };

export type EndpointFilter = { gatewayId?: string; search?: string };

/** A page of the organization's endpoints, by gateway name then endpoint name. */
export async function pageOfEndpoints(
  db: Db,
  organizationId: string,
  filter: EndpointFilter,
  window: { offset: number; pageSize: number },
): Promise<{ items: EndpointView[]; total: number }> {
  const conditions: (SQL | undefined)[] = [eq(vpnEndpoints.organizationId, organizationId)];
  if (filter.gatewayId) conditions.push(eq(vpnEndpoints.gatewayId, filter.gatewayId));
  if (filter.search?.trim()) {
    const pattern = containsPattern(filter.search);
    conditions.push(
      or(
        ilike(vpnEndpoints.name, pattern),
        ilike(vpnEndpoints.address, pattern),
        ilike(vpnEndpoints.description, pattern),
        ilike(gateways.name, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const rows = await db
    .select({ endpoint: vpnEndpoints, gatewayName: gateways.name })
    .from(vpnEndpoints)
    .innerJoin(gateways, eq(gateways.id, vpnEndpoints.gatewayId))
    .where(where)
    .orderBy(asc(gateways.name), asc(vpnEndpoints.name), asc(vpnEndpoints.id))
    .limit(window.pageSize)
    .offset(window.offset);
  const [total] = await db
    .select({ total: count() })
    .from(vpnEndpoints)
    .innerJoin(gateways, eq(gateways.id, vpnEndpoints.gatewayId))
    .where(where);
  return {
    items: rows.map((row) => ({ ...row.endpoint, gatewayName: row.gatewayName })),
    total: total?.total ?? 0,
  };
}

export type NewEndpoint = Pick<
  typeof vpnEndpoints.$inferInsert,
  'name' | 'address' | 'protocol' | 'port' | 'description' | 'source'
>;

export async function insertEndpoint(
  db: Db,
  gateway: { id: string; organizationId: string },
  endpoint: NewEndpoint,
): Promise<EndpointRow> {
  const [row] = await db
    .insert(vpnEndpoints)
    .values({ ...endpoint, organizationId: gateway.organizationId, gatewayId: gateway.id })
    .returning();
  if (!row) throw new Error('endpoint insert returned nothing');
  return row;
}

export async function deleteEndpoint(db: Db, endpointId: string): Promise<void> {
  await db.delete(vpnEndpoints).where(eq(vpnEndpoints.id, endpointId));
}

/** Whether the profile is one of the organization's. */
export async function profileInOrganization(db: Db, organizationId: string, profileId: string) {
  const [row] = await db
    .select({ id: vpnActionProfiles.id, name: vpnActionProfiles.name })
    .from(vpnActionProfiles)
    .where(and(eq(vpnActionProfiles.organizationId, organizationId), eq(vpnActionProfiles.id, profileId)));
  return row;
}
