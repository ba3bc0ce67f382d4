import { setTimeout as sleep } from 'node:timers/promises';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../db/index.ts';
import { users } from '../db/schema.ts';
import { isUuid } from '../db/uuid.ts';

export const REQUIRED_ACTIONS = ['UPDATE_PASSWORD', 'CONFIGURE_TOTP'] as const;
export type RequiredAction = (typeof REQUIRED_ACTIONS)[number];

/** Brute-force protection: failures past the first are slowed, MAX_FAILURES locks the account for LOCK_SECONDS. */
export const LOGIN_POLICY = { maxFailures: 5, lockSeconds: 15 * 60, slowdownMsPerFailure: 400 } as const;

export type Account = typeof users.$inferSelect;

export type PasswordCheck =
  | { outcome: 'ok'; account: Account }
  | { outcome: 'invalid' }
  | { outcome: 'locked' }
  | { outcome: 'disabled' };

// Verifying against a real hash for unknown users keeps response times from telling which emails exist.
const decoyHash = hash('decoy-password-for-timing');

/** The standard claims of an account, as ID tokens and userinfo carry them. */
export function accountClaims(account: Account) {
  return {
    sub: account.id,
    email: account.email,
    email_verified: true,
    preferred_username: account.email,
    given_name: account.firstName,
    family_name: account.lastName,
    name: `${account.firstName} ${account.lastName}`.trim() || account.email,
    ...(account.locale ? { locale: account.locale } : {}),
  };
}

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function findAccount(db: Db, realm: string, id: string): Promise<Account | undefined> {
  if (!isUuid(id)) return undefined;
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.realm, realm), eq(users.id, id)));
  return row;
}

export async function findAccountByEmail(db: Db, realm: string, email: string): Promise<Account | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.realm, realm), eq(users.email, email.trim().toLowerCase())));
  return row;
}

export async function checkPassword(
  db: Db,
  realm: string,
  email: string,
  password: string,
): Promise<PasswordCheck> {
  const account = await findAccountByEmail(db, realm, email);
  if (!account?.passwordHash) {
    await verify(await decoyHash, password);
    return { outcome: 'invalid' };
  }
  if (account.lockedUntil && account.lockedUntil.getTime() > Date.now()) return { outcome: 'locked' };
  if (!(await verify(account.passwordHash, password))) {
    const failures = await recordFailure(db, account);
    if (failures >= LOGIN_POLICY.maxFailures) return { outcome: 'locked' };
    await sleep(LOGIN_POLICY.slowdownMsPerFailure * (failures - 1));
    return { outcome: 'invalid' };
  }
  if (!account.enabled) return { outcome: 'disabled' };
  if (account.failedLogins > 0 || account.lockedUntil) {
    await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, account.id));
  }
  return { outcome: 'ok', account };
}

async function recordFailure(db: Db, account: Account): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ failedLogins: sql`${users.failedLogins} + 1` })
    .where(eq(users.id, account.id))
    .returning({ failedLogins: users.failedLogins });
  const failures = row?.failedLogins ?? account.failedLogins + 1;
  if (failures >= LOGIN_POLICY.maxFailures) {
    await db
      .update(users)
      .set({ lockedUntil: new Date(Date.now() + LOGIN_POLICY.lockSeconds * 1000), failedLogins: 0 })
      .where(eq(users.id, account.id));
  }
  return failures;
}

export async function updatePassword(db: Db, accountId: string, password: string): Promise<void> {
  const passwordHash = await hashPassword(password);
  await completeRequiredAction(db, accountId, 'UPDATE_PASSWORD', {
    passwordHash,
    passwordChangeInvitation: false,
  });
}

/** Applies the changes the action made and removes the action from the account's list, in one update. */
async function completeRequiredAction(
  db: Db,
  accountId: string,
  done: RequiredAction,
  changes: Partial<typeof users.$inferInsert>,
): Promise<void> {
  await db
    .update(users)
    .set({ ...changes, requiredActions: sql`${users.requiredActions} - ${done}::text` })
    .where(eq(users.id, accountId));
}

export function totpFor(account: Pick<Account, 'email'>, issuer: string, secretBase32: string) {
  return new OTPAuth.TOTP({
    issuer,
    label: account.email,
    algorithm: 'SHA1',
    digits: 6,
    period: 30,
    secret: OTPAuth.Secret.fromBase32(secretBase32),
  });
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: 20 }).base32;
}

export function totpCodeIsValid(
  account: Pick<Account, 'email'>,
  secretBase32: string,
  code: string,
): boolean {
  const token = code.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(token)) return false;
  return totpFor(account, 'edgeport', secretBase32).validate({ token, window: 1 }) !== null;
}

export async function enrolTotp(db: Db, accountId: string, secretBase32: string): Promise<void> {
  await completeRequiredAction(db, accountId, 'CONFIGURE_TOTP', { totpSecret: secretBase32 });
}
