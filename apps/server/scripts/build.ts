/**
 * Bundles the server for `npm start`. Why: loaded module by module from node_modules, drizzle-orm leaves ~190 MB of
 * garbage in the heap at start (Node re-reads its very large package.json for every module), which the process keeps
 * as resident memory; bundled, the server idles at a fraction of that. Native and WebAssembly packages stay external.
 */
import { cp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleCompanion, COMPANION_FILE } from '../src/tunnel/companion-bundle.ts';

const serverRoot = path.resolve(import.meta.dirname, '..');

export async function buildServer(outdir = path.join(serverRoot, 'dist')): Promise<string> {
  await rm(outdir, { recursive: true, force: true });
  const outfile = path.join(outdir, 'main.js');
  await build({
    entryPoints: [path.join(serverRoot, 'src/main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    sourcemap: 'linked',
    // Memory: V8 keeps the bundle's source text for as long as the process runs. Whitespace and syntax minified, it is
    // about half the size; and with the licence comments moved to main.js.LEGAL.txt it is all ASCII, which V8 stores at
    // one byte a character (a single non-Latin-1 character, an em dash in a comment, made it two bytes each).
    // Identifiers are kept, and so are the names of functions and classes (oidc-provider answered 500 without them).
    minifyWhitespace: true,
    keepNames: true,
    minifySyntax: true,
    legalComments: 'linked',
    charset: 'ascii',
    // esbuild: the bridge samples are bundled at start (EDGEPORT_SAMPLES); it cannot be bundled itself.
    external: ['@electric-sql/pglite', '@node-rs/argon2', 'pg-native', 'esbuild'],
    // CommonJS dependencies (pg) call require(); give the ES module bundle one.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  await cp(path.join(serverRoot, 'src/db/migrations'), path.join(outdir, 'migrations'), { recursive: true });
  // The companion CLI, served at /downloads/edgeport.mjs.
  await writeFile(path.join(outdir, COMPANION_FILE), await bundleCompanion(), { mode: 0o755 });
  return outfile;
}

if (import.meta.main) {
  console.log(`server bundled to ${path.relative(process.cwd(), await buildServer())}`);
}
