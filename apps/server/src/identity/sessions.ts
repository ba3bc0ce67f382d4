import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { oidcPayloads } from '../db/schema.ts';

type StoredSession = {
  accountId?: string;
  loginTs?: number;
  uid?: string;
  authorizations?: Record<string, { grantId?: string }>;
};

export type AccountSession = { id: string; startedAt: Date };

function sessionsOf(db: Db, accountId: string) {
  return db
    .select()
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`));
}

/** The live sign-in sessions of an account, identified by the `sid` its tokens carry. */
export async function accountSessions(db: Db, accountId: string): Promise<AccountSession[]> {
  const rows = await sessionsOf(db, accountId);
  return rows
    .filter((row) => !row.expiresAt || row.expiresAt.getTime() > Date.now())
    .map((row) => {
      const session = row.payload as StoredSession;
      return { id: row.uid ?? row.id, startedAt: new Date((session.loginTs ?? 0) * 1000) };
    });
}

/** Ends one session of the account and revokes its grants, so its refresh tokens stop working. */
export async function endAccountSession(db: Db, accountId: string, sessionId: string): Promise<boolean> {
  const rows = (await sessionsOf(db, accountId)).filter((row) => row.uid === sessionId);
  const [row] = rows;
  if (!row) return false;
  const grantIds = Object.values((row.payload as StoredSession).authorizations ?? {})
    .map((authorization) => authorization.grantId)
    .filter((grantId): grantId is string => typeof grantId === 'string');
  if (grantIds.length > 0) await db.delete(oidcPayloads).where(inArray(oidcPayloads.grantId, grantIds));
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Session'), eq(oidcPayloads.id, row.id)));
  return true;
}
