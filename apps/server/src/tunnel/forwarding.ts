import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { TunnelTarget } from './hub.ts';
import type { GatewayLeases } from './leases.ts';
import { TunnelOpenError } from './tunnel-errors.ts';

/**
 * Sessions reaching an instance that does not hold their gateway's tunnel: the instance asks the holder (the lease's
 * instance, at its internal address) for a raw byte stream to the target through the tunnel, over one HTTP upgrade
 * on a path only instances use. Everything else of the session (cookie, HTTP proxy, rewriting, TLS to HTTPS
 * machines, metering) stays on the instance the user reached; the holder only pipes bytes.
 */

/** The `Upgrade` protocol of a stream asked of another instance (`/internal/tunnel/{gatewayId}`). */
export const INTERNAL_UPGRADE = 'edgeport-internal';
/** A multiplexed stream (browser access) or a raw data connection of the agent (TCP forwarding). */
export type StreamKind = 'stream' | 'data';

/** How long a signed internal request is accepted (clocks of instances differ by far less). */
const SIGNATURE_WINDOW_MS = 30_000;

export type Members = {
  internalUrlOf(instanceId: string): Promise<string | undefined>;
  liveInstances(): Promise<{ instanceId: string; internalUrl: string }[]>;
};

/**
 * Signs and checks what one instance asks of another: an HMAC-SHA256 of the time and the request's parts with the
 * installation's key (`install_secrets`, the same for every instance). Nothing from outside is believed: a request
 * without a valid, recent signature over exactly these parts is refused.
 */
export class InternalAuth {
  readonly #key: string;

  constructor(key: string) {
    this.#key = key;
  }

  sign(parts: string[], at = Date.now()): string {
    return `Instance ${at}.${this.#mac(at, parts)}`;
  }

  verify(header: string | undefined, parts: string[], now = Date.now()): boolean {
    const match = /^Instance (\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(header ?? '');
    if (!match?.[1] || !match[2]) return false;
    const at = Number(match[1]);
    if (Math.abs(now - at) > SIGNATURE_WINDOW_MS) return false;
    const expected = Buffer.from(this.#mac(at, parts));
    const given = Buffer.from(match[2]);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(at: number, parts: string[]): string {
    return createHmac('sha256', this.#key)
      .update([String(at), ...parts].join('\n'))
      .digest('base64url');
  }
}

/** What is signed for a stream request. */
export function streamRequestParts(gatewayId: string, kind: StreamKind, target: TunnelTarget): string[] {
  return ['tunnel-stream', gatewayId, kind, target.host, String(target.port)];
}

/** An instance's 8-hex-digit tag, put at the start of its data connections' ids so any instance can route them. */
export function instanceTag(instanceId: string): string {
  return createHash('sha256').update(instanceId).digest('hex').slice(0, 8);
}

/** A random UUID whose first 8 hex digits are `tag`. */
export function taggedUuid(tag: string): string {
  return `${tag}${randomUUID().slice(8)}`;
}

/** The refusal's HTTP status on the holder, and back. */
export function statusOfOpenError(kind: TunnelOpenError['kind']): number {
  return { offline: 409, refused: 502, timeout: 504, closed: 502 }[kind];
}

function openErrorOfStatus(status: number, message: string): TunnelOpenError {
  if (status === 409) return new TunnelOpenError('offline', message);
  if (status === 504) return new TunnelOpenError('timeout', message);
  return new TunnelOpenError('refused', message);
}

function readMessage(response: http.IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('error', () => resolve(''));
    response.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        const parsed: unknown = JSON.parse(text);
        const message = (parsed as { message?: unknown }).message;
        resolve(typeof message === 'string' ? message : text);
      } catch {
        resolve(text);
      }
    });
  });
}

export class TunnelForwarder {
  readonly #leases: GatewayLeases;
  readonly #members: Members;
  readonly #auth: InternalAuth;
  readonly #timeoutMs: number;

  constructor(leases: GatewayLeases, members: Members, auth: InternalAuth, timeoutMs: number) {
    this.#leases = leases;
    this.#members = members;
    this.#auth = auth;
    this.#timeoutMs = timeoutMs;
  }

  get auth(): InternalAuth {
    return this.#auth;
  }

  /** The internal address of the live instance holding the gateway's live lease, when it is another instance. */
  async holderUrl(gatewayId: string): Promise<string | undefined> {
    const lease = await this.#leases.holder(gatewayId);
    if (!lease || lease.instanceId === this.#leases.instanceId) return undefined;
    return this.#members.internalUrlOf(lease.instanceId);
  }

  /** The internal address of the live instance whose tag begins the data connection id, when it is another one. */
  async instanceOfDataConnection(id: string): Promise<string | undefined> {
    const tag = id.slice(0, 8);
    if (tag === instanceTag(this.#leases.instanceId)) return undefined;
    const members = await this.#members.liveInstances();
    return members.find((member) => instanceTag(member.instanceId) === tag)?.internalUrl;
  }

  /** A byte stream to `target` through the gateway's tunnel on its holder; rejects with a TunnelOpenError. */
  async open(gatewayId: string, target: TunnelTarget, kind: StreamKind): Promise<Duplex> {
    const holder = await this.holderUrl(gatewayId);
    if (!holder) throw new TunnelOpenError('offline', 'the gateway is not connected');
    const url = new URL(`/internal/tunnel/${gatewayId}`, holder);
    url.search = new URLSearchParams({ kind, host: target.host, port: String(target.port) }).toString();
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      headers: {
        connection: 'Upgrade',
        upgrade: INTERNAL_UPGRADE,
        authorization: this.#auth.sign(streamRequestParts(gatewayId, kind, target)),
      },
      timeout: this.#timeoutMs,
    });
    return new Promise<Duplex>((resolve, reject) => {
      request.on('upgrade', (_response, socket: Socket, head: Buffer) => {
        // Half-open: a user who stops sending still gets the machine's whole answer.
        socket.allowHalfOpen = true;
        socket.setTimeout(0);
        socket.setNoDelay(true);
        if (head.length > 0) socket.unshift(head);
        resolve(socket);
      });
      request.on('response', (response) => {
        void readMessage(response).then((message) =>
          reject(openErrorOfStatus(response.statusCode ?? 502, message || 'the holder refused the stream')),
        );
      });
      request.on('timeout', () => {
        request.destroy(new TunnelOpenError('timeout', 'the instance holding the tunnel did not answer'));
      });
      request.on('error', (error) => {
        if (error instanceof TunnelOpenError) reject(error);
        else
          reject(
            new TunnelOpenError(
              'offline',
              `the instance holding the gateway's tunnel cannot be reached (${error.message})`,
            ),
          );
      });
      request.end();
    });
  }
}
