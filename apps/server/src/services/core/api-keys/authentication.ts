import { createHash, randomBytes } from 'node:crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Db } from '../../../db/index.ts';
import { apiKeys, organizations, users } from '../../../db/schema.ts';
import type { Principal } from '../../../http/principal.ts';
import { effectivePermissions, organizationScope } from '../../../identity/rpt.ts';

/** Every API key starts with this, so a bearer credential tells at once whether it is a key or a JWT. */
export const API_KEY_PREFIX = 'ep_';
/** How many characters of a key are kept in clear to recognise it in lists. */
export const API_KEY_SHOWN_PREFIX_LENGTH = 10;
const LAST_USED_RESOLUTION_MS = 60_000;

export function newApiKeySecret(): string {
  return `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export function hashApiKey(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * The principal an API key stands for: its owner, inside the key's organization, holding exactly what the owner's
 * roles give there now (the same computation as the RPT). Unknown, expired keys, disabled owners and owners who left
 * the organization get undefined.
 */
export async function apiKeyPrincipal(
  db: Db,
  secret: string,
  expectedRealm: string | undefined,
): Promise<Principal | undefined> {
  if (secret.length > 200) return undefined;
  const [row] = await db
    .select({ key: apiKeys, user: users, org: organizations })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(eq(apiKeys.secretHash, hashApiKey(secret)));
  if (!row) return undefined;
  const { key, user, org } = row;
  if (key.expiresAt && key.expiresAt.getTime() <= Date.now()) return undefined;
  if (!user.enabled || user.realm !== org.realm) return undefined;
  if (expectedRealm && expectedRealm !== user.realm) return undefined;
  const granted = await effectivePermissions(db, user.id, org);
  if (!granted.member) return undefined;
  await db
    .update(apiKeys)
    .set({ lastUsedAt: new Date() })
    .where(
      and(
        eq(apiKeys.id, key.id),
        or(
          isNull(apiKeys.lastUsedAt),
          lt(apiKeys.lastUsedAt, new Date(Date.now() - LAST_USED_RESOLUTION_MS)),
        ),
      ),
    );
  return {
    realm: user.realm,
    userId: user.id,
    organizationId: org.id,
    apiKeyId: key.id,
    token: {
      sub: user.id,
      azp: 'api-key',
      email: user.email,
      preferred_username: user.email,
      scope: organizationScope(org),
      authorization: {
        permissions: granted.permissions.map((entry) => ({ ...entry, resource_id: org.resourceId })),
      },
    },
  };
}
