import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The one database interface of the server: Drizzle over PGlite (embedded) or PostgreSQL. */
export type Database = {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** PostgreSQL only: where a dedicated connection goes (the event bus LISTENs on one outside the pool). */
  connectionString?: string;
  /**
   * Runs `work` while no other server instance on this database runs work of the same name (a PostgreSQL session
   * advisory lock; PGlite has one process only). For start-up work that must happen once: migrations, the demo seed.
   */
  exclusive: Exclusive;
  close(): Promise<void>;
};

export type Exclusive = <T>(name: string, work: () => Promise<T>) => Promise<T>;

export const migrationsFolder = path.join(import.meta.dirname, 'migrations');

/**
 * PGlite's own start parameters plus smaller shared buffers: 128 MB of buffers sit in the WebAssembly heap of the
 * server process; 16 MB saves about 100 MB of resident memory and is plenty for one installation's catalogue data.
 */
const PGLITE_START_PARAMS = [
  ...['--single', '-F', '-O', '-j'],
  ...['-c', 'search_path=public', '-c', 'exit_on_error=false', '-c', 'log_checkpoints=false'],
  ...[
    '-c',
    'max_worker_processes=0',
    '-c',
    'max_parallel_workers=0',
    '-c',
    'max_parallel_workers_per_gather=0',
  ],
  ...['-c', 'io_method=sync', '-c', 'max_parallel_maintenance_workers=0'],
  ...['-c', 'shared_buffers=16MB'],
];

/** Trigram indexes for substring search (the devices table); PostgreSQL ships pg_trgm in its contrib modules. */
const PGLITE_EXTENSIONS = { pg_trgm };

/**
 * `dataDir` undefined keeps PGlite in memory (tests); otherwise files live under `{dataDir}/pglite`. An in-memory
 * database may start from `template`, a dump of a migrated one (`migratedPgliteDump`): tests start a server per file,
 * and loading a dump takes a fifth of the time of creating and migrating a database.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string;
  template?: Blob;
}): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection the server drops (restart, failover, a terminated backend) is reported here; without a
    // listener Node would treat it as an uncaught error and stop the process. The pool opens a new one when needed.
    pool.on('error', (error) => {
      process.emitWarning(`idle PostgreSQL connection lost: ${error.message}`);
    });
    const db = drizzlePg(pool, { schema });
    const exclusive = <T>(name: string, work: () => Promise<T>) => underAdvisoryLock(pool, name, work);
    // Two instances starting together on an empty database would both create the same tables (one dies on a
    // duplicate pg_type); the second waits here and then finds every migration applied.
    await exclusive('migrations', () => migratePg(db, { migrationsFolder }));
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      connectionString: options.databaseUrl,
      exclusive,
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = path.join(options.dataDir, 'pglite');
    mkdirSync(dir, { recursive: true });
    client = await PGlite.create(dir, { startParams: PGLITE_START_PARAMS, extensions: PGLITE_EXTENSIONS });
  } else {
    client = await PGlite.create({ extensions: PGLITE_EXTENSIONS, loadDataDir: options.template });
  }
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    exclusive: (_name, work) => work(),
    close: () => client.close(),
  };
}

/** Holds a session advisory lock keyed by `name` on one pooled connection while `work` runs on others. */
async function underAdvisoryLock<T>(pool: pg.Pool, name: string, work: () => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const key = `edgeport:${name}`;
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await work();
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [key]);
    }
  } finally {
    client.release();
  }
}

export { schema };

/** An empty in-memory database with every migration applied, dumped (see `openDatabase`'s `template`). */
export async function migratedPgliteDump(): Promise<Blob> {
  const client = await PGlite.create({ extensions: PGLITE_EXTENSIONS });
  try {
    await migratePglite(drizzlePglite(client, { schema }), { migrationsFolder });
    return await client.dumpDataDir('none');
  } finally {
    await client.close();
  }
}
