import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { badRequest } from './errors.ts';

/** The first place in a parsed input that holds U+0000, as `query.search` or `body.members.2.name`. */
function nulCharacterAt(value: unknown, path: string, depth = 0): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (depth > 64 || value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes('\u0000')) return `${path}.${key.replaceAll('\u0000', '\\u0000')}`;
    const found = nulCharacterAt(inner, `${path}.${key}`, depth + 1);
    if (found) return found;
  }
  return undefined;
}

/**
 * PostgreSQL cannot store U+0000 in text, and no name, e-mail or search of this product needs it: inputs holding it
 * are refused before any handler runs.
 */
export async function refuseNulCharacters(request: FastifyRequest): Promise<void> {
  const inputs = { params: request.params, query: request.query, body: request.body };
  for (const [part, value] of Object.entries(inputs)) {
    const at = nulCharacterAt(value, part);
    if (at) throw badRequest(`${at} must not contain the NUL character (U+0000)`);
  }
}

/**
 * Errors with a status below 500 are answered as they are (they were written for the caller). Anything else is
 * logged in full and answered with a plain message: database texts and stack details never leave the server.
 */
export function answerError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const status = error.statusCode ?? 500;
  if (status < 500) {
    return reply.status(status).send({
      statusCode: status,
      error: STATUS_CODES[status] ?? 'Error',
      message: error.message,
    });
  }
  request.log.error({ err: error }, 'request failed');
  return reply
    .status(status)
    .send({ statusCode: status, error: STATUS_CODES[status] ?? 'Error', message: 'internal server error' });
}
