import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { deviceCredentials, deviceLicenses, devices } from '../../db/schema.ts';
import { installSecret } from '../../identity/keys.ts';

/** Every device secret starts with this, so a leaked one is easy to recognise (and to scan for). */
export const DEVICE_SECRET_PREFIX = 'eps_';
/** The install secret device secrets are derived from (see `issueDeviceCredentials`). */
const SECRET_KEY_NAME = 'device-secret-key';

export type IssuedCredentials = { username: string; password: string };
export type VerifiedDevice = { deviceId: string; organizationId: string };

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A hash that no secret has, compared against when the user name is unknown so both paths take the same time. */
const NO_SECRET_HASH = sha256Hex(randomBytes(32).toString('hex'));

function deriveSecret(key: string, deviceId: string, issuedAt: Date): string {
  const mac = createHmac('sha256', key).update(`${deviceId}:${issuedAt.getTime()}`).digest('base64url');
  return `${DEVICE_SECRET_PREFIX}${mac}`;
}

/**
 * Issues (or replaces) the MQTT credentials of a device: the user name is the device id, the secret is `eps_` and 32
 * bytes (base64url) derived from a random per-install key (install_secrets), the device id and the issue time. Only
 * the SHA-256 of the secret is stored and the caller shows the secret once; being derived, it can be given again to
 * an external broker that lost its state (`restorableSecret`): the key sits in the same database as the sign-in
 * signing keys, so reading it gives nothing that those do not. The access listeners (an external broker's device
 * clients) are told before this resolves, with `db` — the caller's transaction, where the new row is visible.
 */
export async function issueDeviceCredentials(db: Db, deviceId: string): Promise<IssuedCredentials> {
  const issuedAt = new Date();
  const password = deriveSecret(await installSecret(db, SECRET_KEY_NAME), deviceId, issuedAt);
  const secretHash = sha256Hex(password);
  await db
    .insert(deviceCredentials)
    .values({ deviceId, username: deviceId, secretHash, createdAt: issuedAt })
    .onConflictDoUpdate({ target: deviceCredentials.deviceId, set: { secretHash, createdAt: issuedAt } });
  await Promise.all([...accessListeners].map((listener) => listener(deviceId, { db, password })));
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

/**
 * Called whenever a device's access may have changed: credentials issued (with the secret and the database handle to
 * read the new state with), revoked, device deleted, licence ended or renewed. An external broker's device clients
 * follow it (`ingest/broker-devices.ts`); a listener handles its own errors.
 */
type AccessListener = (deviceId: string, issued?: { db: Db; password: string }) => Promise<void>;
const accessListeners = new Set<AccessListener>();

export function onDeviceAccessChanged(listener: AccessListener): () => void {
  accessListeners.add(listener);
  return () => accessListeners.delete(listener);
}

/** Deletes the device's MQTT credentials so it can no longer connect; answers whether it had any. */
export async function revokeDeviceCredentials(db: Db, deviceId: string): Promise<boolean> {
  const rows = await db
    .delete(deviceCredentials)
    .where(eq(deviceCredentials.deviceId, deviceId))
    .returning({ deviceId: deviceCredentials.deviceId });
  return rows.length > 0;
}

/**
 * Tells the listeners (the brokers) that the device's access is gone — credentials revoked, device deleted, licence
 * ended; call after the change is committed.
 */
export function announceRevocation(deviceId: string): void {
  for (const listener of revocationListeners) {
    try {
      listener(deviceId);
    } catch {
      // A failing listener must not undo or block the revocation; the broker refuses the next connect anyway.
    }
  }
  for (const listener of accessListeners) void listener(deviceId);
}

/** After a renewal is committed: the devices of the licence may connect again (an external broker enables them). */
export async function announceLicenceRenewed(db: Db, licenseId: string): Promise<void> {
  if (accessListeners.size === 0) return;
  const rows = await db
    .select({ deviceId: deviceLicenses.deviceId })
    .from(deviceLicenses)
    .where(and(eq(deviceLicenses.licenseId, licenseId), isNotNull(deviceLicenses.deviceId)));
  for (const { deviceId } of rows)
    for (const listener of accessListeners) if (deviceId) void listener(deviceId);
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

/** What a broker must know of a device with credentials: who, which secret (its hash), when issued, refused or not. */
export type DeviceAccess = { deviceId: string; secretHash: string; issuedAt: Date; ended: boolean };

/** Every device with credentials (or only those of `deviceIds`), with whether its licence has ended. */
export async function deviceAccessStates(db: Db, deviceIds?: string[]): Promise<DeviceAccess[]> {
  return db
    .select({
      deviceId: deviceCredentials.deviceId,
      secretHash: deviceCredentials.secretHash,
      issuedAt: deviceCredentials.createdAt,
      ended: sql<boolean>`exists (select 1 from ${deviceLicenses} where ${deviceLicenses.deviceId} = ${deviceCredentials.deviceId} and ${deviceLicenses.status} = 'EXPIRED')`,
    })
    .from(deviceCredentials)
    .innerJoin(devices, eq(devices.id, deviceCredentials.deviceId))
    .where(deviceIds ? inArray(deviceCredentials.deviceId, deviceIds) : undefined);
}

/**
 * Derives devices' current secrets again: the answered function gives a device's secret, or undefined when it cannot
 * be derived (credentials issued before secrets were derived, or the key replaced) — a derived secret is answered
 * only if its hash is the stored one.
 */
export async function secretRestorer(db: Db): Promise<(access: DeviceAccess) => string | undefined> {
  const key = await installSecret(db, SECRET_KEY_NAME);
  return (access) => {
    const secret = deriveSecret(key, access.deviceId, access.issuedAt);
    return sha256Hex(secret) === access.secretHash ? secret : undefined;
  };
}
