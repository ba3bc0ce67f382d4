import { Duplex } from 'node:stream';
import tls from 'node:tls';
import { clientAllowed } from '@edgeport/tunnel-protocol';
import type { Db } from '../db/index.ts';
import { conflict, forbidden, HttpError } from '../http/errors.ts';
import type { GatewayRow } from '../services/vpn/gateways/lookup.ts';
import { SESSION_MAX_MS } from '../services/vpn/sessions/lifecycle.ts';
import type { LiveSessions } from '../services/vpn/sessions/live.ts';
import { type SessionRow, sessionWithGateway } from '../services/vpn/sessions/store.ts';
import type { GatewayTunnels } from './hub.ts';

export type UsableSession = { session: SessionRow; gateway: GatewayRow };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The session `id` when it is open, not past its 12 hours, of `kind`, and the client's address passes the
 * gateway's IP filter; otherwise a 403 saying why. `secretOk` checks the caller's proof (cookie or token).
 */
export async function usableSession(
  db: Db,
  id: string,
  kind: 'BROWSER' | 'TCP',
  clientIp: string,
  secretOk: (session: SessionRow) => boolean,
): Promise<UsableSession> {
  const found = UUID.test(id) ? await sessionWithGateway(db, id) : undefined;
  if (!found || found.session.kind !== kind || !secretOk(found.session))
    throw forbidden(
      kind === 'BROWSER'
        ? 'remote access: no access to this session from this browser (open it again from the portal)'
        : 'session: the token does not open this session',
    );
  const { session, gateway } = found;
  if (session.endedAt) throw forbidden(`session: the session has ended (${session.endReason ?? 'ended'})`);
  if (session.startedAt.getTime() + SESSION_MAX_MS <= Date.now())
    throw forbidden('session: the session has expired (12 hours)');
  if (!clientAllowed(clientIp, gateway.ipFilter))
    throw forbidden(`ipFilter: the client address ${clientIp} may not use gateway '${gateway.name}'`);
  return found;
}

/**
 * A byte stream that counts what passes: `onIn` for bytes read from the inner stream (machine to user), `onOut` for
 * bytes written to it (user to machine). Backpressure and half-close pass through.
 */
export class MeteredStream extends Duplex {
  readonly #inner: Duplex;
  readonly #onOut: (bytes: number) => void;
  #ended = false;

  constructor(inner: Duplex, onIn: (bytes: number) => void, onOut: (bytes: number) => void) {
    super({ allowHalfOpen: true });
    this.#inner = inner;
    this.#onOut = onOut;
    inner.on('data', (chunk: Buffer) => {
      onIn(chunk.length);
      if (!this.push(chunk)) inner.pause();
    });
    inner.on('end', () => {
      this.#ended = true;
      this.push(null);
    });
    inner.on('error', (error: Error) => this.destroy(error));
    inner.on('close', () => {
      // Closed before its end: the tunnel broke (reset, gateway gone).
      if (!this.#ended && !this.destroyed) this.destroy(new Error('the tunnel stream was closed'));
    });
  }

  override _read(): void {
    this.#inner.resume();
  }

  override _write(chunk: Buffer, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#onOut(chunk.length);
    this.#inner.write(chunk, encoding, callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.#inner.end();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.#inner.destroyed) this.#inner.destroy();
    callback(error);
  }
}

/**
 * A counted stream to the session's target through the gateway's tunnel; HTTPS targets get TLS over it. Plant
 * devices mostly have self-signed certificates, so the certificate is NOT verified: the tunnel itself is
 * authenticated, and the device's TLS only keeps its own protocol working.
 */
export async function openTargetStream(
  tunnels: GatewayTunnels,
  live: LiveSessions,
  { session, gateway }: UsableSession,
): Promise<Duplex> {
  if (!(await tunnels.online(gateway.id))) throw conflict(`gateway: ${gateway.name} is offline`);
  let inner: Duplex;
  try {
    inner = await tunnels.openStream(gateway.id, { host: session.targetAddress, port: session.targetPort });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(
      502,
      `endpoint: ${session.targetAddress}:${session.targetPort} cannot be reached: ${reason}`,
    );
  }
  const metered = new MeteredStream(
    inner,
    (bytes) => live.count(session.id, bytes, 0),
    (bytes) => live.count(session.id, 0, bytes),
  );
  if (session.protocol !== 'HTTPS') return metered;
  return tls.connect({ socket: metered, rejectUnauthorized: false });
}
