import type { Duplex } from 'node:stream';
import { relay } from '@edgeport/companion';
import type { vpn } from '@edgeport/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db } from '../db/index.ts';
import { HttpError, unauthorized } from '../http/errors.ts';
import { endpointsOfGateway } from '../services/vpn/gateways/lookup.ts';
import { SESSION_MAX_MS } from '../services/vpn/sessions/lifecycle.ts';
import type { LiveSessions } from '../services/vpn/sessions/live.ts';
import { parseSessionToken, secretMatches } from '../services/vpn/sessions/secrets.ts';
import type { GatewayTunnels } from './hub.ts';
import { openTargetStream, type UsableSession, usableSession } from './session-access.ts';

type Options = { db: Db; tunnels: GatewayTunnels; live: LiveSessions };
type Params = { session: string };

/**
 * `/tunnel/tcp/{session}`: the companion CLI's TCP forwarding. Each WebSocket (header `Authorization: Session
 * {sessionId}.{secret}`) carries one TCP connection to the session's target, raw bytes both ways. Without an
 * upgrade the same address answers whether the token opens the session (the CLI checks before listening).
 */
export async function tcpForwardRoutes(app: FastifyInstance, { db, tunnels, live }: Options): Promise<void> {
  async function authorized(request: FastifyRequest<{ Params: Params }>): Promise<UsableSession> {
    const header = request.headers.authorization ?? '';
    const token = /^Session\s+(\S+)$/i.exec(header)?.[1];
    const parsed = token ? parseSessionToken(token) : undefined;
    if (!parsed) throw unauthorized('session: send the header Authorization: Session {token}');
    if (parsed.sessionId !== request.params.session)
      throw new HttpError(403, 'session: the token does not open this session');
    return usableSession(db, request.params.session, 'TCP', request.ip, (session) =>
      secretMatches(parsed.secret, session.secretHash),
    );
  }

  const prepared = new WeakMap<FastifyRequest, { access: UsableSession; stream?: Duplex }>();

  app.route<{ Params: Params }>({
    method: 'GET',
    url: '/tunnel/tcp/:session',
    helmet: false,
    schema: { hide: true },
    preHandler: async (request) => {
      const access = await authorized(request);
      if (!request.ws) {
        prepared.set(request, { access });
        return;
      }
      // Opened before the handshake, so an offline gateway or an unreachable machine answers with a status.
      const stream = await openTargetStream(tunnels, live, access);
      prepared.set(request, { access, stream });
      request.raw.socket.once('close', () => {
        if (prepared.delete(request)) stream.destroy();
      });
    },
    handler: async (request): Promise<vpn.TcpSessionCheck> => {
      const { session, gateway } = prepared.get(request)?.access ?? (await authorized(request));
      const endpoint = (await endpointsOfGateway(db, gateway.id)).find(
        (row) => row.id === session.endpointId,
      );
      return {
        sessionId: session.id,
        gateway: gateway.name,
        endpoint: endpoint?.name ?? null,
        target: `${session.targetAddress}:${session.targetPort}`,
        online: tunnels.isOnline(gateway.id),
        expiresAt: new Date(session.startedAt.getTime() + SESSION_MAX_MS).toISOString(),
      };
    },
    wsHandler: (socket: WebSocket, request) => {
      const entry = prepared.get(request);
      prepared.delete(request);
      if (!entry?.stream) {
        socket.close(1011, 'not prepared');
        return;
      }
      const { access, stream } = entry;
      if (!stream) return;
      const untrack = live.track(access.session.id, () => {
        socket.terminate();
        stream.destroy();
      });
      // The stream counts the bytes (MeteredStream); the relay only carries them.
      void relay(socket, stream).then(untrack);
    },
  });
}
