import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * Raw upgrades: `Connection: Upgrade` with `Upgrade: {protocol}` (no WebSocket), after which the request's TCP
 * connection carries raw bytes. Such requests arrive through @fastify/websocket's `upgrade` listener and Fastify's
 * router (its hooks, its route), so the route takes the socket over in a hook, before the handler @fastify/websocket
 * wrapped (that one would start a WebSocket handshake). Refusals before the takeover are ordinary HTTP answers, after
 * which @fastify/websocket closes the connection.
 */

/** Whether the request is an upgrade to `protocol` with its socket at hand. */
export function isRawUpgrade(request: FastifyRequest, protocol: string): boolean {
  return (
    request.ws === true &&
    request.method === 'GET' &&
    (request.headers.upgrade ?? '').toLowerCase() === protocol &&
    /\bupgrade\b/i.test(request.headers.connection ?? '')
  );
}

/** Bytes the HTTP parser read past the request's head (@fastify/websocket keeps them on the raw request). */
function headOf(raw: object): Buffer | undefined {
  const key = Object.getOwnPropertySymbols(raw).find((symbol) => symbol.description === 'ws-head');
  const head: unknown = key ? (raw as Record<symbol, unknown>)[key] : undefined;
  return Buffer.isBuffer(head) ? head : undefined;
}

/**
 * Takes the request's socket over: Fastify stops the request's lifecycle (hijack: no handler, no onResponse hook,
 * so @fastify/websocket does not destroy it), the unused response lets go of it, the client gets
 * `101 Switching Protocols`, and whatever it sent past its request is read again first. Undefined when the client is
 * gone already.
 */
export function takeUpgradedSocket(
  request: FastifyRequest,
  reply: FastifyReply,
  protocol: string,
): Socket | undefined {
  const taken = takeRawSocket(request, reply);
  if (!taken) return undefined;
  const { socket, head } = taken;
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${protocol}\r\n\r\n`);
  if (head.length > 0) socket.unshift(head);
  return socket;
}

/**
 * Takes the request's socket over without answering (`takeUpgradedSocket` without the 101): for passing the whole
 * request on to another server instance, whose answer goes back on it. `head`: what the client sent past its request.
 */
export function takeRawSocket(
  request: FastifyRequest,
  reply: FastifyReply,
): { socket: Socket; head: Buffer } | undefined {
  reply.hijack();
  const socket = request.raw.socket;
  reply.raw.detachSocket(socket);
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return undefined;
  }
  socket.allowHalfOpen = true;
  socket.setTimeout(0);
  socket.setNoDelay(true);
  return { socket, head: headOf(request.raw) ?? Buffer.alloc(0) };
}
