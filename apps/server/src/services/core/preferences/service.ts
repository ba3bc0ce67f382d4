import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { isUuid } from '../../../db/uuid.ts';
import { forbidden, notFound, unauthorized } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { findAccount } from '../../../identity/accounts.ts';
import * as store from './store.ts';

async function usernameOf(db: Db, principal: Principal): Promise<string> {
  const account = await findAccount(db, principal.realm, principal.userId);
  if (!account) throw unauthorized('the account no longer exists');
  return account.email;
}

function toPreference(row: store.PreferenceRow, username: string): core.UserPreference {
  return { id: row.id, username, serviceName: row.serviceName, property: row.property, value1: row.value1 };
}

export async function myPreferences(db: Db, principal: Principal) {
  const username = await usernameOf(db, principal);
  return (await store.preferencesOf(db, principal.userId)).map((row) => toPreference(row, username));
}

export async function savePreference(db: Db, principal: Principal, key: store.PreferenceKey, value1: string) {
  const username = await usernameOf(db, principal);
  return toPreference(await store.savePreference(db, principal.userId, key, value1), username);
}

export async function removePreference(db: Db, principal: Principal, id: string): Promise<void> {
  if (!isUuid(id) || !(await store.deletePreference(db, principal.userId, id))) {
    throw notFound(`preference '${id}' not found`);
  }
}

/** The `users/{user}/...` form: a person reads and writes only their own preferences. */
async function assertSelf(db: Db, principal: Principal, user: string): Promise<string> {
  const username = await usernameOf(db, principal);
  if (user.toLowerCase() !== username)
    throw forbidden("another user's preferences are not yours to read or change");
  return username;
}

export async function preferenceOfUser(db: Db, principal: Principal, user: string, key: store.PreferenceKey) {
  const username = await assertSelf(db, principal, user);
  const row = await store.findPreference(db, principal.userId, key);
  if (!row) throw notFound(`preference ${key.serviceName}/${key.property} not set`);
  return toPreference(row, username);
}

export async function setPreferenceOfUser(
  db: Db,
  principal: Principal,
  user: string,
  key: store.PreferenceKey,
  value1: string,
) {
  const username = await assertSelf(db, principal, user);
  return toPreference(await store.savePreference(db, principal.userId, key, value1), username);
}
