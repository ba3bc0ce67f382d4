import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { RequestLog, SLOW_REQUEST_MS } from './request-log.ts';

type Line = { level: number; msg: string; status?: number; url?: string };

/** A logger at `level` whose lines the test reads. */
function capturedLog(level: string) {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return { logger: { level, stream }, lines };
}

const INFO = 30;

describe('request logging', () => {
  let server: TestServer | undefined;
  afterAll(() => server?.close());

  it('logs a fine request at debug only; refused, slow and failed ones at info or warn', async () => {
    const { logger, lines } = capturedLog('info');
    const app = Fastify({ logger, logController: new RequestLog() });
    app.get('/fine', async () => 'ok');
    app.get('/refused', async (_request, reply) => reply.code(401).send());
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, SLOW_REQUEST_MS + 50));
      return 'late';
    });
    app.get('/broken', async () => {
      throw new Error('boom');
    });
    for (const url of ['/fine', '/refused', '/slow', '/broken']) await app.inject({ url });
    await app.close();
    const requestLines = lines.filter((line) => line.status !== undefined);
    expect(requestLines.map((line) => [line.url, line.level, line.msg])).toEqual([
      ['/refused', INFO, 'request refused'],
      ['/slow', INFO, 'slow request'],
      ['/broken', 40, 'request failed'],
    ]);
  });

  it("leaves out Fastify's own two info lines per request on the real server", async () => {
    const { logger, lines } = capturedLog('info');
    server = await startTestServer({}, logger);
    const before = lines.length;
    for (let i = 0; i < 5; i++) expect((await server.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    expect(lines.slice(before)).toEqual([]);
  });
});
