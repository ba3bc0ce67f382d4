import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where files (dashboard assets, gallery packages) are kept. One implementation so far: the data directory
 * (`DirectoryBlobStore`); ARCHITECTURE's S3-compatible store would be a second one behind this interface. Keys are made by `newBlobKey`, never from what a user typed; the
 * database row that owns a blob holds its key.
 */
export interface BlobStore {
  /** Stores the bytes under `key`, replacing what was there; readers see the old or the new bytes, never half. */
  put(key: string, body: Uint8Array | Readable): Promise<{ size: number }>;
  /** The bytes under `key` as a stream, or undefined when there are none. */
  get(key: string): Promise<Readable | undefined>;
  /** Removes `key`; nothing happens when it does not exist. */
  delete(key: string): Promise<void>;
  /** The size in bytes of `key`, or undefined when it does not exist. */
  size(key: string): Promise<number | undefined>;
}

/** Keys are lowercase path segments of letters, digits and dashes (`dashboard-assets/{org}/{uuid}`). */
export const BLOB_KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9-]*)*$/;

/** A fresh key below `prefix` (segments of the key pattern, for example `dashboard-assets/{organizationId}`). */
export function newBlobKey(prefix: string): string {
  const key = `${prefix}/${randomUUID()}`;
  checkBlobKey(key);
  return key;
}

export function checkBlobKey(key: string): void {
  if (!BLOB_KEY.test(key) || key.length > 500) throw new Error(`invalid blob key '${key}'`);
}
