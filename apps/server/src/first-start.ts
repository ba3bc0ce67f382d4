import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import { openDatabase } from './db/index.ts';
import { type DemoLogin, seedDemo } from './demo/seed.ts';
import { RealmRegistry } from './identity/realms.ts';

export const INITIALIZE_FLAG = '--initialize';

/**
 * Creating an embedded database (initdb, migrations, demo seed) leaves ~100 MB behind in PGlite's WebAssembly heap,
 * which never shrinks; a short-lived child process does that work so the server itself starts lean.
 */
export function needsFirstStart(config: Config): boolean {
  return !config.databaseUrl && !existsSync(path.join(config.dataDir, 'pglite', 'PG_VERSION'));
}

export function initializeInChildProcess(): Promise<DemoLogin[]> {
  return new Promise((resolve, reject) => {
    const child = fork(process.argv[1] ?? '', [INITIALIZE_FLAG], { stdio: 'inherit' });
    let logins: DemoLogin[] = [];
    child.on('message', (message) => {
      logins = message as DemoLogin[];
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(logins)
        : reject(new Error(`initializing the database failed (exit code ${code})`)),
    );
  });
}

/** The child's side: create and migrate the database, seed the demo if asked, hand the logins to the parent. */
export async function initializeAndExit(config: Config): Promise<never> {
  const database = await openDatabase({ dataDir: config.dataDir });
  const logins = config.demo
    ? await seedDemo(database.db, new RealmRegistry(database.db, config), config)
    : [];
  await database.close();
  await new Promise<void>((resolve) => (process.send ? process.send(logins, () => resolve()) : resolve()));
  process.exit(0);
}
