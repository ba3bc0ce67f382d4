import {
  type AppMessage,
  type BridgeContext,
  BridgeError,
  type ChangeEvent,
  type ChangeValue,
  CONNECT_TIMEOUT_MS,
  envelope,
  type HrefType,
  isChangeEvent,
  type MessageEventLike,
  nextId,
  openEnvelope,
  type PageId,
  PREFERENCE_TIMEOUT_MS,
  type WindowLike,
} from './protocol.ts';

export type ConnectOptions = {
  /** The window of the host (default: `window.parent`). Only its messages are accepted. */
  hostWindow?: WindowLike;
  /** The app's own window, where the host's answers arrive (default: `window`). */
  selfWindow?: WindowLike;
  /**
   * The host origin(s) the app accepts. Without it, the origin of the host's first answer is pinned: every later
   * message must come from that same origin, and every request goes only to it.
   */
  hostOrigin?: string | readonly string[];
  /** Default 5000 ms (spec 9). */
  timeoutMs?: number;
  /** Default 10000 ms (spec 9). */
  preferenceTimeoutMs?: number;
};

export type ChangeCallback<E extends ChangeEvent> = (value: ChangeValue[E]) => void;

export type AppConnection = {
  /** The latest context: the initial answer with every change applied. */
  readonly context: BridgeContext;
  /** The host's origin (where every message goes). */
  readonly hostOrigin: string;
  /** Calls `callback` with every change of `event`; returns the unsubscribe function. */
  subscribe<E extends ChangeEvent>(event: E, callback: ChangeCallback<E>): () => void;
  /** Asks the host to navigate to one of spec 2's pages. */
  navigate(page: PageId): void;
  /** Tells the host the app's own address changed, so the host can keep it (appHref) and restore it. */
  reportHref(href: string, type?: HrefType): void;
  /** Rejects with 'Timeout reached waiting for user preference {key} response' after 10 s without an answer. */
  getUserPreference(key: string): Promise<string | null>;
  setUserPreference(key: string, value: string): Promise<void>;
  /** Stops listening; pending preference requests are rejected. */
  close(): void;
};

type Pending = {
  resolve: (value: string | null) => void;
  reject: (error: Error) => void;
  timer: ReturnType<typeof setTimeout>;
};

function browserWindow(): (WindowLike & { parent: WindowLike }) | undefined {
  return (globalThis as { window?: WindowLike & { parent: WindowLike } }).window;
}

const CONTEXT_FIELD: Record<ChangeEvent, keyof BridgeContext | undefined> = {
  user: 'username',
  organizationId: 'organizationId',
  organizationResourceId: 'organizationResourceId',
  jwt: 'jwt',
  theme: 'theme',
  brandName: 'brandName',
  href: undefined,
};

/** Checks a subscription's arguments with spec 8's messages. */
export function validateSubscription(event: unknown, callback: unknown): asserts event is ChangeEvent {
  if (event === undefined || event === null || event === '') throw new BridgeError('Event name is required');
  if (!isChangeEvent(event)) throw new BridgeError('Event name is not valid');
  if (typeof callback !== 'function') throw new BridgeError('Callback is required');
}

/**
 * The app side of the bridge: asks the host to initialise and resolves with the connection once the context
 * arrives; rejects with 'Create timeout reached' when no host answers within 5 s.
 */
