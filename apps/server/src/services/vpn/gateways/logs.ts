import { and, desc, eq, gte, lt, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { gatewayLogs } from '../../../db/schema.ts';

export type GatewayLogEntry = {
  level?: 'INFO' | 'WARN' | 'ERROR';
  /** Noise (agent hello details, keep-alives): hidden unless asked for. */
  system?: boolean;
  detail?: Record<string, unknown>;
};

/** A gateway log line to write. */
export type GatewayLogLine = GatewayLogEntry & { message: string };

/** Writes lines of a gateway's log, at `at` (default now). Never put secrets in `detail`. */
export async function logGatewayLines(
  db: Db,
  gateway: { id: string; organizationId: string },
  lines: GatewayLogLine[],
  at?: Date,
): Promise<void> {
  if (lines.length === 0) return;
  await db.insert(gatewayLogs).values(
    lines.map((line) => ({
      organizationId: gateway.organizationId,
      gatewayId: gateway.id,
      message: line.message,
      level: line.level ?? 'INFO',
      system: line.system ?? false,
      detail: line.detail ?? {},
      ...(at && { at }),
    })),
  );
}

/** Writes one line of a gateway's log. */
export async function logGateway(
  db: Db,
  gateway: { id: string; organizationId: string },
  message: string,
  entry: GatewayLogEntry = {},
): Promise<void> {
  await logGatewayLines(db, gateway, [{ ...entry, message }]);
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
