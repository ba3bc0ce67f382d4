import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { joinStreams, TCP_UPGRADE } from '@edgeport/tunnel-protocol';

export type ForwarderOptions = {
  /** The portal's origin, e.g. https://portal.example.com. */
  server: string;
  /** The session token the portal showed: `{sessionId}.{secret}`. */
  token: string;
  /** The local port to listen on (0: any free one). */
  localPort: number;
  /** The local address to listen on; 127.0.0.1 unless given. */
  bind?: string;
  /** One line per event (connections, refusals). */
  log?: (line: string) => void;
};

export type Forwarder = {
  /** The local port it listens on. */
  port: number;
  close(): Promise<void>;
};

/** The server's answer about a session (GET /tunnel/tcp/{session}). */
export type SessionCheck = {
  sessionId: string;
  gateway: string;
  endpoint: string | null;
  target: string;
  online: boolean;
  expiresAt: string;
};

/** The server refused the token or the session: the message says why, for the user. */
export class ForwarderError extends Error {}

const TOKEN = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]{16,128}$/;

/** The session id a token names; throws when it is not a session token. */
export function sessionIdOf(token: string): string {
  const id = TOKEN.exec(token.trim())?.[1];
  if (!id) throw new ForwarderError('the token is not an Edgeport session token ({session}.{secret})');
  return id;
}

/** Where the session's connections go: http(s)://{server}/tunnel/tcp/{session}. */
export function tunnelUrl(server: string, sessionId: string): string {
  let url: URL;
  try {
    url = new URL(`/tunnel/tcp/${sessionId}`, server);
  } catch {
    throw new ForwarderError(`--server must be the portal's address, like https://portal.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ForwarderError(`--server must start with https:// or http://, got ${server}`);
  return url.toString();
}

function refusal(status: number, body: string): string {
  let message = body.trim();
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {}
  const what =
    status === 401 || status === 403
      ? 'the server refused the token'
      : status === 409
        ? 'the gateway is not available'
        : status === 502
          ? 'the machine cannot be reached'
          : 'the server refused the connection';
  return `${what} (${status})${message ? `: ${message}` : ''}`;
}

/** Asks the server whether the token opens its session; throws a ForwarderError saying why not. */
export async function checkSession(server: string, token: string): Promise<SessionCheck> {
  const sessionId = sessionIdOf(token);
  const url = tunnelUrl(server, sessionId);
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Session ${token.trim()}` } });
  } catch (error) {
    throw new ForwarderError(`cannot reach the server ${server}: ${(error as Error).message}`);
  }
  const body = await response.text();
  if (!response.ok) throw new ForwarderError(refusal(response.status, body));
  return JSON.parse(body) as SessionCheck;
}

/**
 * Listens on a local TCP port and forwards every accepted connection over a connection of its own to the server: an
 * HTTP upgrade (`Upgrade: edgeport-tcp`) after which the server pipes raw bytes through the gateway to the machine.
 * Checks the token first (throws a ForwarderError when the server refuses it).
 */
export async function startForwarder(options: ForwarderOptions): Promise<Forwarder> {
  const log = options.log ?? (() => {});
  const token = options.token.trim();
  const check = await checkSession(options.server, token);
  if (!check.online)
    log(`warning: gateway ${check.gateway} is offline; connections fail until its agent is back`);
  const url = new URL(tunnelUrl(options.server, check.sessionId));
  const client = url.protocol === 'https:' ? https : http;
  const sockets = new Set<net.Socket>();

  // Half-open: a client that stops sending still reads the answer.
  const server = net.createServer({ allowHalfOpen: true, noDelay: true }, (local) => {
    sockets.add(local);
    local.on('close', () => sockets.delete(local));
    local.on('error', () => {});
    local.pause();
    const from = `${local.remoteAddress}:${local.remotePort}`;
    let upgraded = false;
    const request = client.request(url, {
      method: 'GET',
      agent: false,
      timeout: 15_000,
      headers: { connection: 'Upgrade', upgrade: TCP_UPGRADE, authorization: `Session ${token}` },
    });
    request.on('upgrade', (_response, remote: net.Socket, head: Buffer) => {
      upgraded = true;
      if (local.destroyed) {
        remote.destroy();
        return;
      }
      sockets.add(remote);
      remote.on('close', () => sockets.delete(remote));
      // Half-open, like the local socket: the server's end of data must not end our sending.
      remote.allowHalfOpen = true;
      remote.setNoDelay(true);
      remote.setTimeout(0);
      if (head.length > 0) remote.unshift(head);
      log(`connection from ${from} opened to ${check.target}`);
      joinStreams(local, remote, () =>
        log(`connection from ${from} closed (${local.bytesRead} bytes sent, ${local.bytesWritten} received)`),
      );
      local.resume();
    });
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        log(
          `connection from ${from} refused: ${refusal(response.statusCode ?? 0, Buffer.concat(chunks).toString())}`,
        );
        local.destroy();
      });
    });
    request.on('timeout', () => request.destroy(new Error('the server did not answer in time')));
    request.on('error', (error) => {
      log(`connection from ${from} failed: ${error.message}`);
      local.destroy();
    });
    local.once('close', () => {
      if (!upgraded) request.destroy();
    });
    request.end();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.localPort, options.bind ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });

  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
