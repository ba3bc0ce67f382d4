import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { blobs } from '../db/schema.ts';
import { type BlobStore, checkBlobKey } from './blob-store.ts';

/**
 * Blobs as rows of the `blobs` table: what one server instance stores, every other instance of a cluster reads.
 * The default on PostgreSQL. A put replaces the row in one statement, so readers see the old or the new bytes.
 * Files are at most a few MB (assets and gallery packages are capped at 10 MB), so a blob is read whole.
 */
export class DatabaseBlobStore implements BlobStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  async put(key: string, body: Uint8Array | Readable): Promise<{ size: number }> {
    checkBlobKey(key);
    const bytes = body instanceof Readable ? await buffer(body) : body;
    await this.#db
      .insert(blobs)
      .values({ key, body: bytes, size: bytes.length })
      .onConflictDoUpdate({ target: blobs.key, set: { body: bytes, size: bytes.length } });
    return { size: bytes.length };
  }

  async get(key: string): Promise<Readable | undefined> {
    checkBlobKey(key);
    const [row] = await this.#db.select({ body: blobs.body }).from(blobs).where(eq(blobs.key, key));
    return row ? Readable.from([Buffer.from(row.body)]) : undefined;
  }

  async delete(key: string): Promise<void> {
    checkBlobKey(key);
    await this.#db.delete(blobs).where(eq(blobs.key, key));
  }

  async size(key: string): Promise<number | undefined> {
    checkBlobKey(key);
    const [row] = await this.#db.select({ size: blobs.size }).from(blobs).where(eq(blobs.key, key));
    return row?.size;
  }
}
