import { notifications } from '@mantine/notifications';
import type Keycloak from 'keycloak-js';
import { i18n } from '../shared/i18n/i18n.ts';
import {
  assertRealmExists,
  authServerUrl,
  createKeycloak,
  freshAccessToken,
  keepTokenFresh,
  loginConfig,
  logOut,
  signIn,
  tokenEndpoint,
  UnknownRealmError,
} from './keycloak.ts';
import { lookupLoginInfo } from './login-info.ts';
import { baseHostUrl, resolveStartRealm } from './realm.ts';
import { rememberReturnTo, restoreReturnTo } from './return-to.ts';
import { PermissionTokens } from './rpt.ts';
import { clearSignedInState } from './storage.ts';

/** Spec 7: account actions the identity server runs (keycloak-js sends them as `kc_action`). */
export type AccountAction = 'UPDATE_PASSWORD' | 'CONFIGURE_TOTP';

export type SignedInUser = {
  /** The username the services know the user by (the email). */
  username: string;
  displayName: string;
};

export type PortalSession = {
  realm: string;
  keycloak: Keycloak;
  permissionTokens: PermissionTokens;
  user: SignedInUser;
  /** The identity session (`sid`); "once per session" checks key on it. */
  sessionId: string;
  /** The login access token, refreshed first when it is about to expire. */
  accessToken: () => Promise<string>;
  signOut: () => Promise<void>;
  startAccountAction: (action: AccountAction) => Promise<void>;
};

export type Startup =
  | { kind: 'ready'; session: PortalSession }
  | { kind: 'fatal'; message: string }
  /** The page is on its way elsewhere (base host); nothing is left to show. */
  | { kind: 'redirected' };

function claim(keycloak: Keycloak, name: string): string | undefined {
  const value: unknown = keycloak.tokenParsed?.[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function signedInUser(keycloak: Keycloak): SignedInUser {
  const username = claim(keycloak, 'email') ?? claim(keycloak, 'preferred_username') ?? '';
  return { username, displayName: claim(keycloak, 'name') ?? username };
}

/** The one redirect URI of the portal's client: the identity server always answers to the root. */
function portalRoot(location: Pick<Location, 'origin'>): string {
  return `${location.origin}/`;
}

function createSession(realm: string, keycloak: Keycloak, location: Pick<Location, 'origin'>): PortalSession {
  const authUrl = authServerUrl(location.origin);
  let stopRefresh = keepTokenFresh(keycloak);
  const accessToken = () => freshAccessToken(keycloak);
  const permissionTokens = new PermissionTokens({
    tokenEndpoint: tokenEndpoint(authUrl, realm),
    accessToken,
  });
  return {
    realm,
    keycloak,
    permissionTokens,
    user: signedInUser(keycloak),
    sessionId: keycloak.sessionId ?? claim(keycloak, 'sid') ?? '',
    accessToken,
    signOut: async () => {
      stopRefresh();
      permissionTokens.clear();
      clearSignedInState(window.localStorage);
      try {
        await logOut(keycloak, portalRoot(location));
      } catch (error) {
        // Still signed in with the identity server: the page goes on working until the user tries again.
        stopRefresh = keepTokenFresh(keycloak);
        console.warn('sign-out failed', error);
        notifications.show({
          id: 'sign-out-failed',
          color: 'red',
          title: i18n.t('user.signOut'),
          message: i18n.t('user.signOutFailed'),
        });
      }
    },
    startAccountAction: (action) => {
      rememberReturnTo(window.location.hash, window.sessionStorage);
      return keycloak.login({ action, redirectUri: portalRoot(location) });
    },
  };
}

/**
 * Spec 1/4/8: resolves the realm (host prefix checked with the server, else the realm cookie), signs in (required at
 * start) and starts the token upkeep. An unknown realm in the host name is announced and the browser sent to the
 * base host; anything else that stops the portal is the fatal initialisation error.
 */
export async function startSession(
  location: Pick<Location, 'hostname' | 'origin' | 'protocol' | 'port' | 'hash'>,
  cookie: string,
  returnTo: string = location.hash,
): Promise<Startup> {
  const initError = i18n.t('realm.initError');
  try {
    const resolution = await resolveStartRealm(location.hostname, cookie, lookupLoginInfo);
    if (resolution.kind === 'none') return { kind: 'fatal', message: initError };
    if (resolution.kind === 'unknown') {
      window.alert(i18n.t('realm.cannotNavigate', { name: resolution.name }));
      window.location.assign(baseHostUrl(location));
      return { kind: 'redirected' };
    }
    const { realm } = resolution;
    const config = loginConfig(realm, location.origin);
    // keycloak-js would send the browser to a login page that does not exist; say so here instead.
    await assertRealmExists(config.url, config.realm);
    const keycloak = createKeycloak(config);
    rememberReturnTo(returnTo, window.sessionStorage);
    await signIn(keycloak, portalRoot(location));
    restoreReturnTo(window.sessionStorage, window.history, window.location.hash);
    return { kind: 'ready', session: createSession(realm, keycloak, location) };
  } catch (error) {
    console.warn('identity initialisation failed', error);
    return {
      kind: 'fatal',
      message:
        error instanceof UnknownRealmError
          ? i18n.t('realm.cannotNavigate', { name: error.realm })
          : initError,
    };
  }
}

let started: Promise<Startup> | undefined;
let ready: PortalSession | undefined;

/**
 * The one session of this page, started on first use (public pages never start it). `returnTo` is the hash route
 * to come back to after the sign-in round trip, when it is not the address's current one (a navigation under way).
 */
export function ensureSession(returnTo?: string): Promise<Startup> {
  started ??= startSession(window.location, document.cookie, returnTo).then((startup) => {
    if (startup.kind === 'ready') ready = startup.session;
    return startup;
  });
  return started;
}

/** The session, once started; undefined on public pages and before sign-in. */
export function currentSession(): PortalSession | undefined {
  return ready;
}

/** The started session; only for code that runs behind the session guard. */
export async function requireReadySession(returnTo?: string): Promise<PortalSession> {
  const startup = await ensureSession(returnTo);
  if (startup.kind !== 'ready') throw new SessionUnavailableError(startup);
  return startup.session;
}

export class SessionUnavailableError extends Error {
  readonly startup: Exclude<Startup, { kind: 'ready' }>;
  constructor(startup: Exclude<Startup, { kind: 'ready' }>) {
    super(startup.kind === 'fatal' ? startup.message : 'redirected');
    this.startup = startup;
  }
}
