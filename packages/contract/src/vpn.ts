/**
 * Remote access (spec 7 "Gateway/VPN service", "Remote-access legacy login"): gateways, endpoints, application
 * profiles and applications, VPN connections and the sessions that run through a gateway agent's tunnel.
 * `{domain}`, `{org}` and `{orgResourceId}` all name an organization by its id or resourceId.
 */
import { type Static, Type } from 'typebox';
import { literals, nullableUuid, Paged, Uuid } from './common.ts';
import { ACTIVATION_KEY_PATTERN } from './license.ts';
import {
  APPLICATION_PREFERENCES_PAGE_SIZE,
  CLIENT_OS,
  ENDPOINT_PROTOCOLS,
  GATEWAY_LOG_LIMIT,
  REMOTE_CLIENT_OS,
} from './values/vpn.ts';

export * from './values/vpn.ts';

const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '^[^/\\\\]+$' });
const NullableDate = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Otp = Type.String({
  pattern: '^[0-9]{6}$',
  description: 'The six-digit one-time password of the user.',
});

export const Protocol = literals(ENDPOINT_PROTOCOLS);
export const ClientOs = literals(CLIENT_OS);
export const RemoteClientOs = literals(REMOTE_CLIENT_OS);

// --- params -------------------------------------------------------------------------------------------------------

export const DomainParams = Type.Object({ domain: Name });
export const DomainIdParams = Type.Object({ domain: Name, id: Uuid });
export const GatewayParams = Type.Object({ domain: Name, gateway: Name });
export const CloneParams = Type.Object({ domain: Name, gateway: Name, target: Name });
export const ResetParams = Type.Object({ gateway: Name, orgResourceId: Name });
export const EndpointDeleteParams = Type.Object({ endpointName: Name, gateway: Name, domain: Name });
export const ConnectionParams = Type.Object({ org: Name, gateway: Name });
export const EndpointConnectionParams = Type.Object({ org: Name, gateway: Name, endpoint: Name });

// --- gateways -----------------------------------------------------------------------------------------------------

export const Gateway = Type.Object({
  id: Uuid,
  name: Type.String(),
  /** The organization's resourceId. */
  domain: Type.String(),
  organizationId: Uuid,
  deviceId: Uuid,
  description: Type.String(),
  status: literals(['ONLINE', 'OFFLINE']),
  connectedAt: NullableDate,
  lastSeenAt: NullableDate,
  agentVersion: Type.Union([Type.String(), Type.Null()]),
  /** The plant LAN (IPv4 CIDR) the agent reaches; null until reported or set. */
  lanNetwork: Type.Union([Type.String(), Type.Null()]),
  /** Usable host addresses in the LAN (the VPNnetworkSize flag shows it); null without a LAN. */
  networkSize: Type.Union([Type.Integer(), Type.Null()]),
  vpnIp: Type.Union([Type.String(), Type.Null()]),
  latitude: Type.Union([Type.Number(), Type.Null()]),
  longitude: Type.Union([Type.Number(), Type.Null()]),
  profileId: Type.Union([Uuid, Type.Null()]),
  /** Whether connecting needs a one-time password (from the profile). */
  otpRequired: Type.Boolean(),
  ipFilter: Type.Array(Type.String()),
  endpointCount: Type.Integer(),
  /** Whether an edge configuration file was ever issued (the agent has credentials). */
  configured: Type.Boolean(),
});
export type Gateway = Static<typeof Gateway>;

export const GatewayListQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    status: Type.Optional(literals(['ONLINE', 'OFFLINE'])),
  },
  { additionalProperties: false },
);
export const GatewayPage = Paged(Gateway);

