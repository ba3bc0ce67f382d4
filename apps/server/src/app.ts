import { existsSync } from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import websocket from '@fastify/websocket';
import { sql } from 'drizzle-orm';
import Fastify, { type FastifySchemaValidationError, type FastifyServerOptions } from 'fastify';
import { createWebSocketStream } from 'ws';
import type { BlobStore } from './blob/blob-store.ts';
import { DatabaseBlobStore } from './blob/database-store.ts';
import { DirectoryBlobStore } from './blob/directory-store.ts';
import { Clock } from './clock.ts';
import type { EventBus } from './cluster/event-bus.ts';
import { eventBusFor } from './cluster/invalidation.ts';
import { ClusterMembership } from './cluster/membership.ts';
import { PartitionRouter } from './cluster/partition-router.ts';
import { PartitionOwner } from './cluster/partitions.ts';
import { baseOrigin, type Config } from './config.ts';
import type { Database } from './db/index.ts';
import { lazySchemaCompilers } from './http/lazy-schemas.ts';
import { databaseRateLimitStore } from './http/rate-limit-store.ts';
import { answerError, refuseNulCharacters } from './http/request-guards.ts';
import { RequestLog } from './http/request-log.ts';
import { installSecret } from './identity/keys.ts';
import { RealmRegistry } from './identity/realms.ts';
import { identityRoutes } from './identity/routes.ts';
import { builtInTokenVerifier, externalTokenVerifier, type TokenVerifier } from './identity/verify.ts';
import { instanceIdOf } from './ingest/external-broker.ts';
import { createIngest } from './ingest/index.ts';
import { type MailTransport, mailTransportFor } from './mail/transport.ts';
import { sampleRoutes } from './samples/routes.ts';
import { storeAppRoutes } from './samples/store-apps.ts';
import { AlarmEngine } from './services/alarms/engine.ts';
import { alarmsService } from './services/alarms/routes.ts';
import { auditService } from './services/audit/routes.ts';
import { portalFramingHook } from './services/core/apps/framing.ts';
import { appOrigins } from './services/core/apps/service.ts';
import { coreService } from './services/core/routes.ts';
import { dashboardService } from './services/dashboard/routes.ts';
import { InvoiceProvider } from './services/license/billing/invoice-provider.ts';
import type { PaymentProvider } from './services/license/billing/payment-provider.ts';
import { LicenseExpiry } from './services/license/licenses/expiry.ts';
import { licenseService } from './services/license/routes.ts';
import { limitsService } from './services/limits/routes.ts';
import { liveRoutes } from './services/live/routes.ts';
import { mappingsService } from './services/mappings/routes.ts';
import { mountService, type ServiceDefinition } from './services/mount.ts';
import type { WebhookNetwork } from './services/notifications/network.ts';
import { Notifier } from './services/notifications/notifier.ts';
import { notificationsService } from './services/notifications/routes.ts';
import { platformService } from './services/platform/routes.ts';
import { themeService } from './services/theme/routes.ts';
import { themeForRealm } from './services/theme/service.ts';
import { TriggerEngine } from './services/triggermanager/engine.ts';
import { triggerManagerService } from './services/triggermanager/routes.ts';
import { legacyVpnService } from './services/vpn/legacy/routes.ts';
import { vpn2Service } from './services/vpn/routes.ts';
import { registerLiveSessions } from './services/vpn/sessions/live.ts';
import { startTelemetryStorage } from './telemetry/maintenance.ts';
import { testFixtureRoutes } from './testing/fixtures-route.ts';
import { sessionHostsServeOnlyRemote } from './tunnel/browser-access.ts';
import { InternalAuth } from './tunnel/forwarding.ts';
import { remoteAccessRoutes } from './tunnel/remote-access-routes.ts';
import { tunnelRoutes } from './tunnel/routes.ts';
import { TunnelHub } from './tunnel/tunnel-hub.ts';

export const SERVICES: ServiceDefinition[] = [
  coreService,
  themeService,
  auditService,
  mappingsService,
  platformService,
  licenseService,
  alarmsService,
  notificationsService,
  triggerManagerService,
  limitsService,
  vpn2Service,
  legacyVpnService,
  dashboardService,
];

