/**
 * Writes a brotli (.br) and a gzip (.gz) copy next to every text asset of the build, so the server sends them
 * compressed without compressing on each request (@fastify/static `preCompressed`).
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '../dist');
const COMPRESSIBLE = /\.(js|css|html|json|svg|map|txt)$/;
const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

const entries = await readdir(dist, { recursive: true, withFileTypes: true });
const files = entries.filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name));
for (const file of files) {
  const full = path.join(file.parentPath, file.name);
  const content = await readFile(full);
  await writeFile(`${full}.br`, await brotli(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await writeFile(`${full}.gz`, await gzipAsync(content, { level: 9 }));
}
console.log(`precompressed ${files.length} files in ${path.relative(process.cwd(), dist)}`);
