import { describe, expect, it } from 'vitest';
import { attachmentName, formatBytes, readWithProgress } from './download.ts';

function streamOf(parts: string[]): ReadableStream<Uint8Array<ArrayBuffer>> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part) as Uint8Array<ArrayBuffer>);
      controller.close();
    },
  });
}

describe('CSV download', () => {
  it('reports the bytes received after every chunk and keeps every chunk', async () => {
    const seen: number[] = [];
    const chunks = await readWithProgress(streamOf(['ab', 'cde', 'ü']), (bytes) => seen.push(bytes));
    expect(seen).toEqual([2, 5, 7]);
    expect(new TextDecoder().decode(Buffer.concat(chunks))).toBe('abcdeü');
  });

  it('takes the file name from content-disposition, never a path', () => {
    expect(attachmentName('attachment; filename="audit-acme-2024-01-01.csv"', 'x.csv')).toBe(
      'audit-acme-2024-01-01.csv',
    );
    expect(attachmentName('attachment; filename=plain.csv', 'x.csv')).toBe('plain.csv');
    expect(attachmentName('attachment; filename="../../etc/passwd"', 'x.csv')).toBe('passwd');
    expect(attachmentName(null, 'x.csv')).toBe('x.csv');
  });

  it('formats sizes in the locale', () => {
    expect(formatBytes(512, 'en-US')).toBe('512 byte');
    expect(formatBytes(14_400, 'en-US')).toBe('14.4 kB');
    expect(formatBytes(14_400, 'en-US', { decimals: 0 })).toBe('14 kB');
    expect(formatBytes(1536, 'en-US', { base: 1024 })).toBe('1.5 KiB');
    expect(formatBytes(10 * 1024 * 1024, 'de-DE', { base: 1024 })).toBe('10 MiB');
    // French puts a narrow no-break space before the unit.
    expect(formatBytes(2.5e9, 'fr-FR')).toMatch(/^2,5\sGo$/);
    expect(formatBytes(3_250_000, 'de-DE')).toBe('3,3 MB');
  });
});
