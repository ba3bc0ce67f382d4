/**
 * The telemetry benchmark's databases: each a fresh one, removed at the end — a temporary data directory on PGlite
 * (files as `npm start` keeps them), or a database of its own on the PostgreSQL server of `--database-url`.
 * Also the sizes it reports (pg_total_relation_size: table, indexes, TOAST, free-space and visibility maps).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, type Db, openDatabase } from '../../apps/server/src/db/index.ts';

export type BenchDatabase = {
  database: Database;
  db: Db;
  /** A temporary directory of its own (PGlite's files; the server's data directory on PostgreSQL too). */
  dataDir: string;
  /** PostgreSQL only: the fresh database's URL. */
  databaseUrl?: string;
  /** Closes it and removes its files or drops its database. */
  remove(): Promise<void>;
};

/** A fresh, migrated database named after `name`: PGlite unless `serverUrl` (a PostgreSQL server) is given. */
export async function freshBenchDatabase(name: string, serverUrl?: string): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `edgeport-bench-${name}-`));
  const databaseName = `bench_${name.replaceAll('-', '_')}`;
  const databaseUrl = serverUrl ? await createDatabase(serverUrl, databaseName) : undefined;
  let database: Database;
  try {
    database = await openDatabase(databaseUrl ? { databaseUrl } : { dataDir });
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    if (serverUrl) await dropDatabase(serverUrl, databaseName);
    throw error;
  }
  let removed = false;
  return {
    database,
    db: database.db,
    dataDir,
    databaseUrl,
    async remove() {
      if (removed) return;
      removed = true;
      await database.close().catch(() => undefined);
      rmSync(dataDir, { recursive: true, force: true });
      if (serverUrl) await dropDatabase(serverUrl, databaseName);
    },
  };
}

async function withAdmin<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function createDatabase(serverUrl: string, name: string): Promise<string> {
  await withAdmin(serverUrl, async (client) => {
    await client.query(`drop database if exists ${name}`);
    await client.query(`create database ${name}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  await withAdmin(serverUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
}

/** The rows of `db.execute`: PGlite and node-postgres both answer `{ rows }` (node-postgres bigints as strings). */
export async function rowsOf<Row>(db: Db, query: ReturnType<typeof sql>): Promise<Row[]> {
  return ((await db.execute(query)) as unknown as { rows: Row[] }).rows;
}

/** "PGlite 0.5.16 (PostgreSQL 17.5)" or "PostgreSQL 15.18". */
export async function engineOf(database: Database): Promise<string> {
  const [row] = await rowsOf<{ v: string }>(database.db, sql`select current_setting('server_version') as v`);
  const server = `PostgreSQL ${row?.v ?? '?'}`;
  if (database.kind === 'postgres') return server;
  const manifest = path.resolve(import.meta.dirname, '../../node_modules/@electric-sql/pglite/package.json');
  const version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  return `PGlite ${version} (${server})`;
}

export type RelationSize = { name: string; bytes: number; partition: boolean };

/**
 * Every table of the schema whose name starts with `prefix` (partitions, rollups, queue, blocks), each with its
 * indexes, TOAST and maps (pg_total_relation_size); indexes are not listed apart, so nothing is counted twice.
 */
export async function sizesOf(db: Db, prefix: string): Promise<RelationSize[]> {
  const rows = await rowsOf<{ name: string; bytes: string | number; partition: boolean }>(
    db,
    sql`select c.relname as name, pg_total_relation_size(c.oid) as bytes, c.relispartition as partition
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'm') and starts_with(c.relname, ${prefix})
      order by c.relname`,
  );
  return rows.map((row) => ({ name: row.name, bytes: Number(row.bytes), partition: row.partition }));
}

/** VACUUM (ANALYZE) of every table whose name starts with `prefix` (a partitioned parent takes its partitions). */
export async function vacuumAnalyze(db: Db, prefix: string): Promise<void> {
  for (const table of await sizesOf(db, prefix))
    if (!table.partition) await db.execute(sql`vacuum (analyze) ${sql.identifier(table.name)}`);
}
