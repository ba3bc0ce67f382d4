import {
  type AppMessage,
  type BridgeContext,
  BridgeError,
  type BridgeTheme,
  type ChangeEvent,
  type ChangeValue,
  envelope,
  type HostMessage,
  type HrefType,
  isPageId,
  type MessageEventLike,
  openEnvelope,
  originOf,
  type PageId,
  type WindowLike,
} from './protocol.ts';

/** Serves the app's user-preference requests (the portal keeps them per user, under the app's id). */
export type PreferenceStore = {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
};

export type HostConnectionOptions = {
  jwt: string;
  username: string;
  organizationId: string;
  organizationResourceId: string;
  /** The host address (spec 3 "a host address field"). */
  host: string;
  /** The host domain (spec 3 "a host domain field"). */
  domain: string;
  /** The host's own window: the app's messages arrive here. */
  hostWindow: WindowLike;
  /** The embedded app's window (an iframe's `contentWindow`); only messages from it are accepted. */
  appWindow: WindowLike | null | undefined;
  /** The origin registered for the app: the only origin messages (and so the jwt) are sent to or accepted from. */
  appOrigin: string;
  theme?: BridgeTheme | null;
  defaultStandardTime?: string;
  brandName?: string;
  /** Names the validation messages: '{productName}Host is required'. */
  productName?: string;
  /** The app asks to navigate to one of spec 2's pages (anything else never gets here). */
  onNavigate?: (page: PageId) => void;
  /** The app's own address changed (same origin as the app only). */
  onHref?: (change: { href: string; type: HrefType }) => void;
  /** Without a store, preference requests go unanswered (and time out in the app). */
  preferences?: PreferenceStore;
  /** The app asked to initialise and got the context (again after every reload of the app). */
  onConnect?: () => void;
};

/** What a change message can update; `user` is the username. */
export type HostChanges = Partial<{
  user: string;
  organizationId: string;
  organizationResourceId: string;
  jwt: string;
  theme: BridgeTheme | null;
  brandName: string;
}>;

export type HostConnection = {
  /** Whether the app has initialised (change messages only go to an app that has). */
  readonly connected: boolean;
  /** The context the app gets when it initialises. */
  readonly context: BridgeContext;
  /** Sends one change message per changed value (the jwt on every token refresh). */
  update(changes: HostChanges): void;
  /** Tells the app to show another address of its own (the host's history moved). */
  setFrameHref(href: string): void;
  /** Stops listening. */
  destroy(): void;
};

const DEFAULT_PRODUCT = 'Edgeport';

function required(value: unknown, message: string): void {
  if (value === undefined || value === null || value === '') throw new BridgeError(message);
}

function validate(options: HostConnectionOptions): string {
  const product = options.productName || DEFAULT_PRODUCT;
  required(options.jwt, 'JWT is required');
  required(options.username, 'Username is required');
  required(options.organizationId, 'OrganizationId is required');
  required(options.organizationResourceId, 'OrganizationResourceId is required');
  required(options.host, `${product}Host is required`);
  required(options.domain, `${product}Domain is required`);
  required(options.hostWindow, `${product}HostWindow is required`);
  required(options.appWindow, 'App window is required');
  required(options.appOrigin, 'App origin is required');
  const origin = originOf(options.appOrigin);
  if (origin === undefined || origin !== options.appOrigin.replace(/\/$/, ''))
    throw new BridgeError('App origin is not valid');
  return origin;
}

const CONTEXT_OF_CHANGE: Record<keyof HostChanges, keyof BridgeContext> = {
  user: 'username',
  organizationId: 'organizationId',
  organizationResourceId: 'organizationResourceId',
  jwt: 'jwt',
  theme: 'theme',
  brandName: 'brandName',
};

