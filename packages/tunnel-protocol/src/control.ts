/**
 * Control messages: the text WebSocket messages of a tunnel, JSON objects with a `type`.
 *
 * - agent → server `hello` right after connecting: its version, the LAN it reaches and the endpoints it knows of;
 * - server → agent `welcome` once the gateway is registered (the agent counts itself connected from then on), with
 *   the LAN the portal has stored for the gateway (the agent uses it when it was not given one);
 * - server → agent `lan` when the gateway's LAN changes in the portal;
 * - server → agent `connect`: open a raw data connection (companion TCP forwarding): the agent connects to `host:port`
 *   on its LAN, then makes an HTTP upgrade request `GET /tunnel/stream/{id}` (`Upgrade: edgeport-stream`,
 *   `Authorization: Stream {token}`) to the server and pipes that socket and the machine's together, raw bytes;
 * - agent → server `connect-failed` when it refuses the target or cannot reach it (instead of the data connection);
 * - either way `error` with a message before closing for a protocol error.
 */

export const ENDPOINT_PROTOCOLS = ['HTTP', 'HTTPS', 'TCP'] as const;
export type AgentEndpoint = {
  name: string;
  address: string;
  protocol: (typeof ENDPOINT_PROTOCOLS)[number];
  port: number;
};

export type HelloMessage = {
  type: 'hello';
  agentVersion: string;
  lanNetwork: string | null;
  endpoints: AgentEndpoint[];
};
export type WelcomeMessage = { type: 'welcome'; gatewayId: string; name: string; lanNetwork: string | null };
export type LanMessage = { type: 'lan'; lanNetwork: string | null };
export type ErrorMessage = { type: 'error'; message: string };
export type ConnectMessage = { type: 'connect'; id: string; token: string; host: string; port: number };
export type ConnectFailedMessage = { type: 'connect-failed'; id: string; reason: string };
export type ControlMessage =
  | HelloMessage
  | WelcomeMessage
  | LanMessage
  | ErrorMessage
  | ConnectMessage
  | ConnectFailedMessage;

/** The `Upgrade` protocol of the agent's data connections (`/tunnel/stream/{id}`). */
export const STREAM_UPGRADE = 'edgeport-stream';
/** The `Upgrade` protocol of the companion CLI's connections (`/tunnel/tcp/{session}`). */
export const TCP_UPGRADE = 'edgeport-tcp';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** WebSocket close codes of the tunnel. */
export const CloseCode = {
  /** The gateway was reset from the portal: reconnect. */
  RESET: 4000,
  /** Another connection registered the same gateway. */
  REPLACED: 4001,
  /** Missing or wrong credentials. */
  UNAUTHORIZED: 4401,
  /** A protocol error (malformed frame or message, no hello in time). */
  PROTOCOL: 4400,
} as const;

export class ControlError extends Error {}

function record(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ControlError('a control message is a JSON object');
  return value as Record<string, unknown>;
}

function text(value: Record<string, unknown>, key: string, max = 200): string {
  const field = value[key];
  if (typeof field !== 'string' || field.length > max) throw new ControlError(`${key} must be a string`);
  return field;
}

function textOrNull(value: Record<string, unknown>, key: string): string | null {
  return value[key] === null || value[key] === undefined ? null : text(value, key);
}

function endpoint(value: unknown, index: number): AgentEndpoint {
  const entry = record(value);
  const protocol = entry.protocol;
  const port = entry.port;
  if (typeof protocol !== 'string' || !(ENDPOINT_PROTOCOLS as readonly string[]).includes(protocol))
    throw new ControlError(`endpoints/${index}/protocol must be one of ${ENDPOINT_PROTOCOLS.join(', ')}`);
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new ControlError(`endpoints/${index}/port must be an integer 1..65535`);
  const name = text(entry, 'name', 100);
  if (name.trim() === '') throw new ControlError(`endpoints/${index}/name must not be empty`);
  return {
    name,
    address: text(entry, 'address', 100),
    protocol: protocol as AgentEndpoint['protocol'],
    port,
  };
}

function port(value: Record<string, unknown>): number {
  const field = value.port;
  if (typeof field !== 'number' || !Number.isInteger(field) || field < 1 || field > 65535)
    throw new ControlError('port must be an integer 1..65535');
  return field;
}

function id(value: Record<string, unknown>): string {
  const field = text(value, 'id', 36);
  if (!UUID.test(field)) throw new ControlError('id must be a lower-case UUID');
  return field;
}

/** The control message in a text frame; throws ControlError when malformed or unknown. */
export function parseControl(raw: string): ControlMessage {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ControlError('a control message is JSON');
  }
  const value = record(parsed);
  switch (value.type) {
    case 'hello': {
      const endpoints = value.endpoints ?? [];
      if (!Array.isArray(endpoints) || endpoints.length > 1000)
        throw new ControlError('endpoints must be an array (at most 1000)');
      return {
        type: 'hello',
        agentVersion: text(value, 'agentVersion', 100),
        lanNetwork: textOrNull(value, 'lanNetwork'),
        endpoints: endpoints.map(endpoint),
      };
    }
    case 'welcome':
      return {
        type: 'welcome',
        gatewayId: text(value, 'gatewayId'),
        name: text(value, 'name'),
        lanNetwork: textOrNull(value, 'lanNetwork'),
      };
    case 'lan':
      return { type: 'lan', lanNetwork: textOrNull(value, 'lanNetwork') };
    case 'error':
      return { type: 'error', message: text(value, 'message', 2000) };
    case 'connect': {
      const token = text(value, 'token', 43);
      if (!TOKEN.test(token)) throw new ControlError('token must be 32 bytes in base64url');
      return { type: 'connect', id: id(value), token, host: text(value, 'host', 100), port: port(value) };
    }
    case 'connect-failed':
      return { type: 'connect-failed', id: id(value), reason: text(value, 'reason', 2000) };
    default:
      throw new ControlError(`unknown control message type ${JSON.stringify(value.type)}`);
  }
}

export function encodeControl(message: ControlMessage): string {
  return JSON.stringify(message);
}
