import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { liveSessionsOf } from '../services/vpn/sessions/live.ts';
import { browserAccessRoutes } from './browser-access.ts';
import { COMPANION_FILE, companionBundle } from './companion-bundle.ts';
import type { GatewayTunnels } from './hub.ts';
import { SessionSweeper } from './session-sweeper.ts';
import { tcpForwardRoutes } from './tcp-forward.ts';

export type RemoteAccessRouteOptions = { db: Db; config: Config; tunnels: GatewayTunnels };

/**
 * Sessions through the tunnel: browser access at `/remote/{session}/...` on the session's own host
 * `{session}.remote.{BASE_DOMAIN}` (HTTP and WebSocket proxied through the gateway agent; 404 on any other host), `/tunnel/tcp/{session}` (the companion CLI's TCP forwarding), the companion CLI download, and
 * the sweeper that ends idle and old sessions.
 */
export const remoteAccessRoutes: FastifyPluginAsync<RemoteAccessRouteOptions> = async (app, options) => {
  const { db, config, tunnels } = options;
  const live = liveSessionsOf(tunnels, db);

  // Bodies pass through to the machine untouched: nothing here parses them.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));

  await browserAccessRoutes(app, { db, config, tunnels, live });
  await tcpForwardRoutes(app, { db, tunnels, live });

  app.get(`/downloads/${COMPANION_FILE}`, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('content-disposition', `attachment; filename="${COMPANION_FILE}"`)
      .header('cache-control', 'no-cache')
      .send(await companionBundle()),
  );

  const sweeper = new SessionSweeper(db, live, app.log);
  sweeper.start();
  // Streams through the tunnel would hold the server open: break them first; their traffic is written on close.
  app.addHook('preClose', async () => live.closeAll());
  app.addHook('onClose', async () => sweeper.stop());
};
