import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyServerOptions } from 'fastify';
import pg from 'pg';
import { type App, type AppOptions, buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Database, openDatabase } from '../../src/db/index.ts';
import { pgliteTemplate } from './pglite-template.ts';

export type TestServer = {
  app: App;
  database: Database;
  config: Config;
  /** Set on PostgreSQL: where `startAnotherInstance` connects. */
  databaseUrl?: string;
  close(): Promise<void>;
};

export const TEST_PORT = 8080;

/**
 * A fresh server on a fresh database: PGlite in memory by default, or a new PostgreSQL database when
 * TEST_DATABASE_URL is set (the test script sets it for the TEST_POSTGRES=1 run).
 */
export async function startTestServer(
  overrides: Partial<Config> = {},
  logger: FastifyServerOptions['logger'] = false,
  engines: Pick<AppOptions, 'webhookNetwork'> = {},
): Promise<TestServer> {
  // Files (dashboard assets) go to a directory of this server's own, never to the checkout's ./data.
  const ownDataDir = overrides.dataDir
    ? undefined
    : path.join(tmpdir(), `edgeport-test-${randomBytes(6).toString('hex')}`);
  const config = {
    ...loadConfig({ PORT: String(TEST_PORT), EDGEPORT_DEMO: 'false' }),
    ...(ownDataDir ? { dataDir: ownDataDir } : {}),
    ...overrides,
  };
  let dropDatabase = async () => {};
  let databaseUrl: string | undefined;
  if (process.env.TEST_DATABASE_URL) ({ url: databaseUrl, drop: dropDatabase } = await emptyTestDatabase());
  const database = await openDatabase(databaseUrl ? { databaseUrl } : { template: pgliteTemplate() });
  const app = await buildApp({ config, database, logger, ...engines });
  await app.ready();
  return {
    app,
    database,
    config,
    databaseUrl,
    async close() {
      await app.close();
      await database.close();
      await dropDatabase();
      if (ownDataDir) await rm(ownDataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A second server instance on the same PostgreSQL database as `server` (what a cluster runs), with its own
 * connection pool and data directory (and `overrides`, such as its own internal URL). Closing it leaves the database
 * to `server`.
 */
export async function startAnotherInstance(
  server: TestServer,
  overrides: Partial<Config> = {},
): Promise<TestServer> {
  if (!server.databaseUrl) throw new Error('another instance needs PostgreSQL (TEST_DATABASE_URL)');
  const dataDir = path.join(tmpdir(), `edgeport-test-${randomBytes(6).toString('hex')}`);
  const config = { ...server.config, dataDir, ...overrides };
  const database = await openDatabase({ databaseUrl: server.databaseUrl });
  const app = await buildApp({ config, database });
  await app.ready();
  return {
    app,
    database,
    config,
    databaseUrl: server.databaseUrl,
    async close() {
      await app.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * An empty database of its own on the PostgreSQL server of TEST_DATABASE_URL (`prefix` names it, for a look at
 * pg_stat_activity): its URL, and `drop` to remove it with whatever is still connected.
 */
export async function emptyTestDatabase(
  prefix = 'edgeport_test',
): Promise<{ url: string; drop: () => Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('an empty PostgreSQL database needs TEST_DATABASE_URL');
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await withAdmin(adminUrl, (client) => client.query(`create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await withAdmin(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

async function withAdmin<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
