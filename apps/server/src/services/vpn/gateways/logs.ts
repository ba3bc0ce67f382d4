import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { gatewayLogs } from '../../../db/schema.ts';

export type GatewayLogEntry = {
  level?: 'INFO' | 'WARN' | 'ERROR';
  /** Noise (agent hello details, keep-alives): hidden unless asked for. */
  system?: boolean;
  detail?: Record<string, unknown>;
};

/** Writes one line of a gateway's log. Never put secrets in `detail`. */
export async function logGateway(
  db: Db,
  gateway: { id: string; organizationId: string },
  message: string,
  entry: GatewayLogEntry = {},
): Promise<void> {
  await db.insert(gatewayLogs).values({
    organizationId: gateway.organizationId,
    gatewayId: gateway.id,
    message,
    level: entry.level ?? 'INFO',
    system: entry.system ?? false,
    detail: entry.detail ?? {},
  });
}

export type GatewayLogFilter = {
  showSystem: boolean;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  limit: number;
};

/** A gateway's log lines, newest first. */
export async function gatewayLogLines(db: Db, gatewayId: string, filter: GatewayLogFilter) {
  const conditions: SQL[] = [eq(gatewayLogs.gatewayId, gatewayId)];
  if (!filter.showSystem) conditions.push(eq(gatewayLogs.system, false));
  if (filter.from) conditions.push(gte(gatewayLogs.at, filter.from));
  if (filter.to) conditions.push(lt(gatewayLogs.at, filter.to));
  return db
    .select()
    .from(gatewayLogs)
    .where(and(...conditions))
    .orderBy(desc(gatewayLogs.at), desc(gatewayLogs.id))
    .limit(filter.limit);
}
