/**
 * The address an iframe widget may show: an absolute https URL (the portal's frame-src), normalized; undefined for
 * anything else (http:, javascript:, data:, relative addresses, garbage). The schema already refuses other schemes;
 * this is the second lock, for documents that did not pass through it.
 */
export function safeFrameUrl(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  if (url.username || url.password) return undefined;
  return url.href;
}
