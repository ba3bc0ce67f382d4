/**
 * The wire format of the host/app bridge: every message is one versioned envelope posted with `postMessage`.
 * Messages whose protocol, version or type is not known here are ignored by both sides.
 */

export const PROTOCOL = 'edgeport-bridge';
export const PROTOCOL_VERSION = 1;

/** Spec 9: an app that hears nothing from its host gives up after this long ('Create timeout reached'). */
export const CONNECT_TIMEOUT_MS = 5000;
/** Spec 9: a user-preference request without an answer fails after this long. */
export const PREFERENCE_TIMEOUT_MS = 10_000;

/** Spec 2: the only pages a hosted app may ask its host to navigate to. */
export const PAGE_IDS = [
  'home',
  'dashboard',
  'device-activate',
  'device-manage',
  'device-vpn',
  'data-configure',
  'data-explore',
  'data-alarms',
  'data-notifications',
  'iam-organizations',
  'iam-users',
  'iam-roles',
  'dealer',
  'audit',
  'log',
] as const;
export type PageId = (typeof PAGE_IDS)[number];

export function isPageId(value: unknown): value is PageId {
  return typeof value === 'string' && (PAGE_IDS as readonly string[]).includes(value);
}

/** What the host tells the app about itself (spec 3 "host-to-app connection payload"). */
export type BridgeTheme = {
  colorScheme: 'light' | 'dark';
  /** `#rrggbb` */
  primaryColor?: string;
  logoUrl?: string | null;
};

export type BridgeContext = {
  /** The user's token for the services, scoped to the organization (renewed: see the `jwt` change). */
  jwt: string;
  username: string;
  organizationId: string;
  organizationResourceId: string;
  /** The host address: the origin (and path) of the page hosting the app. */
  host: string;
  /** The host domain: the product domain the services live under. */
  domain: string;
  theme: BridgeTheme | null;
  /** The IANA time zone the host shows times in, for example 'Europe/Amsterdam'. */
  defaultStandardTime: string;
  brandName: string;
};

/** The change events of spec 4: user, organization id, resource id, jwt, theme, brand name, frame address. */
export const CHANGE_EVENTS = [
  'user',
  'organizationId',
  'organizationResourceId',
  'jwt',
  'theme',
  'brandName',
  'href',
] as const;
export type ChangeEvent = (typeof CHANGE_EVENTS)[number];

export type ChangeValue = {
  user: string;
  organizationId: string;
  organizationResourceId: string;
  jwt: string;
  theme: BridgeTheme | null;
  brandName: string;
  /** The frame address the host wants the app to show (back/forward, reload of the host). */
  href: string;
};

export function isChangeEvent(value: unknown): value is ChangeEvent {
  return typeof value === 'string' && (CHANGE_EVENTS as readonly string[]).includes(value);
}

/** How the app's address changed: a new entry in the host's history, or the current one replaced. */
export type HrefType = 'push' | 'replace';

/** App -> host. */
export type AppMessage =
  | { type: 'init'; id: string; payload: Record<string, never> }
  | { type: 'navigate'; payload: { page: PageId } }
  | { type: 'href'; payload: { href: string; type: HrefType } }
  | { type: 'preference.get'; id: string; payload: { key: string } }
  | { type: 'preference.set'; id: string; payload: { key: string; value: string } };

/** Host -> app. */
export type HostMessage =
  | { type: 'context'; id: string; payload: BridgeContext }
  | { type: 'change'; payload: { event: ChangeEvent; value: ChangeValue[ChangeEvent] } }
  | {
      type: 'preference';
      id: string;
      payload: { key: string; value: string | null } | { key: string; error: string };
    };

export type Envelope<M> = M & { protocol: typeof PROTOCOL; version: typeof PROTOCOL_VERSION };

export function envelope<M extends AppMessage | HostMessage>(message: M): Envelope<M> {
  return { protocol: PROTOCOL, version: PROTOCOL_VERSION, ...message };
}

type Loose = { type: string; id?: unknown; payload: Record<string, unknown> };

/** The message inside an envelope of this protocol and version, or undefined for anything else. */
export function openEnvelope(data: unknown): Loose | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  const { protocol, version, type, id, payload } = data as Record<string, unknown>;
  if (protocol !== PROTOCOL || version !== PROTOCOL_VERSION || typeof type !== 'string') return undefined;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return undefined;
  return { type, id, payload: payload as Record<string, unknown> };
}

/** The parts of a `MessageEvent` the bridge reads. */
export type MessageEventLike = { readonly data: unknown; readonly origin: string; readonly source: unknown };
export type MessageListener = (event: MessageEventLike) => void;

/** A window, as far as the bridge uses one (a real `Window`, an iframe's `contentWindow`, or a test double). */
export interface WindowLike {
  postMessage(message: unknown, targetOrigin: string): void;
  addEventListener(type: 'message', listener: MessageListener): void;
  removeEventListener(type: 'message', listener: MessageListener): void;
}

/** The errors the bridge throws or rejects with; `message` is exactly the text of spec 8. */
export class BridgeError extends Error {
  override readonly name = 'BridgeError';
}

let sequence = 0;
/** A request id: unique within the page (it is matched together with the origin and the window). */
export function nextId(): string {
  sequence += 1;
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${sequence}`;
}

/** `scheme://host[:port]` of an absolute http(s) address, or undefined. */
export function originOf(address: string): string | undefined {
  try {
    const url = new URL(address);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
