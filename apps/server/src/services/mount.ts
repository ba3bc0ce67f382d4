import swagger from '@fastify/swagger';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../blob/blob-store.ts';
import type { Clock } from '../clock.ts';
import type { EventBus } from '../cluster/event-bus.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import { authenticate } from '../http/principal.ts';
import type { TokenVerifier } from '../identity/verify.ts';
import type { Ingest } from '../ingest/index.ts';
import type { MailTransport } from '../mail/transport.ts';
import type { GatewayTunnels } from '../tunnel/hub.ts';
import type { AlarmEngine } from './alarms/engine.ts';
import type { PaymentProvider } from './license/billing/payment-provider.ts';
import type { LicenseExpiry } from './license/licenses/expiry.ts';
import type { Notifier } from './notifications/notifier.ts';
import type { TriggerEngine } from './triggermanager/engine.ts';

/** What every service gets from the composition root. */
export type ServiceContext = {
  config: Config;
  database: Database;
  verifyToken: TokenVerifier;
  /** Outgoing e-mail (invitations, password changes): the outbox, or SMTP when SMTP_URL is set. */
  mail: MailTransport;
  /** Device data in: latest values, set-points to devices, device events. */
  ingest: Ingest;
  /** Alarm rules evaluated on device data; alarm instances and their history. */
  alarms: AlarmEngine;
  /** Notification deliveries (e-mail, webhooks) with retries. */
  notifier: Notifier;
  /** Trigger rules: condition on data or alarm state, then an action. */
  triggers: TriggerEngine;
  /** The server's time for terms (licences, app billing); tests move it forward. */
  clock: Clock;
  /** Where charges go: by default invoices an operator marks paid. */
  payments: PaymentProvider;
  /** Licence terms: warnings, renewals, expiry. */
  licenseExpiry: LicenseExpiry;
  /** The gateway agents' tunnels (remote access). */
  tunnels: GatewayTunnels;
  /** Files (dashboard assets, gallery packages): the data directory's `blobs` folder. */
  blobs: BlobStore;
  /** Invalidations between the instances of a cluster (LISTEN/NOTIFY on PostgreSQL, in process on PGlite). */
  bus: EventBus;
};

export type ServiceDefinition = {
  /** Base path segment: the service answers under `/svc/{name}`. */
  name: string;
  title: string;
  routes: FastifyPluginAsyncTypebox<ServiceContext>;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that answer without a bearer token. */
    public?: boolean;
  }
}

export const API_VERSION = '0.1.0';

/**
 * Mounts a service as its own encapsulated plugin at `/svc/{name}`: every route needs a valid bearer token unless it
 * says `config: { public: true }`, and the service publishes its own OpenAPI document at `/svc/{name}/docs/json`.
 */
export async function mountService(
  app: FastifyInstance,
  service: ServiceDefinition,
  context: ServiceContext,
) {
  await app.register(
    async (scope) => {
      await scope.register(swagger, {
        openapi: {
          openapi: '3.1.0',
          info: { title: service.title, version: API_VERSION },
          components: {
            securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
          },
          security: [{ bearer: [] }],
        },
      });
      scope.addHook('onRequest', async (request) => {
        if (request.routeOptions.config.public) return;
        request.principal = await authenticate(request, context.verifyToken, context.database.db);
      });
      scope.get('/docs/json', { schema: { hide: true }, config: { public: true } }, async () =>
        scope.swagger(),
      );
      await scope.register(service.routes, context);
    },
    { prefix: `/svc/${service.name}` },
  );
}
