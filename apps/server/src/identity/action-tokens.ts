import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { actionTokens, users } from '../db/schema.ts';
import type { RequiredAction } from './accounts.ts';

/** Keycloak's "execute actions" e-mail links live 72 hours by default; so do these. */
export const ACTION_TOKEN_TTL_HOURS = 72;

export type ActionTokenRow = typeof actionTokens.$inferSelect;

function hashOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * A one-time link token that lets the account run `actions` (set its password) without signing in. Only the
 * SHA-256 of the token is stored; the token itself travels in the e-mail. Earlier unused links of the account end.
 */
export async function issueActionToken(
  db: Db,
  input: { userId: string; actions: RequiredAction[]; redirectUri: string },
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + ACTION_TOKEN_TTL_HOURS * 3600 * 1000);
  // Only the newest link of an account works: a resent e-mail makes the earlier ones useless.
  await db
    .delete(actionTokens)
    .where(and(eq(actionTokens.userId, input.userId), isNull(actionTokens.usedAt)));
  await db.insert(actionTokens).values({
    tokenHash: hashOf(token),
    userId: input.userId,
    actions: input.actions,
    redirectUri: input.redirectUri,
    expiresAt,
  });
  return { token, expiresAt };
}

/** The address of the action-token page of a realm: `{realm origin}/auth/realms/{realm}/login-actions/action-token`. */
export function actionTokenLink(realmOrigin: string, realm: string, token: string): string {
  return `${realmOrigin}/auth/realms/${encodeURIComponent(realm)}/login-actions/action-token?key=${encodeURIComponent(token)}`;
}

/** The token and its account, when the token is unused, unexpired and belongs to an account of the realm. */
export async function usableActionToken(db: Db, realm: string, token: string) {
  if (!token || token.length > 200) return undefined;
  const [row] = await db
    .select({ token: actionTokens, account: users })
    .from(actionTokens)
    .innerJoin(users, eq(users.id, actionTokens.userId))
    .where(
      and(
        eq(actionTokens.tokenHash, hashOf(token)),
        eq(users.realm, realm),
        isNull(actionTokens.usedAt),
        gt(actionTokens.expiresAt, new Date()),
      ),
    );
  return row;
}

/** Marks the token used, once: a second caller (or a replay) gets undefined. */
export async function claimActionToken(db: Db, token: string): Promise<ActionTokenRow | undefined> {
  const [row] = await db
    .update(actionTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(actionTokens.tokenHash, hashOf(token)),
        isNull(actionTokens.usedAt),
        gt(actionTokens.expiresAt, new Date()),
      ),
    )
    .returning();
  return row;
}
