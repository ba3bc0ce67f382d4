import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import {
  CloseCode,
  type ControlMessage,
  type HelloMessage,
  Multiplexer,
  OpenFailedError,
  OpenTimeoutError,
  TunnelClosedError,
  webSocketTransport,
} from '@edgeport/tunnel-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { EventBus } from '../cluster/event-bus.ts';
import { CHANNELS } from '../cluster/invalidation.ts';
import type { Db } from '../db/index.ts';
import {
  type AgentGateway,
  agentDisconnected,
  agentRefused,
  agentRegistered,
  agentSeen,
} from '../services/vpn/agents/service.ts';
import { newSecret, secretHash, secretMatches } from '../services/vpn/secrets.ts';
import {
  type InternalAuth,
  instanceTag,
  type Members,
  type StreamKind,
  TunnelForwarder,
  taggedUuid,
} from './forwarding.ts';
import type { GatewayTunnels, TunnelTarget } from './hub.ts';
import { GatewayLeases } from './leases.ts';
import { TunnelOpenError } from './tunnel-errors.ts';

export type TunnelHubOptions = {
  db: Db;
  log?: FastifyBaseLogger;
  /** The server's time (a test clock may be ahead); default the system's. */
  now?: () => Date;
  /** How long an agent has to say hello after connecting. Default 10 s. */
  helloTimeoutMs?: number;
  /** Server pings; an agent silent for 2.5 intervals is dropped. Default 20 s. */
  pingIntervalMs?: number;
  /** How long opening a stream may take. Default 10 s. */
  openTimeoutMs?: number;
  /** lastSeenAt is written at most this often per gateway. Default 60 s. */
  lastSeenWriteMs?: number;
  /**
   * Leases and commands (always given by the app: in process on PGlite, LISTEN/NOTIFY on PostgreSQL), and, in a
   * cluster, forwarding of streams to the instance holding a gateway's tunnel. Without it the hub is on its own.
   */
  cluster?: {
    instanceId: string;
    bus: EventBus;
    forwarding?: { members: Members; auth: InternalAuth };
  };
};

/** What instances tell the holder of a gateway's tunnel (channel CHANNELS.gatewayTunnels). */
type TunnelCommand =
  | { type: 'taken'; gatewayId: string; connectionId: string }
  | { type: 'drop'; gatewayId: string; connectionId: string; reason: string }
  | { type: 'lan'; gatewayId: string; lanNetwork: string | null };

function parseCommand(payload: string): TunnelCommand | undefined {
  try {
    const value = JSON.parse(payload) as Partial<TunnelCommand>;
    if (typeof value.gatewayId !== 'string') return undefined;
    if (value.type === 'taken' || value.type === 'drop' || value.type === 'lan')
      return value as TunnelCommand;
  } catch {}
  return undefined;
}

export { TunnelOpenError };

type Tunnel = {
  gateway: AgentGateway;
  /** This connection's id in the gateway's lease. */
  connectionId: string;
  /** Whether its lease was taken (renewals include it from then on). */
  leased: boolean;
  socket: WebSocket;
  mux: Multiplexer;
  ip: string;
  registered: boolean;
  /** Why the server closes it (reset, replaced, shutdown, dead link); the agent's close reason otherwise. */
  closeReason?: string;
  lastSeen: number;
  lastSeenWritten: number;
  closed: Promise<void>;
  /** Raw data connections through this tunnel's agent: they break when the tunnel does. */
  dataConnections: Set<Duplex>;
};

/** A data connection asked of an agent, until its socket arrives at `/tunnel/stream/{id}`. */
type PendingDataConnection = {
  tunnel: Tunnel;
  tokenHash: string;
  resolve: (socket: Duplex) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};

/** What `claimDataConnection` answers: the socket's new owner, or the HTTP status to refuse it with. */
export type DataConnectionClaim =
  | { ok: true; deliver: (socket: Duplex | undefined) => void }
  | { ok: false; status: 401 | 404; message: string };

function describeClose(code: number, reason: string): string {
  if (code === 1000 || code === 1001) return `the agent closed the tunnel${reason ? ` (${reason})` : ''}`;
  if (code === 1005 || code === 1006) return 'the connection was lost';
  return `closed with code ${code}${reason ? ` (${reason})` : ''}`;
}

/**
 * The agents' tunnels, one per gateway: a new connection of a gateway replaces the old one. Each tunnel is a
 * `Multiplexer` over the agent's WebSocket; what happens to it is written to the gateway (status, log) through the
 * agents service, one write after the other per gateway.
 */
