/** Reads a response body to the end, reporting the bytes received so far after every chunk. */
export async function readWithProgress(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  onProgress: (bytes: number) => void,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return chunks;
      chunks.push(value);
      received += value.byteLength;
      onProgress(received);
    }
  } finally {
    reader.releaseLock();
  }
}

/** The file name a `content-disposition` header suggests, or `fallback`; never a path. */
export function attachmentName(header: string | null, fallback: string): string {
  const match = /filename="([^"]+)"/.exec(header ?? '') ?? /filename=([^;\s]+)/.exec(header ?? '');
  const name = match?.[1]?.split(/[\\/]/).pop()?.trim();
  return name ? name : fallback;
}

/** A byte count for people: "812 B", "14 kB", "3.2 MB" in the given locale. */
export function formatBytes(bytes: number, locale: string): string {
  const [unit, value] =
    bytes >= 1_000_000
      ? ['megabyte', bytes / 1_000_000]
      : bytes >= 1_000
        ? ['kilobyte', bytes / 1_000]
        : ['byte', bytes];
  return new Intl.NumberFormat(locale, {
    style: 'unit',
    unit,
    unitDisplay: 'short',
    maximumFractionDigits: unit === 'megabyte' ? 1 : 0,
  }).format(value);
}

/** Hands a downloaded file to the browser to save (an object URL on a temporary link). */
export function saveFile(parts: BlobPart[], type: string, name: string): void {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled, so the download has started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
