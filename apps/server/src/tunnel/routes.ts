import net from 'node:net';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { joinStreams, STREAM_UPGRADE } from '@edgeport/tunnel-protocol';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { HttpError } from '../http/errors.ts';
import { type AgentGateway, authenticateAgent } from '../services/vpn/agents/service.ts';
import { INTERNAL_UPGRADE, type StreamKind, statusOfOpenError, streamRequestParts } from './forwarding.ts';
import { isRawUpgrade, takeRawSocket, takeUpgradedSocket } from './raw-upgrade.ts';
import { TunnelOpenError } from './tunnel-errors.ts';
import type { TunnelHub } from './tunnel-hub.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * An agent's data connection that reached an instance other than the one waiting for it (a load balancer without
 * stickiness): the request is passed on, as it came, to that instance's internal address, and its answer (101 or a
 * refusal) and then the bytes go back on the agent's socket. The one-time token still decides there.
 */
function passDataConnectionOn(request: FastifyRequest, reply: FastifyReply, internalUrl: string): void {
  const taken = takeRawSocket(request, reply);
  if (!taken) return;
  const url = new URL(internalUrl);
  const secure = url.protocol === 'https:';
  const port = Number(url.port || (secure ? 443 : 80));
  // Half-open like the agent's socket: its end of sending must not end what the machine still answers.
  const upstream: Duplex = secure
    ? tls.connect({ host: url.hostname, port, servername: url.hostname })
    : net.connect({ host: url.hostname, port });
  upstream.allowHalfOpen = true;
  const head = [
    `GET ${request.raw.url ?? '/'} HTTP/1.1`,
    `Host: ${url.host}`,
    'Connection: Upgrade',
    `Upgrade: ${STREAM_UPGRADE}`,
    `Authorization: ${request.headers.authorization ?? ''}`,
    '',
    '',
  ].join('\r\n');
  upstream.write(head);
  if (taken.head.length > 0) upstream.write(taken.head);
  joinStreams(taken.socket, upstream);
}

function streamKindOf(value: unknown): StreamKind | undefined {
  return value === 'stream' || value === 'data' ? value : undefined;
}

export type TunnelRouteOptions = { db: Db; tunnels: TunnelHub };

/**
 * `/tunnel/stream/{id}`: an agent's raw data connection (`Upgrade: edgeport-stream`, `Authorization: Stream {token}`)
 * that the hub asked for with `connect`. An unknown id answers 404, a wrong token 401, both before any upgrade.
 *
 * `/tunnel`: the WebSocket the gateway agents connect to, with `Authorization: Gateway {gatewayId}:{secret}`.
 * Wrong credentials are refused before the upgrade (401); the hub takes over an accepted socket.
 *
 * `/internal/tunnel/{gatewayId}` (a cluster only): another instance asks for a stream through this instance's tunnel
 * of the gateway (`Upgrade: edgeport-internal`, signed with the installation's key); 409 when it is not held here.
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
      const elsewhere =
        !claim.ok && claim.status === 404 && UUID.test(request.params.id)
          ? await tunnels.forwarder?.instanceOfDataConnection(request.params.id)
          : undefined;
      if (elsewhere) {
        passDataConnectionOn(request, reply, elsewhere);
        return;
      }
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

  app.route<{ Params: { gateway: string }; Querystring: Record<string, string | undefined> }>({
    method: 'GET',
    url: '/internal/tunnel/:gateway',
    schema: { hide: true },
    preHandler: async (request, reply) => {
      const auth = tunnels.forwarder?.auth;
      if (!auth) throw new HttpError(404, 'internal: this server is not part of a cluster');
      if (!isRawUpgrade(request, INTERNAL_UPGRADE))
        throw new HttpError(426, `internal: upgrade the connection to ${INTERNAL_UPGRADE}`);
      const kind = streamKindOf(request.query.kind);
      const target = { host: request.query.host ?? '', port: Number(request.query.port) };
      if (!kind || !target.host || !Number.isInteger(target.port) || target.port < 1 || target.port > 65535)
        throw new HttpError(
          400,
          'internal: querystring kind (stream or data), host and port (1..65535) are required',
        );
      const gatewayId = request.params.gateway;
      if (!auth.verify(request.headers.authorization, streamRequestParts(gatewayId, kind, target)))
        throw new HttpError(401, 'internal: the request is not signed by an instance of this cluster');
      let stream: Duplex;
      try {
        stream = await tunnels.openLocal(gatewayId, target, kind);
      } catch (error) {
        if (error instanceof TunnelOpenError)
          throw new HttpError(statusOfOpenError(error.kind), error.message);
        throw error;
      }
      const socket = takeUpgradedSocket(request, reply, INTERNAL_UPGRADE);
      if (!socket) {
        stream.destroy();
        return;
      }
      joinStreams(socket, stream);
    },
    handler: async () => {
      throw new HttpError(426, `internal: upgrade the connection to ${INTERNAL_UPGRADE}`);
    },
  });
};
