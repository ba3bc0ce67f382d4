import { vpn } from '@edgeport/contract';
import { isUniqueViolation } from '../../../db/errors.ts';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import type { OrganizationRow } from '../../core/organizations/store.ts';
import { requireEndpoint, requireGateway, vpnOrganization } from '../gateways/access.ts';
import * as store from './store.ts';

export const PROFILES_RESOURCE = 'vpnActionProfiles';
export const ACTIONS_RESOURCE = 'vpnActions';
export const PREFERENCES_RESOURCE = 'vpnApplicationPreferences';

async function audit(
  db: Db,
  principal: Principal,
  org: OrganizationRow,
  resourceType: string,
  verb: string,
  subject: { id: string; name: string },
  detail: Record<string, unknown> = {},
) {
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `${resourceType}.${verb}`,
    resourceType,
    resourceId: subject.id,
    resourceName: subject.name,
    detail,
  });
}

function trimmedName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('body/name must not be blank');
  return trimmed;
}

/** Runs a write; a unique violation (a concurrent call took the name) answers 409 with `message`. */
async function uniquely<T>(message: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(message);
    throw error;
  }
}

// --- application profiles ---------------------------------------------------------------------------------------

export function toProfile(row: store.ProfileView): vpn.ActionProfile {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    otpRequired: row.otpRequired,
    actionCount: row.actionCount,
    gatewayCount: row.gatewayCount,
  };
}

export async function listProfiles(db: Db, principal: Principal, domain: string) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  return { items: (await store.listProfiles(db, org.id)).map(toProfile) };
}

export async function getProfile(db: Db, principal: Principal, domain: string, id: string) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const row = await store.findProfile(db, org.id, id);
  if (!row) throw notFound(`application profile '${id}' not found`);
  return toProfile(row);
}

/** Creates a profile (CREATE devices); a name the domain already has is 409. */
export async function createProfile(
  db: Db,
  principal: Principal,
  domain: string,
  input: vpn.ActionProfileInput,
): Promise<vpn.ActionProfile> {
  const org = await vpnOrganization(db, principal, domain, 'CREATE');
  const name = trimmedName(input.name);
  const taken = `name: an application profile named '${name}' exists`;
  if (await store.profileNamed(db, org.id, name)) throw conflict(taken);
  const row = await uniquely(taken, () =>
    store.insertProfile(db, org.id, {
      name,
      description: input.description ?? '',
      otpRequired: input.otpRequired ?? false,
    }),
  );
  await audit(db, principal, org, PROFILES_RESOURCE, 'create', row, { otpRequired: row.otpRequired });
  return toProfile({ ...row, actionCount: 0, gatewayCount: 0 });
}

/** Edits a profile (UPDATE devices): name (409 when taken), description, otpRequired. */
export async function editProfile(
  db: Db,
  principal: Principal,
  domain: string,
  id: string,
  input: vpn.ActionProfileInput,
): Promise<vpn.ActionProfile> {
  const org = await vpnOrganization(db, principal, domain, 'UPDATE');
  if (input.id !== undefined && input.id !== id) throw badRequest('body/id must be the id of the path');
  const before = await store.findProfile(db, org.id, id);
  if (!before) throw notFound(`application profile '${id}' not found`);
  const name = trimmedName(input.name);
  const taken = `name: an application profile named '${name}' exists`;
  const other = await store.profileNamed(db, org.id, name);
  if (other && other.id !== id) throw conflict(taken);
  const changes = {
    name,
    ...(input.description !== undefined && { description: input.description }),
    ...(input.otpRequired !== undefined && { otpRequired: input.otpRequired }),
  };
  await uniquely(taken, () => store.updateProfile(db, id, changes));
  await audit(db, principal, org, PROFILES_RESOURCE, 'update', before, {
    before: { name: before.name, description: before.description, otpRequired: before.otpRequired },
    after: changes,
  });
  const after = await store.findProfile(db, org.id, id);
  if (!after) throw notFound(`application profile '${id}' not found`);
  return toProfile(after);
}

/**
 * Deletes a profile (DELETE devices); refused (409 naming them) while gateways use it, since removing it would drop
 * their one-time-password rule. Its applications stay, without a profile.
 */
export async function deleteProfile(db: Db, principal: Principal, domain: string, id: string) {
  const org = await vpnOrganization(db, principal, domain, 'DELETE');
  const row = await store.findProfile(db, org.id, id);
  if (!row) throw notFound(`application profile '${id}' not found`);
  const users = await store.gatewaysUsingProfile(db, row.id);
  if (users.length > 0)
    throw conflict(
      `the application profile is used by the gateways ${users.map((name) => `'${name}'`).join(', ')}`,
    );
  await store.deleteProfile(db, row.id);
  await audit(db, principal, org, PROFILES_RESOURCE, 'delete', row, { actionCount: row.actionCount });
}

// --- applications (actions) ---------------------------------------------------------------------------------------

export function toAction(row: store.ActionRow): vpn.Action {
  return {
    id: row.id,
    name: row.name,
    profileId: row.profileId,
    protocol: row.protocol,
    port: row.port,
    path: row.path,
    clientOs: row.clientOs as vpn.Action['clientOs'],
    description: row.description,
  };
}

export async function listActions(db: Db, principal: Principal, domain: string) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  return { items: (await store.listActions(db, org.id)).map(toAction) };
}

export async function getAction(db: Db, principal: Principal, domain: string, id: string) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const row = await store.findAction(db, org.id, id);
  if (!row) throw notFound(`application '${id}' not found`);
  return toAction(row);
}

