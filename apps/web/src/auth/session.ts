import type Keycloak from 'keycloak-js';
import { strings } from '../strings.ts';
import {
  assertRealmExists,
  authServerUrl,
  createKeycloak,
  freshAccessToken,
  keepTokenFresh,
  signIn,
  tokenEndpoint,
  UnknownRealmError,
} from './keycloak.ts';
import { resolveRealm } from './realm.ts';
import { PermissionTokens } from './rpt.ts';

export type PortalSession = {
  realm: string;
  keycloak: Keycloak;
  permissionTokens: PermissionTokens;
  signOut: () => Promise<void>;
};

export type Startup = { kind: 'ready'; session: PortalSession } | { kind: 'fatal'; message: string };

/** Resolves the realm, signs in and starts the token upkeep; anything that stops the portal is a fatal error. */
export async function startSession(
  location: Pick<Location, 'hostname' | 'origin'>,
  cookie: string,
): Promise<Startup> {
  const realm = resolveRealm(location.hostname, cookie);
  if (!realm) return { kind: 'fatal', message: strings.initError };
  const authUrl = authServerUrl(location.origin);
  try {
    await assertRealmExists(authUrl, realm);
    const keycloak = createKeycloak(realm, location.origin);
    await signIn(keycloak);
    const stopRefresh = keepTokenFresh(keycloak);
    const permissionTokens = new PermissionTokens({
      tokenEndpoint: tokenEndpoint(authUrl, realm),
      accessToken: () => freshAccessToken(keycloak),
    });
    const signOut = async () => {
      stopRefresh();
      permissionTokens.clear();
      await keycloak.logout({ redirectUri: `${location.origin}/` });
    };
    return {
      kind: 'ready',
      session: { realm, keycloak, permissionTokens, signOut },
    };
  } catch (error) {
    console.warn('identity initialisation failed', error);
    return {
      kind: 'fatal',
      message: error instanceof UnknownRealmError ? strings.unknownRealm(error.realm) : strings.initError,
    };
  }
}