export const GatewayPatch = Type.Object(
  {
    description: Type.Optional(Type.String({ maxLength: 500 })),
    lanNetwork: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        maxLength: 18,
        description: 'IPv4 CIDR, e.g. 192.168.10.0/24',
      }),
    ),
    profileId: Type.Optional(nullableUuid('The application profile; null: none.')),
    ipFilter: Type.Optional(Type.Array(Type.String({ maxLength: 43 }), { maxItems: 50 })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type GatewayPatch = Static<typeof GatewayPatch>;

export const PositionQuery = Type.Object(
  {
    latitude: Type.Number({ minimum: -90, maximum: 90 }),
    longitude: Type.Number({ minimum: -180, maximum: 180 }),
  },
  { additionalProperties: false },
);

export const EdgeConfigRequest = Type.Object(
  {
    activationKey: Type.String({
      pattern: ACTIVATION_KEY_PATTERN,
      description: "The gateway's VPN activation key.",
    }),
  },
  { additionalProperties: false },
);

/** The edge configuration file (JSON) the gateway agent starts with. The secret is in it only: keep it safe. */
export const EdgeConfigFile = Type.Object({
  version: Type.Literal(1),
  /** The portal's public origin. */
  server: Type.String(),
  /** Where the agent connects: ws(s)://{server}/tunnel. */
  tunnelUrl: Type.String(),
  gatewayId: Uuid,
  secret: Type.String(),
  name: Type.String(),
  domain: Type.String(),
  lanNetwork: Type.Union([Type.String(), Type.Null()]),
  issuedAt: Type.String({ format: 'date-time' }),
});
export type EdgeConfigFile = Static<typeof EdgeConfigFile>;

export const GatewayLogQuery = Type.Object(
  {
    showSystem: Type.Optional(Type.Boolean({ default: false })),
    fromTimestamp: Type.Optional(Type.Integer({ minimum: 0, description: 'Epoch milliseconds, inclusive.' })),
    toTimestamp: Type.Optional(Type.Integer({ minimum: 0, description: 'Epoch milliseconds, exclusive.' })),
    limit: Type.Optional(
      Type.Integer({ minimum: 1, maximum: GATEWAY_LOG_LIMIT, default: GATEWAY_LOG_LIMIT }),
    ),
  },
  { additionalProperties: false },
);
export const GatewayLog = Type.Object({
  id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  level: literals(['INFO', 'WARN', 'ERROR']),
  system: Type.Boolean(),
  message: Type.String(),
  detail: Type.Record(Type.String(), Type.Unknown()),
});
export type GatewayLog = Static<typeof GatewayLog>;
export const GatewayLogList = Type.Object({ items: Type.Array(GatewayLog) });

export const ResetAnswer = Type.Object({
  gateway: Type.String(),
  /** Whether a live tunnel was dropped (the agent reconnects by itself). */
  reset: Type.Boolean(),
});

// --- endpoints ----------------------------------------------------------------------------------------------------

export const Endpoint = Type.Object({
  id: Uuid,
  name: Type.String(),
  gateway: Type.String(),
  gatewayId: Uuid,
  domain: Type.String(),
  address: Type.String(),
  protocol: Protocol,
  port: Type.Integer(),
  description: Type.String(),
  source: literals(['PORTAL', 'AGENT']),
});
export type Endpoint = Static<typeof Endpoint>;

/** Body of `POST /endpoints` (the list call). */
export const EndpointListRequest = Type.Object(
  {
    domain: Name,
    gateway: Type.Optional(Name),
    search: Type.Optional(Type.String({ maxLength: 200 })),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 50 })),
  },
  { additionalProperties: false },
);
export const EndpointPage = Paged(Endpoint);

