/**
 * The server built in-process on a fresh PGlite data directory (as `npm start` keeps its files), recording Fastify's
 * `reply.elapsedTime` of every request that carries an `x-bench-id` header: the server time the HTTP benchmarks report.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../../apps/server/src/app.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openDatabase } from '../../apps/server/src/db/index.ts';

export const BENCH_ID_HEADER = 'x-bench-id';

export async function startTimedApp(name: string) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `edgeport-bench-${name}-`));
  const database = await openDatabase({ dataDir });
  const config = loadConfig({ EDGEPORT_DEMO: 'false', PORT: '8080', DATA_DIR: dataDir, MQTT_PORT: '0' });
  const app = await buildApp({ config, database });
  const serverTimes = new Map<string, number>();
  app.addHook('onResponse', async (request, reply) => {
    const id = request.headers[BENCH_ID_HEADER];
    if (typeof id === 'string') serverTimes.set(id, reply.elapsedTime);
  });
  await app.ready();
  return {
    app,
    database,
    config,
    /** A TestServer shape, so test support (rptFor) can log in against it; stopping is `stop`. */
    close: async () => {},
    /** The server time of the request sent with this bench id (NaN if none). */
    serverTimeOf: (id: string) => serverTimes.get(id) ?? Number.NaN,
    async stop() {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