export function connect(options: ConnectOptions = {}): Promise<AppConnection> {
  const own = browserWindow();
  const hostWindow = options.hostWindow ?? own?.parent;
  const selfWindow = options.selfWindow ?? own;
  if (!hostWindow || !selfWindow) return Promise.reject(new BridgeError('Create timeout reached'));
  const allowed =
    options.hostOrigin === undefined
      ? undefined
      : typeof options.hostOrigin === 'string'
        ? [options.hostOrigin]
        : [...options.hostOrigin];
  const preferenceTimeout = options.preferenceTimeoutMs ?? PREFERENCE_TIMEOUT_MS;
  const initId = nextId();

  return new Promise<AppConnection>((resolve, reject) => {
    let hostOrigin: string | undefined;
    let context: BridgeContext | undefined;
    let closed = false;
    const subscribers = new Map<ChangeEvent, Set<(value: unknown) => void>>();
    const pending = new Map<string, Pending>();

    const send = (message: AppMessage) => {
      if (closed || !hostOrigin) return;
      hostWindow.postMessage(envelope(message), hostOrigin);
    };

    const close = () => {
      closed = true;
      clearTimeout(timer);
      selfWindow.removeEventListener('message', listener);
      for (const [id, request] of pending) {
        clearTimeout(request.timer);
        request.reject(new BridgeError('Connection closed'));
        pending.delete(id);
      }
    };

    const request = (type: 'preference.get' | 'preference.set', key: string, value?: string) => {
      if (typeof key !== 'string' || key === '') return Promise.reject(new BridgeError('Key is required'));
      if (type === 'preference.set' && typeof value !== 'string')
        return Promise.reject(new BridgeError('Value is required'));
      const id = nextId();
      return new Promise<string | null>((resolveRequest, rejectRequest) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          rejectRequest(new BridgeError(`Timeout reached waiting for user preference ${key} response`));
        }, preferenceTimeout);
        pending.set(id, { resolve: resolveRequest, reject: rejectRequest, timer });
        if (type === 'preference.get') send({ type, id, payload: { key } });
        else send({ type, id, payload: { key, value: value as string } });
      });
    };

    const connection: AppConnection = {
      get context() {
        return { ...(context as BridgeContext) };
      },
      get hostOrigin() {
        return hostOrigin as string;
      },
      subscribe(event, callback) {
        validateSubscription(event, callback);
        const set = subscribers.get(event) ?? new Set();
        subscribers.set(event, set);
        const entry = callback as (value: unknown) => void;
        set.add(entry);
        return () => set.delete(entry);
      },
      navigate(page) {
        if (page === undefined || page === null || (page as string) === '')
          throw new BridgeError('Path is required');
        send({ type: 'navigate', payload: { page } });
      },
      reportHref(href, type = 'push') {
        if (typeof href !== 'string' || href === '') throw new BridgeError('Href is required');
        send({ type: 'href', payload: { href, type } });
      },
      getUserPreference: (key) => request('preference.get', key),
      setUserPreference: async (key, value) => {
        await request('preference.set', key, value);
      },
      close,
    };

    const handle = (message: NonNullable<ReturnType<typeof openEnvelope>>) => {
      const { payload } = message;
      switch (message.type) {
        case 'change': {
          if (!context || !isChangeEvent(payload.event)) return;
          const field = CONTEXT_FIELD[payload.event];
          if (field) (context as Record<keyof BridgeContext, unknown>)[field] = payload.value;
          for (const callback of subscribers.get(payload.event) ?? []) callback(payload.value);
          return;
        }
        case 'preference': {
          const request = typeof message.id === 'string' ? pending.get(message.id) : undefined;
          if (!request) return;
          pending.delete(message.id as string);
          clearTimeout(request.timer);
          if (typeof payload.error === 'string') request.reject(new BridgeError(payload.error));
          else request.resolve(typeof payload.value === 'string' ? payload.value : null);
          return;
        }
        default:
          return;
      }
    };

    const listener = (event: MessageEventLike) => {
      if (closed || event.source !== hostWindow) return;
      if (allowed && !allowed.includes(event.origin)) return;
      if (hostOrigin !== undefined && event.origin !== hostOrigin) return;
      const message = openEnvelope(event.data);
      if (!message) return;
      if (message.type === 'context') {
        if (context || message.id !== initId) return;
        hostOrigin = event.origin;
        context = { ...(message.payload as BridgeContext) };
        clearTimeout(timer);
        resolve(connection);
        return;
      }
      if (context) handle(message);
    };

    const timer = setTimeout(() => {
      closed = true;
      selfWindow.removeEventListener('message', listener);
      reject(new BridgeError('Create timeout reached'));
    }, options.timeoutMs ?? CONNECT_TIMEOUT_MS);
    selfWindow.addEventListener('message', listener);
    // The initialise request carries nothing secret; with known host origins it still goes only to them.
    for (const origin of allowed ?? ['*'])
      hostWindow.postMessage(envelope({ type: 'init', id: initId, payload: {} }), origin);
  });
}
