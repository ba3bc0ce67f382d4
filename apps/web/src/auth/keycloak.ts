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

/** Spec 8: the login set-up names what its configuration lacks before keycloak-js is given it. */
export const REALM_MISSING = 'realm missing';
export const CLIENT_ID_MISSING = 'clientId missing';

export type LoginConfig = { url: string; realm: string; clientId: string };

/** keycloak-js's configuration for a realm of the identity server under `origin`; throws what is missing. */
export function loginConfig(
  realm: string | undefined,
  origin: string,
  clientId: string | undefined = WEB_PORTAL_CLIENT_ID,
): LoginConfig {
  if (!realm?.trim()) throw new Error(REALM_MISSING);
  if (!clientId?.trim()) throw new Error(CLIENT_ID_MISSING);
  return { url: authServerUrl(origin), realm, clientId };
}

export function createKeycloak(config: LoginConfig): Keycloak {
  return new Keycloak(config);
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

/** Spec 8: logged as a warning when a token is asked for without an identity session. */
export const NO_SESSION_WARNING = 'Cannot acquire token: are we logged in?';

/** The login access token, refreshed first if it is about to expire. */
export async function freshAccessToken(
  keycloak: Pick<Keycloak, 'authenticated' | 'token' | 'updateToken'>,
): Promise<string> {
  if (keycloak.authenticated) {
    await keycloak.updateToken(TOKEN_MIN_VALIDITY_SECONDS);
    if (keycloak.token) return keycloak.token;
  }
  console.warn(NO_SESSION_WARNING);
  throw new Error('Not authenticated');
}

/** Spec 8: the identity server answered the logout request with an error status. */
export const LOGOUT_FAILED = 'Logout failed, request returned an error code.';

/**
 * Ends the identity session with a POST to the logout endpoint, so an error status can be reported instead of
 * leaving the user on the identity server's error page. Keycloak ends the session and redirects: the browser goes
 * to `redirectUri`. A server that answers with a page instead (a logout confirmation that submits itself) ends the
 * session only once a browser shows that page, so the browser is sent there.
 */
export async function logOut(
  keycloak: Pick<Keycloak, 'createLogoutUrl' | 'idToken' | 'clientId' | 'logout'>,
  redirectUri: string,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  navigate: (url: string) => void = (url) => window.location.assign(url),
): Promise<void> {
  const form = new URLSearchParams({
    client_id: keycloak.clientId ?? '',
    post_logout_redirect_uri: redirectUri,
  });
  if (keycloak.idToken) form.set('id_token_hint', keycloak.idToken);
  const response = await fetchImpl(keycloak.createLogoutUrl({ redirectUri, logoutMethod: 'POST' }), {
    method: 'POST',
    body: form,
    credentials: 'include',
    redirect: 'manual',
  });
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    return navigate(redirectUri);
  }
  if (!response.ok) throw new Error(LOGOUT_FAILED);
  await keycloak.logout({ redirectUri });
}
