const LINE_FEED = 0x0a;

/** How many line feeds a chunk holds (records end with CRLF; text inside quotes rarely holds one). */
export function countLineFeeds(chunk: Uint8Array): number {
  let count = 0;
  let at = chunk.indexOf(LINE_FEED);
  while (at >= 0) {
    count++;
    at = chunk.indexOf(LINE_FEED, at + 1);
  }
  return count;
}

/**
 * Reads a CSV response to the end, reporting after every chunk the bytes received and the records (lines after the
 * header) so far.
 */
export async function readCsvWithProgress(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  onProgress: (progress: { bytes: number; rows: number }) => void,
): Promise<{ chunks: Uint8Array<ArrayBuffer>[]; bytes: number; rows: number }> {
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let bytes = 0;
  let lines = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { chunks, bytes, rows: Math.max(0, lines - 1) };
      chunks.push(value);
      bytes += value.byteLength;
      lines += countLineFeeds(value);
      onProgress({ bytes, rows: Math.max(0, lines - 1) });
    }
  } finally {
    reader.releaseLock();
  }
}
