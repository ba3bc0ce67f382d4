import path from 'node:path';

export type Config = {
  port: number;
  host: string;
  mqttPort: number;
  baseDomain: string;
  publicScheme: 'http' | 'https';
  publicPort: number;
  dataDir: string;
  databaseUrl: string | undefined;
  oidcIssuerUrl: string | undefined;
  mqttUrl: string | undefined;
  smtpUrl: string | undefined;
  /** Waits before each retry of a failed notification delivery (NOTIFICATION_RETRY_DELAYS_MS, comma-separated). */
  notificationRetryDelaysMs: number[];
  demo: boolean;
  /** Mounts POST /test-support/tenants for browser tests. Never set in production. */
  testFixtures: boolean;
  logLevel: string;
  webDist: string;
  /** The device map's tile URL template (MAP_TILE_URL); unset: OpenStreetMap. */
  mapTileUrl?: string;
  mapTileAttribution?: string;
  /** Origins of host pages allowed to embed the portal (CSP frame-ancestors); EMBED_HOST_ORIGINS, comma-separated. */
  embedHostOrigins: string[];
  /** Serves the host/app bridge samples at /samples/* (EDGEPORT_SAMPLES; on with the demo unless set). */
  samples: boolean;
  samplesDir: string;
  /** Bytes of dashboard assets and gallery files one organization may store (DASHBOARD_ASSET_LIMIT_BYTES). */
  assetStorageLimitBytes: number;
  /**
   * Proxies whose X-Forwarded-* headers are believed (TRUSTED_PROXIES: addresses or CIDR ranges, comma-separated).
   * Empty: none, the client address is the connection's.
   */
  trustedProxies: string[];
  /**
   * Private hosts (host or host:port) webhooks may reach (WEBHOOK_ALLOWED_PRIVATE_HOSTS, comma-separated). Only this
   * server-wide setting opens private addresses; loopback, link-local, metadata and the server's own addresses stay
   * forbidden whatever is listed.
   */
  webhookAllowedPrivateHosts: string[];
  /** Largest MQTT packet accepted, before authentication too (MQTT_MAX_PACKET_BYTES, default 256 KiB). */
  mqttMaxPacketBytes: number;
  /**
   * Edgeport manages each device's client and topic rights on the external broker through Mosquitto's
   * dynamic-security API (MQTT_DYNSEC); MQTT_URL's user must then be a dynamic-security client with the admin role.
   */
  mqttDynsec: boolean;
  /**
   * This instance's fixed name on the external broker (INSTANCE_ID): its consumers' client ids, so their persistent
   * sessions survive a restart. Unset: an id made once and kept in `{DATA_DIR}/instance-id`.
   */
  instanceId: string | undefined;
  /**
   * Where the other instances of a cluster reach this one (INTERNAL_URL), for forwarded remote-access sessions.
   * Default `http://127.0.0.1:{PORT}`: right when every instance runs on one machine.
   */
  internalUrl: string;
  /** How long stored values are kept, per organization (its limit `telemetryRetentionDays`) and on the server. */
  telemetryRetention: TelemetryRetention;
};

export type TelemetryRetention = {
  /** Days of raw values an organization without its own setting keeps (TELEMETRY_RETENTION_DAYS, 365). */
  defaultDays: number;
  /** The most days an organization may set (TELEMETRY_RETENTION_MAX_DAYS, 3650). */
  maxDays: number;
  /** Days the hourly rollups are kept (TELEMETRY_ROLLUP_RETENTION_DAYS, 1825: five years). */
  rollupDays: number;
};

