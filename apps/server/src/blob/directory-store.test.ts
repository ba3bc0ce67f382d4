import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newBlobKey } from './blob-store.ts';
import { DirectoryBlobStore } from './directory-store.ts';

let root: string;
let store: DirectoryBlobStore;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'edgeport-blobs-'));
  store = new DirectoryBlobStore(root);
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('DirectoryBlobStore', () => {
  it('stores bytes and streams, reads them back, tells their size and deletes them', async () => {
    const key = newBlobKey('test/org-1');
    expect(await store.put(key, new TextEncoder().encode('hello'))).toEqual({ size: 5 });
    expect(await store.size(key)).toBe(5);
    expect(await text((await store.get(key)) as Readable)).toBe('hello');

    await store.put(key, Readable.from([Buffer.from('bigger '), Buffer.from('content')]));
    expect(await store.size(key)).toBe(14);
    expect(await text((await store.get(key)) as Readable)).toBe('bigger content');

    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.size(key)).toBeUndefined();
    await store.delete(key);
  });

  it('leaves no temporary file behind, also when the source stream fails', async () => {
    const key = newBlobKey('test/org-1');
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.put(key, failing)).rejects.toThrow('connection lost');
    expect(await store.get(key)).toBeUndefined();
    expect(await readdir(path.join(root, '.tmp'))).toEqual([]);
  });

  it('keeps a stream opened before a delete readable', async () => {
    const key = newBlobKey('test/org-2');
    await store.put(key, Buffer.from('still here'));
    const stream = await store.get(key);
    await store.delete(key);
    expect(await text(stream as Readable)).toBe('still here');
  });

  it('refuses keys that could leave its directory', async () => {
    for (const key of ['../escape', 'a/../../b', '/abs', 'A/B', 'a//b', '', 'a/.tmp/x', 'a\\b']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow('invalid blob key');
      await expect(store.get(key), key).rejects.toThrow('invalid blob key');
    }
  });
});
