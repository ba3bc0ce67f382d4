import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { deviceCredentials, deviceLicenses, devices } from '../../db/schema.ts';

/** Every device secret starts with this, so a leaked one is easy to recognise (and to scan for). */
export const DEVICE_SECRET_PREFIX = 'eps_';

export type IssuedCredentials = { username: string; password: string };
export type VerifiedDevice = { deviceId: string; organizationId: string };

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A hash that no secret has, compared against when the user name is unknown so both paths take the same time. */
const NO_SECRET_HASH = sha256Hex(randomBytes(32).toString('hex'));

/**
 * Issues (or replaces) the MQTT credentials of a device: the user name is the device id, the secret is `eps_` and 32
 * random bytes (base64url). Only the SHA-256 of the secret is stored; the caller shows the secret once.
 */
export async function issueDeviceCredentials(db: Db, deviceId: string): Promise<IssuedCredentials> {
  const password = `${DEVICE_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
  const secretHash = sha256Hex(password);
  await db
    .insert(deviceCredentials)
    .values({ deviceId, username: deviceId, secretHash })
    .onConflictDoUpdate({ target: deviceCredentials.deviceId, set: { secretHash, createdAt: new Date() } });
  return { username: deviceId, password };
}

type RevocationListener = (deviceId: string) => void;
const revocationListeners = new Set<RevocationListener>();

/**
 * Called with the device id after a device's credentials were revoked (its licence deleted): the MQTT broker uses it
 * to drop a connection that is already open. Answers the function that stops listening.
 */
export function onDeviceCredentialsRevoked(listener: RevocationListener): () => void {
  revocationListeners.add(listener);
  return () => revocationListeners.delete(listener);
}

/** Deletes the device's MQTT credentials so it can no longer connect; answers whether it had any. */
export async function revokeDeviceCredentials(db: Db, deviceId: string): Promise<boolean> {
  const rows = await db
    .delete(deviceCredentials)
    .where(eq(deviceCredentials.deviceId, deviceId))
    .returning({ deviceId: deviceCredentials.deviceId });
  return rows.length > 0;
}

/** Tells the listeners (the broker) that the device's credentials are gone; call after the change is committed. */
export function announceRevocation(deviceId: string): void {
  for (const listener of revocationListeners) {
    try {
      listener(deviceId);
    } catch {
      // A failing listener must not undo or block the revocation; the broker refuses the next connect anyway.
    }
  }
}

/**
 * The device an MQTT CONNECT's user name and password belong to, or undefined. The secret's hash is compared in
 * constant time; an unknown user name costs the same comparison. A device whose licence has ended (its device
 * licence EXPIRED: the term ran out, or the dealer revoked the licence) is refused until the licence is renewed.
 */
export async function verifyDeviceSecret(
  db: Db,
  username: string,
  secret: string,
): Promise<VerifiedDevice | undefined> {
  if (!username || username.length > 100 || secret.length > 200) return undefined;
  const [row] = await db
    .select({
      deviceId: deviceCredentials.deviceId,
      organizationId: devices.organizationId,
      secretHash: deviceCredentials.secretHash,
    })
    .from(deviceCredentials)
    .innerJoin(devices, eq(devices.id, deviceCredentials.deviceId))
    .where(eq(deviceCredentials.username, username));
  const expected = Buffer.from(row?.secretHash ?? NO_SECRET_HASH, 'hex');
  const given = Buffer.from(sha256Hex(secret), 'hex');
  const same = expected.length === given.length && timingSafeEqual(expected, given);
  if (!row || !same) return undefined;
  if (await licenceEnded(db, row.deviceId)) return undefined;
  return { deviceId: row.deviceId, organizationId: row.organizationId };
}

/** Whether the device's licence has ended (its device licence is EXPIRED). */
export async function licenceEnded(db: Db, deviceId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: deviceLicenses.id })
    .from(deviceLicenses)
    .where(and(eq(deviceLicenses.deviceId, deviceId), eq(deviceLicenses.status, 'EXPIRED')))
    .limit(1);
  return row !== undefined;
}
