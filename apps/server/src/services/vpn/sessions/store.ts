import { and, asc, eq, gt, inArray, isNull, lte, not, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import {
  gateways,
  organizations,
  users,
  vpnActionProfiles,
  vpnActions,
  vpnApplicationPasswords,
  vpnConnections,
  vpnEndpoints,
  vpnSessions,
} from '../../../db/schema.ts';
import { tunnelUp } from '../gateways/store.ts';

export type ConnectionRow = typeof vpnConnections.$inferSelect;
export type SessionRow = typeof vpnSessions.$inferSelect;
export type ActionRow = typeof vpnActions.$inferSelect;

// --- profiles and applications ----------------------------------------------------------------------------------

/** Whether the profile asks for a one-time password (false without a profile). */
export async function profileOtpRequired(db: Db, profileId: string | null): Promise<boolean> {
  if (!profileId) return false;
  const [row] = await db
    .select({ otpRequired: vpnActionProfiles.otpRequired })
    .from(vpnActionProfiles)
    .where(eq(vpnActionProfiles.id, profileId));
  return row?.otpRequired ?? false;
}

/** The applications of a profile, by name. */
export async function actionsOfProfile(db: Db, profileId: string | null): Promise<ActionRow[]> {
  if (!profileId) return [];
  return db
    .select()
    .from(vpnActions)
    .where(eq(vpnActions.profileId, profileId))
    .orderBy(asc(vpnActions.name));
}

// --- application passwords ---------------------------------------------------------------------------------------

export async function storedApplicationPassword(db: Db, userId: string, actionId: string) {
  const [row] = await db
    .select({ secret: vpnApplicationPasswords.secret })
    .from(vpnApplicationPasswords)
    .where(and(eq(vpnApplicationPasswords.userId, userId), eq(vpnApplicationPasswords.actionId, actionId)));
  return row?.secret;
}

export async function upsertApplicationPassword(
  db: Db,
  row: { organizationId: string; userId: string; actionId: string; secret: string },
): Promise<void> {
  await db
    .insert(vpnApplicationPasswords)
    .values(row)
    .onConflictDoUpdate({
      target: [vpnApplicationPasswords.userId, vpnApplicationPasswords.actionId],
      set: { secret: row.secret, organizationId: row.organizationId, updatedAt: new Date() },
    });
}

// --- connections -------------------------------------------------------------------------------------------------

/** The user's open connections to the gateway; `endpointId` narrows to one (null: the gateway-wide one). */
export async function openConnections(
  db: Db,
  userId: string,
  gatewayId: string,
  endpointId?: string | null,
): Promise<ConnectionRow[]> {
  const conditions: SQL[] = [
    eq(vpnConnections.userId, userId),
    eq(vpnConnections.gatewayId, gatewayId),
    isNull(vpnConnections.endedAt),
  ];
  if (endpointId === null) conditions.push(isNull(vpnConnections.endpointId));
  else if (endpointId !== undefined) conditions.push(eq(vpnConnections.endpointId, endpointId));
  return db
    .select()
    .from(vpnConnections)
    .where(and(...conditions))
    .orderBy(asc(vpnConnections.startedAt));
}

export async function insertConnection(
  db: Db,
  row: typeof vpnConnections.$inferInsert,
): Promise<ConnectionRow> {
  const [inserted] = await db.insert(vpnConnections).values(row).returning();
  if (!inserted) throw new Error('connection insert returned nothing');
  return inserted;
}

export async function markOtpVerified(db: Db, id: string): Promise<ConnectionRow | undefined> {
  const [row] = await db
    .update(vpnConnections)
    .set({ otpVerified: true })
    .where(eq(vpnConnections.id, id))
    .returning();
  return row;
}

/** Ends the given open connections; answers those this call ended. */
export async function endConnectionRows(db: Db, ids: string[], reason: string): Promise<ConnectionRow[]> {
  if (ids.length === 0) return [];
  return db
    .update(vpnConnections)
    .set({ endedAt: new Date(), endReason: reason })
    .where(and(inArray(vpnConnections.id, ids), isNull(vpnConnections.endedAt)))
    .returning();
}

/**
 * Open connections without an open session whose last activity (their start, or the end or last traffic of their
 * latest session) is before `idleSince`.
 */
export async function idleConnectionIds(db: Db, idleSince: Date): Promise<string[]> {
  const since = idleSince.toISOString();
  const rows = await db
    .select({ id: vpnConnections.id })
    .from(vpnConnections)
    .where(
      and(
        isNull(vpnConnections.endedAt),
        lte(vpnConnections.startedAt, idleSince),
        sql`not exists (select 1 from ${vpnSessions} s where s.connection_id = ${vpnConnections.id}
              and (s.ended_at is null or s.ended_at > ${since}::timestamptz
                   or s.last_activity_at > ${since}::timestamptz))`,
      ),
    );
  return rows.map((row) => row.id);
}

// --- sessions ----------------------------------------------------------------------------------------------------

export async function insertSession(db: Db, row: typeof vpnSessions.$inferInsert): Promise<SessionRow> {
  const [inserted] = await db.insert(vpnSessions).values(row).returning();
  if (!inserted) throw new Error('session insert returned nothing');
  return inserted;
}

/** A session with what serving it needs: its gateway (for the tunnel and the IP filter). */
export async function sessionWithGateway(db: Db, id: string) {
  const [row] = await db
    .select({ session: vpnSessions, gateway: gateways })
    .from(vpnSessions)
    .innerJoin(gateways, eq(gateways.id, vpnSessions.gatewayId))
    .where(eq(vpnSessions.id, id));
  return row;
}

/**
 * Uses a browser session's one-time ticket: when `ticketHash` is the session's unused, unexpired ticket, it is
 * spent and the session's secret becomes `newSecretHash` (the cookie). Answers the session, or undefined.
 */
export async function redeemTicket(db: Db, id: string, ticketHash: string, newSecretHash: string, now: Date) {
  const [row] = await db
    .update(vpnSessions)
    .set({ ticketHash: null, ticketExpiresAt: null, secretHash: newSecretHash })
    .where(
      and(
        eq(vpnSessions.id, id),
        eq(vpnSessions.ticketHash, ticketHash),
        gt(vpnSessions.ticketExpiresAt, now),
        isNull(vpnSessions.endedAt),
      ),
    )
    .returning();
  return row;
}

/** Ids of the open sessions matching `where` (besides being open). */
export async function openSessionIds(db: Db, where: SQL | undefined): Promise<string[]> {
  const rows = await db
    .select({ id: vpnSessions.id })
    .from(vpnSessions)
    .where(and(isNull(vpnSessions.endedAt), where));
  return rows.map((row) => row.id);
}

/** Open sessions idle since `idleSince` or started before `startedBefore`. */
export async function staleSessionIds(db: Db, idleSince: Date, startedBefore: Date) {
  const rows = await db
    .select({ id: vpnSessions.id, startedAt: vpnSessions.startedAt })
    .from(vpnSessions)
    .where(
      and(
        isNull(vpnSessions.endedAt),
        or(lte(vpnSessions.lastActivityAt, idleSince), lte(vpnSessions.startedAt, startedBefore)),
      ),
    );
  return rows.map((row) => ({ id: row.id, expired: row.startedAt <= startedBefore }));
}

/** Open sessions through gateways whose tunnel is down (their streams broke with it). */
export async function sessionIdsOnOfflineGateways(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: vpnSessions.id })
    .from(vpnSessions)
    .innerJoin(gateways, eq(gateways.id, vpnSessions.gatewayId))
    .where(and(isNull(vpnSessions.endedAt), not(tunnelUp)));
  return rows.map((row) => row.id);
}

