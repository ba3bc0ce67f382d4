import { type AppAbility, buildAbility, parseRptRules } from '@edgeport/permissions';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/index.ts';
import type { TokenVerifier, VerifiedToken } from '../identity/verify.ts';
import { API_KEY_PREFIX, apiKeyPrincipal } from '../services/core/api-keys/authentication.ts';
import { forbidden, unauthorized } from './errors.ts';

/** Who calls: the verified token, and — for an RPT — the organization it was issued for. */
export type Principal = {
  realm: string;
  userId: string;
  token: VerifiedToken['payload'];
  organizationId: string | undefined;
  /** Set when the caller authenticated with a personal API key instead of a token. */
  apiKeyId?: string;
};

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

const REALM_HOST = /^([a-z0-9][a-z0-9-]*)\.app\./;

/** The realm named by the host (`acme.app.example.com` -> `acme`), if the request came that way. */
export function realmOfHost(host: string | undefined): string | undefined {
  return REALM_HOST.exec(host ?? '')?.[1];
}

export function organizationOfScope(scope: unknown): string | undefined {
  if (typeof scope !== 'string') return undefined;
  return /(?:^|\s)org:(\S+)/.exec(scope)?.[1];
}

/**
 * The caller of a service route: a bearer token of a realm, or a personal API key (`ep_…`), which acts like an RPT
 * of its owner in the key's organization with the permissions their roles give now.
 */
export async function authenticate(
  request: FastifyRequest,
  verifyToken: TokenVerifier,
  db: Db,
): Promise<Principal> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) throw unauthorized();
  return principalOfCredential(header.slice(7).trim(), request.headers.host, verifyToken, db);
}

/** The caller a bearer credential (token or API key) stands for; `host` names the realm where the host does. */
export async function principalOfCredential(
  credential: string,
  host: string | undefined,
  verifyToken: TokenVerifier,
  db: Db,
): Promise<Principal> {
  if (credential.startsWith(API_KEY_PREFIX)) {
    const principal = await apiKeyPrincipal(db, credential, realmOfHost(host));
    if (!principal) throw unauthorized('the API key is unknown, expired or no longer valid');
    return principal;
  }
  try {
    const verified = await verifyToken(credential, realmOfHost(host));
    return {
      realm: verified.realm,
      userId: verified.subject,
      token: verified.payload,
      organizationId: organizationOfScope(verified.payload.scope),
    };
  } catch (error) {
    throw unauthorized(error instanceof Error ? error.message : 'invalid token');
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized();
  return request.principal;
}

/**
 * The ability inside one organization. Only an RPT issued for exactly that organization carries permissions there;
 * anything else (another organization's RPT, a plain login token) is refused.
 */
export function abilityIn(
  principal: Principal,
  org: { id: string; iotEnabled: boolean; vpnEnabled: boolean },
): AppAbility {
  if (principal.organizationId !== org.id) throw forbidden('the token was not issued for this organization');
  const authorization = principal.token.authorization as { permissions?: unknown } | undefined;
  return buildAbility(parseRptRules(authorization?.permissions ?? []), {
    iot: org.iotEnabled,
    vpn: org.vpnEnabled,
  });
}
