import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, RouteShorthandOptions } from 'fastify';
import { baseOrigin, type Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { registerApp } from '../services/core/apps/service.ts';

/**
 * The host/app bridge samples (`samples/` at the repository root), served at `/samples/{sample}/` when
 * EDGEPORT_SAMPLES is on (with the demo, and in the browser tests). They are meant to be opened on hosts other than
 * the portal's, which the same server answers too because every `*.{BASE_DOMAIN}` name reaches it:
 *   - `http://apps.{BASE_DOMAIN}/samples/bridge-app/`: an app the portal embeds (store catalogue id `bridge-sample`);
 *   - `http://host.{BASE_DOMAIN}/samples/bridge-host/`: a host page embedding the portal (allowed to frame it);
 *   - `/samples/bridge-probe/`: a page posting the bridge's messages to its parent and top windows, to show that a
 *     frame of a third origin gets nothing.
 * Their TypeScript (and the bridge SDK they import) is bundled with esbuild once, when the plugin starts.
 */
export const SAMPLES = ['bridge-app', 'bridge-host', 'bridge-probe'] as const;
type Sample = (typeof SAMPLES)[number];

/** The catalogue id of the sample app (demo seed). */
export const SAMPLE_APP_ID = 'bridge-sample';

export const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** The sample pages' own scripts, bundled: `bridge-app/main.js` -> code. */
export async function bundleSamples(
  samplesDir: string,
  samples: readonly string[] = SAMPLES,
): Promise<Map<string, string>> {
  const { build } = await import('esbuild');
  const outdir = path.join(samplesDir, '.bundle');
  const result = await build({
    entryPoints: samples.map((sample) => path.join(samplesDir, sample, 'main.ts')),
    outbase: samplesDir,
    outdir,
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    sourcemap: false,
    logLevel: 'silent',
  });
  return new Map(
    result.outputFiles.map((file) => [path.relative(outdir, file.path).split(path.sep).join('/'), file.text]),
  );
}

function isSample(name: string): name is Sample {
  return (SAMPLES as readonly string[]).includes(name);
}

/** The sample pages may frame, and be framed by, the product's hosts only (`*.{BASE_DOMAIN}` on its port). */
export function sampleHelmet(config: Config): RouteShorthandOptions['helmet'] {
  const family = [baseOrigin(config), baseOrigin(config, '*.')];
  return {
    frameguard: false,
    contentSecurityPolicy: {
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'frame-src': ["'self'", ...family],
        'frame-ancestors': ["'self'", ...family],
        'upgrade-insecure-requests': null,
      },
    },
  };
}

function indexPage(config: Config): string {
  const links = [
    ['bridge-app', baseOrigin(config, 'apps.'), 'an app to embed in the portal (store app bridge-sample)'],
    ['bridge-host', baseOrigin(config, 'host.'), 'a host page embedding the portal'],
    ['bridge-probe', baseOrigin(config, 'evil.'), 'a frame of a third origin posting bridge messages'],
  ]
    .map(
      ([name, origin, what]) =>
        `<li><a href="${origin}/samples/${name}/">${origin}/samples/${name}/</a>: ${what}</li>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Bridge samples</title></head>
<body><h1>Host/app bridge samples</h1><ul>${links}</ul></body></html>`;
}

export const sampleRoutes: FastifyPluginAsync<{ config: Config }> = async (app, { config }) => {
  const bundles = await bundleSamples(config.samplesDir);
  const helmet = sampleHelmet(config);

  app.get('/samples', { schema: { hide: true }, helmet }, (_request, reply) => reply.redirect('/samples/'));
  app.get('/samples/', { schema: { hide: true }, helmet }, (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexPage(config)),
  );

  app.get<{ Params: { sample: string } }>(
    '/samples/:sample',
    { schema: { hide: true }, helmet },
    (request, reply) => {
      if (!isSample(request.params.sample)) return reply.code(404).send({ message: 'no such sample' });
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply.redirect(`/samples/${request.params.sample}/${query}`);
    },
  );

  app.get<{ Params: { sample: string; '*': string } }>(
    '/samples/:sample/*',
    { schema: { hide: true }, helmet },
    async (request, reply) => {
      const { sample } = request.params;
      const file = request.params['*'] || 'index.html';
      if (!isSample(sample) || !/^[a-z0-9-]+\.[a-z]+$/.test(file))
        return reply.code(404).send({ message: 'not found' });
      reply.header('cache-control', 'no-cache');
      const bundled = bundles.get(`${sample}/${file}`);
      if (bundled !== undefined) return reply.type('text/javascript; charset=utf-8').send(bundled);
      const type = CONTENT_TYPES[path.extname(file)];
      if (!type) return reply.code(404).send({ message: 'not found' });
      const text = await readFile(path.join(config.samplesDir, sample, file), 'utf8').catch(() => undefined);
      if (text === undefined) return reply.code(404).send({ message: 'not found' });
      return reply.type(type).send(text);
    },
  );
};

/** Registers the sample app in the store catalogue at `apps.{BASE_DOMAIN}` (demo seed; idempotent). */
export async function registerSampleApp(db: Db, config: Config): Promise<void> {
  await registerApp(db, {
    id: SAMPLE_APP_ID,
    name: 'Bridge sample app',
    description:
      'Shows the context the portal gives an embedded app, its changes, navigation and preferences.',
    publisher: 'Edgeport',
    entryUrl: `${baseOrigin(config, 'apps.')}/samples/bridge-app/`,
    // Free, so the demo can install it: only an installed app opens in the portal.
    plans: [{ id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'MONTH' }],
  });
}
