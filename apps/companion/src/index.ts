export {
  checkSession,
  type Forwarder,
  ForwarderError,
  type ForwarderOptions,
  type SessionCheck,
  sessionIdOf,
  startForwarder,
  tunnelUrl,
} from './forwarder.ts';
export { type RelayCounters, relay } from './relay.ts';
