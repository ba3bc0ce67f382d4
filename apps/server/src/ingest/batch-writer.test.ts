import { describe, expect, it } from 'vitest';
import { BatchWriter } from './batch-writer.ts';

describe('BatchWriter', () => {
  it('writes what arrives in one turn as one batch and what arrives while writing as the next', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    const writer = new BatchWriter<number>(async (items) => {
      batches.push(items);
      if (batches.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = [writer.add(1), writer.add(2), writer.add(3)];
    await new Promise((resolve) => setImmediate(resolve));
    const second = [writer.add(4), writer.add(5)];
    release();
    await Promise.all([...first, ...second]);
    expect(batches).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
  });

  it('resolves an item only after its batch is written, and rejects every item of a failed batch', async () => {
    let written = false;
    const ok = new BatchWriter<number>(async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written = true;
    });
    await ok.add(1);
    expect(written).toBe(true);

    let attempts = 0;
    const flaky = new BatchWriter<number>(async () => {
      attempts++;
      if (attempts === 1) throw new Error('disk full');
    });
    await expect(Promise.all([flaky.add(1), flaky.add(2)])).rejects.toThrow('disk full');
    // The same writer goes on with the next batch.
    await expect(flaky.add(3)).resolves.toBeUndefined();
    expect(attempts).toBe(2);
  });

  it('splits large backlogs into batches of at most maxBatch', async () => {
    const sizes: number[] = [];
    const writer = new BatchWriter<number>(async (items) => {
      sizes.push(items.length);
    }, 4);
    await Promise.all(Array.from({ length: 10 }, (_, i) => writer.add(i)));
    expect(sizes).toEqual([4, 4, 2]);
  });
});
