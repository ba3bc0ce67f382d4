import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { TokenVerifier } from '../../identity/verify.ts';
import type { Ingest } from '../../ingest/index.ts';
import { LiveHub } from './hub.ts';
import { LiveSession } from './session.ts';

/** `/svc/live`: the browsers' WebSocket for live device values and status (protocol in packages/contract live.ts). */
export async function liveRoutes(
  app: FastifyInstance,
  deps: { ingest: Ingest; db: Db; verifyToken: TokenVerifier },
) {
  const hub = new LiveHub(deps.ingest.events, deps.ingest.relay);
  app.get('/svc/live', { websocket: true, schema: { hide: true } }, (socket, request) => {
    const session = new LiveSession(socket, { ...deps, hub, host: request.headers.host });
    socket.on('message', (data, isBinary) => {
      if (isBinary) return socket.close(1003, 'text frames only');
      session.receive(data.toString()).catch((error: unknown) => {
        request.log.error({ error }, 'live message failed');
        socket.close(1011, 'internal error');
      });
    });
    socket.on('close', () => session.close());
  });
}
