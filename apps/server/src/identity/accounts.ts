import { isIPv6 } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { hash, verify } from '@node-rs/argon2';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import type { Db } from '../db/index.ts';
import { loginFailures, users } from '../db/schema.ts';
import { isUuid } from '../db/uuid.ts';

export const REQUIRED_ACTIONS = ['UPDATE_PASSWORD', 'CONFIGURE_TOTP'] as const;
export type RequiredAction = (typeof REQUIRED_ACTIONS)[number];

/**
 * Brute-force protection, after Keycloak's brute-force detection, but counted per realm, typed user name and client
 * address (login_failures) so that an unknown name behaves exactly like an existing one and an attacker elsewhere
 * slows only themselves, never the owner:
 * - every attempt reserves a failure in one statement before the password or code is checked, so a burst gets at
 *   most `maxFailures` evaluated; a completed sign-in clears the count;
 * - every `maxFailures`-th failure makes the name wait at that address: `waitIncrementSeconds`, doubling with each
 *   further round, at most `maxWaitSeconds`; a count idle for `failureResetSeconds` starts over;
 * - the failures of a round are slowed by `slowdownMsPerFailure` each, unknown names alike;
 * - wrong one-time codes count there too, and per account across all addresses (users.failed_logins/locked_until):
 *   only someone holding the password gets that far, so the account's second factor may lock (doubling waits up
 *   to `otpAccountMaxWaitSeconds`); a completed sign-in or a password reset lifts it;
 * - a sign-in ends after `otpFailuresPerSignIn` wrong codes: it starts again at the password.
 */
export const LOGIN_POLICY = {
  maxFailures: 5,
  waitIncrementSeconds: 60,
  maxWaitSeconds: 15 * 60,
  failureResetSeconds: 12 * 60 * 60,
  slowdownMsPerFailure: 400,
  otpFailuresPerSignIn: 3,
  otpFailuresPerAccount: 10,
  otpAccountMaxWaitSeconds: 24 * 60 * 60,
} as const;

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

/** Who tries to sign in, as the failure count keys it: the name as typed and the client's address. */
export type SignInAttempt = { realm: string; username: string; clientAddress: string };

export type CodeCheck = 'ok' | 'invalid' | 'locked';

/**
 * The password step. The attempt is counted before the password is looked at; unknown names, names without a
 * password and wrong passwords take the same path and time. A right password lifts the count, or, when a one-time
 * code is still to come, only takes this attempt back off it.
 */
export async function checkPassword(
  db: Db,
  attempt: SignInAttempt,
  password: string,
): Promise<PasswordCheck> {
  const key = failureKey(attempt);
  const count = await reserveAttempt(db, key);
  if (count === undefined) return { outcome: 'locked' };
  const account = await findAccountByEmail(db, attempt.realm, attempt.username);
  const passwordHash = account?.passwordHash ?? (await decoyHash);
  const right = await verify(passwordHash, password);
  if (!account?.passwordHash || !right) {
    await slowDown(count);
    return { outcome: 'invalid' };
  }
  if (account.totpSecret) await releaseAttempt(db, key);
  else await signInCompleted(db, key, account.id, account.failedLogins > 0 || account.lockedUntil !== null);
  if (!account.enabled) return { outcome: 'disabled' };
  return { outcome: 'ok', account };
}

/**
 * The one-time-code step: counted before the code is checked, for the name at this address and for the account
 * across all addresses; a right code completes the sign-in and lifts both counts.
 */
export async function checkOneTimeCode(
  db: Db,
  attempt: SignInAttempt,
  account: Account,
  code: string,
): Promise<CodeCheck> {
  const key = failureKey({ ...attempt, username: account.email });
  const count = await reserveAttempt(db, key);
  if (count === undefined) return 'locked';
  if (!(await reserveAccountCode(db, account.id))) {
    await releaseAttempt(db, key);
    return 'locked';
  }
  if (account.totpSecret && totpCodeIsValid(account, account.totpSecret, code)) {
    await signInCompleted(db, key, account.id, true);
    return 'ok';
  }
  await slowDown(count);
  return 'invalid';
}

type FailureKey = { realm: string; username: string; clientAddress: string };

function failureKey(attempt: SignInAttempt): FailureKey {
  return {
    realm: attempt.realm,
    // Longer than any e-mail address: cut, so a huge name cannot break the key's index.
    username: attempt.username.trim().toLowerCase().slice(0, 320),
    clientAddress: addressKey(attempt.clientAddress),
  };
}

/**
 * IPv6 clients are counted per /64: one host usually holds the whole prefix, and a count per address would give it
 * 2^64 fresh ones. IPv4-mapped addresses count as the IPv4 address.
 */
