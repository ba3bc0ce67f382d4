/**
 * First-load JavaScript of the web portal, gzipped (target: at most 300 KiB for the login -> home path).
 *
 * Reads the Vite manifest of `apps/web/dist` (build first: `npm run build -w @edgeport/web`) and follows the chunk
 * graph: (a) the shell = the entry chunk and everything it imports statically (what `index.html` loads and
 * modulepreloads); (b) the login -> home path = the shell plus the lazy pieces that path loads: the English
 * translations and the /home fallback page (and, for a user with several organizations, the organization
 * selector). Every other lazily loaded chunk (route pages, other languages) is listed separately with what it adds
 * on top of the shell. Exits 1 when the login -> home path exceeds the budget.
 *
 * Usage: node bench/web-bundle.ts [--max-kib 300] [--json FILE] [--dist apps/web/dist]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { REPO_ROOT } from './support/server.ts';
import type { BundleResults, ChunkSize, PathSize } from './support/web-results.ts';

type ManifestChunk = {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
};
type Manifest = Record<string, ManifestChunk>;

const { values: args } = parseArgs({
  options: {
    'max-kib': { type: 'string', default: '300' },
    json: { type: 'string' },
    dist: { type: 'string', default: path.join(REPO_ROOT, 'apps/web/dist') },
  },
});
const maxKib = Number(args['max-kib']);
if (!Number.isFinite(maxKib) || maxKib <= 0) throw new Error(`--max-kib is not a number: ${args['max-kib']}`);
const dist = path.resolve(args.dist);
const manifestFile = path.join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  process.stderr.write(
    `${manifestFile} is missing: build the web app first (npm run build -w @edgeport/web)\n`,
  );
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;

/** The chunks of the login -> home path besides the shell, by the end of their source path. */
const HOME_PATH_SOURCES = ['src/locales/en.json', 'features/directaccess/DirectAccessPage.tsx'];
const SELECTOR_SOURCE = 'features/organization-selector/OrganizationSelectorPage.tsx';

function chunk(key: string): ManifestChunk {
  const found = manifest[key];
  if (!found) throw new Error(`the manifest has no ${key}`);
  return found;
}

/** Chunks and everything they import statically (what the browser fetches before running them). */
function closure(keys: Iterable<string>, seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(chunk(key).imports ?? [], seen);
  }
  return seen;
}

const gzipCache = new Map<string, { raw: number; gzip: number }>();
function fileSize(file: string): { raw: number; gzip: number } {
  let size = gzipCache.get(file);
  if (!size) {
    const bytes = readFileSync(path.join(dist, file));
    size = { raw: bytes.length, gzip: gzipSync(bytes).length };
    gzipCache.set(file, size);
  }
  return size;
}

/** JavaScript files of a set of chunks (a file counts once however many keys name it). */
function jsFiles(keys: Iterable<string>): string[] {
  const files = new Set<string>();
  for (const key of keys) {
    const file = chunk(key).file;
    if (file.endsWith('.js')) files.add(file);
  }
  return [...files].sort();
}

function measure(name: string, keys: Set<string>): PathSize {
  const files = jsFiles(keys);
  const sizes = files.map(fileSize);
  return {
    name,
    files: files.length,
    rawBytes: sizes.reduce((sum, size) => sum + size.raw, 0),
    gzipBytes: sizes.reduce((sum, size) => sum + size.gzip, 0),
  };
}

function keyOf(source: string): string {
  const found = Object.keys(manifest).find((candidate) => candidate.endsWith(source));
  if (!found) throw new Error(`the manifest has no chunk for ${source}`);
  return found;
}

const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
if (entries.length === 0) throw new Error('the manifest has no entry chunk');
const shell = closure(entries);
const toHome = closure(HOME_PATH_SOURCES.map(keyOf), new Set(shell));
const withSelector = closure([keyOf(SELECTOR_SOURCE)], new Set(toHome));

const paths: PathSize[] = [
  measure('Shell (entry chunk + its static imports)', shell),
  measure('Login -> /home (one organization): shell + en translations + /home page', toHome),
  measure('Login -> organization selector -> /home', withSelector),
];

// Every lazily loaded chunk: what loading it adds on top of the shell.
const lazyKeys = Object.keys(manifest)
  .filter((key) => manifest[key]?.isDynamicEntry)
  .sort();
const lazy: ChunkSize[] = lazyKeys.map((key) => {
  const extra = jsFiles(closure([key], new Set(shell))).filter((file) => !jsFiles(shell).includes(file));
  const own = fileSize(chunk(key).file);
  return {
    source: chunk(key).src ?? key,
    file: chunk(key).file,
    gzipBytes: own.gzip,
    addedGzipBytes: extra.reduce((sum, file) => sum + fileSize(file).gzip, 0),
    onHomePath: toHome.has(key) || withSelector.has(key),
  };
});

const cssFiles = new Set([...shell].flatMap((key) => chunk(key).css ?? []));
const shellCssGzipBytes = [...cssFiles].reduce((sum, file) => sum + fileSize(file).gzip, 0);
const worst = Math.max(...paths.map((entry) => entry.gzipBytes));

const results: BundleResults = {
  date: new Date().toISOString(),
  maxKib,
  paths,
  lazy,
  shellCssGzipBytes,
  worstGzipBytes: worst,
  met: worst <= maxKib * 1024,
};

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const out: string[] = ['First-load JavaScript (gzip, default level, of the built files):'];
for (const entry of paths)
  out.push(`  ${entry.name.padEnd(76)} ${kib(entry.gzipBytes).padStart(10)}  (${entry.files} files)`);
out.push(`  Shell CSS (not counted above) ${kib(shellCssGzipBytes).padStart(56)}`);
out.push('Lazily loaded chunks (own size / added on top of the shell):');
for (const entry of lazy) {
  const mark = entry.onHomePath ? '  [login -> home path]' : '';
  out.push(
    `  ${entry.source.padEnd(76)} ${kib(entry.gzipBytes).padStart(10)} / ${kib(entry.addedGzipBytes).padStart(9)}${mark}`,
  );
}
out.push(`Budget: ${maxKib} KiB gzipped; largest path ${kib(worst)}: ${results.met ? 'met' : 'EXCEEDED'}`);
process.stdout.write(`${out.join('\n')}\n`);
if (args.json) writeFileSync(args.json, `${JSON.stringify(results, null, 2)}\n`);
if (!results.met) {
  process.stderr.write(`first load ${kib(worst)} exceeds ${maxKib} KiB\n`);
  process.exit(1);
}
