import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { vpn } from '@edgeport/contract';
import type { Static } from 'typebox';
import { baseOrigin, type Config } from '../../../config.ts';

export const COMPANION_NAME = 'Edgeport companion';
const COMPANION_PACKAGE = path.resolve(import.meta.dirname, '../../../../../companion/package.json');

/** The companion CLI's version, from its package.json ('0.0.0' when it is not next to the server). */
export function companionVersion(file = COMPANION_PACKAGE): string {
  try {
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: unknown };
    return typeof version === 'string' ? version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

const version = companionVersion();

/** Where to download the companion CLI and the command that forwards a local port on each system. */
export function companionAppInfo(config: Config): Static<typeof vpn.CompanionAppInfo> {
  const origin = baseOrigin(config);
  const command = `node edgeport.mjs connect --server ${origin} --token <token> --local-port <port>`;
  return {
    name: COMPANION_NAME,
    version,
    downloadUrl: `${origin}/downloads/edgeport.mjs`,
    platforms: (['Linux', 'Mac', 'Win'] as const).map((os) => ({ os, command })),
  };
}

/** The regions the portal's remote access runs in: this server. */
export function regions(config: Config): Static<typeof vpn.RegionList> {
  return { items: [{ id: 'default', name: 'Default', url: baseOrigin(config), default: true }] };
}
