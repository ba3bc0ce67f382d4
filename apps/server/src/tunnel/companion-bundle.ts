import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** Where the companion CLI's source is, in the repository. */
export const COMPANION_ENTRY = path.resolve(import.meta.dirname, '../../../companion/src/cli.ts');
/** The file name of the bundled companion CLI, next to the bundled server (`dist/`). */
export const COMPANION_FILE = 'edgeport.mjs';

/**
 * The companion CLI as one JavaScript file for Node 22+ (with its `ws` dependency inside): what
 * `/downloads/edgeport.mjs` serves and the server build writes next to `main.js`.
 */
export async function bundleCompanion(entry = COMPANION_ENTRY): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    write: false,
    // ws loads these optional native helpers when present; the CLI does without.
    external: ['bufferutil', 'utf-8-validate'],
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const [file] = result.outputFiles;
  if (!file) throw new Error('esbuild produced no companion bundle');
  return file.text;
}

let cached: Promise<Buffer> | undefined;

/** The bundled CLI: the built file next to the server when there is one (production), else bundled once now. */
export function companionBundle(): Promise<Buffer> {
  cached ??= (async () => {
    const built = path.join(import.meta.dirname, COMPANION_FILE);
    if (existsSync(built)) return readFile(built);
    return Buffer.from(await bundleCompanion());
  })().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}
