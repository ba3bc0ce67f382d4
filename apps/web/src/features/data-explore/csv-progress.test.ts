import { describe, expect, it } from 'vitest';
import { countLineFeeds, readCsvWithProgress } from './csv-progress.ts';

const encode = (text: string) => new TextEncoder().encode(text) as Uint8Array<ArrayBuffer>;

describe('readCsvWithProgress', () => {
  it('counts bytes and records after the header across chunks', async () => {
    const parts = [
      'device,label,path,ts,value\r\nd1,a,/x,2024',
      '-01-01T00:00:00.000Z,1\r\n',
      'd1,a,/x,t,2\r\n',
    ];
    const body = new ReadableStream<Uint8Array<ArrayBuffer>>({
      start(controller) {
        for (const part of parts) controller.enqueue(encode(part));
        controller.close();
      },
    });
    const seen: { bytes: number; rows: number }[] = [];
    const result = await readCsvWithProgress(body, (progress) => seen.push(progress));
    expect(seen.map((p) => p.rows)).toEqual([0, 1, 2]);
    expect(result.rows).toBe(2);
    expect(result.bytes).toBe(parts.join('').length);
    expect(result.chunks).toHaveLength(3);
  });

  it('counts line feeds', () => {
    expect(countLineFeeds(encode('a\r\nb\r\n'))).toBe(2);
    expect(countLineFeeds(encode('no newline'))).toBe(0);
  });
});
