import {
  createRemoteJWKSet,
  decodeJwt,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import { PLATFORM_AUDIENCE } from './provider.ts';
import type { RealmRegistry } from './realms.ts';

export type VerifiedToken = { realm: string; subject: string; payload: JWTPayload & Record<string, unknown> };

export class TokenRejected extends Error {}

/**
 * Checks a bearer token: signed by a realm of this server (or of the external Keycloak), not expired, and an access
 * token (`typ` Bearer, as Keycloak checks): an ID or refresh token is no API credential.
 */
export type TokenVerifier = (token: string, expectedRealm?: string) => Promise<VerifiedToken>;

export function builtInTokenVerifier(realms: RealmRegistry): TokenVerifier {
  return async (token, expectedRealm) => {
    const issuer = unverifiedIssuer(token);
    const realmName = realms.realmOfIssuer(issuer);
    if (!realmName) throw new TokenRejected('token issuer is not a realm of this server');
    if (expectedRealm && realmName !== expectedRealm)
      throw new TokenRejected('token belongs to another realm');
    const realm = await realms.get(realmName);
    if (!realm) throw new TokenRejected('token realm does not exist');
    const verified = await verifyWith(token, realm.jwks, realm.issuer, realmName);
    // The portal's ID token is signed by the same key but addressed to the client, not to the services.
    const audience = verified.payload.aud;
    if (!(Array.isArray(audience) ? audience : [audience]).includes(PLATFORM_AUDIENCE))
      throw new TokenRejected('token is not an access token of the platform');
    return verified;
  };
}

/** `OIDC_ISSUER_URL` such as `https://id.example.com/realms/{realm}`: keys come from that Keycloak's JWKS. */
export function externalTokenVerifier(issuerTemplate: string): TokenVerifier {
  const keySets = new Map<string, JWTVerifyGetKey>();
  const [prefix = '', suffix = ''] = issuerTemplate.split('{realm}');
  return async (token, expectedRealm) => {
    const issuer = unverifiedIssuer(token);
    if (!issuer.startsWith(prefix) || !issuer.endsWith(suffix))
      throw new TokenRejected('unexpected token issuer');
    const realmName = issuer.slice(prefix.length, issuer.length - suffix.length);
    if (!/^[\w-]+$/.test(realmName)) throw new TokenRejected('unexpected token issuer');
    if (expectedRealm && realmName !== expectedRealm)
      throw new TokenRejected('token belongs to another realm');
    let keys = keySets.get(issuer);
    if (!keys) {
      keys = createRemoteJWKSet(new URL(`${issuer}/protocol/openid-connect/certs`));
      keySets.set(issuer, keys);
    }
    return verifyWith(token, keys, issuer, realmName);
  };
}

function unverifiedIssuer(token: string): string {
  try {
    const { iss } = decodeJwt(token);
    if (typeof iss !== 'string') throw new TokenRejected('token has no issuer');
    return iss;
  } catch (error) {
    if (error instanceof TokenRejected) throw error;
    throw new TokenRejected('token is not a JWT');
  }
}

async function verifyWith(
  token: string,
  keys: JWTVerifyGetKey,
  issuer: string,
  realm: string,
): Promise<VerifiedToken> {
  try {
    const { payload } = await jwtVerify(token, keys, { issuer, algorithms: ['RS256', 'ES256', 'PS256'] });
    if (typeof payload.sub !== 'string') throw new TokenRejected('token has no subject');
    // Keycloak: access tokens and RPTs carry typ Bearer, ID tokens ID, refresh tokens Refresh or Offline.
    if (typeof payload.typ !== 'string' || payload.typ.toLowerCase() !== 'bearer')
      throw new TokenRejected('token is not an access token');
    return { realm, subject: payload.sub, payload: payload as VerifiedToken['payload'] };
  } catch (error) {
    if (error instanceof TokenRejected) throw error;
    if (error instanceof errors.JWTExpired) throw new TokenRejected('token expired');
    throw new TokenRejected('token signature or claims are invalid');
  }
}
