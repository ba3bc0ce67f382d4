import { and, eq, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { oidcPayloads } from '../db/schema.ts';
import { signInRulesOf } from '../services/core/security-policies/service.ts';

type StoredSession = {
  accountId?: string;
  loginTs?: number;
  uid?: string;
  authorizations?: Record<string, { grantId?: string }>;
};

type StoredRefreshToken = { accountId?: string; sessionUid?: string; authTime?: number };

export type AccountSession = { id: string; startedAt: Date };

/** A live sign-in session as oidc-provider stores it: `id` is its cookie, `uid` the `sid` its tokens carry. */
export type LiveSession = { id: string; uid: string; accountId: string; loginTs: number; grantIds: string[] };

/** Why a session cannot back a token any more. */
export type SessionRefusal = 'ended' | 'tooOld';

function sessionsOf(db: Db, accountId: string) {
  return db
    .select()
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`));
}

/** oidc-provider writes expiry in real time, so it is read in real time too (not the test-movable clock). */
const unexpired = () => or(isNull(oidcPayloads.expiresAt), gt(oidcPayloads.expiresAt, new Date()));

async function findLiveSession(db: Db, ...where: SQL[]): Promise<LiveSession | undefined> {
  const [row] = await db
    .select()
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'Session'), ...where, unexpired()))
    .limit(1);
  if (!row) return undefined;
  const session = row.payload as StoredSession;
  if (typeof session.accountId !== 'string' || typeof session.loginTs !== 'number') return undefined;
  return {
    id: row.id,
    uid: row.uid ?? '',
    accountId: session.accountId,
    loginTs: session.loginTs,
    grantIds: Object.values(session.authorizations ?? {})
      .map((authorization) => authorization.grantId)
      .filter((grantId): grantId is string => typeof grantId === 'string'),
  };
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
  const session = await findLiveSession(
    db,
    eq(oidcPayloads.uid, sessionId),
    sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`,
  );
  if (!session) return false;
  await endSession(db, session);
  return true;
}

async function endSession(db: Db, session: LiveSession): Promise<void> {
  if (session.grantIds.length > 0)
    await db.delete(oidcPayloads).where(inArray(oidcPayloads.grantId, session.grantIds));
  await db.delete(oidcPayloads).where(and(eq(oidcPayloads.type, 'Session'), eq(oidcPayloads.id, session.id)));
}

/**
 * Whether a sign-in made at `loginTs` (epoch seconds) has outlived the shortest `maxSessionMinutes` of the
 * account's security policies at `now`.
 */
async function pastPolicyLifespan(db: Db, accountId: string, loginTs: number, now: Date): Promise<boolean> {
  const { maxSessionMinutes } = await signInRulesOf(db, accountId);
  return maxSessionMinutes > 0 && now.getTime() - loginTs * 1000 > maxSessionMinutes * 60_000;
}

/**
 * The session a token's `sid` names, if it is still live, belongs to the token's account and is within its
 * security policies' lifespan. A session past that lifespan is ended here, as Keycloak's SSO Session Max does,
 * so its cookie cannot sign in again without credentials either.
 */
export async function sessionOfToken(
  db: Db,
  sid: unknown,
  accountId: string,
  now: Date,
): Promise<LiveSession | SessionRefusal> {
  if (typeof sid !== 'string' || sid === '') return 'ended';
  const session = await findLiveSession(db, eq(oidcPayloads.uid, sid));
  if (!session || session.accountId !== accountId) return 'ended';
  if (await pastPolicyLifespan(db, accountId, session.loginTs, now)) {
    await endSession(db, session);
    return 'tooOld';
  }
  return session;
}

/**
 * Ends the session behind a refresh token when it has outlived its security policies' lifespan (measured from the
 * session's sign-in, or the token's authentication time when the session is gone). Answers whether it did.
 */
export async function endRefreshPastLifespan(db: Db, refreshToken: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ payload: oidcPayloads.payload })
    .from(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'RefreshToken'), eq(oidcPayloads.id, refreshToken)))
    .limit(1);
  const token = row?.payload as StoredRefreshToken | undefined;
  if (typeof token?.accountId !== 'string') return false;
  const session =
    typeof token.sessionUid === 'string'
      ? await findLiveSession(db, eq(oidcPayloads.uid, token.sessionUid))
      : undefined;
  const loginTs = session?.loginTs ?? token.authTime;
  if (typeof loginTs !== 'number' || !(await pastPolicyLifespan(db, token.accountId, loginTs, now)))
    return false;
  if (session) await endSession(db, session);
  await db
    .delete(oidcPayloads)
    .where(and(eq(oidcPayloads.type, 'RefreshToken'), eq(oidcPayloads.id, refreshToken)));
  return true;
}

/** Ends the session a `_session` cookie names when it has outlived its security policies' lifespan. */
export async function endCookieSessionPastLifespan(db: Db, cookie: string, now: Date): Promise<void> {
  const session = await findLiveSession(db, eq(oidcPayloads.id, cookie));
  if (session && (await pastPolicyLifespan(db, session.accountId, session.loginTs, now)))
    await endSession(db, session);
}