export function addressKey(address: string): string {
  const plain = address.replace(/%.*$/, '').toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(plain);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.split('::');
  const groupsOf = (part: string) =>
    part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : [];
  const left = groupsOf(head);
  const right = groupsOf(tail ?? '');
  const groups =
    tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => Number.parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

const matches = (key: FailureKey) =>
  and(
    eq(loginFailures.realm, key.realm),
    eq(loginFailures.username, key.username),
    eq(loginFailures.clientAddress, key.clientAddress),
  );

/** The lock that the `count`-th failure sets: doubling with each round of `perRound`, at most `maxWaitSeconds`. */
function lockAfter(count: SQL, perRound: number, maxWaitSeconds: number): SQL {
  const seconds = sql`least(${sql.raw(String(maxWaitSeconds))}, ${sql.raw(String(LOGIN_POLICY.waitIncrementSeconds))} * power(2, least(${count} / ${sql.raw(String(perRound))} - 1, 30)))`;
  return sql`case when ${count} % ${sql.raw(String(perRound))} = 0 then now() + make_interval(secs => ${seconds}) else null end`;
}

/**
 * Counts the attempt as a failure before it is evaluated, in one statement: the number of this attempt, or
 * undefined while the name is locked at this address (nothing counted, nothing to evaluate). The attempt that
 * completes a round sets the lock at once, so parallel attempts behind it find it.
 */
async function reserveAttempt(db: Db, key: FailureKey): Promise<number | undefined> {
  const idle = sql`${loginFailures.lastFailureAt} < now() - make_interval(secs => ${sql.raw(String(LOGIN_POLICY.failureResetSeconds))})`;
  const count = sql`((case when ${idle} then 0 else ${loginFailures.failures} end) + 1)`;
  const [row] = await db
    .insert(loginFailures)
    .values({ ...key, failures: 1, lastFailureAt: sql`now()` })
    .onConflictDoUpdate({
      target: [loginFailures.realm, loginFailures.username, loginFailures.clientAddress],
      set: {
        failures: count,
        lastFailureAt: sql`now()`,
        lockedUntil: lockAfter(count, LOGIN_POLICY.maxFailures, LOGIN_POLICY.maxWaitSeconds),
      },
      setWhere: sql`${loginFailures.lockedUntil} is null or ${loginFailures.lockedUntil} <= now()`,
    })
    .returning({ failures: loginFailures.failures });
  return row?.failures;
}

/** Takes back a reservation that turned out right (a password before its one-time code), with the lock it set. */
async function releaseAttempt(db: Db, key: FailureKey): Promise<void> {
  await db
    .update(loginFailures)
    .set({
      failures: sql`greatest(${loginFailures.failures} - 1, 0)`,
      lockedUntil: sql`case when ${loginFailures.failures} % ${sql.raw(String(LOGIN_POLICY.maxFailures))} = 0 then null else ${loginFailures.lockedUntil} end`,
    })
    .where(matches(key));
}

/** The account-wide count of wrong codes, reserved like `reserveAttempt`: false while the second factor is locked. */
async function reserveAccountCode(db: Db, accountId: string): Promise<boolean> {
  const count = sql`(${users.failedLogins} + 1)`;
  const [row] = await db
    .update(users)
    .set({
      failedLogins: count,
      lockedUntil: lockAfter(
        count,
        LOGIN_POLICY.otpFailuresPerAccount,
        LOGIN_POLICY.otpAccountMaxWaitSeconds,
      ),
    })
    .where(and(eq(users.id, accountId), sql`(${users.lockedUntil} is null or ${users.lockedUntil} <= now())`))
    .returning({ id: users.id });
  return row !== undefined;
}

/** Lifts the count of the name at this address and, when it holds any, the account's count of wrong codes. */
async function signInCompleted(
  db: Db,
  key: FailureKey,
  accountId: string,
  accountCounted: boolean,
): Promise<void> {
  await db.delete(loginFailures).where(matches(key));
  if (accountCounted) {
    await db.update(users).set({ failedLogins: 0, lockedUntil: null }).where(eq(users.id, accountId));
  }
}

async function slowDown(count: number): Promise<void> {
  await sleep(LOGIN_POLICY.slowdownMsPerFailure * ((count - 1) % LOGIN_POLICY.maxFailures));
}

/** Counts that no longer slow or lock anyone; the server sweeps them with the expired sessions. */
export async function sweepLoginFailures(db: Db): Promise<void> {
  await db
    .delete(loginFailures)
    .where(
      sql`${loginFailures.lastFailureAt} < now() - make_interval(secs => ${sql.raw(String(LOGIN_POLICY.failureResetSeconds))}) and (${loginFailures.lockedUntil} is null or ${loginFailures.lockedUntil} <= now())`,
    );
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
