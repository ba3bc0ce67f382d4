import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifyServerOptions } from 'fastify';
import type { Config } from './config.ts';
import type { Database } from './db/index.ts';
import { RealmRegistry } from './identity/realms.ts';
import { identityRoutes } from './identity/routes.ts';
import { builtInTokenVerifier, externalTokenVerifier, type TokenVerifier } from './identity/verify.ts';
import { auditService } from './services/audit/routes.ts';
import { coreService } from './services/core/routes.ts';
import { mountService, type ServiceDefinition } from './services/mount.ts';
import { themeService } from './services/theme/routes.ts';
import { themeForRealm } from './services/theme/service.ts';
import { testFixtureRoutes } from './testing/fixtures-route.ts';

export const SERVICES: ServiceDefinition[] = [coreService, themeService, auditService];

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
};

export async function buildApp({ config, database, logger = false }: AppOptions) {
  const app = Fastify({
    logger,
    trustProxy: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  const realms = new RealmRegistry(database.db, config);
  const verifyToken: TokenVerifier = config.oidcIssuerUrl
    ? externalTokenVerifier(config.oidcIssuerUrl)
    : builtInTokenVerifier(realms);
  let shuttingDown = false;

  await app.register(cookie);
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:'],
        'connect-src': ["'self'", 'ws:', 'wss:'],
        'frame-src': ["'self'"],
        'upgrade-insecure-requests': null,
      },
    },
    strictTransportSecurity: config.publicScheme === 'https',
  });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (shuttingDown) return reply.code(503).send({ status: 'shutting down' });
    await database.db.execute(sql`select 1`);
    return { status: 'ready', database: database.kind };
  });

  if (!config.oidcIssuerUrl) {
    await app.register(identityRoutes, {
      db: database.db,
      realms,
      verifyToken,
      themeFor: (realm) => themeForRealm(database.db, realm),
    });
  }
  await app.register(rateLimit, { global: false });
  for (const service of SERVICES) await mountService(app, service, { config, database, verifyToken });

  if (config.testFixtures) await app.register(testFixtureRoutes, { db: database.db, realms });

  if (existsSync(config.webDist)) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: ['index.html'],
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, filePath) => {
        // Vite names assets by content hash: they never change. index.html must be revalidated to find new ones.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        response.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.addHook('onClose', async () => {
    shuttingDown = true;
  });

  return Object.assign(app, { realms, verifyToken, markShuttingDown: () => (shuttingDown = true) });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
