import http, { type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { vpn } from '@edgeport/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import WebSocket, { type RawData } from 'ws';
import { type Config, remoteOrigin } from '../config.ts';
import type { Db } from '../db/index.ts';
import { HttpError } from '../http/errors.ts';
import { newSecret, secretHash, secretMatches } from '../services/vpn/secrets.ts';
import type { LiveSessions } from '../services/vpn/sessions/live.ts';
import { redeemTicket } from '../services/vpn/sessions/store.ts';
import type { GatewayTunnels } from './hub.ts';
import {
  cookieValues,
  hopByHopHeaders,
  type RemoteTarget,
  remotePrefix,
  rewriteHtml,
  rewriteLocation,
  rewriteSetCookie,
  targetHost,
  targetOrigin,
  withoutCookie,
} from './rewrite.ts';
import { openTargetStream, type UsableSession, usableSession } from './session-access.ts';

/** The browser-access cookie: the session's secret, scoped to `/remote/{session}/`. */
export const REMOTE_COOKIE = 'edgeport_remote';
/** HTML pages are rewritten in memory; a larger one is refused rather than held. */
const HTML_LIMIT = 16 * 1024 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const OTHER_METHODS = ['DELETE', 'OPTIONS', 'PATCH', 'POST', 'PUT'] as const;

type Options = { db: Db; config: Config; tunnels: GatewayTunnels; live: LiveSessions };
type Params = { session: string; '*': string };

function targetOf(access: UsableSession): RemoteTarget {
  const { session } = access;
  return {
    protocol: session.protocol === 'HTTPS' ? 'HTTPS' : 'HTTP',
    address: session.targetAddress,
    port: session.targetPort,
  };
}

/** The part of the request URL after `/remote/{session}` (always starting with '/'), as the browser sent it. */
function pathAfterPrefix(url: string): string {
  const rest = /^\/remote\/[^/?#]*(.*)$/s.exec(url)?.[1] ?? '';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** The origin the browser addressed (the session's own, `https://{session}.remote.example.com`). */
function browserOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.headers.host ?? ''}`;
}

/**
 * Whether the request came to the session's own host name, `{session}.remote.{BASE_DOMAIN}` (`remoteOrigin`), any
 * port. The Host header as the browser sent it (like the realm host names), not X-Forwarded-Host.
 */
export function onSessionHost(config: Config, sessionId: string, host: string | undefined): boolean {
  if (!UUID.test(sessionId) || !host) return false;
  const name = host.replace(/:\d*$/, '').toLowerCase();
  return name === new URL(remoteOrigin(config, sessionId)).hostname;
}

/** A session host, `{uuid}.remote.{BASE_DOMAIN}`, whatever session it names. */
function isSessionHost(config: Config, host: string | undefined): boolean {
  const name = host?.replace(/:\d*$/, '').toLowerCase() ?? '';
  const suffix = `.remote.${config.baseDomain.toLowerCase()}`;
  return name.endsWith(suffix) && UUID.test(name.slice(0, -suffix.length));
}

/**
 * An `onRequest` hook for the whole server: a session host serves its session's `/remote/...` and nothing else, so
 * the portal, its services and the identity server are never reachable on a host a machine's page controls.
 */
export function sessionHostsServeOnlyRemote(config: Config) {
  return async (request: FastifyRequest) => {
    if (isSessionHost(config, request.headers.host) && !request.url.startsWith('/remote/'))
      throw new HttpError(404, 'remote access: only /remote/ is served on a session host');
  };
}

/** The headers the machine gets: the browser's, minus the session's cookie and any bearer token, for its own host. */
function upstreamHeaders(request: FastifyRequest, access: UsableSession, html: boolean): OutgoingHttpHeaders {
  const target = targetOf(access);
  const incoming = request.raw.headers;
  const skip = hopByHopHeaders(incoming.connection);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming)) {
    if (value === undefined || skip.has(name) || name === 'host' || name === 'cookie') continue;
    if (name === 'forwarded' || name.startsWith('x-forwarded-')) continue;
    if (name.startsWith('sec-websocket-')) continue;
    headers[name] = value;
  }
  // The portal's own credentials never reach the machine; a machine's Basic/Digest login passes.
  if (typeof headers.authorization === 'string' && /^bearer\s/i.test(headers.authorization))
    delete headers.authorization;
  const cookie = withoutCookie(incoming.cookie, REMOTE_COOKIE);
  if (cookie) headers.cookie = cookie;
  headers.host = targetHost(target);
  const browser = browserOrigin(request);
  const prefix = `${browser}${remotePrefix(access.session.id)}`;
  if (incoming.origin === browser) headers.origin = targetOrigin(target);
  const referer = incoming.referer;
  if (typeof referer === 'string' && referer.startsWith(prefix))
    headers.referer = `${targetOrigin(target)}${referer.slice(prefix.length) || '/'}`;
  // An HTML page is rewritten: ask for it unencoded (what still comes encoded is decoded).
  if (html) headers['accept-encoding'] = 'identity';
  return headers;
}

/** The machine's answer headers for the browser: hop-by-hop removed, Location and Set-Cookie moved under the prefix. */
function downstreamHeaders(
  response: IncomingMessage,
  access: UsableSession,
  secure: boolean,
): Record<string, string | string[]> {
  const skip = hopByHopHeaders(response.headers.connection);
  const headers: Record<string, string | string[]> = {};
  const target = targetOf(access);
  for (const [name, value] of Object.entries(response.headers)) {
    if (value === undefined || skip.has(name)) continue;
    if (name === 'location' && typeof value === 'string') {
      headers.location = rewriteLocation(value, access.session.id, target);
    } else if (name === 'set-cookie') {
      const cookies = (Array.isArray(value) ? value : [value])
        .map((cookie) => rewriteSetCookie(cookie, access.session.id, { secure, reservedName: REMOTE_COOKIE }))
        .filter((cookie): cookie is string => cookie !== undefined);
      if (cookies.length > 0) headers['set-cookie'] = cookies;
    } else {
      headers[name] = value;
    }
  }
  return headers;
}

const gunzip = promisify(zlib.gunzip);
const inflate = promisify(zlib.inflate);
const brotli = promisify(zlib.brotliDecompress);

async function decoded(body: Buffer, encoding: string | undefined): Promise<Buffer | undefined> {
  switch ((encoding ?? 'identity').trim().toLowerCase()) {
    case 'identity':
    case '':
      return body;
    case 'gzip':
    case 'x-gzip':
      return gunzip(body);
    case 'deflate':
      return inflate(body);
    case 'br':
      return brotli(body);
    default:
      return undefined;
  }
}

function readAll(response: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        response.destroy();
        reject(new Error('the page is too large to be rewritten'));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', reject);
  });
}

function sendError(reply: FastifyReply, status: number, message: string) {
  const raw = reply.raw;
  if (raw.headersSent) {
    raw.destroy();
    return;
  }
  const body = JSON.stringify({ statusCode: status, error: http.STATUS_CODES[status] ?? 'Error', message });
  raw.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  raw.end(body);
}

/**
 * Browser access: `/remote/{session}/...` proxied to the session's HTTP(S) endpoint through the gateway's tunnel,
 * answered only on the session's own host (`remoteOrigin`): on any other host (the portal's, a realm's, another
 * session's) 404 before anything else, so a machine's page never runs in the portal's origin nor another session's.
 * The portal's answer hooks (security headers, framing) stay off these answers: they are the machine's.
 */
export async function browserAccessRoutes(app: FastifyInstance, options: Options): Promise<void> {
  const { db, config, tunnels, live } = options;
  const secureCookies = config.publicScheme === 'https';

  async function authorized(request: FastifyRequest<{ Params: Params }>): Promise<UsableSession> {
    const values = cookieValues(request.headers.cookie, REMOTE_COOKIE);
    return usableSession(db, request.params.session, 'BROWSER', request.ip, (session) =>
      values.some((value) => secretMatches(value, session.secretHash)),
    );
  }

  /** The first request carries the one-time ticket: it becomes an HttpOnly cookie, and the URL loses it. */
  async function redeem(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, ticket: string) {
    const id = request.params.session;
    const secret = newSecret();
    const session = UUID.test(id)
      ? await redeemTicket(db, id, secretHash(ticket), secretHash(secret), new Date())
      : undefined;
    if (!session)
      throw new HttpError(
        403,
        'remote access: the link was used or is older than 60 seconds (open it again from the portal)',
      );
    const url = new URL(pathAfterPrefix(request.raw.url ?? '/'), 'http://portal');
    url.searchParams.delete(vpn.REMOTE_TICKET_PARAMETER);
    const cookie = [
      `${REMOTE_COOKIE}=${secret}`,
      `Path=${remotePrefix(id)}/`,
      'HttpOnly',
      'SameSite=Lax',
      `Max-Age=${12 * 60 * 60}`,
      ...(secureCookies || request.protocol === 'https' ? ['Secure'] : []),
    ].join('; ');
    return reply
      .header('set-cookie', cookie)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(`${remotePrefix(id)}${url.pathname}${url.search}`, 302);
  }

  async function proxy(request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    const path = pathAfterPrefix(request.raw.url ?? '/');
    const ticket = new URL(path, 'http://portal').searchParams.get(vpn.REMOTE_TICKET_PARAMETER);
    if (ticket !== null && (request.method === 'GET' || request.method === 'HEAD'))
      return redeem(request, reply, ticket);
    const access = await authorized(request);
    const stream = await openTargetStream(tunnels, live, access);
    forward(request, reply, access, stream, path);
    return reply;
  }

  function forward(
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    access: UsableSession,
    stream: Duplex,
    path: string,
  ) {
    reply.hijack();
    const html = /text\/html/.test(request.headers.accept ?? '') && request.method !== 'HEAD';
    const upstream = http.request({
      method: request.method,
      path,
      headers: upstreamHeaders(request, access, html),
      createConnection: () => stream,
    });
    const untrack = live.track(access.session.id, () => {
      upstream.destroy();
      stream.destroy();
      reply.raw.destroy();
    });
    stream.on('close', untrack);
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) {
        upstream.destroy();
        stream.destroy();
      }
    });
    upstream.on('error', (error) => {
      sendError(
        reply,
        502,
        `endpoint: ${access.session.targetAddress}:${access.session.targetPort} did not answer: ${error.message}`,
      );
      stream.destroy();
    });
    upstream.on('response', (response) => {
      const headers = downstreamHeaders(response, access, secureCookies || request.protocol === 'https');
      const status = response.statusCode ?? 502;
      const isHtml = /^text\/html/i.test(String(response.headers['content-type'] ?? ''));
      const bodyless = request.method === 'HEAD' || status === 204 || status === 304;
      if (!isHtml || bodyless) {
        reply.raw.writeHead(status, response.statusMessage, headers);
        response.pipe(reply.raw);
        return;
      }
      void readAll(response, HTML_LIMIT)
        .then(async (body) => {
          const plain = await decoded(body, response.headers['content-encoding']);
          if (!plain) {
            // An encoding we cannot read: passed on as it came.
            reply.raw.writeHead(status, response.statusMessage, headers);
            reply.raw.end(body);
            return;
          }
          const page = rewriteHtml(plain, access.session.id);
          delete headers['content-encoding'];
          headers['content-length'] = String(page.length);
          reply.raw.writeHead(status, response.statusMessage, headers);
          reply.raw.end(page);
        })
        .catch((error: Error) => {
          sendError(reply, 502, `endpoint: ${error.message}`);
          stream.destroy();
        });
    });
    request.raw.pipe(upstream);
  }

  /** A WebSocket of the machine's page, passed through message by message. */
  async function websocket(browser: WebSocket, request: FastifyRequest<{ Params: Params }>) {
    const prepared = pendingStreams.get(request);
    pendingStreams.delete(request);
    if (!prepared) {
      browser.close(1011, 'not prepared');
      return;
    }
    const { access, stream } = prepared;
    browser.pause();
    const path = pathAfterPrefix(request.raw.url ?? '/');
    const protocols = String(request.headers['sec-websocket-protocol'] ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean);
    const headers = upstreamHeaders(request, access, false);
    const machine = new WebSocket(`ws://${targetHost(targetOf(access))}${path}`, protocols, {
      createConnection: () => stream as Socket,
      headers: headers as Record<string, string>,
      perMessageDeflate: false,
      handshakeTimeout: 15_000,
    });
    const untrack = live.track(access.session.id, () => {
      machine.terminate();
      browser.terminate();
      stream.destroy();
    });
    stream.on('close', untrack);
    machine.on('unexpected-response', (upgrade, response) => {
      browser.close(1011, `the machine refused the WebSocket (${response.statusCode})`);
      upgrade.destroy();
      stream.destroy();
    });
    machine.on('error', () => {
      if (browser.readyState === WebSocket.OPEN) browser.close(1011, 'the machine connection failed');
      stream.destroy();
    });
    machine.on('open', () => {
      pipeMessages(browser, machine);
      pipeMessages(machine, browser);
      browser.resume();
    });
    browser.on('close', (code, reason) => {
      if (machine.readyState === WebSocket.OPEN) machine.close(sendableCode(code), reason);
      else machine.terminate();
      setTimeout(() => stream.destroy(), 5_000).unref();
    });
    machine.on('close', (code, reason) => {
      if (browser.readyState === WebSocket.OPEN) browser.close(sendableCode(code), reason);
      stream.destroy();
    });
  }

  /** Streams opened for upgrade requests before the handshake (so refusals answer with an HTTP status). */
  const pendingStreams = new WeakMap<FastifyRequest, { access: UsableSession; stream: Duplex }>();

  /** Before the ticket, the cookie, the tunnel and any WebSocket upgrade: a session answers on its own host only. */
  const sessionHostOnly = async (request: FastifyRequest<{ Params: { session: string } }>) => {
    if (!onSessionHost(config, request.params.session, request.headers.host))
      throw new HttpError(404, 'remote access: no such session at this address');
  };
  const routeOptions = { helmet: false as const, schema: { hide: true }, onRequest: sessionHostOnly };
  app.route<{ Params: Params }>({
    method: 'GET',
    url: '/remote/:session/*',
    ...routeOptions,
    preHandler: async (request) => {
      if (!request.ws) return;
      const access = await authorized(request);
      const stream = await openTargetStream(tunnels, live, access);
      pendingStreams.set(request, { access, stream });
      request.raw.socket.once('close', () => {
        if (pendingStreams.delete(request)) stream.destroy();
      });
    },
    handler: proxy,
    wsHandler: websocket,
  });
  app.route<{ Params: Params }>({
    method: [...OTHER_METHODS],
    url: '/remote/:session/*',
    ...routeOptions,
    handler: proxy,
  });
  app.get<{ Params: { session: string } }>('/remote/:session', routeOptions, async (request, reply) => {
    const query = (request.raw.url ?? '').split('?')[1];
    return reply.redirect(`${remotePrefix(request.params.session)}/${query ? `?${query}` : ''}`, 302);
  });
}

/** Close codes 1005, 1006 and 1015 only describe a close; they cannot be sent. */
function sendableCode(code: number): number {
  return code === 1005 || code === 1006 || code === 1015 || code < 1000 ? 1000 : code;
}

const HIGH_WATER = 1024 * 1024;

/** Messages from one WebSocket to the other (text stays text), pausing the sender while the receiver is behind. */
function pipeMessages(from: WebSocket, to: WebSocket) {
  from.on('message', (data: RawData, isBinary: boolean) => {
    if (to.readyState !== WebSocket.OPEN) return;
    to.send(data, { binary: isBinary }, () => {
      if (from.isPaused && to.bufferedAmount < HIGH_WATER / 4) from.resume();
    });
    if (to.bufferedAmount >= HIGH_WATER) from.pause();
  });
}
