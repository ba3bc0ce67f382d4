import { createHash, randomBytes } from 'node:crypto';
import type { core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import type { StoredPermission } from '../../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { ancestry, effectivePermissions } from '../../../identity/rpt.ts';
import { recordAudit } from '../../audit/service.ts';
import * as adminStore from './admin-store.ts';
import { addDefaultRoles, addMember, createOrganization } from './provisioning.ts';
import { authorizeInOrganization, toOrganization } from './service.ts';
import * as store from './store.ts';

/** How long an import token can be used (spec 7 "POST /importToken"). */
export const IMPORT_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => work(tx as unknown as Db));
}

/**
 * A new top-level organization of the caller's realm, with the default roles; the caller becomes its member with
 * the Administrator role. Any signed-in user of the realm may do this (login token or permission token).
 */
export async function createTopLevelOrganization(
  db: Db,
  principal: Principal,
  input: core.OrganizationCreate,
): Promise<core.Organization> {
  const org = await inTransaction(db, async (tx) => {
    const row = await createOrganization(tx, {
      realm: principal.realm,
      name: input.name.trim(),
      iotEnabled: input.iotEnabled ?? true,
      vpnEnabled: input.vpnEnabled ?? true,
    });
    const roles = await addDefaultRoles(tx, row.id);
    await addMember(tx, row.id, principal.userId, [roles.administrator.id]);
    return row;
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'organizations.create',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail: { iotEnabled: org.iotEnabled, vpnEnabled: org.vpnEnabled, parentId: null },
  });
  return toOrganization(org);
}

/**
 * A sub-organization of `ref` (CREATE organizations there). The creator is not made a member: administrators of the
 * parent reach it through the INHERIT entries of their roles. IoT and VPN default to the parent's flags.
 */
export async function createSubOrganization(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.OrganizationCreate,
  options: { addDefaultRoles: boolean },
): Promise<core.Organization> {
  const parent = await authorizeInOrganization(db, principal, ref, 'CREATE', 'organizations');
  const depth = (await ancestry(db, parent)).length;
  if (depth >= adminStore.MAX_ORGANIZATION_DEPTH) {
    throw badRequest(`organizations nest at most ${adminStore.MAX_ORGANIZATION_DEPTH} levels deep`);
  }
  const org = await inTransaction(db, async (tx) => {
    const row = await createOrganization(tx, {
      realm: parent.realm,
      name: input.name.trim(),
      parentId: parent.id,
      iotEnabled: input.iotEnabled ?? parent.iotEnabled,
      vpnEnabled: input.vpnEnabled ?? parent.vpnEnabled,
    });
    if (options.addDefaultRoles) await addDefaultRoles(tx, row.id);
    return row;
  });
  await recordAudit(db, principal, {
    organizationId: parent.id,
    action: 'organizations.create',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail: {
      parentId: parent.id,
      iotEnabled: org.iotEnabled,
      vpnEnabled: org.vpnEnabled,
      addDefaultRoles: options.addDefaultRoles,
    },
  });
  return toOrganization(org);
}

/** The direct sub-organizations of `ref`, or with `recursive` every descendant (READ organizations). */
/** The ids of every organization below `organizationId` (for other areas: the deep user search). */
export async function descendantIds(db: Db, organizationId: string): Promise<string[]> {
  return (await adminStore.descendantsOf(db, organizationId)).map((row) => row.id);
}

export async function listSubOrganizations(
  db: Db,
  principal: Principal,
  ref: string,
  recursive: boolean,
): Promise<core.Organization[]> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const rows = recursive
    ? await adminStore.descendantsOf(db, org.id)
    : await adminStore.childrenOf(db, org.id);
  return rows.map(toOrganization);
}

/**
 * Deletes `ref` (DELETE organizations there, so with a permission token of that organization itself). Refused (409)
 * while it has sub-organizations or devices, and for the last top-level organization of a realm (a realm always
 * keeps one organization to sign in to). Roles, groups, memberships, policies, clients and keys go with it.
 */
export async function deleteOrganization(db: Db, principal: Principal, ref: string): Promise<void> {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'organizations');
  const children = await adminStore.countChildren(db, org.id);
  if (children > 0) {
    throw conflict(
      `organization '${org.name}' has ${children} sub-organization${children === 1 ? '' : 's'}; delete or move ${children === 1 ? 'it' : 'them'} first`,
    );
  }
  const deviceCount = await adminStore.countDevices(db, org.id);
  if (deviceCount > 0) {
    throw conflict(
      `organization '${org.name}' has ${deviceCount} device${deviceCount === 1 ? '' : 's'}; move or delete ${deviceCount === 1 ? 'it' : 'them'} first`,
    );
  }
  if (org.parentId === null && (await adminStore.countTopLevel(db, org.realm)) <= 1) {
    throw conflict(`organization '${org.name}' is the last top-level organization of the realm`);
  }
  await adminStore.deleteOrganization(db, org.id);
  await recordAudit(db, principal, {
    organizationId: org.parentId ?? org.id,
    action: 'organizations.delete',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail: { parentId: org.parentId, resourceId: org.resourceId },
  });
}

export function hashImportToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A one-time token to move devices or organizations into `ref` (UPDATE organizations there); 24 hours. */
export async function createImportToken(
  db: Db,
  principal: Principal,
  ref: string,
): Promise<core.ImportToken> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const token = `eit_${randomBytes(32).toString('base64url')}`;
  const expiresAt = new Date(Date.now() + IMPORT_TOKEN_TTL_MS);
  await adminStore.insertImportToken(db, {
    tokenHash: hashImportToken(token),
    organizationId: org.id,
    createdBy: principal.userId,
    expiresAt,
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'organizations.importToken',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail: { expiresAt: expiresAt.toISOString() },
  });
  return { token, expiresAt: expiresAt.toISOString() };
}

