import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { vpn } from '@edgeport/contract';
import { joinStreams, TCP_UPGRADE } from '@edgeport/tunnel-protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import { conflict, HttpError, unauthorized } from '../http/errors.ts';
import { endpointsOfGateway } from '../services/vpn/gateways/lookup.ts';
import { parseSessionToken, secretMatches } from '../services/vpn/secrets.ts';
import { SESSION_MAX_MS } from '../services/vpn/sessions/lifecycle.ts';
import { ACTIVITY_FLUSH_MS, type LiveSessions } from '../services/vpn/sessions/live.ts';
import type { GatewayTunnels } from './hub.ts';
import { isRawUpgrade, takeUpgradedSocket } from './raw-upgrade.ts';
import { type UsableSession, usableSession } from './session-access.ts';

type Options = { db: Db; tunnels: GatewayTunnels; live: LiveSessions };
type Params = { session: string };

/** Bytes a socket has written so far (0 for a stream that is no socket). */
function written(stream: Duplex): number {
  return stream instanceof net.Socket ? stream.bytesWritten : 0;
}

/** A raw data connection through the gateway to the session's target; refusals are HTTP errors (409, 502). */
async function openTarget(tunnels: GatewayTunnels, { session, gateway }: UsableSession): Promise<Duplex> {
  if (!(await tunnels.online(gateway.id))) throw conflict(`gateway: ${gateway.name} is offline`);
  try {
    return await tunnels.openDataConnection(gateway.id, {
      host: session.targetAddress,
      port: session.targetPort,
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(
      502,
      `endpoint: ${session.targetAddress}:${session.targetPort} cannot be reached: ${reason}`,
    );
  }
}

/**
 * Pipes the companion's socket and the agent's data socket into each other (half-closes kept). The session's
 * traffic is read off the sockets' byte counters — every 10 s, when the session ends and when they close — instead
 * of per chunk: in = written to the client (machine to user), out = written to the agent (user to machine).
 */
function forward(live: LiveSessions, sessionId: string, client: net.Socket, target: Duplex): void {
  const clientBase = written(client);
  const targetBase = written(target);
  let countedIn = 0;
  let countedOut = 0;
  const tally = () => {
    const bytesIn = written(client) - clientBase - countedIn;
    const bytesOut = written(target) - targetBase - countedOut;
    if (bytesIn === 0 && bytesOut === 0) return;
    countedIn += bytesIn;
    countedOut += bytesOut;
    live.count(sessionId, bytesIn, bytesOut);
  };
  const ticker = setInterval(tally, ACTIVITY_FLUSH_MS);
  ticker.unref();
  const untrack = live.track(sessionId, () => {
    tally();
    client.destroy();
    target.destroy();
  });
  joinStreams(client, target, () => {
    clearInterval(ticker);
    tally();
    untrack();
  });
}

/**
 * `/tunnel/tcp/{session}`: the companion CLI's TCP forwarding. Each forwarded TCP connection is an HTTP upgrade
 * (`Connection: Upgrade`, `Upgrade: edgeport-tcp`, `Authorization: Session {sessionId}.{secret}`): the session is
 * checked, a raw data connection to its target is opened through the gateway's agent, then the server answers
 * `101 Switching Protocols` and both sockets carry raw bytes. Refusals are HTTP statuses with a JSON message. Without
 * an upgrade the same address answers whether the token opens the session (the CLI checks before listening).
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

  const checked = new WeakMap<FastifyRequest, UsableSession>();

  app.route<{ Params: Params }>({
    method: 'GET',
    url: '/tunnel/tcp/:session',
    helmet: false,
    schema: { hide: true },
    preHandler: async (request, reply) => {
      const access = await authorized(request);
      if (!request.ws) {
        checked.set(request, access);
        return;
      }
      if (!isRawUpgrade(request, TCP_UPGRADE))
        throw new HttpError(400, `session: upgrade the connection to ${TCP_UPGRADE}`);
      // Opened before answering the upgrade, so an offline gateway or an unreachable machine answers with a status.
      const target = await openTarget(tunnels, access);
      const client = takeUpgradedSocket(request, reply, TCP_UPGRADE);
      if (!client) {
        target.destroy();
        return;
      }
      forward(live, access.session.id, client, target);
    },
    handler: async (request): Promise<vpn.TcpSessionCheck> => {
      const { session, gateway } = checked.get(request) ?? (await authorized(request));
      const endpoint = (await endpointsOfGateway(db, gateway.id)).find(
        (row) => row.id === session.endpointId,
      );
      return {
        sessionId: session.id,
        gateway: gateway.name,
        endpoint: endpoint?.name ?? null,
        target: `${session.targetAddress}:${session.targetPort}`,
        online: await tunnels.online(gateway.id),
        expiresAt: new Date(session.startedAt.getTime() + SESSION_MAX_MS).toISOString(),
      };
    },
  });
}
