import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { type FileHandle, mkdir, open, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type BlobStore, checkBlobKey } from './blob-store.ts';

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

/**
 * Blobs as files below `root` (`{DATA_DIR}/blobs` by default), one file a key. A put writes a temporary file in
 * `root/.tmp` (same file system) and renames it into place, so a reader never sees a half-written file and a crash
 * leaves only a temporary file behind.
 */
export class DirectoryBlobStore implements BlobStore {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  private fileOf(key: string): string {
    checkBlobKey(key);
    const file = path.join(this.root, ...key.split('/'));
    // The key pattern allows no '..' nor separators; this is the second lock on the same door.
    if (!file.startsWith(`${this.root}${path.sep}`)) throw new Error(`invalid blob key '${key}'`);
    return file;
  }

  async put(key: string, body: Uint8Array | Readable): Promise<{ size: number }> {
    const file = this.fileOf(key);
    const temporaryDir = path.join(this.root, '.tmp');
    await mkdir(temporaryDir, { recursive: true });
    await mkdir(path.dirname(file), { recursive: true });
    const temporary = path.join(temporaryDir, `${randomUUID()}.part`);
    const source = body instanceof Readable ? body : Readable.from([body]);
    try {
      await pipeline(source, createWriteStream(temporary, { flags: 'wx', mode: 0o600 }));
      const { size } = await stat(temporary);
      await rename(temporary, file);
      return { size };
    } catch (error) {
      await unlink(temporary).catch(() => {});
      throw error;
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    const file = this.fileOf(key);
    // Opened first: a delete or a replacement after this point does not break the stream handed out.
    let handle: FileHandle;
    try {
      handle = await open(file, 'r');
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    return handle.createReadStream();
  }

  async delete(key: string): Promise<void> {
    try {
      await unlink(this.fileOf(key));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  async size(key: string): Promise<number | undefined> {
    try {
      return (await stat(this.fileOf(key))).size;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }
}