/** Body of `POST /endpoints/` (create). */
export const EndpointCreate = Type.Object(
  {
    domain: Name,
    gateway: Name,
    name: Name,
    address: Type.String({
      minLength: 7,
      maxLength: 15,
      description: 'IPv4 address inside the gateway LAN.',
    }),
    protocol: Protocol,
    port: Port,
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type EndpointCreate = Static<typeof EndpointCreate>;

// --- application profiles and applications -------------------------------------------------------------------

export const ActionProfile = Type.Object({
  id: Uuid,
  name: Type.String(),
  description: Type.String(),
  otpRequired: Type.Boolean(),
  actionCount: Type.Integer(),
  gatewayCount: Type.Integer(),
});
export type ActionProfile = Static<typeof ActionProfile>;
export const ActionProfileList = Type.Object({ items: Type.Array(ActionProfile) });
/** Create, or edit when `id` is given (spec 7: edit is also POST). */
export const ActionProfileInput = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Name,
    description: Type.Optional(Type.String({ maxLength: 500 })),
    otpRequired: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ActionProfileInput = Static<typeof ActionProfileInput>;

export const Action = Type.Object({
  id: Uuid,
  name: Type.String(),
  profileId: Type.Union([Uuid, Type.Null()]),
  protocol: Protocol,
  port: Type.Integer(),
  path: Type.String(),
  clientOs: Type.Array(ClientOs),
  description: Type.String(),
});
export type Action = Static<typeof Action>;
export const ActionList = Type.Object({ items: Type.Array(Action) });
/** POST creates; PUT edits the application named by `id`. */
export const ActionInput = Type.Object(
  {
    id: Type.Optional(Uuid),
    name: Name,
    profileId: Type.Optional(nullableUuid()),
    protocol: Protocol,
    port: Port,
    path: Type.Optional(Type.String({ maxLength: 500, pattern: '^/' })),
    clientOs: Type.Optional(Type.Array(ClientOs, { uniqueItems: true })),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  },
  { additionalProperties: false },
);
export type ActionInput = Static<typeof ActionInput>;

// --- application preferences (a user's shortcuts) -----------------------------------------------------------------

export const ApplicationPreference = Type.Object({
  id: Uuid,
  gateway: Type.String(),
  endpoint: Type.String(),
  action: Type.String(),
  clientOs: Type.String(),
  label: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
});
export const ApplicationPreferencePage = Paged(ApplicationPreference);
export const ApplicationPreferenceListParams = Type.Object({ orgResourceId: Name, x: Name });
export const ApplicationPreferenceQuery = Type.Object(
  {
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: APPLICATION_PREFERENCES_PAGE_SIZE,
        default: APPLICATION_PREFERENCES_PAGE_SIZE,
      }),
    ),
  },
  { additionalProperties: false },
);
/** `POST /preferences/applications/{orgResourceId}/{gateway}/{endpoint}/{action}/{clientOs}/{label}` */
export const ApplicationPreferenceCreateParams = Type.Object({
  orgResourceId: Name,
  gateway: Name,
  endpoint: Name,
  action: Name,
  clientOs: Type.Union([RemoteClientOs, ClientOs]),
  label: Name,
});
export const ApplicationPreferenceDeleteParams = Type.Object({ orgResourceId: Name, id: Uuid });

// --- connections, sessions, applications run ---------------------------------------------------------------------

export const ConnectQuery = Type.Object(
  {
    clientOs: Type.Optional(RemoteClientOs),
    onlyGateway: Type.Optional(Type.Boolean({ default: false })),
    otp: Type.Optional(Otp),
  },
  { additionalProperties: false },
);
export const DisconnectQuery = Type.Object(
  { onlyGateway: Type.Optional(Type.Boolean({ default: false })) },
  { additionalProperties: false },
);
export const Connection = Type.Object({
  id: Uuid,
  gateway: Type.String(),
  endpoint: Type.Union([Type.String(), Type.Null()]),
  status: literals(['CONNECTED', 'DISCONNECTED']),
  otpVerified: Type.Boolean(),
  startedAt: Type.String({ format: 'date-time' }),
  endedAt: NullableDate,
});
export type Connection = Static<typeof Connection>;

/** What a disconnect ended: the caller's connections and how many sessions ran under them. */
export const DisconnectAnswer = Type.Object({
  gateway: Type.String(),
  connections: Type.Array(Connection),
  /** Sessions (browser access, TCP forwarding) ended with them; their live streams are broken. */
  sessionsEnded: Type.Integer(),
});

export const CheckOtpQuery = Type.Object({ otp: Otp }, { additionalProperties: false });
export const CheckOtpAnswer = Type.Object({ valid: Type.Boolean() });

export const JsonActionsQuery = Type.Object(
  { clientOs: Type.Optional(RemoteClientOs) },
  { additionalProperties: false },
);
/** What the caller may open on a gateway: one entry per endpoint and fitting application. */
export const JsonActions = Type.Object({
  gateway: Type.String(),
  status: literals(['ONLINE', 'OFFLINE']),
  otpRequired: Type.Boolean(),
  /** Whether the caller has an open connection to the gateway. */
  connected: Type.Boolean(),
  items: Type.Array(
    Type.Object({
      endpoint: Type.String(),
      endpointId: Uuid,
      action: Type.String(),
      actionId: Type.Union([Uuid, Type.Null()]),
      protocol: Protocol,
      port: Type.Integer(),
      /** BROWSER: opened in a browser tab; TCP: forwarded by the companion CLI. */
      kind: literals(['BROWSER', 'TCP']),
    }),
  ),
});