export class TunnelHub implements GatewayTunnels {
  readonly #db: Db;
  readonly #log: FastifyBaseLogger | undefined;
  readonly #now: () => Date;
  readonly #helloTimeoutMs: number;
  readonly #pingIntervalMs: number;
  readonly #openTimeoutMs: number;
  readonly #lastSeenWriteMs: number;
  readonly #tunnels = new Map<string, Tunnel>();
  readonly #connections = new Set<Tunnel>();
  readonly #writes = new Map<string, Promise<void>>();
  readonly #refusalsLogged = new Map<string, number>();
  readonly #pendingData = new Map<string, PendingDataConnection>();
  #pinger: NodeJS.Timeout | undefined;
  #closing = false;
  readonly #leases: GatewayLeases | undefined;
  readonly #forwarder: TunnelForwarder | undefined;
  readonly #bus: EventBus | undefined;
  readonly #unsubscribe: (() => void) | undefined;

  constructor(options: TunnelHubOptions) {
    this.#db = options.db;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
    this.#helloTimeoutMs = options.helloTimeoutMs ?? 10_000;
    this.#pingIntervalMs = options.pingIntervalMs ?? 20_000;
    this.#openTimeoutMs = options.openTimeoutMs ?? 10_000;
    this.#lastSeenWriteMs = options.lastSeenWriteMs ?? 60_000;
    const cluster = options.cluster;
    if (cluster) {
      // Renewed with every ping round: a lease outlives two missed rounds, not three.
      this.#leases = new GatewayLeases(this.#db, cluster.instanceId, 3 * this.#pingIntervalMs);
      this.#bus = cluster.bus;
      this.#unsubscribe = cluster.bus.subscribe(
        CHANNELS.gatewayTunnels,
        (payload) => this.#command(payload),
        () => this.#renewLeases(),
      );
      if (cluster.forwarding)
        this.#forwarder = new TunnelForwarder(
          this.#leases,
          cluster.forwarding.members,
          cluster.forwarding.auth,
          this.#openTimeoutMs + 5_000,
        );
    }
  }

  /** Forwarding to other instances (set in a cluster): its key checks what other instances ask of this one. */
  get forwarder(): TunnelForwarder | undefined {
    return this.#forwarder;
  }

  /** Whether the gateway's agent is connected to this instance. */
  isOnline(gatewayId: string): boolean {
    return this.#tunnels.get(gatewayId)?.registered === true;
  }

  /** Whether the gateway's agent is connected here or, in a cluster, to another live instance (its lease). */
  async online(gatewayId: string): Promise<boolean> {
    if (this.isOnline(gatewayId)) return true;
    return (await this.#forwarder?.holderUrl(gatewayId)) !== undefined;
  }

  async openStream(gatewayId: string, target: TunnelTarget): Promise<Duplex> {
    return this.#openOrForward(gatewayId, target, 'stream');
  }

  openDataConnection(gatewayId: string, target: TunnelTarget): Promise<Duplex> {
    return this.#openOrForward(gatewayId, target, 'data');
  }

  /** Through this instance's own tunnel of the gateway only (what another instance asks for). */
  openLocal(gatewayId: string, target: TunnelTarget, kind: StreamKind): Promise<Duplex> {
    return kind === 'stream'
      ? this.#openLocalStream(gatewayId, target)
      : this.#openLocalData(gatewayId, target);
  }

  #openOrForward(gatewayId: string, target: TunnelTarget, kind: StreamKind): Promise<Duplex> {
    if (this.isOnline(gatewayId) || !this.#forwarder) return this.openLocal(gatewayId, target, kind);
    return this.#forwarder.open(gatewayId, target, kind);
  }

  async #openLocalStream(gatewayId: string, target: TunnelTarget): Promise<Duplex> {
    const tunnel = this.#tunnels.get(gatewayId);
    if (!tunnel?.registered) throw new TunnelOpenError('offline', 'the gateway is not connected');
    try {
      return await tunnel.mux.open(target, { timeoutMs: this.#openTimeoutMs });
    } catch (error) {
      if (error instanceof OpenFailedError) throw new TunnelOpenError('refused', error.message);
      if (error instanceof OpenTimeoutError) throw new TunnelOpenError('timeout', error.message);
      if (error instanceof TunnelClosedError) throw new TunnelOpenError('closed', error.message);
      throw error;
    }
  }

  #openLocalData(gatewayId: string, target: TunnelTarget): Promise<Duplex> {
    const tunnel = this.#tunnels.get(gatewayId);
    if (!tunnel?.registered)
      return Promise.reject(new TunnelOpenError('offline', 'the gateway is not connected'));
    // In a cluster the agent's data connection may reach any instance: the id's tag says which one waits for it.
    const id =
      this.#forwarder && this.#leases ? taggedUuid(instanceTag(this.#leases.instanceId)) : randomUUID();
    const token = newSecret();
    return new Promise<Duplex>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pendingData.delete(id);
        reject(
          new TunnelOpenError(
            'timeout',
            `the gateway did not open the connection to ${target.host}:${target.port} within ${this.#openTimeoutMs / 1000} s`,
          ),
        );
      }, this.#openTimeoutMs);
      this.#pendingData.set(id, { tunnel, tokenHash: secretHash(token), resolve, reject, timer });
      tunnel.mux.sendControl({ type: 'connect', id, token, host: target.host, port: target.port });
    });
  }

  /**
   * An agent's data connection arrived at `/tunnel/stream/{id}` with `Authorization: Stream {token}`: when the id is
   * pending and the token is its one-time token, the caller answers the upgrade and `deliver`s the socket to the
   * waiting `openDataConnection`. A wrong token leaves the id pending for the real agent.
   */
  claimDataConnection(id: string, authorization: string | undefined): DataConnectionClaim {
    const pending = this.#pendingData.get(id);
    if (!pending)
      return { ok: false, status: 404, message: 'stream: no data connection is expected with this id' };
    const token = /^Stream\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    if (!token || !secretMatches(token, pending.tokenHash))
      return { ok: false, status: 401, message: 'stream: the token does not open this data connection' };
    this.#pendingData.delete(id);
    clearTimeout(pending.timer);
    return {
      ok: true,
      deliver: (socket) => {
        const { tunnel } = pending;
        if (!socket) {
          pending.reject(new TunnelOpenError('closed', 'the data connection closed before it opened'));
          return;
        }
        if (!this.#connections.has(tunnel)) {
          socket.destroy();
          pending.reject(new TunnelOpenError('closed', 'the tunnel closed'));
          return;
        }
        // Errors end the socket; whoever pipes it hears of them through its own listeners.
        socket.on('error', () => {});
        tunnel.dataConnections.add(socket);
        socket.once('close', () => tunnel.dataConnections.delete(socket));
        pending.resolve(socket);
      },
    };
  }

  /** The agent could not open a data connection: the waiting `openDataConnection` fails with its reason. */
  #dataConnectionFailed(tunnel: Tunnel, id: string, reason: string): void {
    const pending = this.#pendingData.get(id);
    if (pending?.tunnel !== tunnel) return;
    this.#pendingData.delete(id);
    clearTimeout(pending.timer);
    pending.reject(new TunnelOpenError('refused', reason));
  }

  /** Drops the gateway's tunnel on this instance; false when it is not connected here. */
  disconnect(gatewayId: string, reason: string): boolean {
    const tunnel = this.#tunnels.get(gatewayId);
    if (!tunnel) return false;
    tunnel.closeReason = `reset: ${reason}`;
    tunnel.socket.close(CloseCode.RESET, 'reset');
    return true;
  }

  /** Drops the gateway's tunnel wherever it is held (the holder hears it on the bus); false when it is offline. */
  async drop(gatewayId: string, reason: string): Promise<boolean> {
    if (this.disconnect(gatewayId, reason)) return true;
    const lease = await this.#leases?.holder(gatewayId);
    if (!lease) return false;
    await this.#publish({ type: 'drop', gatewayId, connectionId: lease.connectionId, reason });
    return true;
  }

  /** Tells the connected agent, here or on the holder, that its gateway's LAN changed in the portal. */
  async lanNetworkChanged(gatewayId: string, lanNetwork: string | null): Promise<void> {
    const tunnel = this.#tunnels.get(gatewayId);
    if (tunnel) {
      tunnel.mux.sendControl({ type: 'lan', lanNetwork });
      return;
    }
    if (await this.#leases?.holder(gatewayId)) await this.#publish({ type: 'lan', gatewayId, lanNetwork });
  }

  async #publish(command: TunnelCommand): Promise<void> {
    await this.#bus?.publish(CHANNELS.gatewayTunnels, JSON.stringify(command));
  }

  /** A command of another instance (or this one) about a gateway whose tunnel may be held here. */
  async #command(payload: string): Promise<void> {
    const command = parseCommand(payload);
    const tunnel = command ? this.#tunnels.get(command.gatewayId) : undefined;
    if (!command || !tunnel) return;
    if (command.type === 'lan') {
      tunnel.mux.sendControl({ type: 'lan', lanNetwork: command.lanNetwork });
    } else if (command.type === 'drop') {
      if (tunnel.connectionId === command.connectionId) this.disconnect(command.gatewayId, command.reason);
    } else if (tunnel.connectionId !== command.connectionId) {
      // The database decides which of two takes was the later one.
      const lease = await this.#leases?.holder(command.gatewayId);
      if (lease?.connectionId === tunnel.connectionId || this.#tunnels.get(command.gatewayId) !== tunnel)
        return;
      tunnel.closeReason = 'replaced by a new connection on another server instance';
      tunnel.socket.close(CloseCode.REPLACED, 'replaced by a new connection');
    }
  }

  /**
   * Renews the leases of this instance's tunnels; a tunnel whose lease is gone (taken by a newer connection whose
   * message was missed, or its gateway deleted) is closed.
   */
  async #renewLeases(): Promise<void> {
    const leases = this.#leases;
    if (!leases) return;
    const held = [...this.#tunnels.values()].filter((tunnel) => tunnel.leased);
    if (held.length === 0) return;
    const renewed = await leases.renew(held.map((tunnel) => tunnel.connectionId));
    for (const tunnel of held) {
      if (renewed.has(tunnel.connectionId) || this.#tunnels.get(tunnel.gateway.id) !== tunnel) continue;
      tunnel.closeReason = 'the gateway was deleted or its tunnel is held elsewhere now';
      tunnel.socket.close(CloseCode.REPLACED, 'lease lost');
    }
  }

  /** Open tunnels and their streams (for diagnostics and the benchmark). */
  stats(): { tunnels: number; streams: number } {
    let streams = 0;
    for (const tunnel of this.#tunnels.values())
      streams += tunnel.mux.streamCount + tunnel.dataConnections.size;
    return { tunnels: this.#tunnels.size, streams };
  }

  /** The server begins to shut down (its WebSocket plugin is closing every socket): tunnels end for that reason. */
  shuttingDown(): void {
    this.#closing = true;
    for (const tunnel of this.#connections) tunnel.closeReason ??= 'the server is shutting down';
  }

  async close(): Promise<void> {
    this.shuttingDown();
    this.#unsubscribe?.();
    clearInterval(this.#pinger);
    this.#pinger = undefined;
    const closing = [...this.#connections].map((tunnel) => {
      tunnel.closeReason ??= 'the server is shutting down';
      tunnel.socket.close(1001, 'server shutting down');
      const force = setTimeout(() => tunnel.socket.terminate(), 1000);
      return tunnel.closed.finally(() => clearTimeout(force));
    });
    await Promise.all(closing);
    await Promise.all(this.#writes.values());
  }

  /** A refused connection of a known gateway: logged on the gateway at most every 10 minutes. */
  refused(gateway: AgentGateway, ip: string, reason: string): void {
    const now = Date.now();
    const last = this.#refusalsLogged.get(gateway.id) ?? 0;
    if (now - last < 10 * 60_000) return;
    this.#refusalsLogged.set(gateway.id, now);
    this.#write(gateway.id, () => agentRefused(this.#db, gateway, ip, reason, this.#now()));
  }

  /** An authenticated agent's WebSocket: waits for hello, registers the gateway, and follows the tunnel's life. */
  attach(socket: WebSocket, gateway: AgentGateway, ip: string): void {
    if (this.#closing) {
      socket.close(1001, 'server shutting down');
      return;
    }
    let resolveClosed = () => {};
    let helloTimer: NodeJS.Timeout | undefined;
    const tunnel: Tunnel = {
      gateway,
      socket,
      ip,
      registered: false,
      connectionId: randomUUID(),
      leased: false,
      lastSeen: Date.now(),
      lastSeenWritten: Date.now(),
      closed: new Promise<void>((resolve) => {
        resolveClosed = resolve;
      }),
      dataConnections: new Set(),
      mux: new Multiplexer(webSocketTransport(socket), {
        onControl: (message: ControlMessage) => {
          if (message.type === 'connect-failed') {
            this.#dataConnectionFailed(tunnel, message.id, message.reason);
            return;
          }
          if (message.type !== 'hello' || tunnel.registered) return;
          clearTimeout(helloTimer);
          this.#hello(tunnel, message);
        },
        onProtocolError: (error) => {
          tunnel.closeReason = `protocol error: ${error.message}`;
          socket.close(CloseCode.PROTOCOL, 'protocol error');
        },
      }),
    };
    this.#connections.add(tunnel);
    helloTimer = setTimeout(() => {
      tunnel.closeReason = 'no hello from the agent';
      socket.close(CloseCode.PROTOCOL, 'no hello');
    }, this.#helloTimeoutMs);
    const seen = () => this.#seen(tunnel);
    socket.on('ping', seen);
    socket.on('pong', seen);
    socket.on('error', (error) => this.#log?.warn({ error, gatewayId: gateway.id }, 'tunnel socket error'));
    socket.on('close', (code, reasonBuffer) => {
      clearTimeout(helloTimer);
      this.#connections.delete(tunnel);
      const reason = tunnel.closeReason ?? describeClose(code, reasonBuffer.toString('utf8'));
      const current = this.#tunnels.get(gateway.id) === tunnel;
      if (current) this.#tunnels.delete(gateway.id);
      for (const [id, pending] of this.#pendingData) {
        if (pending.tunnel !== tunnel) continue;
        this.#pendingData.delete(id);
        clearTimeout(pending.timer);
        pending.reject(new TunnelOpenError('closed', `the tunnel closed: ${reason}`));
      }
      for (const data of tunnel.dataConnections) data.destroy(new Error(`the tunnel closed: ${reason}`));
      tunnel.dataConnections.clear();
      if (tunnel.registered) {
        this.#write(gateway.id, async () => {
          const released =
            this.#leases && tunnel.leased
              ? await this.#leases.release(gateway.id, tunnel.connectionId)
              : current;
          await agentDisconnected(this.#db, gateway, reason, this.#now(), { stillOnline: !released });
        });
      }
      if (this.#connections.size === 0) {
        clearInterval(this.#pinger);
        this.#pinger = undefined;
      }
      resolveClosed();
    });
    this.#pinger ??= setInterval(() => this.#ping(), this.#pingIntervalMs);
  }

  #hello(tunnel: Tunnel, hello: HelloMessage): void {
    const { gateway, socket } = tunnel;
    if (socket.readyState !== socket.OPEN) return;
    const previous = this.#tunnels.get(gateway.id);
    if (previous && previous !== tunnel) {
      previous.closeReason = `replaced by a new connection from ${tunnel.ip}`;
      previous.socket.close(CloseCode.REPLACED, 'replaced by a new connection');
    }
    tunnel.registered = true;
    this.#tunnels.set(gateway.id, tunnel);
    this.#write(gateway.id, async () => {
      if (this.#leases && this.#tunnels.get(gateway.id) === tunnel) {
        await this.#leases.take(gateway.id, tunnel.connectionId);
        tunnel.leased = true;
        await this.#publish({ type: 'taken', gatewayId: gateway.id, connectionId: tunnel.connectionId });
      }
      const { lanNetwork } = await agentRegistered(this.#db, gateway, hello, tunnel.ip, this.#now());
      tunnel.lastSeenWritten = Date.now();
      tunnel.mux.sendControl({ type: 'welcome', gatewayId: gateway.id, name: gateway.name, lanNetwork });
    });
  }

  #seen(tunnel: Tunnel): void {
    const now = Date.now();
    tunnel.lastSeen = now;
    if (!tunnel.registered || now - tunnel.lastSeenWritten < this.#lastSeenWriteMs) return;
    tunnel.lastSeenWritten = now;
    this.#write(tunnel.gateway.id, () => agentSeen(this.#db, tunnel.gateway.id, this.#now()));
  }

  #ping(): void {
    this.#renewLeases().catch((error: unknown) =>
      this.#log?.warn({ error }, 'renewing the gateway leases failed'),
    );
    const now = Date.now();
    for (const tunnel of this.#connections) {
      if (now - tunnel.lastSeen > this.#pingIntervalMs * 2.5) {
        tunnel.closeReason = 'the agent stopped answering pings';
        tunnel.socket.terminate();
      } else if (tunnel.socket.readyState === tunnel.socket.OPEN) tunnel.socket.ping();
    }
  }

  /** Runs the gateway's database writes one after the other (connect, then disconnect), logging failures. */
  #write(gatewayId: string, work: () => Promise<unknown>): void {
    const previous = this.#writes.get(gatewayId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .then(
        () => {},
        (error: unknown) => this.#log?.error({ error, gatewayId }, 'recording a tunnel event failed'),
      )
      .finally(() => {
        if (this.#writes.get(gatewayId) === next) this.#writes.delete(gatewayId);
      });
    this.#writes.set(gatewayId, next);
  }
}