async function actionFields(
  db: Db,
  org: OrganizationRow,
  input: vpn.ActionInput,
): Promise<store.ActionFields> {
  const profileId = input.profileId ?? null;
  if (profileId !== null && !(await store.findProfile(db, org.id, profileId)))
    throw notFound(`body/profileId: application profile '${profileId}' not found`);
  return {
    name: trimmedName(input.name),
    profileId,
    protocol: input.protocol,
    port: input.port,
    path: input.protocol === 'TCP' ? '/' : (input.path ?? '/'),
    clientOs: input.clientOs ?? [],
    description: input.description ?? '',
  };
}

/** Creates an application (CREATE devices); a name the domain already has is 409. */
export async function createAction(db: Db, principal: Principal, domain: string, input: vpn.ActionInput) {
  const org = await vpnOrganization(db, principal, domain, 'CREATE');
  const fields = await actionFields(db, org, input);
  const taken = `name: an application named '${fields.name}' exists`;
  if (await store.actionNamed(db, org.id, fields.name)) throw conflict(taken);
  const row = await uniquely(taken, () => store.insertAction(db, org.id, fields));
  await audit(db, principal, org, ACTIONS_RESOURCE, 'create', row, {
    protocol: row.protocol,
    port: row.port,
    profileId: row.profileId,
  });
  return toAction(row);
}

/** Edits the application named by body.id (UPDATE devices). */
export async function editAction(db: Db, principal: Principal, domain: string, input: vpn.ActionInput) {
  const org = await vpnOrganization(db, principal, domain, 'UPDATE');
  if (input.id === undefined) throw badRequest('body/id is required to edit an application');
  const before = await store.findAction(db, org.id, input.id);
  if (!before) throw notFound(`application '${input.id}' not found`);
  const fields = await actionFields(db, org, input);
  const taken = `name: an application named '${fields.name}' exists`;
  const other = await store.actionNamed(db, org.id, fields.name);
  if (other && other.id !== before.id) throw conflict(taken);
  const row = await uniquely(taken, () => store.updateAction(db, before.id, fields));
  if (!row) throw notFound(`application '${input.id}' not found`);
  await audit(db, principal, org, ACTIONS_RESOURCE, 'update', row, {
    before: toAction(before),
    after: fields,
  });
  return toAction(row);
}

export async function deleteAction(db: Db, principal: Principal, domain: string, id: string) {
  const org = await vpnOrganization(db, principal, domain, 'DELETE');
  const row = await store.findAction(db, org.id, id);
  if (!row) throw notFound(`application '${id}' not found`);
  await store.deleteAction(db, row.id);
  await audit(db, principal, org, ACTIONS_RESOURCE, 'delete', row, {
    protocol: row.protocol,
    port: row.port,
  });
}

// --- application preferences (the caller's own shortcuts) ---------------------------------------------------------

function toPreference(row: store.PreferenceRow) {
  return {
    id: row.id,
    gateway: row.gatewayName,
    endpoint: row.endpointName,
    action: row.actionName,
    clientOs: row.clientOs,
    label: row.label,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The caller's shortcuts in the domain: of one gateway, or of all with x = 'all'; newest first (READ devices). */
export async function listPreferences(
  db: Db,
  principal: Principal,
  domain: string,
  x: string,
  query: { page?: number; pageSize?: number },
) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const gateway = x === 'all' ? undefined : await requireGateway(db, org.id, x);
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? vpn.APPLICATION_PREFERENCES_PAGE_SIZE;
  const result = await store.pageOfPreferences(
    db,
    { organizationId: org.id, userId: principal.userId },
    gateway?.name,
    { offset: page * pageSize, pageSize },
  );
  return { items: result.items.map(toPreference), total: result.total, page, pageSize };
}

/**
 * Saves a shortcut of the caller (READ devices): the gateway, its endpoint and the application must exist in the
 * domain (404 naming the missing one); at most vpn.APPLICATION_PREFERENCES_PAGE_SIZE per user and domain (409).
 */
export async function createPreference(
  db: Db,
  principal: Principal,
  params: {
    orgResourceId: string;
    gateway: string;
    endpoint: string;
    action: string;
    clientOs: string;
    label: string;
  },
) {
  const org = await vpnOrganization(db, principal, params.orgResourceId, 'READ');
  const gateway = await requireGateway(db, org.id, params.gateway);
  const endpoint = await requireEndpoint(db, gateway, params.endpoint);
  const action = await store.actionNamed(db, org.id, params.action);
  if (!action) throw notFound(`application '${params.action}' not found`);
  const owner = { organizationId: org.id, userId: principal.userId };
  if ((await store.countPreferences(db, owner)) >= vpn.APPLICATION_PREFERENCES_PAGE_SIZE)
    throw conflict(
      `at most ${vpn.APPLICATION_PREFERENCES_PAGE_SIZE} application shortcuts per user; delete some first`,
    );
  const row = await store.insertPreference(db, {
    ...owner,
    gatewayName: gateway.name,
    endpointName: endpoint.name,
    actionName: action.name,
    clientOs: params.clientOs,
    label: params.label.trim() || action.name,
  });
  await audit(
    db,
    principal,
    org,
    PREFERENCES_RESOURCE,
    'create',
    { id: row.id, name: row.label },
    {
      gateway: row.gatewayName,
      endpoint: row.endpointName,
      action: row.actionName,
    },
  );
  return toPreference(row);
}

/** Deletes one of the caller's shortcuts; another user's is 404 (READ devices). */
export async function deletePreference(db: Db, principal: Principal, domain: string, id: string) {
  const org = await vpnOrganization(db, principal, domain, 'READ');
  const row = await store.deleteOwnPreference(db, { organizationId: org.id, userId: principal.userId }, id);
  if (!row) throw notFound(`application preference '${id}' not found`);
  await audit(db, principal, org, PREFERENCES_RESOURCE, 'delete', { id: row.id, name: row.label });
}
