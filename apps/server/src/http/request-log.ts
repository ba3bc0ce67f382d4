import type { FastifyInstance } from 'fastify';

/** A request that takes this long is logged at info. */
export const SLOW_REQUEST_MS = 1000;

/** Answers worth an operator's eye even when fine: someone signing in wrongly, probing, or over a limit. */
const REFUSALS = new Set([401, 403, 429]);

/**
 * Request lines an operator can leave on: every request at debug; at info only the slow ones and the refused ones
 * (401, 403, 429); at warn the server errors (their error is logged too). Fastify's own two info lines per request
 * are off (`disableRequestLogging`): idle with one user they filled 3.5 MB in 50 minutes.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const ms = Math.round(reply.elapsedTime);
    const line = { method: request.method, url: request.url, status, ms };
    if (status >= 500) request.log.warn(line, 'request failed');
    else if (ms >= SLOW_REQUEST_MS) request.log.info(line, 'slow request');
    else if (REFUSALS.has(status)) request.log.info(line, 'request refused');
    else request.log.debug(line, 'request');
  });
}
