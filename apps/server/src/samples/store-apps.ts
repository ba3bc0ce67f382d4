import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { baseOrigin, type Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { registerApp } from '../services/core/apps/service.ts';
import { bundleSamples, CONTENT_TYPES, sampleHelmet } from './routes.ts';

/**
 * The two sample store apps (`samples/shift-report`, `samples/energy-cost`), served ALWAYS (not only with
 * EDGEPORT_SAMPLES) at `/store-apps/{app}/` and registered in the store catalogue at `apps.{BASE_DOMAIN}` when the
 * server starts, so a fresh `npm start` (and every test server) lists them. Their TypeScript (with the bridge SDK) is
 * bundled with esbuild on the first request of a script.
 */
export const STORE_APPS = {
  'shift-report': {
    name: 'Shift report',
    description:
      "Operators write a report for their shift; the app keeps the last shift and notes and lists the organization's devices.",
    version: '1.1.0',
    plans: [
      { id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'MONTH' },
      { id: 'team', name: 'Team', priceMinor: 1900, currency: 'EUR', period: 'MONTH' },
    ],
  },
  'energy-cost': {
    name: 'Energy cost',
    description: 'The cost of a consumption at your tariff, exact to the cent, next to your measured data.',
    version: '1.0.0',
    plans: [
      { id: 'basic', name: 'Basic', priceMinor: 900, currency: 'EUR', period: 'MONTH' },
      { id: 'pro', name: 'Pro', priceMinor: 2900, currency: 'EUR', period: 'MONTH' },
    ],
  },
} as const;
export type StoreAppId = keyof typeof STORE_APPS;

function isStoreApp(name: string): name is StoreAppId {
  return Object.hasOwn(STORE_APPS, name);
}

/** The page kit both apps share (`samples/store-app-kit`): its style sheet is served at `/store-apps/kit/style.css`. */
const KIT = { id: 'kit', folder: 'store-app-kit', file: 'style.css' };

/** Where the portal embeds a sample store app. */
export function storeAppEntry(config: Config, id: StoreAppId): string {
  return `${baseOrigin(config, 'apps.')}/store-apps/${id}/`;
}

/** Registers (or updates: the address follows the port) both sample apps in the catalogue. */
export async function registerStoreApps(db: Db, config: Config): Promise<void> {
  for (const [id, app] of Object.entries(STORE_APPS)) {
    await registerApp(db, {
      id,
      name: app.name,
      description: app.description,
      publisher: 'Edgeport',
      entryUrl: storeAppEntry(config, id as StoreAppId),
      version: app.version,
      plans: app.plans.map((plan) => ({ ...plan })),
    });
  }
}

export const storeAppRoutes: FastifyPluginAsync<{ config: Config; db: Db }> = async (app, { config, db }) => {
  await registerStoreApps(db, config);
  const helmet = sampleHelmet(config);
  let bundles: Promise<Map<string, string>> | undefined;
  const scripts = () => {
    bundles ??= bundleSamples(config.samplesDir, Object.keys(STORE_APPS)).catch((error: unknown) => {
      bundles = undefined;
      throw error;
    });
    return bundles;
  };

  app.get<{ Params: { app: string } }>(
    '/store-apps/:app',
    { schema: { hide: true }, helmet },
    (request, reply) => {
      if (!isStoreApp(request.params.app)) return reply.code(404).send({ message: 'no such app' });
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`/store-apps/${request.params.app}/${query}`);
    },
  );

  app.get<{ Params: { app: string; '*': string } }>(
    '/store-apps/:app/*',
    { schema: { hide: true }, helmet },
    async (request, reply) => {
      const { app: id } = request.params;
      const file = request.params['*'] || 'index.html';
      const kitFile = id === KIT.id && file === KIT.file;
      if ((!isStoreApp(id) && !kitFile) || !/^[a-z0-9-]+\.[a-z]+$/.test(file))
        return reply.code(404).send({ message: 'not found' });
      reply.header('cache-control', 'no-cache');
      if (file === 'main.js') {
        const code = (await scripts()).get(`${id}/main.js`);
        if (code === undefined) return reply.code(404).send({ message: 'not found' });
        return reply.type('text/javascript; charset=utf-8').send(code);
      }
      const type = CONTENT_TYPES[path.extname(file)];
      if (!type) return reply.code(404).send({ message: 'not found' });
      const folder = kitFile ? KIT.folder : id;
      const text = await readFile(path.join(config.samplesDir, folder, file), 'utf8').catch(() => undefined);
      if (text === undefined) return reply.code(404).send({ message: 'not found' });
      return reply.type(type).send(text);
    },
  );
};
