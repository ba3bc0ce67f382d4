import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { migratedPgliteDump, migrationsFolder } from '../../src/db/index.ts';

/**
 * Test servers start from a dump of a migrated PGlite database instead of migrating a new one each (about 0.4 s
 * instead of 2 s, for more than a hundred servers a run). Vitest's global setup writes the dump once; its name
 * carries a hash of the migrations and the PGlite version, so a changed migration or engine makes a new one.
 */
function templateFile(): string {
  const hash = createHash('sha256').update(pgliteVersion());
  for (const name of readdirSync(migrationsFolder, { recursive: true }).map(String).sort()) {
    const file = path.join(migrationsFolder, name);
    if (!name.endsWith('.sql') && !name.endsWith('.json')) continue;
    hash.update(name).update(readFileSync(file));
  }
  return path.join(os.tmpdir(), `edgeport-pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
}

/** The installed PGlite's version (its package.json is not among the files it exports). */
function pgliteVersion(): string {
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const root = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`));
  return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The dump, when the global setup has written it (a test run alone without it migrates as before). */
export function pgliteTemplate(): Blob | undefined {
  const file = templateFile();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** Vitest global setup. */
export default async function writePgliteTemplate(): Promise<void> {
  const file = templateFile();
  if (existsSync(file)) return;
  const dump = await migratedPgliteDump();
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
}
