import type { core } from '@edgeport/contract';
import type { Action } from '@edgeport/permissions';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, forbidden, notFound, unauthorized } from '../../../http/errors.ts';
import { abilityIn, type Principal } from '../../../http/principal.ts';
import { findAccount } from '../../../identity/accounts.ts';
import { recordAudit } from '../../audit/service.ts';
import { findOrganization } from '../organizations/store.ts';
import { API_KEY_SHOWN_PREFIX_LENGTH, hashApiKey, newApiKeySecret } from './authentication.ts';
import * as store from './store.ts';

/** More keys than this per person and organization is a leak waiting to happen. */
export const MAX_KEYS_PER_USER = 50;

function toApiKey(row: store.ListedApiKey): core.ApiKey {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    username: row.username,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/**
 * The organization, entered with a token issued for it (else 403; unknown 404). Keys are personal: managing one's own
 * needs no further permission, another member's needs `othersNeed` on users.
 */
async function enter(db: Db, principal: Principal, ref: string) {
  const org = await findOrganization(db, principal.realm, ref);
  if (!org) throw notFound(`organization '${ref}' not found`);
  const ability = abilityIn(principal, org);
  const me = await findAccount(db, principal.realm, principal.userId);
  if (!me) throw unauthorized('the account no longer exists');
  return { org, ability, me };
}

async function owner(
  db: Db,
  principal: Principal,
  ref: string,
  username: string | undefined,
  othersNeed: Action,
) {
  const { org, ability, me } = await enter(db, principal, ref);
  const email = username?.trim().toLowerCase();
  if (email === undefined || email === me.email) return { org, user: { id: me.id, email: me.email } };
  if (!ability.can(othersNeed, 'users')) {
    throw forbidden(`${othersNeed} on users is needed for another member's API keys`);
  }
  const user = await store.memberByEmail(db, org.id, email);
  if (!user) throw notFound(`username: '${email}' is not a member of this organization`);
  return { org, user };
}

export async function listKeys(db: Db, principal: Principal, ref: string, query: core.ApiKeysQuery) {
  const { org, user } = await owner(db, principal, ref, query.username, 'READ');
  return (await store.keysOf(db, org.id, user.id)).map(toApiKey);
}

/** A new key; its secret (`ep_` + 32 random bytes) is answered once and stored only as a SHA-256 hash. */
export async function createKey(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.ApiKeyCreate,
): Promise<core.CreatedApiKey> {
  if (principal.apiKeyId) throw forbidden('an API key cannot create API keys; sign in to create one');
  const { org, user } = await owner(db, principal, ref, input.username, 'UPDATE');
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw badRequest('expiresAt must be in the future');
  if ((await store.countKeys(db, org.id, user.id)) >= MAX_KEYS_PER_USER) {
    throw conflict(`${user.email} already has ${MAX_KEYS_PER_USER} API keys here; delete unused ones first`);
  }
  const secret = newApiKeySecret();
  const row = await store.insertKey(db, {
    userId: user.id,
    organizationId: org.id,
    name: input.name.trim(),
    prefix: secret.slice(0, API_KEY_SHOWN_PREFIX_LENGTH),
    secretHash: hashApiKey(secret),
    expiresAt,
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'apiKeys.create',
    resourceType: 'apiKeys',
    resourceId: row.id,
    resourceName: row.name,
    detail: { username: user.email, prefix: row.prefix, expiresAt: expiresAt?.toISOString() ?? null },
  });
  return {
    ...toApiKey({ ...row, username: user.email }),
    secret,
  };
}

export async function deleteKey(db: Db, principal: Principal, ref: string, id: string): Promise<void> {
  const { org, ability, me } = await enter(db, principal, ref);
  const key = await store.findKey(db, org.id, id);
  if (!key) throw notFound(`API key '${id}' not found`);
  if (key.userId !== me.id && !ability.can('UPDATE', 'users')) {
    throw forbidden("UPDATE on users is needed to delete another member's API key");
  }
  await store.deleteKey(db, org.id, key.id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'apiKeys.delete',
    resourceType: 'apiKeys',
    resourceId: key.id,
    resourceName: key.name,
    detail: { username: key.username, prefix: key.prefix },
  });
}
