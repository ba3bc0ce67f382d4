import { eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { vpnSessions } from '../../../db/schema.ts';
import { insertAuditRecord } from '../../audit/store.ts';
import { recordVpnUsage } from '../../license/subscriptions/journal.ts';
import { logGateway } from '../gateways/logs.ts';
import type { LiveSessions } from './live.ts';
import * as store from './store.ts';

/** Spec: a session ends after 30 minutes without traffic, or 12 hours after it started. */
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_MAX_MS = 12 * 60 * 60_000;
/** A connection without sessions ends after 30 minutes without one. */
export const CONNECTION_IDLE_MS = 30 * 60_000;

/** Whole minutes a session counts in VPN consumption: started minutes, at least one. */
export function sessionMinutes(startedAt: Date, endedAt: Date): number {
  return Math.max(1, Math.ceil((endedAt.getTime() - startedAt.getTime()) / 60_000));
}

/**
 * Ends sessions: breaks their live streams, writes end time, reason and last traffic, then the audit record
 * `vpn.session.end` (who, gateway, endpoint, client IP, seconds, bytes), the VPN minutes and a gateway log line.
 * A session another caller ended meanwhile is skipped. Answers how many this call ended.
 */
export async function endSessions(
  db: Db,
  live: LiveSessions,
  ids: string[],
  reason: string,
): Promise<number> {
  let ended = 0;
  for (const id of ids) {
    live.closeStreams(id);
    const row = await store.endSessionRow(db, id, reason, live.takePending(id));
    live.forget(id);
    if (!row?.endedAt) continue;
    await live.ended(id);
    ended += 1;
    await recordSessionEnd(db, row, reason);
  }
  return ended;
}

async function recordSessionEnd(db: Db, session: store.SessionRow, reason: string): Promise<void> {
  const endedAt = session.endedAt ?? new Date();
  const names = await store.sessionNames(db, session);
  const seconds = Math.round((endedAt.getTime() - session.startedAt.getTime()) / 1000);
  const minutes = sessionMinutes(session.startedAt, endedAt);
  const detail = {
    who: names?.email ?? session.userId,
    gateway: names?.gateway ?? session.gatewayId,
    endpoint: names?.endpoint ?? null,
    target: `${session.targetAddress}:${session.targetPort}`,
    kind: session.kind,
    clientIp: session.clientIp,
    seconds,
    minutes,
    bytesIn: session.bytesIn,
    bytesOut: session.bytesOut,
    reason,
  };
  // The record is the user's session; the reason says whether they or the platform ended it.
  await insertAuditRecord(db, {
    realm: names?.realm ?? '',
    organizationId: session.organizationId,
    actorId: session.userId,
    actorEmail: names?.email ?? '',
    action: 'vpn.session.end',
    resourceType: 'vpn',
    resourceId: session.id,
    resourceName: `${detail.gateway}/${detail.endpoint ?? detail.target}`,
    detail,
  });
  await recordVpnUsage(db, session.organizationId, minutes, session.id);
  await logGateway(db, { id: session.gatewayId, organizationId: session.organizationId }, 'session ended', {
    detail,
  });
}

/** Ends the open sessions matching `where`. */
export async function endSessionsWhere(
  db: Db,
  live: LiveSessions,
  where: SQL,
  reason: string,
): Promise<number> {
  return endSessions(db, live, await store.openSessionIds(db, where), reason);
}

/** Ends connections and every session opened under them; answers the connections this call ended. */
export async function endConnections(
  db: Db,
  live: LiveSessions,
  ids: string[],
  reason: string,
): Promise<{ connections: store.ConnectionRow[]; sessions: number }> {
  const connections = await store.endConnectionRows(db, ids, reason);
  const sessions =
    ids.length === 0 ? 0 : await endSessionsWhere(db, live, inArray(vpnSessions.connectionId, ids), reason);
  for (const connection of connections)
    await logGateway(
      db,
      { id: connection.gatewayId, organizationId: connection.organizationId },
      'connection ended',
      { detail: { connectionId: connection.id, userId: connection.userId, reason } },
    );
  return { connections, sessions };
}

/**
 * Ends every open session through a gateway (its tunnel was reset or lost: the streams are broken anyway). For the
 * gateway service's reset.
 */
export async function endGatewaySessions(
  db: Db,
  live: LiveSessions,
  gatewayId: string,
  reason: string,
): Promise<number> {
  return endSessionsWhere(db, live, eq(vpnSessions.gatewayId, gatewayId), reason);
}

/**
 * One round of the sweeper: writes pending traffic, then ends idle and old sessions, sessions through gateways
 * whose tunnel is down (the gateway's status, which every server instance shares), and idle connections.
 */
export async function sweep(
  db: Db,
  live: LiveSessions,
  now = new Date(),
): Promise<{ sessions: number; connections: number }> {
  await live.flushAll();
  const stale = await store.staleSessionIds(
    db,
    new Date(now.getTime() - SESSION_IDLE_MS),
    new Date(now.getTime() - SESSION_MAX_MS),
  );
  let sessions = 0;
  for (const entry of stale)
    sessions += await endSessions(db, live, [entry.id], entry.expired ? 'expired' : 'idle');
  sessions += await endSessions(db, live, await store.sessionIdsOnOfflineGateways(db), 'gateway offline');
  const idle = await store.idleConnectionIds(db, new Date(now.getTime() - CONNECTION_IDLE_MS));
  const { connections } = await endConnections(db, live, idle, 'idle');
  return { sessions, connections: connections.length };
}