/** Fastify's validation message, naming the offending property where Ajv's text alone does not. */
function validationError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const [first] = errors;
  if (!first) return new Error(`${dataVar} is not valid`);
  const path = `${dataVar}${first.instancePath}`;
  const params = first.params as { additionalProperty?: unknown; missingProperty?: unknown };
  if (typeof params.additionalProperty === 'string')
    return new Error(`${path} must NOT have the unknown property '${params.additionalProperty}'`);
  return new Error(`${path} ${first.message ?? 'is not valid'}`);
}

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions['logger'];
  /** Outgoing mail; by default the outbox table, or SMTP when `config.smtpUrl` is set. */
  mail?: MailTransport;
  /** Where charges go; by default invoices (`InvoiceProvider`). */
  payments?: PaymentProvider;
  /** Where files go; by default the `blobs` table on PostgreSQL, `{dataDir}/blobs` on PGlite. */
  blobs?: BlobStore;
  /** Invalidations between instances; by default LISTEN/NOTIFY on PostgreSQL, in process on PGlite. */
  bus?: EventBus;
  /** Where webhooks are checked against and connect through; by default this host's network. */
  webhookNetwork?: WebhookNetwork;
};

export async function buildApp({
  config,
  database,
  logger = false,
  mail: mailOption,
  payments = new InvoiceProvider(),
  // On PostgreSQL every instance of a cluster must read what another stored; PGlite is one process's own.
  blobs = database.kind === 'postgres'
    ? new DatabaseBlobStore(database.db)
    : new DirectoryBlobStore(path.join(config.dataDir, 'blobs')),
  bus: busOption,
  webhookNetwork,
}: AppOptions) {
  const schemas = lazySchemaCompilers();
  const app = Fastify({
    logger,
    logController: new RequestLog(),
    // X-Forwarded-* only from the configured proxies: a direct client must not choose the address that sign-in
    // policies, gateway IP filters and rate limits see.
    trustProxy: config.trustedProxies.length > 0 ? config.trustedProxies : false,
    forceCloseConnections: 'idle',
    // strictNumbers off: with it, coercion turns '1e999' into Infinity and skips minimum/maximum.
    ajv: {
      customOptions: {
        allErrors: false,
        coerceTypes: 'array',
        removeAdditional: false,
        strictNumbers: false,
        // Type lists such as ['number', 'boolean', 'string']: a union (anyOf) would be mangled by type coercion.
        allowUnionTypes: true,
      },
    },
    schemaErrorFormatter: validationError,
    schemaController: { compilersFactory: schemas.compilersFactory },
  }).withTypeProvider<TypeBoxTypeProvider>();
  const realms = new RealmRegistry(database.db, config);
  const verifyToken: TokenVerifier = config.oidcIssuerUrl
    ? externalTokenVerifier(config.oidcIssuerUrl)
    : builtInTokenVerifier(realms);
  const mail = mailOption ?? mailTransportFor(config, database.db, app.log);
  const clock = new Clock();
  let shuttingDown = false;

  app.setErrorHandler(answerError);
  app.addHook('preValidation', refuseNulCharacters);
  app.addHook('onRequest', sessionHostsServeOnlyRemote(config));
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
      clock,
      themeFor: (realm) => themeForRealm(database.db, realm),
    });
  }
  // On PostgreSQL the counts are shared by every instance of a cluster; PGlite is one process's own.
  await app.register(rateLimit, {
    global: false,
    ...(database.kind === 'postgres' && { store: databaseRateLimitStore(database.db) }),
  });
  await app.register(websocket, { options: { maxPayload: 256 * 1024 } });
  // This instance's fixed name, read or made once: the membership and the external broker's sessions carry it.
  const instanceId =
    database.kind === 'postgres' || config.mqttUrl
      ? await instanceIdOf(config.instanceId, config.dataDir)
      : undefined;
  await startTelemetryStorage(database.db);
  const ingest = await createIngest(database.db, app.log, config.mqttUrl, {
    maxPacketBytes: config.mqttMaxPacketBytes,
    dynsec: config.mqttDynsec,
    instanceId,
    exclusive: database.exclusive,
  });
  app.get('/mqtt', { websocket: true, schema: { hide: true } }, (socket) => {
    ingest.handle(createWebSocketStream(socket));
  });
  const { db } = database;
  const bus = busOption ?? (await eventBusFor(database, app.log));
  // Which instances share the work (device partitions) and where each is reached. PGlite is one process's own.
  const membership =
    database.kind === 'postgres' && instanceId
      ? await ClusterMembership.join(db, { instanceId, internalUrl: config.internalUrl }, app.log)
      : undefined;
  // In a cluster a device's alarm and trigger state runs on its partition's owner; on PGlite this process owns all.
  const partitions = membership
    ? new PartitionRouter({
        owner: new PartitionOwner({ db, membership, bus, log: app.log }),
        bus,
        events: ingest.events,
        log: app.log,
      })
    : undefined;
  const alarms = new AlarmEngine({
    db,
    events: ingest.events,
    log: app.log,
    bus,
    input: partitions?.input,
    owns: partitions?.owns,
  });
  const notifier = new Notifier({
    db,
    events: ingest.events,
    log: app.log,
    config,
    network: webhookNetwork,
  });
  const triggers = new TriggerEngine({
    db,
    ingest,
    alarms,
    notifier,
    log: app.log,
    bus,
    input: partitions?.input,
  });
  await alarms.start();
  await notifier.start();
  await triggers.start();
  await partitions?.start([alarms, triggers]);
  // Only now: an external broker's sessions deliver what waited for this instance at once, to the engines above.
  await ingest.start();
  const licenseExpiry = new LicenseExpiry({ db, clock, log: app.log, notifier, payments, ingest });
  await licenseExpiry.start();
  await app.register(liveRoutes, { ingest, db, verifyToken });
  // Gateways' tunnels are leased in the database; in a cluster a session reaching another instance is forwarded.
  const tunnels = new TunnelHub({
    db,
    log: app.log,
    now: () => clock.now(),
    cluster: {
      instanceId: membership?.self.instanceId ?? 'embedded',
      bus,
      forwarding: membership && {
        members: membership,
        auth: new InternalAuth(await installSecret(db, 'tunnel-forwarding-key')),
      },
    },
  });
  const liveSessions = registerLiveSessions(tunnels, db, bus);
  await app.register(tunnelRoutes, { db, tunnels });
  await app.register(remoteAccessRoutes, { db, config, tunnels });
  for (const service of SERVICES)
    await mountService(app, service, {
      config,
      database,
      verifyToken,
      mail,
      ingest,
      alarms,
      notifier,
      triggers,
      clock,
      payments,
      licenseExpiry,
      tunnels,
      blobs,
      bus,
    });
  // Every subscription is made: from here on each instance hears the others' invalidations.
  await bus.ready();

  if (config.testFixtures)
    await app.register(testFixtureRoutes, {
      db: database.db,
      realms,
      triggers,
      alarms,
      clock,
      licenseExpiry,
    });
  // Host/app bridge: the portal frames only catalogue apps and is framed only by configured host pages.
  const embedHostOrigins = [
    ...config.embedHostOrigins,
    ...(config.samples ? [baseOrigin(config, 'host.')] : []),
  ];
  app.addHook('onSend', portalFramingHook({ appOrigins: () => appOrigins(database.db), embedHostOrigins }));
  if (config.samples) await app.register(sampleRoutes, { config });
  // The sample store apps (shift-report, energy-cost): always served and in the catalogue.
  await app.register(storeAppRoutes, { config, db: database.db });

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
    await ingest.close();
    await partitions?.stop();
    await triggers.close();
    await licenseExpiry.close();
    await tunnels.close();
    liveSessions.stop();
    await alarms.close();
    await notifier.close();
    await membership?.leave();
    await bus.close();
  });

  return Object.assign(app, {
    realms,
    verifyToken,
    mail,
    ingest,
    alarms,
    notifier,
    triggers,
    clock,
    payments,
    licenseExpiry,
    tunnels,
    blobs,
    bus,
    membership,
    partitions,
    markShuttingDown: () => (shuttingDown = true),
    /** Compiles every route schema not used yet (they compile on first use): a test checks that all of them do. */
    compileAllSchemas: schemas.compileAll,
  });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
