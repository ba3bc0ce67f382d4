import { createHash, randomBytes } from 'node:crypto';
import type { common, core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import * as store from './store.ts';

export function toClient(row: store.ClientRow): core.ServiceClient {
  return {
    id: row.id,
    clientId: row.id,
    organizationId: row.organizationId,
    name: row.name,
    hasSecret: row.secretHash !== null,
    secretCreatedAt: row.secretCreatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

async function clientOf(db: Db, organizationId: string, id: string) {
  const row = await store.findClient(db, organizationId, id);
  if (!row) throw notFound(`client '${id}' not found`);
  return row;
}

export async function listClients(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const page = await store.pageOfClients(db, org.id, query);
  return { ...page, items: page.items.map(toClient) };
}

/** A new service-account client without a secret yet (UPDATE organizations); 409 for a name in use. */
export async function createClient(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.ServiceClientCreate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const name = input.name.trim();
  if (!name) throw badRequest('name must not be blank');
  if (await store.nameTaken(db, org.id, name)) {
    throw conflict(`name: a client named '${name}' already exists in this organization`);
  }
  const row = await store.insertClient(db, org.id, name);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'clients.create',
    resourceType: 'clients',
    resourceId: row.id,
    resourceName: row.name,
  });
  return toClient(row);
}

export async function deleteClient(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const client = await clientOf(db, org.id, id);
  await store.deleteClient(db, org.id, id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'clients.delete',
    resourceType: 'clients',
    resourceId: client.id,
    resourceName: client.name,
  });
}

/** Whether the client has a secret and since when; never the secret (READ organizations). */
export async function secretInfo(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<core.ClientSecretInfo> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const client = await clientOf(db, org.id, id);
  return {
    clientId: client.id,
    hasSecret: client.secretHash !== null,
    createdAt: client.secretCreatedAt?.toISOString() ?? null,
  };
}

/** A new random secret replacing any earlier one: shown in this answer only, stored as a SHA-256 hash. */
export async function regenerateSecret(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<core.ClientSecret> {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const client = await clientOf(db, org.id, id);
  const secret = randomBytes(32).toString('base64url');
  const at = new Date();
  const updated = await store.setSecret(db, org.id, client.id, hashClientSecret(secret), at);
  if (!updated) throw notFound(`client '${id}' not found`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'clients.secret',
    resourceType: 'clients',
    resourceId: client.id,
    resourceName: client.name,
    detail: { replaced: client.secretHash !== null },
  });
  return { clientId: client.id, secret, createdAt: at.toISOString() };
}
