import type { common, mappings } from '@edgeport/contract';
import type { Action } from '@edgeport/permissions';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { ancestry } from '../../identity/rpt.ts';
import { recordAudit } from '../audit/service.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import type { OrganizationRow } from '../core/organizations/store.ts';
import * as store from './store.ts';
import { describeErrors, modelErrors, normalizedPath, samePaths } from './validation.ts';

/** Models (spec 7 "Mappings"): named trees of typed data paths, with versions, shared down to sub-organizations. */

export type Organization = OrganizationRow;

/** The organization, once `action` on models is granted there, and the ancestors it may see shared models of. */
export async function modelsScope(db: Db, principal: Principal, ref: string, action: Action) {
  const org = await authorizeInOrganization(db, principal, ref, action, 'models');
  return { org, scope: await scopeOf(db, org) };
}

export async function scopeOf(db: Db, org: Organization): Promise<store.Scope> {
  const chain = await ancestry(db, org);
  return { organizationId: org.id, ancestorIds: chain.slice(1).map((ancestor) => ancestor.id) };
}

function toModelFields(row: store.ModelRow, org: Organization) {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    description: row.description,
    subOrgsEnabledToView: row.subOrgsEnabledToView,
    currentVersion: row.currentVersion,
    inherited: row.organizationId !== org.id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function modelAnswer(
  db: Db,
  org: Organization,
  scope: store.Scope,
  id: string,
): Promise<mappings.Model> {
  const found = await store.findVisibleModel(db, scope, id);
  if (!found) throw notFound(`model '${id}' not found`);
  const version = await store.modelVersion(db, id, found.model.currentVersion);
  return { ...toModelFields(found.model, org), paths: version?.paths ?? [], presetCount: found.presetCount };
}

/** A model of this organization (not a shared one): shared models are changed where they belong. */
async function ownModel(db: Db, org: Organization, scope: store.Scope, id: string) {
  const found = await store.findVisibleModel(db, scope, id);
  if (!found) throw notFound(`model '${id}' not found`);
  if (found.model.organizationId !== org.id)
    throw forbidden(
      `model '${found.model.name}' is shared by a parent organization and can be changed only there`,
    );
  return found.model;
}

function checkedPaths(input: { name?: string; paths: mappings.ModelPath[] }) {
  const errors = modelErrors(input);
  if (errors.length > 0) throw badRequest(describeErrors(errors));
  return input.paths.map(normalizedPath);
}

export async function listModels(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const { org, scope } = await modelsScope(db, principal, ref, 'READ');
  const page = await store.pageOfModels(db, scope, query);
  return {
    ...page,
    items: page.items.map((row) => ({ ...toModelFields(row.model, org), pathCount: row.pathCount })),
  };
}

export async function listModelNames(
  db: Db,
  principal: Principal,
  ref: string,
): Promise<mappings.ModelNames> {
  const { org, scope } = await modelsScope(db, principal, ref, 'READ');
  const rows = await store.modelNames(db, scope);
  return rows.map((row) => ({ id: row.id, name: row.name, inherited: row.organizationId !== org.id }));
}

export async function getModel(db: Db, principal: Principal, ref: string, id: string) {
  const { org, scope } = await modelsScope(db, principal, ref, 'READ');
  return modelAnswer(db, org, scope, id);
}

export async function modelVersions(db: Db, principal: Principal, ref: string, id: string) {
  const { org, scope } = await modelsScope(db, principal, ref, 'READ');
  const model = await modelAnswer(db, org, scope, id);
  const rows = await store.versionsOf(db, id);
  return rows.map((row) => ({
    version: row.version,
    current: row.version === model.currentVersion,
    paths: row.paths,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
  }));
}

/** Checks a model body without storing anything (READ models): every problem, each with where it is. */
export async function validateModel(
  db: Db,
  principal: Principal,
  ref: string,
  draft: mappings.ModelDraft,
): Promise<mappings.ValidationResult> {
  await authorizeInOrganization(db, principal, ref, 'READ', 'models');
  const errors = modelErrors({ ...draft, name: draft.name });
  return { valid: errors.length === 0, errors };
}

export async function createModel(db: Db, principal: Principal, ref: string, input: mappings.ModelCreate) {
  const { org, scope } = await modelsScope(db, principal, ref, 'CREATE');
  const name = input.name.trim();
  const paths = checkedPaths({ name, paths: input.paths });
  const taken = () => conflict(`name: a model named '${name}' already exists in this organization`);
  if (await store.findModelByName(db, org.id, name)) throw taken();
  let row: store.ModelRow;
  try {
    row = await db.transaction(async (tx) =>
      store.insertModel(
        tx as unknown as Db,
        { organizationId: org.id, name, description: input.description ?? '' },
        paths,
        principal.userId,
      ),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'models.create',
    resourceType: 'models',
    resourceId: row.id,
    resourceName: row.name,
    detail: { version: 1, pathCount: paths.length },
  });
  return modelAnswer(db, org, scope, row.id);
}

/**
 * Changes a model (UPDATE models). New paths that differ from the current version's become a new version, made
 * current; presets keep the version they were made with. A rename or a new description makes no version.
 */
export async function updateModel(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: mappings.ModelUpdate,
) {
  const { org, scope } = await modelsScope(db, principal, ref, 'UPDATE');
  const before = await ownModel(db, org, scope, id);
  const name = input.name?.trim();
  const paths = input.paths ? checkedPaths({ name, paths: input.paths }) : undefined;
  if (name !== undefined && !paths && !name) throw badRequest('body/name: must not be blank');
  const taken = () => conflict(`name: a model named '${name}' already exists in this organization`);
  if (name !== undefined && name !== before.name) {
    const other = await store.findModelByName(db, org.id, name);
    if (other && other.id !== id) throw taken();
  }
  const current = await store.modelVersion(db, id, before.currentVersion);
  const changesPaths = paths !== undefined && !samePaths(paths, current?.paths ?? []);
  const changes: { name?: string; description?: string } = {};
  if (name !== undefined && name !== before.name) changes.name = name;
  if (input.description !== undefined && input.description !== before.description)
    changes.description = input.description;
  let version: number | undefined;
  try {
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      if (Object.keys(changes).length > 0 || changesPaths) await store.updateModel(tx, org.id, id, changes);
      if (changesPaths && paths) version = await store.addVersion(tx, id, paths, principal.userId);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  if (Object.keys(changes).length > 0 || version !== undefined) {
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'models.update',
      resourceType: 'models',
      resourceId: id,
      resourceName: changes.name ?? before.name,
      detail: {
        changes,
        before: { name: before.name, description: before.description, version: before.currentVersion },
        ...(version === undefined ? {} : { newVersion: version, pathCount: paths?.length ?? 0 }),
      },
    });
  }
  return modelAnswer(db, org, scope, id);
}

