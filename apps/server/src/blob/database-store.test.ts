import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { newBlobKey } from './blob-store.ts';
import { DatabaseBlobStore } from './database-store.ts';

let server: TestServer;
let store: DatabaseBlobStore;
let otherInstance: DatabaseBlobStore;

beforeAll(async () => {
  server = await startTestServer();
  store = new DatabaseBlobStore(server.database.db);
  // What a second server instance on the same database sees.
  otherInstance = new DatabaseBlobStore(server.database.db);
});
afterAll(() => server.close());

describe('DatabaseBlobStore', () => {
  it('stores bytes and streams, reads them back, tells their size and deletes them', async () => {
    const key = newBlobKey('test/org-1');
    expect(await store.put(key, new TextEncoder().encode('hello'))).toEqual({ size: 5 });
    expect(await otherInstance.size(key)).toBe(5);
    expect(await text((await otherInstance.get(key)) as Readable)).toBe('hello');

    await store.put(key, Readable.from([Buffer.from('bigger '), Buffer.from('content')]));
    expect(await otherInstance.size(key)).toBe(14);
    expect(await text((await otherInstance.get(key)) as Readable)).toBe('bigger content');

    await otherInstance.delete(key);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.size(key)).toBeUndefined();
    await store.delete(key);
  });

  it('keeps binary content byte for byte', async () => {
    const key = newBlobKey('test/org-1');
    const bytes = Uint8Array.from({ length: 70_000 }, (_, index) => (index * 7919) % 256);
    await store.put(key, bytes);
    const stream = (await otherInstance.get(key)) as Readable;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.from(bytes))).toBe(true);
  });

  it('stores nothing when the source stream fails', async () => {
    const key = newBlobKey('test/org-1');
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(store.put(key, failing)).rejects.toThrow('connection lost');
    expect(await store.get(key)).toBeUndefined();
  });

  it('refuses keys that are not blob keys', async () => {
    for (const key of ['../escape', 'A/B', 'a//b', '']) {
      await expect(store.put(key, Buffer.from('x')), key).rejects.toThrow('invalid blob key');
      await expect(store.get(key), key).rejects.toThrow('invalid blob key');
    }
  });
});
