import type { Readable } from 'node:stream';
import { common } from '@edgeport/contract';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';

/** The error answers every authenticated route may give, for the OpenAPI documents. */
export const errorResponses = {
  400: common.ErrorResponse,
  401: common.ErrorResponse,
  403: common.ErrorResponse,
  404: common.ErrorResponse,
};

/** The OpenAPI answer of a CSV download: a string in the document; the handler streams it. */
export function csvResponse(description: string) {
  return { description, content: { 'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string' }) } } };
}

/** Sends a CSV download (a stream or text) as an attachment named `filename`, never cached. */
export function sendCsv(reply: FastifyReply, download: { filename: string; body: Readable | string }) {
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${download.filename}"`)
    .header('cache-control', 'no-store')
    .send(download.body);
}