/**
 * The host side of the bridge: answers the app's initialise request with the context, sends change messages, serves
 * preference requests and passes on navigation to spec 2's pages. Messages are accepted only from `appWindow` AND
 * `appOrigin`, and posted only to `appOrigin` (never '*'): the jwt never reaches another origin.
 */
export function createHostConnection(options: HostConnectionOptions): HostConnection {
  const appOrigin = validate(options);
  const { hostWindow } = options;
  const appWindow = options.appWindow as WindowLike;
  const context: BridgeContext = {
    jwt: options.jwt,
    username: options.username,
    organizationId: options.organizationId,
    organizationResourceId: options.organizationResourceId,
    host: options.host,
    domain: options.domain,
    theme: options.theme ?? null,
    defaultStandardTime: options.defaultStandardTime ?? '',
    brandName: options.brandName ?? '',
  };
  let connected = false;
  let destroyed = false;

  const post = (message: HostMessage) => {
    if (!destroyed) appWindow.postMessage(envelope(message), appOrigin);
  };

  const change = <E extends ChangeEvent>(event: E, value: ChangeValue[E]) => {
    if (connected) post({ type: 'change', payload: { event, value } });
  };

  const answerPreference = async (id: string, key: string, work: () => Promise<string | null>) => {
    try {
      post({ type: 'preference', id, payload: { key, value: await work() } });
    } catch (error) {
      post({
        type: 'preference',
        id,
        payload: { key, error: error instanceof Error ? error.message : String(error) },
      });
    }
  };

  const handle = (message: NonNullable<ReturnType<typeof openEnvelope>>) => {
    const type = message.type as AppMessage['type'];
    const { payload } = message;
    if (type === 'init') {
      if (typeof message.id !== 'string') return;
      connected = true;
      post({ type: 'context', id: message.id, payload: { ...context } });
      options.onConnect?.();
      return;
    }
    if (!connected) return;
    switch (type) {
      case 'navigate':
        if (isPageId(payload.page)) options.onNavigate?.(payload.page);
        return;
      case 'href': {
        const { href } = payload;
        const hrefType: HrefType = payload.type === 'push' ? 'push' : 'replace';
        // Only addresses of the app's own origin: the host reloads the frame with them.
        if (typeof href === 'string' && originOf(href) === appOrigin)
          options.onHref?.({ href, type: hrefType });
        return;
      }
      case 'preference.get': {
        const { preferences } = options;
        if (!preferences || typeof message.id !== 'string' || typeof payload.key !== 'string' || !payload.key)
          return;
        void answerPreference(message.id, payload.key, () => preferences.get(payload.key as string));
        return;
      }
      case 'preference.set': {
        const { preferences } = options;
        const { key, value } = payload;
        if (!preferences || typeof message.id !== 'string' || typeof key !== 'string' || !key) return;
        if (typeof value !== 'string') return;
        void answerPreference(message.id, key, async () => {
          await preferences.set(key, value);
          return value;
        });
        return;
      }
      default:
        return;
    }
  };

  const listener = (event: MessageEventLike) => {
    if (destroyed || event.source !== appWindow || event.origin !== appOrigin) return;
    const message = openEnvelope(event.data);
    if (message) handle(message);
  };
  hostWindow.addEventListener('message', listener);

  return {
    get connected() {
      return connected;
    },
    get context() {
      return { ...context };
    },
    update(changes) {
      for (const [name, value] of Object.entries(changes) as [
        keyof HostChanges,
        HostChanges[keyof HostChanges],
      ][]) {
        if (value === undefined) continue;
        const field = CONTEXT_OF_CHANGE[name];
        if (!field || context[field] === value) continue;
        (context as Record<keyof BridgeContext, unknown>)[field] = value;
        change(name, value as ChangeValue[typeof name]);
      }
    },
    setFrameHref(href) {
      if (originOf(href) === appOrigin) change('href', href);
    },
    destroy() {
      destroyed = true;
      connected = false;
      hostWindow.removeEventListener('message', listener);
    },
  };
}
