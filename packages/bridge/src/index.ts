export {
  type AppConnection,
  type ChangeCallback,
  type ConnectOptions,
  connect,
  validateSubscription,
} from './app.ts';
export {
  createHostConnection,
  type HostChanges,
  type HostConnection,
  type HostConnectionOptions,
  type PreferenceStore,
} from './host.ts';
export { PORTAL_ROUTES, pageOfPortalRoute } from './portal-routes.ts';
export {
  type AppMessage,
  type BridgeContext,
  BridgeError,
  type BridgeTheme,
  CHANGE_EVENTS,
  type ChangeEvent,
  type ChangeValue,
  CONNECT_TIMEOUT_MS,
  type Envelope,
  type HostMessage,
  type HrefType,
  isChangeEvent,
  isPageId,
  type MessageEventLike,
  type MessageListener,
  PAGE_IDS,
  type PageId,
  PREFERENCE_TIMEOUT_MS,
  PROTOCOL,
  PROTOCOL_VERSION,
  type WindowLike,
} from './protocol.ts';
