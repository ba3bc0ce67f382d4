/**
 * What browser access changes in a machine's answers so its web interface works under `/remote/{session}/` on the
 * session's own origin (`remoteOrigin`): redirects, cookies and the root-relative links of HTML pages. Pure functions.
 */

/** The machine as the browser would have addressed it directly. */
export type RemoteTarget = { protocol: 'HTTP' | 'HTTPS'; address: string; port: number };

/** The session's path prefix (on its own origin), without a trailing slash: `/remote/{session}`. */
export function remotePrefix(sessionId: string): string {
  return `/remote/${sessionId}`;
}

function defaultPort(target: RemoteTarget): number {
  return target.protocol === 'HTTPS' ? 443 : 80;
}

/** The Host header the machine expects: its address, with the port unless it is the protocol's default. */
export function targetHost(target: RemoteTarget): string {
  return target.port === defaultPort(target) ? target.address : `${target.address}:${target.port}`;
}

/** The machine's own origin, e.g. `http://10.0.0.5:8080`. */
export function targetOrigin(target: RemoteTarget): string {
  return `${target.protocol === 'HTTPS' ? 'https' : 'http'}://${targetHost(target)}`;
}

/** Whether an absolute URL points at the machine itself (its address and port, either scheme). */
function pointsAtTarget(url: URL, target: RemoteTarget): boolean {
  if (url.hostname !== target.address) return false;
  const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
  return port === target.port;
}

/**
 * A `Location` header under the session prefix: absolute URLs to the machine and root-relative paths are moved
 * under `/remote/{session}`; relative paths stay (the browser resolves them under the prefix); other sites stay.
 */
export function rewriteLocation(location: string, sessionId: string, target: RemoteTarget): string {
  const prefix = remotePrefix(sessionId);
  if (location.startsWith('/') && !location.startsWith('//')) {
    return location.startsWith(`${prefix}/`) ? location : `${prefix}${location}`;
  }
  let url: URL;
  try {
    url = new URL(location.startsWith('//') ? `http:${location}` : location);
  } catch {
    return location;
  }
  if (!/^https?:$/.test(url.protocol)) return location;
  if (!pointsAtTarget(url, target)) return location;
  return `${prefix}${url.pathname}${url.search}${url.hash}`;
}

/**
 * A `Set-Cookie` header for the browser (host-only on the session's origin): no Domain, Path under the session prefix; Secure dropped when the portal
 * itself is plain HTTP (with SameSite=None turned into Lax, which needs no Secure). Undefined: drop the cookie
 * (it would overwrite the session's own cookie).
 */
export function rewriteSetCookie(
  header: string,
  sessionId: string,
  options: { secure: boolean; reservedName: string },
): string | undefined {
  const [pair = '', ...attributes] = header.split(';');
  const name = pair.split('=')[0]?.trim() ?? '';
  if (name === options.reservedName) return undefined;
  const prefix = remotePrefix(sessionId);
  const kept: string[] = [];
  for (const raw of attributes) {
    const attribute = raw.trim();
    const key = attribute.split('=')[0]?.trim().toLowerCase() ?? '';
    if (key === 'domain' || key === '') continue;
    if (key === 'path') {
      const value = attribute.slice(attribute.indexOf('=') + 1).trim();
      const path = value.startsWith('/') ? value : '/';
      kept.push(`Path=${prefix}${path}`);
      continue;
    }
    if (key === 'secure' && !options.secure) continue;
    if (key === 'samesite' && !options.secure && /=\s*none$/i.test(attribute)) {
      kept.push('SameSite=Lax');
      continue;
    }
    kept.push(attribute);
  }
  return [pair.trim(), ...kept].join('; ');
}

const ESCAPE = /[.*+?^${}()|[\]\\]/g;

/**
 * Root-relative links of an HTML page under the session prefix: `href`, `src`, `action`, `formaction` and
 * `poster` values that start with a single `/`. The page is handled as latin1 text so every byte stays as it was
 * whatever its character set.
 */
export function rewriteHtml(body: Buffer, sessionId: string): Buffer {
  const prefix = remotePrefix(sessionId);
  const already = `${prefix.slice(1)}/`.replace(ESCAPE, '\\$&');
  const pattern = new RegExp(
    `(\\s(?:href|src|action|formaction|poster)\\s*=\\s*)(["']?)/(?!/)(?!${already})`,
    'gi',
  );
  const text = body.toString('latin1');
  const rewritten = text.replace(
    pattern,
    (_match, attribute: string, quote: string) => `${attribute}${quote}${prefix}/`,
  );
  return rewritten === text ? body : Buffer.from(rewritten, 'latin1');
}

/** Headers that belong to one connection (RFC 9110 7.6.1) and are never forwarded, plus those `Connection` names. */
export function hopByHopHeaders(connectionHeader: string | string[] | undefined): Set<string> {
  const names = new Set([
    'connection',
    'keep-alive',
    'proxy-authenticate',
    'proxy-authorization',
    'proxy-connection',
    'te',
    'trailer',
    'transfer-encoding',
    'upgrade',
  ]);
  const listed = Array.isArray(connectionHeader) ? connectionHeader.join(',') : (connectionHeader ?? '');
  for (const name of listed.split(',')) if (name.trim()) names.add(name.trim().toLowerCase());
  return names;
}

/** A Cookie header without the portal's session cookie; undefined when nothing is left. */
export function withoutCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part && part.split('=')[0]?.trim() !== name);
  return kept.length > 0 ? kept.join('; ') : undefined;
}

/** The values of a cookie in a Cookie header (several with the same name may come, from different paths). */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const values: string[] = [];
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0 || part.slice(0, index).trim() !== name) continue;
    values.push(part.slice(index + 1).trim());
  }
  return values;
}
