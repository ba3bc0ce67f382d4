import { and, eq, gt, lt, or } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { organizations, users, vpnLegacySessions } from '../../../db/schema.ts';
import { isUuid } from '../../../db/uuid.ts';
import type { Principal } from '../../../http/principal.ts';
import { type Account, checkPassword, findAccountByEmail } from '../../../identity/accounts.ts';
import { effectivePermissions } from '../../../identity/rpt.ts';
import type { TokenVerifier } from '../../../identity/verify.ts';
import { recordAudit } from '../../audit/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import { signInRulesOf } from '../../core/security-policies/service.ts';
import { newSecret, secretHash } from '../secrets.ts';

/** The legacy session lives this long after the login or the last keep-alive ping (the portal pings every 180 s). */
export const LEGACY_SESSION_MS = 10 * 60 * 1000;
export const LEGACY_COOKIE = 'edgeport_vpn_session';

export type LegacyLogin =
  | { outcome: 'ok'; token: string; expiresAt: Date; account: Account; organization: OrganizationRow }
  | { outcome: 'invalid' }
  | { outcome: 'refused' };

/** `{email}/{domain}`: the e-mail and the organization's resourceId (or id), split at the last '/'. */
export function parseLegacyUsername(username: string): { email: string; domain: string } | undefined {
  const at = username.lastIndexOf('/');
  if (at <= 0 || at === username.length - 1) return undefined;
  return { email: username.slice(0, at).trim(), domain: username.slice(at + 1).trim() };
}

/** The organizations `domain` may name: in the host's realm when it names one, else in any realm. */
async function organizationsNamed(db: Db, domain: string, realm: string | undefined) {
  const match = isUuid(domain)
    ? or(eq(organizations.id, domain), eq(organizations.resourceId, domain))
    : eq(organizations.resourceId, domain);
  return db
    .select()
    .from(organizations)
    .where(realm ? and(eq(organizations.realm, realm), match) : match)
    .limit(10);
}

const looksLikeJwt = (text: string) => /^[\w-]+\.[\w-]+\.[\w-]+$/.test(text);

/** The account when `password` is its password or one of its valid access tokens. */
async function authenticate(
  db: Db,
  verifyToken: TokenVerifier,
  realm: string,
  email: string,
  password: string,
  clientAddress: string,
): Promise<Account | 'locked' | undefined> {
  if (looksLikeJwt(password)) {
    const account = await findAccountByEmail(db, realm, email);
    try {
      const verified = await verifyToken(password, realm);
      if (account?.enabled && verified.realm === realm && verified.subject === account.id) return account;
    } catch {
      // not a valid token of this realm: try it as a password
    }
  }
  const check = await checkPassword(db, { realm, username: email, clientAddress }, password);
  if (check.outcome === 'ok') return (await needsSecondFactor(db, check.account)) ? undefined : check.account;
  return check.outcome === 'locked' ? 'locked' : undefined;
}

/**
 * A password alone must not open a session of an account that signs in with a one-time code (enrolled, or required
 * by its security policy): such a user signs in to the portal, which passes its access token as the password.
 */
async function needsSecondFactor(db: Db, account: Account): Promise<boolean> {
  if (account.totpSecret) return true;
  return (await signInRulesOf(db, account.id)).requireTotp;
}

/**
 * The legacy remote-access login: `username` = `{email}/{domain}`, `password` = the user's password or a valid access
 * token of theirs. The user must be a member of the domain's organization (or inherit rights into it) and the
 * organization must have VPN enabled. A new cookie session is stored (its hash only).
 */
export async function legacyLogin(
  db: Db,
  verifyToken: TokenVerifier,
  form: { username: string; password: string },
  hostRealm: string | undefined,
  clientAddress: string,
  now = new Date(),
): Promise<LegacyLogin> {
  const parsed = parseLegacyUsername(form.username);
  if (!parsed) return { outcome: 'invalid' };
  for (const organization of await organizationsNamed(db, parsed.domain, hostRealm)) {
    const account = await authenticate(
      db,
      verifyToken,
      organization.realm,
      parsed.email,
      form.password,
      clientAddress,
    );
    if (account === 'locked' || !account) continue;
    const { member } = await effectivePermissions(db, account.id, organization);
    if (!member || !organization.vpnEnabled) return { outcome: 'refused' };
    await db.delete(vpnLegacySessions).where(lt(vpnLegacySessions.expiresAt, now));
    const token = newSecret();
    const expiresAt = new Date(now.getTime() + LEGACY_SESSION_MS);
    await db.insert(vpnLegacySessions).values({
      tokenHash: secretHash(token),
      userId: account.id,
      organizationId: organization.id,
      expiresAt,
    });
    await recordAudit(db, principalOf(account, organization.id), {
      organizationId: organization.id,
      action: 'vpn.legacyLogin',
      resourceType: 'vpn',
      resourceId: account.id,
      resourceName: account.email,
    });
    return { outcome: 'ok', token, expiresAt, account, organization };
  }
  return { outcome: 'invalid' };
}

function principalOf(account: Account, organizationId: string): Principal {
  return {
    realm: account.realm,
    userId: account.id,
    token: { email: account.email, sub: account.id },
    organizationId,
  };
}

/** Keeps a live session for another LEGACY_SESSION_MS; undefined when the cookie names none. */
export async function legacyPing(db: Db, token: string | undefined, now = new Date()) {
  if (!token) return undefined;
  const expiresAt = new Date(now.getTime() + LEGACY_SESSION_MS);
  const [row] = await db
    .update(vpnLegacySessions)
    .set({ expiresAt })
    .where(and(eq(vpnLegacySessions.tokenHash, secretHash(token)), gt(vpnLegacySessions.expiresAt, now)))
    .returning({ userId: vpnLegacySessions.userId });
  return row ? { expiresAt } : undefined;
}

/** Ends the session the cookie names (if any). */
export async function legacyLogout(db: Db, token: string | undefined): Promise<void> {
  if (!token) return;
  const [ended] = await db
    .delete(vpnLegacySessions)
    .where(eq(vpnLegacySessions.tokenHash, secretHash(token)))
    .returning({ userId: vpnLegacySessions.userId, organizationId: vpnLegacySessions.organizationId });
  if (!ended) return;
  const [account] = await db.select().from(users).where(eq(users.id, ended.userId));
  if (!account) return;
  await recordAudit(db, principalOf(account, ended.organizationId), {
    organizationId: ended.organizationId,
    action: 'vpn.legacyLogout',
    resourceType: 'vpn',
    resourceId: account.id,
    resourceName: account.email,
  });
}