export class ConfigError extends Error {}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) {
    throw new ConfigError(`${name} must be a port number between 0 and 65535, got '${raw}'`);
  }
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got '${raw}'`);
}

function optional(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

/** A comma-separated list of millisecond delays, each between 0 and one day. */
function delays(env: NodeJS.ProcessEnv, name: string, fallback: number[]): number[] {
  const raw = optional(env, name);
  if (!raw) return fallback;
  return raw.split(',').map((entry) => {
    const value = Number(entry.trim());
    if (!Number.isInteger(value) || value < 0 || value > 86_400_000) {
      throw new ConfigError(`${name} must list milliseconds between 0 and 86400000, got '${entry.trim()}'`);
    }
    return value;
  });
}

/** A comma-separated list of http(s) origins (`scheme://host[:port]`, nothing more). */
function origins(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = optional(env, name);
  if (!raw) return [];
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    let origin: string | undefined;
    try {
      const url = new URL(value);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {}
    if (!origin || origin !== value.replace(/\/$/, ''))
      throw new ConfigError(
        `${name} must list http(s) origins like https://portal.example.com, got '${value}'`,
      );
    return origin;
  });
}

/** A byte count: a non-negative safe integer. */
function bytes(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a number of bytes, got '${raw}'`);
  return value;
}

/** A number of days: a whole number from 1 on. */
function days(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = optional(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new ConfigError(`${name} must be a whole number of days from 1 on, got '${raw}'`);
  return value;
}

function telemetryRetention(env: NodeJS.ProcessEnv): TelemetryRetention {
  const retention = {
    defaultDays: days(env, 'TELEMETRY_RETENTION_DAYS', 365),
    maxDays: days(env, 'TELEMETRY_RETENTION_MAX_DAYS', 3650),
    rollupDays: days(env, 'TELEMETRY_ROLLUP_RETENTION_DAYS', 1825),
  };
  if (retention.defaultDays > retention.maxDays)
    throw new ConfigError(
      `TELEMETRY_RETENTION_DAYS (${retention.defaultDays}) must not exceed TELEMETRY_RETENTION_MAX_DAYS (${retention.maxDays})`,
    );
  return retention;
}

/** A comma-separated list of non-empty entries. */
function list(env: NodeJS.ProcessEnv, name: string): string[] {
  const raw = optional(env, name);
  if (!raw) return [];
  return raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** INTERNAL_URL: an http(s) origin, nothing more. */
function internalUrl(env: NodeJS.ProcessEnv, port: number): string {
  const raw = optional(env, 'INTERNAL_URL');
  if (raw === undefined) return `http://127.0.0.1:${port}`;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {}
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== raw.replace(/\/$/, ''))
    throw new ConfigError(`INTERNAL_URL must be an http(s) origin like http://10.0.0.5:8080, got '${raw}'`);
  return url.origin;
}

/** INSTANCE_ID: part of MQTT client ids, so letters, digits, '-' and '_' only. */
export const INSTANCE_ID_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;

function instanceId(env: NodeJS.ProcessEnv): string | undefined {
  const raw = optional(env, 'INSTANCE_ID');
  if (raw !== undefined && !INSTANCE_ID_PATTERN.test(raw))
    throw new ConfigError(`INSTANCE_ID must be 1 to 40 letters, digits, '-' or '_', got '${raw}'`);
  return raw;
}

/** MQTT_DYNSEC needs MQTT_URL with the user name and password of the broker's dynamic-security admin client. */
function mqttDynsec(env: NodeJS.ProcessEnv): boolean {
  const enabled = flag(env, 'MQTT_DYNSEC', false);
  if (!enabled) return false;
  const url = optional(env, 'MQTT_URL');
  if (!url) throw new ConfigError('MQTT_DYNSEC=true needs MQTT_URL (the external broker)');
  let credentials = false;
  try {
    const parsed = new URL(url);
    credentials = parsed.username !== '' && parsed.password !== '';
  } catch {}
  if (!credentials)
    throw new ConfigError(
      "MQTT_DYNSEC=true needs MQTT_URL with the dynamic-security admin's user name and password (mqtt://user:password@host:port)",
    );
  return true;
}

