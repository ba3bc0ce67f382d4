/**
 * npm ci wants every optional platform package of @biomejs/biome in package-lock.json, but the registry mirror of
 * this workplace serves only the Linux builds, so `npm install` leaves the others out and `npm ci` then refuses the
 * lock as out of sync. Run this after any `npm install` that rewrote the lock: it adds the missing entries (they are
 * never installed on Linux: their os/cpu do not match).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

type LockEntry = { version?: string; optionalDependencies?: Record<string, string> } & Record<
  string,
  unknown
>;

const lockFile = path.join(import.meta.dirname, '..', 'package-lock.json');
const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, LockEntry> };
const PLATFORMS: Record<string, { os: string; cpu: string; libc?: string }> = {
  'android-arm64': { os: 'android', cpu: 'arm64' },
  'android-x64': { os: 'android', cpu: 'x64' },
  'darwin-arm64': { os: 'darwin', cpu: 'arm64' },
  'darwin-x64': { os: 'darwin', cpu: 'x64' },
  'linux-arm64': { os: 'linux', cpu: 'arm64', libc: 'glibc' },
  'linux-x64': { os: 'linux', cpu: 'x64', libc: 'glibc' },
  'linux-arm64-musl': { os: 'linux', cpu: 'arm64', libc: 'musl' },
  'linux-x64-musl': { os: 'linux', cpu: 'x64', libc: 'musl' },
  'win32-arm64': { os: 'win32', cpu: 'arm64' },
  'win32-x64': { os: 'win32', cpu: 'x64' },
};

const biome = lock.packages['node_modules/@biomejs/biome'];
const added: string[] = [];
for (const [name, version] of Object.entries(biome?.optionalDependencies ?? {})) {
  const key = `node_modules/${name}`;
  const platform = PLATFORMS[name.split('/cli-')[1] ?? ''];
  if (lock.packages[key] || !platform) continue;
  lock.packages[key] = {
    version,
    cpu: [platform.cpu],
    dev: true,
    license: 'MIT OR Apache-2.0',
    optional: true,
    os: [platform.os],
    ...(platform.libc ? { libc: [platform.libc] } : {}),
    engines: { node: '>=14.21.3' },
  };
  added.push(name);
}
const sorted = Object.entries(lock.packages).sort(([a], [b]) =>
  a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1,
);
lock.packages = Object.fromEntries(sorted);
writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
console.log(added.length ? `added to the lock: ${added.join(', ')}` : 'lock already complete');
