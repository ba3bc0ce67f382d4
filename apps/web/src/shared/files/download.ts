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

export type ByteBase = 1000 | 1024;

const DECIMAL_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;
/** Intl knows no kibibyte: the binary units are written after the number as they are everywhere. */
const BINARY_UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/**
 * A byte count for people (spec 9): base 1000 (kB, MB, …, the default) or 1024 (KiB, MiB, …), one decimal unless
 * told otherwise, in the locale's digits. Bytes themselves have no decimals.
 */
export function formatBytes(
  bytes: number,
  locale: string,
  { base = 1000, decimals = 1 }: { base?: ByteBase; decimals?: number } = {},
): string {
  let step = 0;
  let value = bytes;
  while (Math.abs(value) >= base && step < DECIMAL_UNITS.length - 1) {
    value /= base;
    step += 1;
  }
  const number = (unit?: string) =>
    new Intl.NumberFormat(locale, {
      ...(unit ? { style: 'unit' as const, unit, unitDisplay: 'short' as const } : {}),
      maximumFractionDigits: step === 0 ? 0 : decimals,
    }).format(value);
  if (step === 0 || base === 1000) return number(DECIMAL_UNITS[step]);
  return `${number()} ${BINARY_UNITS[step - 1]}`;
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
