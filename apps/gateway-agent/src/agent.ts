/**
 * The gateway agent: connects out to the server's `/tunnel` WebSocket with the gateway's credentials, reports its
 * LAN and endpoints, keeps the link alive and reconnects with backoff, and opens the TCP connections the server asks
 * for — only to addresses inside its LAN: as streams of the multiplexed tunnel (browser access), or as raw data
 * connections of their own (`connect`: the companion CLI's TCP forwarding).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { vpn } from '@edgeport/contract';
import {
  type AgentEndpoint,
  CloseCode,
  type ConnectMessage,
  type ControlMessage,
  endpointAddressProblem,
  joinStreams,
  type LanNetwork,
  Multiplexer,
  type OpenRequest,
  parseLanNetwork,
  STREAM_UPGRADE,
  webSocketTransport,
} from '@edgeport/tunnel-protocol';
import WebSocket from 'ws';

export const AGENT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

export type AgentOptions = {
  /** The edge configuration file of the gateway. */
  config: vpn.EdgeConfigFile;
  /** The plant LAN (CIDR); overrides the configuration file's. */
  lanNetwork?: string;
  /** Endpoints reported to the server in hello. */
  endpoints?: AgentEndpoint[];
  /** One line per event. */
  log?: (line: string) => void;
  /** First reconnect delay (doubles up to maxBackoffMs). Default 500 ms. */
  minBackoffMs?: number;
  /** Default 30 s. */
  maxBackoffMs?: number;
  /** Default 20 s. */
  pingIntervalMs?: number;
  /** A ping without a pong for this long means the link is dead. Default 30 s. */
  pongTimeoutMs?: number;
  /** TCP connect timeout to LAN targets. Default 10 s. */
  connectTimeoutMs?: number;
  /** TLS for wss: URLs (for example a private CA). */
  tls?: { ca?: string | Buffer; rejectUnauthorized?: boolean };
  /**
   * How a LAN target is reached, after the LAN check; default a TCP connection to it. The demo's simulated plant
   * answers its machines' addresses from local servers this way.
   */
  dial?: (target: { host: string; port: number }) => net.Socket;
};

export interface AgentHandle {
  /** Resolves on the next (or current) successful registration; rejects when the agent is closed first. */
  whenConnected(): Promise<void>;
  isConnected(): boolean;
  /** Stops reconnecting, closes the tunnel and every stream through it. */
  close(): Promise<void>;
}

type Waiter = { resolve: () => void; reject: (error: Error) => void };

function describeSocketError(error: NodeJS.ErrnoException): string {
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ECONNRESET: 'connection reset',
    ETIMEDOUT: 'timed out',
  };
  const text = (error.code && known[error.code]) ?? error.message;
  return error.code ? `${text} (${error.code})` : text;
}