/** Where an import token leads (any signed-in user of the same realm); unknown, expired and foreign: 404. */
export async function importTokenInfo(
  db: Db,
  principal: Principal,
  token: string,
): Promise<core.ImportTokenInfo> {
  const found = await adminStore.findImportToken(db, hashImportToken(token));
  if (!found || found.organization.realm !== principal.realm) {
    throw notFound('the import token is unknown or has expired');
  }
  return {
    organization: { id: found.organization.id, name: found.organization.name },
    expiresAt: found.expiresAt.toISOString(),
  };
}

/**
 * Uses an import token up inside `tx` and answers its organization. An unknown, expired, used or other-realm token
 * is a 400 naming the field; when the caller's transaction fails afterwards the token stays usable.
 */
export async function redeemImportToken(
  tx: Db,
  realm: string,
  token: string,
): Promise<store.OrganizationRow> {
  const invalid = () => badRequest('organizationImportToken is unknown, used or expired');
  const tokenHash = hashImportToken(token);
  const found = await adminStore.findImportToken(tx, tokenHash);
  if (!found || found.organization.realm !== realm) throw invalid();
  if (!(await adminStore.consumeImportToken(tx, tokenHash))) throw invalid();
  return found.organization;
}

/** Levels below `org` (0 for an organization without sub-organizations). */
function subtreeHeight(org: store.OrganizationRow, descendants: store.OrganizationRow[]): number {
  const depth = new Map([[org.id, 0]]);
  let height = 0;
  for (const row of descendants) {
    const level = (depth.get(row.parentId ?? '') ?? 0) + 1;
    depth.set(row.id, level);
    height = Math.max(height, level);
  }
  return height;
}

/**
 * Moves `ref` under the organization of the import token (DELETE organizations in `ref`: it leaves its place). The
 * target must be in the same realm and neither `ref` nor one of its descendants.
 */
export async function moveOrganization(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.MoveRequest,
): Promise<core.Organization> {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'organizations');
  const { moved, target } = await inTransaction(db, async (tx) => {
    const target = await redeemImportToken(tx, org.realm, input.organizationImportToken);
    const targetChain = await ancestry(tx, target);
    if (targetChain.some((row) => row.id === org.id)) {
      throw badRequest(
        target.id === org.id
          ? 'organizationImportToken leads to the organization itself'
          : 'organizationImportToken leads to a sub-organization of the organization to move',
      );
    }
    const height = subtreeHeight(org, await adminStore.descendantsOf(tx, org.id));
    if (targetChain.length + height >= adminStore.MAX_ORGANIZATION_DEPTH) {
      throw badRequest(`organizations nest at most ${adminStore.MAX_ORGANIZATION_DEPTH} levels deep`);
    }
    const moved = await adminStore.setParent(tx, org.id, target.id);
    if (!moved) throw notFound(`organization '${ref}' not found`);
    return { moved, target };
  });
  const event = {
    action: 'organizations.move',
    resourceType: 'organizations',
    resourceId: org.id,
    resourceName: org.name,
    detail: { fromParentId: org.parentId, toParentId: target.id, toParentName: target.name },
  };
  await recordAudit(db, principal, { ...event, organizationId: org.id });
  await recordAudit(db, principal, { ...event, organizationId: target.id });
  return toOrganization(moved);
}

function sameEntry(a: StoredPermission, b: StoredPermission): boolean {
  return (
    a.rsname === b.rsname &&
    Boolean(a.inverted) === Boolean(b.inverted) &&
    JSON.stringify(a.conditions ?? null) === JSON.stringify(b.conditions ?? null) &&
    JSON.stringify(a.fields ?? null) === JSON.stringify(b.fields ?? null)
  );
}

function grant(entry: StoredPermission, scopes: string[], inherited: boolean): core.OrganizationGrant {
  return {
    rsname: entry.rsname,
    scopes,
    inverted: Boolean(entry.inverted),
    ...(entry.conditions && { conditions: entry.conditions }),
    ...(entry.fields && { fields: entry.fields }),
    inherited,
  };
}

/**
 * What the caller is granted in `ref`: the entries their permission token there carries (`effectivePermissions`),
 * each marked whether it comes from the organization's own roles or is inherited from an ancestor (scopes of an
 * entry are split when both apply). Any signed-in token of the realm; an organization the caller cannot enter: 404.
 */
export async function organizationGrants(
  db: Db,
  principal: Principal,
  ref: string,
): Promise<core.OrganizationGrants> {
  const org = await store.findOrganization(db, principal.realm, ref);
  if (!org) throw notFound(`organization '${ref}' not found`);
  const effective = await effectivePermissions(db, principal.userId, org);
  if (!effective.member) throw notFound(`organization '${ref}' not found`);
  const { own, memberOfOrganization: member } = effective;
  const permissions: core.OrganizationGrant[] = [];
  for (const entry of effective.permissions) {
    const mine = own.find((candidate) => sameEntry(candidate, entry));
    const ownScopes = entry.scopes.filter((scope) => mine?.scopes.includes(scope));
    const inheritedScopes = entry.scopes.filter((scope) => !mine?.scopes.includes(scope));
    if (ownScopes.length > 0) permissions.push(grant(entry, ownScopes, false));
    if (inheritedScopes.length > 0) permissions.push(grant(entry, inheritedScopes, true));
  }
  return { organizationId: org.id, member, permissions };
}