/** Ends the given open session, adding its last traffic; answers it when this call ended it. */
export async function endSessionRow(
  db: Db,
  id: string,
  reason: string,
  traffic: { bytesIn: number; bytesOut: number; lastActivityAt: Date | undefined },
): Promise<SessionRow | undefined> {
  const [row] = await db
    .update(vpnSessions)
    .set({
      endedAt: new Date(),
      endReason: reason,
      bytesIn: sql`${vpnSessions.bytesIn} + ${traffic.bytesIn}`,
      bytesOut: sql`${vpnSessions.bytesOut} + ${traffic.bytesOut}`,
      ...(traffic.lastActivityAt
        ? {
            lastActivityAt: sql`greatest(${vpnSessions.lastActivityAt}, ${traffic.lastActivityAt.toISOString()}::timestamptz)`,
          }
        : {}),
    })
    .where(and(eq(vpnSessions.id, id), isNull(vpnSessions.endedAt)))
    .returning();
  return row;
}

/** What the end of a session records: names of its user, organization, gateway and endpoint. */
export async function sessionNames(db: Db, session: SessionRow) {
  const [row] = await db
    .select({
      realm: organizations.realm,
      email: users.email,
      gateway: gateways.name,
      endpoint: vpnEndpoints.name,
    })
    .from(vpnSessions)
    .innerJoin(organizations, eq(organizations.id, vpnSessions.organizationId))
    .innerJoin(users, eq(users.id, vpnSessions.userId))
    .innerJoin(gateways, eq(gateways.id, vpnSessions.gatewayId))
    .leftJoin(vpnEndpoints, eq(vpnEndpoints.id, vpnSessions.endpointId))
    .where(eq(vpnSessions.id, session.id));
  return row;
}