/** The environment, read once, typed. Every variable is listed in the README's configuration table. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 8080);
  const scheme = optional(env, 'PUBLIC_SCHEME') ?? 'http';
  if (scheme !== 'http' && scheme !== 'https') throw new ConfigError(`PUBLIC_SCHEME must be http or https`);
  return {
    port,
    host: optional(env, 'HOST') ?? '0.0.0.0',
    mqttPort: integer(env, 'MQTT_PORT', 1883),
    baseDomain: optional(env, 'BASE_DOMAIN') ?? 'localhost',
    publicScheme: scheme,
    publicPort: integer(env, 'PUBLIC_PORT', port),
    dataDir: path.resolve(optional(env, 'DATA_DIR') ?? './data'),
    databaseUrl: optional(env, 'DATABASE_URL'),
    oidcIssuerUrl: optional(env, 'OIDC_ISSUER_URL'),
    mqttUrl: optional(env, 'MQTT_URL'),
    smtpUrl: optional(env, 'SMTP_URL'),
    // Five attempts in all: at once, then after 10 s, 1 min, 5 min and 30 min.
    notificationRetryDelaysMs: delays(
      env,
      'NOTIFICATION_RETRY_DELAYS_MS',
      [10_000, 60_000, 300_000, 1_800_000],
    ),
    demo: flag(env, 'EDGEPORT_DEMO', false),
    testFixtures: flag(env, 'EDGEPORT_TEST_FIXTURES', false),
    logLevel: optional(env, 'LOG_LEVEL') ?? 'info',
    webDist: path.resolve(import.meta.dirname, '../../web/dist'),
    mapTileUrl: optional(env, 'MAP_TILE_URL'),
    mapTileAttribution: optional(env, 'MAP_TILE_ATTRIBUTION'),
    embedHostOrigins: origins(env, 'EMBED_HOST_ORIGINS'),
    samples: flag(env, 'EDGEPORT_SAMPLES', flag(env, 'EDGEPORT_DEMO', false)),
    samplesDir: path.resolve(import.meta.dirname, '../../../samples'),
    assetStorageLimitBytes: bytes(env, 'DASHBOARD_ASSET_LIMIT_BYTES', 100 * 1024 * 1024),
    trustedProxies: list(env, 'TRUSTED_PROXIES'),
    webhookAllowedPrivateHosts: list(env, 'WEBHOOK_ALLOWED_PRIVATE_HOSTS'),
    mqttMaxPacketBytes: bytes(env, 'MQTT_MAX_PACKET_BYTES', 256 * 1024),
    mqttDynsec: mqttDynsec(env),
    instanceId: instanceId(env),
    internalUrl: internalUrl(env, port),
    telemetryRetention: telemetryRetention(env),
  };
}

type PublicUrlConfig = Pick<Config, 'publicScheme' | 'publicPort' | 'baseDomain'>;

/** The browser-facing origin of the product's base host: `{scheme}://{BASE_DOMAIN}[:port]`. */
export function baseOrigin(config: PublicUrlConfig, prefix = '') {
  const defaultPort = config.publicScheme === 'https' ? 443 : 80;
  const port = config.publicPort === defaultPort ? '' : `:${config.publicPort}`;
  return `${config.publicScheme}://${prefix}${config.baseDomain}${port}`;
}

/** The browser-facing origin of a realm: `{scheme}://{realm}.app.{BASE_DOMAIN}[:port]`. */
export function realmOrigin(config: PublicUrlConfig, realm: string) {
  return baseOrigin(config, `${realm}.app.`);
}

export function realmIssuer(config: PublicUrlConfig, realm: string) {
  return `${realmOrigin(config, realm)}/auth/realms/${realm}`;
}

/**
 * The browser-facing origin of one browser-access session: `{scheme}://{sessionId}.remote.{BASE_DOMAIN}[:port]`.
 * Each session gets its own origin so a machine's web page never runs script in the portal's origin (nor in another
 * session's); the remote-access proxy answers a session's `/remote/{sessionId}/...` only on this host.
 */
export function remoteOrigin(config: PublicUrlConfig, sessionId: string) {
  return baseOrigin(config, `${sessionId}.remote.`);
}