/** Deletes a model of the organization (DELETE models); refused (409) while presets bind to it. */
export async function deleteModel(db: Db, principal: Principal, ref: string, id: string) {
  const { org, scope } = await modelsScope(db, principal, ref, 'DELETE');
  const model = await ownModel(db, org, scope, id);
  const inUse = await store.presetCountOfModel(db, id);
  if (inUse > 0)
    throw conflict(
      `model '${model.name}' is used by ${inUse} preset${inUse === 1 ? '' : 's'}; delete ${inUse === 1 ? 'it' : 'them'} first`,
    );
  try {
    if (!(await store.deleteModel(db, org.id, id))) throw notFound(`model '${id}' not found`);
  } catch (error) {
    // A preset made meanwhile: the foreign key refuses (restrict).
    if (
      (error as { code?: unknown }).code === '23503' ||
      (error as { cause?: { code?: unknown } }).cause?.code === '23503'
    )
      throw conflict(`model '${model.name}' is used by a preset; delete it first`);
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'models.delete',
    resourceType: 'models',
    resourceId: id,
    resourceName: model.name,
    detail: { version: model.currentVersion },
  });
}

/** Paths of the organization's models (current versions, shared ones included) containing `query` (READ models). */
export async function searchPaths(db: Db, principal: Principal, ref: string, input: mappings.PathSearch) {
  const { scope } = await modelsScope(db, principal, ref, 'READ');
  return store.searchPaths(db, scope, {
    query: input.query,
    modelId: input.modelId,
    page: input.page ?? 0,
    pageSize: input.pageSize ?? 100,
  });
}

/**
 * The distinct paths of the current versions of the organization's own models containing `search`, for the core
 * service's catalogue of grantable paths; the caller has already checked its own permission in the organization.
 */
export async function modelPathsOfOrganization(db: Db, organizationId: string, search?: string) {
  return store.ownModelPaths(db, organizationId, search);
}

/** Shares a model of the organization (by name) with its sub-organizations, read-only, or stops sharing it. */
export async function setModelVisibility(
  db: Db,
  principal: Principal,
  ref: string,
  name: string,
  input: mappings.Visibility,
) {
  const { org, scope } = await modelsScope(db, principal, ref, 'UPDATE');
  const model = await store.findModelByName(db, org.id, name);
  if (!model) throw notFound(`no model named '${name}' in this organization`);
  if (model.subOrgsEnabledToView !== input.enabled) {
    await store.updateModel(db, org.id, model.id, { subOrgsEnabledToView: input.enabled });
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'models.share',
      resourceType: 'models',
      resourceId: model.id,
      resourceName: model.name,
      detail: { subOrgsEnabledToView: input.enabled },
    });
  }
  return modelAnswer(db, org, scope, model.id);
}
