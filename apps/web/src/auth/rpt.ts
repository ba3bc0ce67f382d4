import { parseRptRules, type RptRule } from '@edgeport/permissions';
import { decodeJwt } from 'jose';

/** Keycloak's UMA grant: exchanges the login access token for a permission token (RPT). */
export const UMA_TICKET_GRANT = 'urn:ietf:params:oauth:grant-type:uma-ticket';
/** The resource server every service forms. */
export const PERMISSION_AUDIENCE = 'platform';
/** Spec 5/9: a permission token with less than this left is dropped and exchanged again. */
export const PERMISSION_TOKEN_REFRESH_MARGIN_MS = 30_000;
/** Spec 9: the default HTTP timeout. */
export const PERMISSION_TOKEN_TIMEOUT_MS = 30_000;

export const STANDARD_TOKEN_ERROR = 'Error retrieving standard token!!';
export const EXCHANGE_ERROR = 'Error exchanging token!!';

/** Spec 9: the scope of a token for one organization. */
export function organizationScope(organizationId: string): string {
  return `org:${organizationId} app:*`;
}

export type PermissionRequest = {
  /** The organization's resourceId, Keycloak's `permission` parameter. */
  permission: string;
  /** The organization's id, named in the scope. */
  organizationId: string;
};

export type PermissionToken = {
  token: string;
  permission: string;
  scope: string;
  /** Epoch milliseconds, from the clock at the time of the exchange plus `expires_in`. */
  expiresAt: number;
};

export type PermissionTokenOptions = {
  /** `{realm url}/protocol/openid-connect/token`. */
  tokenEndpoint: string;
  /** The login (standard) access token, refreshed if needed by the caller. */
  accessToken: () => Promise<string>;
  fetch?: typeof fetch;
  /** Epoch milliseconds; injectable for tests. */
  now?: () => number;
  timeoutMs?: number;
};

type TokenResponse = { access_token: string; expires_in: number };

function isTokenResponse(value: unknown): value is TokenResponse {
  if (typeof value !== 'object' || value === null) return false;
  const { access_token: token, expires_in: expiresIn } = value as Record<string, unknown>;
  return typeof token === 'string' && token !== '' && typeof expiresIn === 'number' && expiresIn > 0;
}

/**
 * Holds the permission token of the organization the user is in (spec 4): reused while valid and for the same
 * permission; dropped when the permission changes or under 30 s remain; can be forced to refresh. On failure the
 * token is cleared and the error rethrown.
 */
export class PermissionTokens {
  readonly #options: PermissionTokenOptions;
  readonly #now: () => number;
  readonly #fetch: typeof fetch;
  #current: PermissionToken | undefined;
  #pending: { permission: string; promise: Promise<PermissionToken> } | undefined;
  /** Bumped by every exchange and by clear(): a late answer of an older exchange never replaces a newer token. */
  #generation = 0;

  constructor(options: PermissionTokenOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
    this.#fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The held token, if it is still usable (more than the margin left). */
  get current(): PermissionToken | undefined {
    const current = this.#current;
    return current && this.#usable(current) ? current : undefined;
  }

  async get(request: PermissionRequest, options: { forceRefresh?: boolean } = {}): Promise<PermissionToken> {
    if (this.#current && this.#current.permission !== request.permission) this.#current = undefined;
    const current = this.#current;
    if (!options.forceRefresh && current && this.#usable(current)) return current;
    const pending = this.#pending;
    if (!options.forceRefresh && pending?.permission === request.permission) return pending.promise;

    const promise = this.#exchange(request);
    this.#pending = { permission: request.permission, promise };
    try {
      return await promise;
    } finally {
      if (this.#pending?.promise === promise) this.#pending = undefined;
    }
  }

  clear(): void {
    this.#generation += 1;
    this.#current = undefined;
    this.#pending = undefined;
  }

  #usable(token: PermissionToken): boolean {
    return token.expiresAt - this.#now() >= PERMISSION_TOKEN_REFRESH_MARGIN_MS;
  }

  async #exchange(request: PermissionRequest): Promise<PermissionToken> {
    this.#generation += 1;
    const generation = this.#generation;
    const latest = () => generation === this.#generation;
    let accessToken: string;
    try {
      accessToken = await this.#options.accessToken();
    } catch (cause) {
      if (latest()) this.#current = undefined;
      throw new Error(STANDARD_TOKEN_ERROR, { cause });
    }
    const scope = organizationScope(request.organizationId);
    try {
      const requestedAt = this.#now();
      const response = await this.#fetch(this.#options.tokenEndpoint, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({
          grant_type: UMA_TICKET_GRANT,
          audience: PERMISSION_AUDIENCE,
          permission: request.permission,
          scope,
        }).toString(),
        signal: AbortSignal.timeout(this.#options.timeoutMs ?? PERMISSION_TOKEN_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`token endpoint answered ${response.status}`);
      const body: unknown = await response.json();
      if (!isTokenResponse(body)) throw new Error('token endpoint answered without a token');
      const token: PermissionToken = {
        token: body.access_token,
        permission: request.permission,
        scope,
        expiresAt: requestedAt + body.expires_in * 1000,
      };
      if (latest()) this.#current = token;
      return token;
    } catch (cause) {
      if (latest()) this.#current = undefined;
      throw new Error(EXCHANGE_ERROR, { cause });
    }
  }
}

/** The permissions a permission token carries; a token that cannot be decoded carries none (spec 8). */
export function permissionsOf(token: string): RptRule[] {
  let payload: Record<string, unknown>;
  try {
    payload = decodeJwt(token);
  } catch {
    console.warn('cannot decode jwt token');
    return [];
  }
  const authorization = payload.authorization;
  if (typeof authorization !== 'object' || authorization === null) return [];
  return parseRptRules((authorization as Record<string, unknown>).permissions);
}
