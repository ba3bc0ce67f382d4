import type { FastifyReply, FastifyRequest } from 'fastify';

export type FramingOptions = {
  /** The origins of the catalogue apps (read at every document load). */
  appOrigins: () => Promise<string[]>;
  /** Host pages allowed to embed the portal (besides the portal's own origin). */
  embedHostOrigins: readonly string[];
};

/** The paths at which the portal's document (the SPA's index.html) is served. */
const PORTAL_DOCUMENTS = new Set(['/', '/index.html']);

/** Replaces (or adds) directives of a Content-Security-Policy header value. */
export function withDirectives(policy: string, directives: Record<string, readonly string[]>): string {
  const kept = policy
    .split(';')
    .map((part) => part.trim())
    .filter((part) => {
      const name = part.split(/\s+/)[0]?.toLowerCase() ?? '';
      return name !== '' && !(name in directives);
    });
  const replaced = Object.entries(directives).map(([name, sources]) => `${name} ${sources.join(' ')}`);
  return [...kept, ...replaced].join(';');
}

/**
 * The framing policy of the portal's document (an onSend hook):
 * - frame-src: the portal embeds only its own origin, the origins of the apps in the store catalogue (read at
 *   every document load, so a newly registered app is allowed on the next load) and https pages (the dashboards'
 *   iframe widget, which sandboxes them without same-origin rights);
 * - frame-ancestors: only the portal itself and the configured host pages may embed the portal (clickjacking); with
 *   host pages configured, X-Frame-Options (which cannot list origins) is dropped in favour of frame-ancestors.
 * Every other response keeps the global policy (frame-src 'self', frame-ancestors 'self', X-Frame-Options).
 */
export function portalFramingHook({ appOrigins, embedHostOrigins }: FramingOptions) {
  return async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return payload;
    const path = request.url.split('?')[0] ?? '';
    const type = String(reply.getHeader('content-type') ?? '');
    if (!PORTAL_DOCUMENTS.has(path) || !type.startsWith('text/html')) return payload;
    const policy = String(reply.raw.getHeader('content-security-policy') ?? '');
    const frameSrc = ["'self'", 'https:', ...(await appOrigins())];
    const ancestors = ["'self'", ...embedHostOrigins];
    reply.raw.setHeader(
      'content-security-policy',
      withDirectives(policy, { 'frame-src': frameSrc, 'frame-ancestors': ancestors }),
    );
    if (embedHostOrigins.length > 0) reply.raw.removeHeader('x-frame-options');
    return payload;
  };
}