/** Where the agent opens the data connection `id`: next to the tunnel's URL, over HTTP(S) (`/tunnel/stream/{id}`). */
export function dataConnectionUrl(tunnelUrl: string, id: string): URL {
  const url = new URL(tunnelUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/stream/${id}`;
  url.search = '';
  return url;
}

class Agent implements AgentHandle {
  readonly #options: AgentOptions;
  readonly #log: (line: string) => void;
  readonly #localLan: LanNetwork | undefined;
  #serverLan: LanNetwork | undefined;
  #socket: WebSocket | undefined;
  #connected = false;
  #closing = false;
  #attempt = 0;
  #slowRetry: string | undefined;
  #reconnectTimer: NodeJS.Timeout | undefined;
  #waiters: Waiter[] = [];
  #closed: Promise<void> | undefined;
  readonly #sockets = new Set<net.Socket>();

  constructor(options: AgentOptions) {
    this.#options = options;
    this.#log = options.log ?? (() => {});
    const lan = options.lanNetwork ?? options.config.lanNetwork ?? undefined;
    this.#localLan = lan ? parseLanNetwork(lan) : undefined;
    if (lan && !this.#localLan)
      throw new Error(`lanNetwork: '${lan}' is not a plant LAN (IPv4 CIDR, /8 to /30)`);
    this.#connect();
  }

  whenConnected(): Promise<void> {
    if (this.#connected) return Promise.resolve();
    if (this.#closing) return Promise.reject(new Error('the agent is closed'));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  isConnected(): boolean {
    return this.#connected;
  }

  close(): Promise<void> {
    if (this.#closed) return this.#closed;
    this.#closing = true;
    clearTimeout(this.#reconnectTimer);
    for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error('the agent is closed'));
    const socket = this.#socket;
    this.#closed = new Promise<void>((resolve) => {
      if (!socket || socket.readyState === WebSocket.CLOSED) return resolve();
      const force = setTimeout(() => socket.terminate(), 2000);
      socket.once('close', () => {
        clearTimeout(force);
        resolve();
      });
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000, 'agent stopped');
    });
    for (const tcp of this.#sockets) tcp.destroy();
    return this.#closed;
  }

  get #lan(): LanNetwork | undefined {
    return this.#localLan ?? this.#serverLan;
  }

  #dial(host: string, port: number): net.Socket {
    const socket = this.#options.dial?.({ host, port }) ?? net.connect({ host, port });
    socket.allowHalfOpen = true;
    socket.setNoDelay(true);
    return socket;
  }

  #connect(): void {
    const { config, tls } = this.#options;
    this.#log(`connecting to ${config.tunnelUrl}`);
    const socket = new WebSocket(config.tunnelUrl, {
      headers: { authorization: `Gateway ${config.gatewayId}:${config.secret}` },
      perMessageDeflate: false,
      handshakeTimeout: 15_000,
      maxPayload: 1024 * 1024,
      // Masking protects browsers' WebSocket users from cache poisoning by scripts; the agent is no browser, and an
      // all-zero mask lets ws skip masking every byte the plant sends (about a third of the tunnel's CPU).
      generateMask: (mask: Buffer) => {
        mask.fill(0);
      },
      ...tls,
    });
    this.#socket = socket;
    let pongDeadline: NodeJS.Timeout | undefined;
    let pinger: NodeJS.Timeout | undefined;
    // After an HTTP answer instead of the upgrade (logged as such), ws reports the aborted handshake as an error too.
    let answered = false;
    // The raw data connections opened for this tunnel: they break with it, as its streams do.
    const dataSockets = new Set<net.Socket>();

    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0;
      response.resume();
      answered = true;
      if (status === 401 || status === 403) {
        this.#slowRetry = 'refused';
        this.#log('the gateway credentials were refused: fetch a new edge configuration file');
      } else this.#log(`the server answered ${status} instead of opening the tunnel`);
      socket.terminate();
    });
    socket.on('error', (error) => {
      if (!this.#closing && !answered) this.#log(`tunnel error: ${error.message}`);
    });
    socket.on('open', () => {
      if (this.#closing) {
        socket.close(1000, 'agent stopped');
        return;
      }
      const mux: Multiplexer = new Multiplexer(webSocketTransport(socket), {
        onOpen: (request) => this.#open(request),
        onControl: (message) =>
          message.type === 'connect' ? this.#connectData(message, mux, dataSockets) : this.#control(message),
        onProtocolError: (error) => {
          this.#log(`protocol error from the server: ${error.message}`);
          socket.close(CloseCode.PROTOCOL, 'protocol error');
        },
      });
      mux.sendControl({
        type: 'hello',
        agentVersion: AGENT_VERSION,
        lanNetwork: this.#localLan?.cidr ?? null,
        endpoints: this.#options.endpoints ?? [],
      });
      pinger = setInterval(() => {
        pongDeadline ??= setTimeout(() => {
          this.#log(`no pong from the server within ${this.#pongTimeoutMs / 1000} s: the link is dead`);
          socket.terminate();
        }, this.#pongTimeoutMs);
        socket.ping();
      }, this.#options.pingIntervalMs ?? 20_000);
    });
    socket.on('pong', () => {
      clearTimeout(pongDeadline);
      pongDeadline = undefined;
    });
    socket.on('close', (code, reasonBuffer) => {
      clearInterval(pinger);
      clearTimeout(pongDeadline);
      for (const data of dataSockets) data.destroy();
      const reason = reasonBuffer.toString('utf8');
      const wasConnected = this.#connected;
      this.#connected = false;
      if (code === CloseCode.UNAUTHORIZED) {
        this.#slowRetry = 'refused';
        this.#log('the gateway credentials were refused: fetch a new edge configuration file');
      } else if (code === CloseCode.REPLACED) {
        this.#slowRetry = 'replaced';
        this.#log('another agent connected with this gateway’s credentials: this one retries slowly');
      }
      if (wasConnected || code !== 1006) this.#log(`disconnected (${code}${reason ? ` ${reason}` : ''})`);
      if (this.#closing) return;
      this.#scheduleReconnect();
    });
  }

  get #pongTimeoutMs(): number {
    return this.#options.pongTimeoutMs ?? 30_000;
  }

  #scheduleReconnect(): void {
    const min = this.#options.minBackoffMs ?? 500;
    const max = Math.max(min, this.#options.maxBackoffMs ?? 30_000);
    const base = this.#slowRetry ? max : Math.min(max, min * 2 ** this.#attempt);
    this.#slowRetry = undefined;
    this.#attempt += 1;
    const delay = Math.round(base * (0.8 + Math.random() * 0.4));
    this.#log(`reconnecting in ${delay} ms`);
    this.#reconnectTimer = setTimeout(() => this.#connect(), delay);
  }

  #control(message: ControlMessage): void {
    switch (message.type) {
      case 'welcome': {
        this.#serverLan = message.lanNetwork ? parseLanNetwork(message.lanNetwork) : undefined;
        this.#connected = true;
        this.#attempt = 0;
        this.#log(
          `connected as gateway ${message.name} (${message.gatewayId}), LAN ${this.#lan?.cidr ?? 'not set'}`,
        );
        for (const waiter of this.#waiters.splice(0)) waiter.resolve();
        return;
      }
      case 'lan':
        this.#serverLan = message.lanNetwork ? parseLanNetwork(message.lanNetwork) : undefined;
        this.#log(`the portal set the LAN to ${message.lanNetwork ?? 'none'}`);
        return;
      case 'error':
        this.#log(`the server reported: ${message.message}`);
        return;
      case 'hello':
      case 'connect':
      case 'connect-failed':
        return;
    }
  }

  /**
   * A raw data connection: the machine first (so a refusal is reported as `connect-failed`), then the HTTP upgrade to
   * the server's `/tunnel/stream/{id}` with the one-time token, then both sockets piped into each other.
   */
  #connectData(message: ConnectMessage, mux: Multiplexer, dataSockets: Set<net.Socket>): void {
    const { id, token, host, port } = message;
    const where = `${host}:${port}`;
    const fail = (reason: string) => {
      this.#log(reason);
      mux.sendControl({ type: 'connect-failed', id, reason });
    };
    const problem = endpointAddressProblem(host, this.#lan);
    if (problem) {
      fail(`refused a connection to ${where}: ${problem}`);
      return;
    }
    const tcp = this.#dial(host, port);
    this.#sockets.add(tcp);
    dataSockets.add(tcp);
    tcp.once('close', () => {
      this.#sockets.delete(tcp);
      dataSockets.delete(tcp);
    });
    const timer = setTimeout(
      () => tcp.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      this.#options.connectTimeoutMs ?? 10_000,
    );
    const onConnectError = (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(`cannot connect to ${where}: ${describeSocketError(error)}`);
    };
    tcp.once('error', onConnectError);
    tcp.once('connect', () => {
      clearTimeout(timer);
      tcp.off('error', onConnectError);
      // Until the data connection is up, an error of the machine's socket only closes it (the server times out).
      const early = () => tcp.destroy();
      tcp.on('error', early);
      const url = dataConnectionUrl(this.#options.config.tunnelUrl, id);
      const request = (url.protocol === 'https:' ? https : http).request(url, {
        method: 'GET',
        agent: false,
        headers: {
          connection: 'Upgrade',
          upgrade: STREAM_UPGRADE,
          authorization: `Stream ${token}`,
        },
        timeout: 15_000,
        ...this.#options.tls,
      });
      let upgraded = false;
      request.on('upgrade', (_response, data: net.Socket, head: Buffer) => {
        upgraded = true;
        tcp.off('error', early);
        if (tcp.destroyed) {
          data.destroy();
          return;
        }
        // Half-open, like the machine's socket: the server's end of data must not end ours.
        data.allowHalfOpen = true;
        data.setNoDelay(true);
        data.setTimeout(0);
        if (head.length > 0) data.unshift(head);
        dataSockets.add(data);
        data.once('close', () => dataSockets.delete(data));
        joinStreams(data, tcp);
      });
      request.on('response', (response) => {
        response.resume();
        this.#log(`the server answered ${response.statusCode} to the data connection to ${where}`);
        tcp.destroy();
      });
      request.on('timeout', () => request.destroy(new Error('timed out')));
      request.on('error', (error) => {
        this.#log(`the data connection to ${where} failed: ${error.message}`);
        tcp.destroy();
      });
      tcp.once('close', () => {
        if (!upgraded) request.destroy();
      });
      request.end();
    });
  }

  #open(request: OpenRequest): void {
    const { host, port } = request.target;
    const where = `${host}:${port}`;
    const problem = endpointAddressProblem(host, this.#lan);
    if (problem) {
      this.#log(`refused a stream to ${where}: ${problem}`);
      request.refuse(problem);
      return;
    }
    const tcp = this.#dial(host, port);
    this.#sockets.add(tcp);
    tcp.once('close', () => this.#sockets.delete(tcp));
    const timer = setTimeout(
      () => tcp.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })),
      this.#options.connectTimeoutMs ?? 10_000,
    );
    const onAbort = () => tcp.destroy();
    request.signal.addEventListener('abort', onAbort, { once: true });
    const onConnectError = (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      if (request.signal.aborted) return;
      const reason = `cannot connect to ${where}: ${describeSocketError(error)}`;
      this.#log(reason);
      request.refuse(reason);
    };
    tcp.once('error', onConnectError);
    tcp.once('connect', () => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      tcp.off('error', onConnectError);
      if (request.signal.aborted) {
        tcp.destroy();
        return;
      }
      joinStreams(request.accept(), tcp);
    });
  }
}

/** Starts the agent: it connects at once and keeps reconnecting until `close()`. */
export function startAgent(options: AgentOptions): AgentHandle {
  return new Agent(options);
}
