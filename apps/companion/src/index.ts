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
