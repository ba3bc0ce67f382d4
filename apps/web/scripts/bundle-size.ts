/**
 * The JavaScript a browser downloads on the first load of the sign-in -> home path, gzipped (target: at most
 * 300 KiB). Reads the Vite manifest of `apps/web/dist` (build first: `npm run build -w @edgeport/web`) and follows
 * the chunk graph from the entry plus the lazy pieces that path loads: the English translations and the /home
 * fallback page (and, for a user with several organizations, the selector).
 *
 * Usage: node apps/web/scripts/bundle-size.ts [--max-kib 300]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; dynamicImports?: string[] };
type Manifest = Record<string, ManifestChunk>;

const dist = path.join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
const maxArg = process.argv.indexOf('--max-kib');
const maxKib = maxArg > 0 ? Number(process.argv[maxArg + 1]) : 300;

/** A chunk and everything it imports statically. */
function closure(keys: string[], seen = new Set<string>()): Set<string> {
  for (const key of keys) {
    if (seen.has(key)) continue;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`the manifest has no ${key}`);
    seen.add(key);
    closure(chunk.imports ?? [], seen);
  }
  return seen;
}

function gzippedBytes(keys: Set<string>): number {
  let total = 0;
  for (const key of keys) {
    const file = manifest[key]?.file;
    if (file?.endsWith('.js')) total += gzipSync(readFileSync(path.join(dist, file))).length;
  }
  return total;
}

function key(source: string): string {
  const found = Object.keys(manifest).find((candidate) => candidate.endsWith(source));
  if (!found) throw new Error(`no chunk for ${source}`);
  return found;
}

const entry = Object.keys(manifest).filter((candidate) => manifest[candidate]?.isEntry);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const shell = closure(entry);
const toHome = closure(
  [key('src/locales/en.json'), key('features/directaccess/DirectAccessPage.tsx')],
  new Set(shell),
);
const withSelector = closure(
  [key('features/organization-selector/OrganizationSelectorPage.tsx')],
  new Set(toHome),
);

const rows = [
  ['entry (shell) chunks', gzippedBytes(shell)],
  ['sign-in -> /home (one organization)', gzippedBytes(toHome)],
  ['sign-in -> selector -> /home', gzippedBytes(withSelector)],
] as const;
for (const [name, bytes] of rows) console.log(`${name.padEnd(40)} ${kib(bytes).padStart(10)} gzipped`);
const worst = Math.max(...rows.map(([, bytes]) => bytes));
if (worst > maxKib * 1024) {
  console.error(`first load ${kib(worst)} exceeds ${maxKib} KiB`);
  process.exit(1);
}
