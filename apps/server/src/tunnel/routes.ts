import { STREAM_UPGRADE } from '@edgeport/tunnel-protocol';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { HttpError } from '../http/errors.ts';
import { type AgentGateway, authenticateAgent } from '../services/vpn/agents/service.ts';
import { isRawUpgrade, takeUpgradedSocket } from './raw-upgrade.ts';
import type { TunnelHub } from './tunnel-hub.ts';

export type TunnelRouteOptions = { db: Db; tunnels: TunnelHub };

/**
 * `/tunnel/stream/{id}`: an agent's raw data connection (`Upgrade: edgeport-stream`, `Authorization: Stream {token}`)
 * that the hub asked for with `connect`. An unknown id answers 404, a wrong token 401, both before any upgrade.
 *
 * `/tunnel`: the WebSocket the gateway agents connect to, with `Authorization: Gateway {gatewayId}:{secret}`.
 * Wrong credentials are refused before the upgrade (401); the hub takes over an accepted socket.
 */
export const tunnelRoutes: FastifyPluginAsync<TunnelRouteOptions> = async (app, { db, tunnels }) => {
  const authenticated = new WeakMap<FastifyRequest, AgentGateway>();
  // Runs right after @fastify/websocket's own preClose started closing every socket, before the close events.
  app.addHook('preClose', (done) => {
    tunnels.shuttingDown();
    done();
  });
  app.get(
    '/tunnel',
    {
      websocket: true,
      schema: { hide: true },
      preValidation: async (request, reply) => {
        const result = await authenticateAgent(db, request.headers.authorization);
        if (result.ok) {
          authenticated.set(request, result.gateway);
          return;
        }
        if (result.gateway) tunnels.refused(result.gateway, request.ip, result.reason);
        request.log.info({ ip: request.ip, reason: result.reason }, 'gateway agent refused');
        await reply
          .code(401)
          .header('www-authenticate', 'Gateway')
          .send({ statusCode: 401, error: 'Unauthorized', message: `the gateway credentials were refused` });
      },
    },
    (socket, request) => {
      const gateway = authenticated.get(request);
      if (!gateway) {
        socket.close(4401, 'unauthorized');
        return;
      }
      tunnels.attach(socket, gateway, request.ip);
    },
  );

  app.route<{ Params: { id: string } }>({
    method: 'GET',
    url: '/tunnel/stream/:id',
    schema: { hide: true },
    preHandler: async (request, reply) => {
      if (!isRawUpgrade(request, STREAM_UPGRADE))
        throw new HttpError(426, `stream: upgrade the connection to ${STREAM_UPGRADE}`);
      const claim = tunnels.claimDataConnection(request.params.id, request.headers.authorization);
      if (!claim.ok) {
        request.log.info({ ip: request.ip, reason: claim.message }, 'data connection refused');
        throw new HttpError(claim.status, claim.message);
      }
      claim.deliver(takeUpgradedSocket(request, reply, STREAM_UPGRADE));
    },
    // Reached only without an upgrade (the hook answers every upgrade).
    handler: async () => {
      throw new HttpError(426, `stream: upgrade the connection to ${STREAM_UPGRADE}`);
    },
  });
};