export const ExecuteActionQuery = Type.Object(
  {
    gatewayName: Name,
    endpointName: Name,
    actionName: Name,
    clientOs: Type.Optional(Type.Union([RemoteClientOs, ClientOs])),
  },
  { additionalProperties: false },
);

/** Body of `POST /credentials/request`: TCP forwarding of any port of an endpoint (the vpnTcpOption flag). */
export const CredentialsRequest = Type.Object(
  {
    domain: Name,
    gateway: Name,
    endpoint: Name,
    port: Port,
    otp: Type.Optional(Otp),
  },
  { additionalProperties: false },
);

/** A session opened through the tunnel: where to open it (browser) or how to forward it (companion CLI). */
export const AccessGrant = Type.Object({
  sessionId: Uuid,
  kind: literals(['BROWSER', 'TCP']),
  gateway: Type.String(),
  endpoint: Type.String(),
  port: Type.Integer(),
  /**
   * BROWSER: the absolute address to open, on the session's OWN origin (never the portal's, so the machine's page
   * cannot script the portal): `{scheme}://{sessionId}.remote.{BASE_DOMAIN}[:port]/remote/{sessionId}/{path}` with
   * the one-time ticket `edgeport_ticket` (valid 60 s, once) that becomes the session's host-only cookie.
   */
  url: Type.Optional(
    Type.String({
      description:
        "BROWSER: the absolute address to open, on the session's own origin " +
        '{scheme}://{sessionId}.remote.{BASE_DOMAIN}[:port]/remote/{sessionId}/{path}?edgeport_ticket={ticket} ' +
        '(never the portal origin); the ticket is valid 60 s, once, and becomes a host-only cookie.',
    }),
  ),
  /** TCP: the session token for the companion CLI; shown once. */
  token: Type.Optional(Type.String()),
  /** TCP: the companion CLI command line that forwards a local port. */
  command: Type.Optional(Type.String()),
  /** The caller's saved password of the application, when one is set. */
  applicationPassword: Type.Optional(Type.String()),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type AccessGrant = Static<typeof AccessGrant>;

/** `GET /tunnel/tcp/{session}` without upgrade (header `Authorization: Session {token}`): the companion CLI's check. */
export const TcpSessionCheck = Type.Object({
  sessionId: Uuid,
  gateway: Type.String(),
  endpoint: Type.Union([Type.String(), Type.Null()]),
  target: Type.String(),
  /** Whether the gateway's agent is connected now. */
  online: Type.Boolean(),
  expiresAt: Type.String({ format: 'date-time' }),
});
export type TcpSessionCheck = Static<typeof TcpSessionCheck>;

export const SetApplicationPassword = Type.Object(
  {
    domain: Name,
    actionId: Uuid,
    password: Type.String({ minLength: 1, maxLength: 200 }),
  },
  { additionalProperties: false },
);

// --- companion app and regions --------------------------------------------------------------------------------

export const CompanionAppInfo = Type.Object({
  name: Type.String(),
  version: Type.String(),
  /** Where the companion CLI (one JavaScript file for Node 22+) is downloaded from. */
  downloadUrl: Type.String(),
  platforms: Type.Array(Type.Object({ os: literals(['Linux', 'Mac', 'Win']), command: Type.String() })),
});
export const Region = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  default: Type.Boolean(),
});
export const RegionList = Type.Object({ items: Type.Array(Region) });

// --- legacy login (/svc/vpn) ------------------------------------------------------------------------------------

/** Form fields of the legacy login: `username` is `{name}/{domain}`; `password` may be the user's access token. */
export const LegacyLoginForm = Type.Object({
  username: Type.String({ minLength: 3, maxLength: 300 }),
  password: Type.String({ minLength: 1, maxLength: 8000 }),
  ajax: Type.Optional(Type.String()),
});
export const LegacyAnswer = Type.Object({
  success: Type.Boolean(),
  expiresAt: Type.Optional(Type.String({ format: 'date-time' })),
});
