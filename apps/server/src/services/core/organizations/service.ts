import type { core } from '@edgeport/contract';
import type { Action, ResourceType } from '@edgeport/permissions';
import { type Config, realmOrigin } from '../../../config.ts';
import type { Db } from '../../../db/index.ts';
import { forbidden, notFound } from '../../../http/errors.ts';
import { abilityIn, type Principal, realmOfHost } from '../../../http/principal.ts';
import { findAccount } from '../../../identity/accounts.ts';
import { recordAudit } from '../../audit/service.ts';
import * as store from './store.ts';

export function toOrganization(row: store.OrganizationRow): core.Organization {
  return {
    id: row.id,
    resourceId: row.resourceId,
    name: row.name,
    parentId: row.parentId,
    iotEnabled: row.iotEnabled,
    vpnEnabled: row.vpnEnabled,
    dealer: row.dealer,
    hasOwnResources: row.hasOwnResources,
  };
}

/**
 * The organization a call is about, once the caller is known to hold `action` on `resource` there.
 * Unknown and foreign organizations answer the same 404, so ids of other tenants cannot be probed.
 */
export async function authorizeInOrganization(
  db: Db,
  principal: Principal,
  ref: string,
  action: Action,
  resource: ResourceType,
): Promise<store.OrganizationRow> {
  const org = await store.findOrganization(db, principal.realm, ref);
  if (!org) throw notFound(`organization '${ref}' not found`);
  const ability = abilityIn(principal, org);
  if (!ability.can(action, resource))
    throw forbidden(`${action} on ${resource} is not granted in this organization`);
  return org;
}

/**
 * Like `authorizeInOrganization`, for what only the realm's operator may do (the status feed, free licence keys):
 * the caller's token must be for the organization that owns the realm and grant `action` on `resource` there.
 * A self-onboarded tenant sharing the realm gets 403 whatever its own roles say.
 */
export async function authorizeAsRealmOperator(
  db: Db,
  principal: Principal,
  action: Action,
  resource: ResourceType,
): Promise<store.OrganizationRow> {
  const ownerId = await store.realmOwnerId(db, principal.realm);
  if (!ownerId || principal.organizationId !== ownerId) {
    throw forbidden(`only the operator of realm '${principal.realm}' may do this`);
  }
  return authorizeInOrganization(db, principal, ownerId, action, resource);
}

/** Organizations the caller belongs to, with their sub-organizations (the selector's tree). */
export async function myOrganizations(db: Db, principal: Principal): Promise<core.Organization[]> {
  const seen = new Map<string, store.OrganizationRow>();
  let level = await store.organizationsOfMember(db, principal.realm, principal.userId);
  while (level.length > 0) {
    const fresh = level.filter((row) => !seen.has(row.id));
    for (const row of fresh) seen.set(row.id, row);
    level = await store.childOrganizations(
      db,
      fresh.map((row) => row.id),
    );
  }
  return [...seen.values()].map(toOrganization);
}

export async function getOrganization(db: Db, principal: Principal, ref: string) {
  return toOrganization(await authorizeInOrganization(db, principal, ref, 'READ', 'organizations'));
}

export async function changeOrganization(
  db: Db,
  principal: Principal,
  ref: string,
  changes: core.OrganizationUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const updated = await store.updateOrganization(db, org.id, changes);
  if (!updated) throw notFound(`organization '${ref}' not found`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'organizations.update',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: updated.name,
    detail: { changes, before: { name: org.name, iotEnabled: org.iotEnabled, vpnEnabled: org.vpnEnabled } },
  });
  return toOrganization(updated);
}

/** Realms in which the caller's email has an account, with the address to sign in there. */
export async function myRealms(db: Db, config: Config, principal: Principal): Promise<core.RealmEntry[]> {
  const account = await findAccount(db, principal.realm, principal.userId);
  if (!account) return [];
  const rows = await store.realmsWithEmail(db, account.email);
  return rows.map((row) => ({ ...row, url: realmOrigin(config, row.name) }));
}

/** What the login needs to know about a host name: the realm it names, if that realm exists. */
export async function loginInfo(db: Db, hostname: string): Promise<core.LoginInfo> {
  const name = realmOfHost(hostname);
  const realm = name ? await store.findRealm(db, name) : undefined;
  if (!realm) throw notFound(`no realm for host '${hostname}'`);
  return { realm: realm.name, displayName: realm.displayName };
}
