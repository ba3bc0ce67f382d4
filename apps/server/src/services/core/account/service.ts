import type { core } from '@edgeport/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { users } from '../../../db/schema.ts';
import { badRequest, forbidden, notFound, unauthorized } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { findAccount } from '../../../identity/accounts.ts';
import { accountSessions, endAccountSession } from '../../../identity/sessions.ts';

/**
 * The caller's own account, signed in. A personal API key acts for its owner inside one organization and is handed
 * out by that organization's administrators: it must not change the realm-wide account (issue 32, F1).
 */
async function accountOf(db: Db, principal: Principal) {
  if (principal.apiKeyId) throw forbidden('sign in to manage your account; an API key cannot');
  const account = await findAccount(db, principal.realm, principal.userId);
  if (!account) throw unauthorized('the account no longer exists');
  return account;
}

export async function myAccount(db: Db, principal: Principal): Promise<core.Account> {
  const account = await accountOf(db, principal);
  const currentSession = typeof principal.token.sid === 'string' ? principal.token.sid : undefined;
  const sessions = await accountSessions(db, account.id);
  return {
    id: account.id,
    email: account.email,
    firstName: account.firstName,
    lastName: account.lastName,
    locale: account.locale,
    credentials: [
      ...(account.passwordHash ? [{ id: 'password', type: 'password' as const }] : []),
      ...(account.totpSecret ? [{ id: 'otp', type: 'otp' as const }] : []),
    ],
    sessions: sessions.map((session) => ({
      id: session.id,
      startedAt: session.startedAt.toISOString(),
      current: session.id === currentSession,
    })),
  };
}

export async function updateMyAccount(db: Db, principal: Principal, changes: core.AccountUpdate) {
  const account = await accountOf(db, principal);
  if (Object.keys(changes).length > 0) await db.update(users).set(changes).where(eq(users.id, account.id));
  return myAccount(db, principal);
}

/** Removing the OTP credential turns two-factor sign-in off; the password cannot be removed. */
export async function removeCredential(db: Db, principal: Principal, id: string): Promise<void> {
  const account = await accountOf(db, principal);
  if (id === 'password') throw badRequest('id: the password credential cannot be removed');
  if (id !== 'otp' || !account.totpSecret) throw notFound(`credential '${id}' not found`);
  await db.update(users).set({ totpSecret: null }).where(eq(users.id, account.id));
}

export async function endSession(db: Db, principal: Principal, id: string): Promise<void> {
  const account = await accountOf(db, principal);
  if (!(await endAccountSession(db, account.id, id))) throw notFound(`session '${id}' not found`);
}
