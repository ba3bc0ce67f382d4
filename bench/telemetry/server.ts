/**
 * The server built in-process on the benchmark's database (PGlite or PostgreSQL), listening on a free port, with
 * Fastify's `reply.elapsedTime` of every request that carries an `x-bench-id` header (as bench/support/timed-app.ts,
 * which opens a PGlite database of its own). Retention is set far out: the generated year must stay.
 */
import { request } from 'node:http';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { rptFor } from '../../apps/server/test/support/tokens.ts';
import { BENCH_ID_HEADER } from '../support/timed-app.ts';
import type { BenchDatabase } from './database.ts';

export type Answer = { status: number; clientMs: number; serverMs: number; bytes: number; body: string };

export async function startBenchServer(bench: BenchDatabase, realm: string) {
  const config = loadConfig({
    EDGEPORT_DEMO: 'false',
    PORT: '8080',
    DATA_DIR: bench.dataDir,
    MQTT_PORT: '0',
    TELEMETRY_RETENTION_DAYS: '3650',
    ...(bench.databaseUrl ? { DATABASE_URL: bench.databaseUrl } : {}),
  });
  const app = await buildApp({ config, database: bench.database });
  const serverTimes = new Map<string, number>();
  app.addHook('onResponse', async (req, reply) => {
    const id = req.headers[BENCH_ID_HEADER];
    if (typeof id === 'string') serverTimes.set(id, reply.elapsedTime);
  });
  await app.ready();
  await app.realms.create(realm, 'Bench');
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const testServer = { app, database: bench.database, config, close: async () => {} };
  let counter = 0;

  /** One request with a permission token; the whole body is kept when `keep` (else the first 64 KiB). */
  const call = (method: 'GET' | 'POST', url: string, token: string, body?: unknown, keep = false) =>
    new Promise<Answer>((resolve, reject) => {
      const id = String(++counter);
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const started = performance.now();
      const req = request(
        {
          host: '127.0.0.1',
          port: address.port,
          method,
          path: url,
          headers: {
            host: `${realm}.app.localhost:8080`,
            authorization: `Bearer ${token}`,
            [BENCH_ID_HEADER]: id,
            ...(payload ? { 'content-type': 'application/json' } : {}),
          },
        },
        (res) => {
          let bytes = 0;
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => {
            if (keep || bytes < 65_536) chunks.push(chunk);
            bytes += chunk.length;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              clientMs: performance.now() - started,
              serverMs: serverTimes.get(id) ?? Number.NaN,
              bytes,
              body: Buffer.concat(chunks).toString(),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  return {
    app,
    call,
    /** A fresh RPT of the organization (by resourceId) for `email`. */
    token: async (email: string, resourceId: string) =>
      (await rptFor(testServer, realm, email, resourceId)).rpt,
    stop: () => app.close(),
  };
}
