import {
  createCipheriv,
  createDecipheriv,
  createHash,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { installSecret } from '../../identity/keys.ts';

/** A random secret (session, ticket, agent, legacy cookie): 32 bytes, base64url. Only its sha256 is stored. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** sha256 hex, as the remote-access secrets are stored. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** Whether `secret` hashes to the stored `hash` (constant time). */
export function secretMatches(secret: string, hash: string | null): boolean {
  if (!hash) return false;
  const given = Buffer.from(secretHash(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The companion CLI's token of a TCP session: `{sessionId}.{secret}`. */
export function sessionToken(sessionId: string, secret: string): string {
  return `${sessionId}.${secret}`;
}

const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([A-Za-z0-9_-]{16,128})$/;

/** The session id and secret of a token, or undefined when it is not shaped like one. */
export function parseSessionToken(token: string): { sessionId: string; secret: string } | undefined {
  const match = TOKEN.exec(token.trim());
  if (!match?.[1] || !match[2]) return undefined;
  return { sessionId: match[1], secret: match[2] };
}

// --- application passwords ---------------------------------------------------------------------------------------

/**
 * The key of stored application passwords: HKDF-SHA256 of an install secret (`install_secrets`, made once per
 * installation and shared by all instances through the database; the configuration has no secret of its own).
 */
async function applicationPasswordKey(db: Db): Promise<Buffer> {
  const secret = await installSecret(db, 'vpn-application-passwords');
  return Buffer.from(hkdfSync('sha256', secret, '', 'edgeport vpn application passwords v1', 32));
}

/** The additional data that binds a ciphertext to its row: another user's or application's row cannot reuse it. */
function boundTo(userId: string, actionId: string): Buffer {
  return Buffer.from(`${userId}:${actionId}`);
}

/** AES-256-GCM of `password`, stored as `iv.tag.ciphertext` (base64url). */
export async function sealApplicationPassword(
  db: Db,
  owner: { userId: string; actionId: string },
  password: string,
): Promise<string> {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', await applicationPasswordKey(db), iv);
  cipher.setAAD(boundTo(owner.userId, owner.actionId));
  const ciphertext = Buffer.concat([cipher.update(password, 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url')).join('.');
}

/** The password of a stored `iv.tag.ciphertext`, or undefined when it does not open (tampered, other key). */
export async function openApplicationPassword(
  db: Db,
  owner: { userId: string; actionId: string },
  sealed: string,
): Promise<string | undefined> {
  const [iv, tag, ciphertext] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
  if (!iv || !tag || !ciphertext || iv.length !== 12 || tag.length !== 16) return undefined;
  try {
    const decipher = createDecipheriv('aes-256-gcm', await applicationPasswordKey(db), iv);
    decipher.setAAD(boundTo(owner.userId, owner.actionId));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
