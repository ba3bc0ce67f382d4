import type { live } from '@edgeport/contract';

export type LiveValue = { value: number | boolean | string; ts: number };
export type LiveListener = {
  values?: (message: live.LiveValues) => void;
  status?: (message: live.LiveStatus) => void;
};
export type AlarmListener = (message: live.LiveAlarm) => void;
type Connection = 'connecting' | 'open' | 'closed';

/** How often the client asks for the permission token; a refreshed token is sent to the server at once. */
const TOKEN_CHECK_MS = 30_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * The browser side of `/svc/live`: one WebSocket per organization and tab, shared by every screen. It authenticates
 * with the permission token (again after each refresh), keeps the subscribed device ids across reconnects (with
 * backoff), and hands values and status to the listeners of each device.
 */
export class LiveClient {
  private socket: WebSocket | undefined;
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly stateListeners = new Set<(state: Connection) => void>();
  private readonly alarmListeners = new Set<AlarmListener>();
  private sentToken: string | undefined;
  private backoff = 1000;
  private tokenTimer: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;
  state: Connection = 'closed';
  private readonly url: string;
  private readonly organizationId: string;
  private readonly token: () => Promise<string>;

  constructor(url: string, organizationId: string, token: () => Promise<string>) {
    this.url = url;
    this.organizationId = organizationId;
    this.token = token;
  }

  /** Starts receiving the device's values; answers the function that stops. */
  subscribe(deviceId: string, listener: LiveListener): () => void {
    let set = this.listeners.get(deviceId);
    if (!set) {
      set = new Set();
      this.listeners.set(deviceId, set);
      this.sendWhenReady({ type: 'subscribe', deviceIds: [deviceId] });
    }
    set.add(listener);
    this.connect();
    return () => {
      const current = this.listeners.get(deviceId);
      current?.delete(listener);
      if (current && current.size === 0) {
        this.listeners.delete(deviceId);
        this.sendWhenReady({ type: 'unsubscribe', deviceIds: [deviceId] });
      }
    };
  }

  /**
   * Starts receiving the organization's alarm changes (the server sends them to every session of the organization,
   * no subscription needed); opens the connection. Answers the function that stops.
   */
  onAlarm(listener: AlarmListener): () => void {
    this.alarmListeners.add(listener);
    this.connect();
    return () => {
      this.alarmListeners.delete(listener);
    };
  }

  onState(listener: (state: Connection) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  close(): void {
    this.stopped = true;
    clearInterval(this.tokenTimer);
    clearTimeout(this.reconnectTimer);
    this.socket?.close();
  }

  private connect(): void {
    if (this.socket || this.stopped) return;
    this.setState('connecting');
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.addEventListener('open', () => void this.authenticate());
    socket.addEventListener('message', (event) => this.receive(String(event.data)));
    socket.addEventListener('close', () => {
      this.socket = undefined;
      this.sentToken = undefined;
      clearInterval(this.tokenTimer);
      this.setState('closed');
      if (this.stopped || (this.listeners.size === 0 && this.alarmListeners.size === 0)) return;
      this.reconnectTimer = setTimeout(() => this.connect(), this.backoff);
      this.backoff = Math.min(this.backoff * 2, MAX_BACKOFF_MS);
    });
  }

  private async authenticate(): Promise<void> {
    try {
      const token = await this.token();
      if (token === this.sentToken) return;
      this.sentToken = token;
      this.send({ type: 'auth', token, organization: this.organizationId });
    } catch {
      this.socket?.close();
    }
  }

  private receive(raw: string): void {
    const message = JSON.parse(raw) as live.LiveServerMessage;
    if (message.type === 'ready') {
      this.backoff = 1000;
      this.setState('open');
      clearInterval(this.tokenTimer);
      this.tokenTimer = setInterval(() => void this.authenticate(), TOKEN_CHECK_MS);
      if (this.listeners.size > 0) this.send({ type: 'subscribe', deviceIds: [...this.listeners.keys()] });
      return;
    }
    if (message.type === 'values') {
      for (const listener of this.listeners.get(message.deviceId) ?? []) listener.values?.(message);
    } else if (message.type === 'status') {
      for (const listener of this.listeners.get(message.deviceId) ?? []) listener.status?.(message);
    } else if (message.type === 'alarm') {
      for (const listener of this.alarmListeners) listener(message);
    }
  }

  private sendWhenReady(message: live.LiveClientMessage): void {
    if (this.state === 'open') this.send(message);
  }

  private send(message: live.LiveClientMessage): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private setState(state: Connection): void {
    this.state = state;
    for (const listener of this.stateListeners) listener(state);
  }
}

const clients = new Map<string, LiveClient>();

/** The tab's live client for an organization (created on first use). */
export function liveClientFor(organizationId: string, token: () => Promise<string>): LiveClient {
  let client = clients.get(organizationId);
  if (!client) {
    const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
    client = new LiveClient(`${scheme}://${window.location.host}/svc/live`, organizationId, token);
    clients.set(organizationId, client);
  }
  return client;
}
