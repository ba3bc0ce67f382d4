import Keycloak, { type KeycloakInitOptions } from 'keycloak-js';

/** Spec 9: the portal's public client. */
export const WEB_PORTAL_CLIENT_ID = 'web-portal';
/** Spec 4/9: the login token is checked this often… */
export const TOKEN_CHECK_INTERVAL_MS = 60_000;
/** …and refreshed when fewer than this many seconds remain. */
export const TOKEN_MIN_VALIDITY_SECONDS = 70;

export const KEYCLOAK_INIT_OPTIONS = {
  onLoad: 'login-required',
  pkceMethod: 'S256',
  responseMode: 'fragment',
  checkLoginIframe: true,
} as const satisfies KeycloakInitOptions;

/** keycloak-js's `url`: the identity server lives under `/auth` on the portal's own origin. */
export function authServerUrl(origin: string): string {
  return `${origin}/auth`;
}

export function realmUrl(authUrl: string, realm: string): string {
  return `${authUrl}/realms/${encodeURIComponent(realm)}`;
}

export function tokenEndpoint(authUrl: string, realm: string): string {
  return `${realmUrl(authUrl, realm)}/protocol/openid-connect/token`;
}

export class UnknownRealmError extends Error {
  readonly realm: string;
  constructor(realm: string) {
    super(`realm ${realm} does not exist`);
    this.realm = realm;
  }
}

/**
 * keycloak-js would send the browser to the login page of a realm that does not exist, which answers with an error
 * document; asking the realm's discovery document first (Keycloak serves it too) lets the portal say so itself.
 */
export async function assertRealmExists(
  authUrl: string,
  realm: string,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<void> {
  const response = await fetchImpl(`${realmUrl(authUrl, realm)}/.well-known/openid-configuration`, {
    headers: { accept: 'application/json' },
  });
  if (response.status === 404) throw new UnknownRealmError(realm);
  if (!response.ok) throw new Error(`identity server answered ${response.status}`);
}

export function createKeycloak(realm: string, origin: string): Keycloak {
  return new Keycloak({ url: authServerUrl(origin), realm, clientId: WEB_PORTAL_CLIENT_ID });
}

/**
 * Signs in (redirecting to the login page when there is no session) and resolves once authenticated. When the
 * session ends elsewhere (the session frame reports a change), keycloak-js drops its tokens and the user is sent
 * back to the login page.
 */
export async function signIn(keycloak: Keycloak, redirectUri: string): Promise<void> {
  keycloak.onAuthLogout = () => {
    keycloak.login().catch((error: unknown) => console.warn('redirect to the login page failed', error));
  };
  const authenticated = await keycloak.init({ ...KEYCLOAK_INIT_OPTIONS, redirectUri });
  if (!authenticated) throw new Error('Not authenticated');
}

type Timers = {
  setInterval: (callback: () => void, ms: number) => ReturnType<typeof setInterval>;
  clearInterval: (id: ReturnType<typeof setInterval>) => void;
};

/** Spec 4: check the login token every 60 s, refresh it when under 70 s remain; failures are only logged. */
export function keepTokenFresh(
  keycloak: Pick<Keycloak, 'updateToken'>,
  timers: Timers = {
    setInterval: (callback, ms) => setInterval(callback, ms),
    clearInterval: (id) => clearInterval(id),
  },
): () => void {
  const id = timers.setInterval(() => {
    keycloak.updateToken(TOKEN_MIN_VALIDITY_SECONDS).catch((error: unknown) => {
      console.warn('token refresh failed', error);
    });
  }, TOKEN_CHECK_INTERVAL_MS);
  return () => timers.clearInterval(id);
}

/** The login access token, refreshed first if it is about to expire. */
export async function freshAccessToken(keycloak: Keycloak): Promise<string> {
  if (!keycloak.authenticated) throw new Error('Not authenticated');
  await keycloak.updateToken(TOKEN_MIN_VALIDITY_SECONDS);
  const token = keycloak.token;
  if (!token) throw new Error('Not authenticated');
  return token;
}
