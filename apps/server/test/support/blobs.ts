import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { like } from 'drizzle-orm';
import { DirectoryBlobStore } from '../../src/blob/directory-store.ts';
import { blobs } from '../../src/db/schema.ts';
import type { TestServer } from './server.ts';

/** The last key segments of the blobs stored below `prefix`, whichever store the server uses (files or rows). */
export async function storedBlobNames(server: TestServer, prefix: string): Promise<string[]> {
  const store = server.app.blobs;
  if (store instanceof DirectoryBlobStore) {
    return readdir(path.join(store.root, ...prefix.split('/'))).catch(() => []);
  }
  const rows = await server.database.db
    .select({ key: blobs.key })
    .from(blobs)
    .where(like(blobs.key, `${prefix}/%`));
  return rows.map((row) => row.key.slice(prefix.length + 1)).sort();
}
