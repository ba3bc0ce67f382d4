import { setImmediate as nextTurn } from 'node:timers/promises';
import type { common, mappings } from '@edgeport/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import type { PresetMapping } from '../../db/schema.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { recordAudit } from '../audit/service.ts';
import { modelsScope, type Organization } from './service.ts';
import * as store from './store.ts';
import { describeErrors, MappingChecker, mappingErrors, type ValidationError } from './validation.ts';

/** Presets (spec 7 "Mappings"): a device's data tags bound to the paths of one model version. */

/** Spec 9: preset creation may take up to 300 s; a job still RUNNING after that was interrupted. */
export const PRESET_TIMEOUT_MS = 300_000;

function toPresetFields(
  row: { preset: store.PresetRow; modelName: string; deviceCount: number },
  org: Organization,
) {
  const { preset } = row;
  return {
    id: preset.id,
    organizationId: preset.organizationId,
    name: preset.name,
    modelId: preset.modelId,
    modelName: row.modelName,
    modelVersion: preset.modelVersion,
    subOrgsEnabledToView: preset.subOrgsEnabledToView,
    inherited: preset.organizationId !== org.id,
    deviceCount: row.deviceCount,
    createdAt: preset.createdAt.toISOString(),
  };
}

async function presetAnswer(
  db: Db,
  org: Organization,
  scope: store.Scope,
  id: string,
): Promise<mappings.Preset> {
  const row = await store.findVisiblePreset(db, scope, id);
  if (!row) throw notFound(`preset '${id}' not found`);
  return {
    ...toPresetFields(row, org),
    mappings: row.preset.mappings,
    deviceConfiguration: row.preset.deviceConfiguration,
  };
}

async function ownPreset(db: Db, org: Organization, scope: store.Scope, id: string) {
  const row = await store.findVisiblePreset(db, scope, id);
  if (!row) throw notFound(`preset '${id}' not found`);
  if (row.preset.organizationId !== org.id)
    throw forbidden(
      `preset '${row.preset.name}' is shared by a parent organization and can be changed only there`,
    );
  return row.preset;
}

export async function listPresets(
  db: Db,
  principal: Principal,
  ref: string,
  query: common.PageQuery & { modelId?: string },
) {
  const { org, scope } = await modelsScope(db, principal, ref, 'READ');
  const page = await store.pageOfPresets(db, scope, query);
  return {
    ...page,
    items: page.items.map((row) => ({ ...toPresetFields(row, org), mappingCount: row.mappingCount })),
  };
}

export async function getPreset(db: Db, principal: Principal, ref: string, id: string) {
  const { org, scope } = await modelsScope(db, principal, ref, 'READ');
  return presetAnswer(db, org, scope, id);
}

/** What a preset is made of before its mappings are checked: a free name and a model version the org can see. */
type PresetPlan = {
  org: Organization;
  scope: store.Scope;
  name: string;
  modelId: string;
  modelVersion: number;
  paths: store.ModelVersionRow['paths'];
  deviceConfiguration: Record<string, unknown>;
};

async function planPreset(db: Db, principal: Principal, ref: string, input: mappings.PresetCreate) {
  const { org, scope } = await modelsScope(db, principal, ref, 'CREATE');
  const name = input.name.trim();
  if (!name) throw badRequest('body/name: must not be blank');
  const model = await store.findVisibleModel(db, scope, input.modelId);
  if (!model) throw notFound(`modelId: model '${input.modelId}' not found`);
  const modelVersion = input.modelVersion ?? model.model.currentVersion;
  const version = await store.modelVersion(db, model.model.id, modelVersion);
  if (!version)
    throw badRequest(`body/modelVersion: model '${model.model.name}' has no version ${modelVersion}`);
  if (await store.findPresetByName(db, org.id, name)) throw nameTaken(name);
  return {
    org,
    scope,
    name,
    modelId: model.model.id,
    modelVersion,
    paths: version.paths,
    deviceConfiguration: input.deviceConfiguration ?? {},
  } satisfies PresetPlan;
}

const nameTaken = (name: string) =>
  conflict(`name: a preset named '${name}' already exists in this organization`);

async function storePreset(
  db: Db,
  principal: Principal,
  plan: PresetPlan,
  stored: PresetMapping[],
  jobId?: string,
) {
  let row: store.PresetRow;
  try {
    row = await store.insertPreset(db, {
      organizationId: plan.org.id,
      name: plan.name,
      modelId: plan.modelId,
      modelVersion: plan.modelVersion,
      mappings: stored,
      deviceConfiguration: plan.deviceConfiguration,
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(plan.name);
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: plan.org.id,
    action: 'presets.create',
    resourceType: 'models',
    resourceId: row.id,
    resourceName: row.name,
    detail: {
      modelId: plan.modelId,
      modelVersion: plan.modelVersion,
      mappingCount: stored.length,
      ...(jobId ? { jobId } : {}),
    },
  });
  return row;
}

/** Creates a preset at once (CREATE models): every mapping is checked against the model version's paths. */
export async function createPreset(db: Db, principal: Principal, ref: string, input: mappings.PresetCreate) {
  const plan = await planPreset(db, principal, ref, input);
  const { errors, stored } = mappingErrors(input.mappings, plan.paths);
  if (errors.length > 0) throw badRequest(describeErrors(errors));
  const row = await storePreset(db, principal, plan, stored);
  return presetAnswer(db, plan.org, plan.scope, row.id);
}

/**
 * Checks mappings one by one, telling `onProgress` the share done (0..1) every `step` mappings and letting other
 * work run in between, so a large preset neither blocks the server nor leaves its caller without news.
 */
export async function checkMappingsStepwise(
  input: readonly mappings.PresetMapping[],
  paths: store.ModelVersionRow['paths'],
  onProgress: (share: number) => Promise<void>,
  step = Math.max(1, Math.ceil(input.length / 20)),
): Promise<{ errors: ValidationError[]; stored: PresetMapping[] }> {
  const checker = new MappingChecker(paths);
  const errors: ValidationError[] = [];
  const stored: PresetMapping[] = [];
  for (const [index, mapping] of input.entries()) {
    const result = checker.check(mapping, index);
    errors.push(...result.errors);
    if (result.stored) stored.push(result.stored);
    if ((index + 1) % step === 0 && index + 1 < input.length) {
      await onProgress((index + 1) / input.length);
      await nextTurn();
    }
  }
  return { errors, stored };
}

/** Jobs this process runs now (a RUNNING row not among them and older than the time-out was interrupted). */
const runningHere = new Set<string>();

export type JobLog = { error(detail: object, message: string): void };

/**
 * Starts creating a preset in the background (CREATE models) and answers the job's id at once. The caller polls
 * `/presets/async/{id}`: progress goes 0..90 while mappings are checked and 100 once the preset is stored; a
 * problem ends the job FAILED with the error. Permission, model and name are checked before the job exists.
 */
export async function startPresetJob(
  db: Db,
  principal: Principal,
  ref: string,
  input: mappings.PresetCreate,
  log: JobLog,
): Promise<{ id: string; done: Promise<void> }> {
  const plan = await planPreset(db, principal, ref, input);
  const job = await store.insertJob(db, plan.org.id);
  runningHere.add(job.id);
  const done = runPresetJob(db, principal, plan, input.mappings, job.id)
    .catch(async (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      try {
        await store.updateJob(db, job.id, { status: 'FAILED', error: message, finishedAt: new Date() });
      } catch (inner) {
        log.error({ err: inner, jobId: job.id }, 'preset job: could not record the failure');
      }
    })
    .finally(() => runningHere.delete(job.id));
  return { id: job.id, done };
}

async function runPresetJob(
  db: Db,
  principal: Principal,
  plan: PresetPlan,
  input: readonly mappings.PresetMapping[],
  jobId: string,
) {
  let reported = 0;
  const { errors, stored } = await checkMappingsStepwise(input, plan.paths, async (share) => {
    const progress = Math.min(90, Math.floor(share * 90));
    if (progress > reported) {
      reported = progress;
      await store.updateJob(db, jobId, { progress });
    }
  });
  if (errors.length > 0) throw badRequest(describeErrors(errors));
  await store.updateJob(db, jobId, { progress: 90 });
  const row = await storePreset(db, principal, plan, stored, jobId);
  await store.updateJob(db, jobId, {
    status: 'DONE',
    progress: 100,
    presetId: row.id,
    finishedAt: new Date(),
  });
}

function toJob(row: store.PresetJobRow): mappings.PresetJob {
  return {
    id: row.id,
    status: row.status,
    progress: row.progress,
    presetId: row.presetId,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

export async function getPresetJob(db: Db, principal: Principal, ref: string, id: string, now = Date.now()) {
  const { org } = await modelsScope(db, principal, ref, 'READ');
  let row = await store.findJob(db, org.id, id);
  if (!row) throw notFound(`preset job '${id}' not found`);
  if (
    row.status === 'RUNNING' &&
    !runningHere.has(row.id) &&
    now - row.createdAt.getTime() > PRESET_TIMEOUT_MS
  ) {
    row =
      (await store.updateJob(db, row.id, {
        status: 'FAILED',
        error: 'preset creation was interrupted (no result after 300 s)',
        finishedAt: new Date(now),
      })) ?? row;
  }
  return toJob(row);
}

/** Deletes a preset of the organization (DELETE models); refused (409) while devices use it. */
export async function deletePreset(db: Db, principal: Principal, ref: string, id: string) {
  const { org, scope } = await modelsScope(db, principal, ref, 'DELETE');
  const preset = await ownPreset(db, org, scope, id);
  const inUse = await store.deviceCountOfPreset(db, id);
  if (inUse > 0)
    throw conflict(
      `preset '${preset.name}' is used by ${inUse} device${inUse === 1 ? '' : 's'}; give ${inUse === 1 ? 'it' : 'them'} another preset first`,
    );
  if (!(await store.deletePreset(db, org.id, id))) throw notFound(`preset '${id}' not found`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'presets.delete',
    resourceType: 'models',
    resourceId: id,
    resourceName: preset.name,
    detail: { modelId: preset.modelId, modelVersion: preset.modelVersion },
  });
}

/** Shares a preset of the organization with its sub-organizations (usable, read-only there), or stops sharing it. */
export async function setPresetVisibility(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: mappings.Visibility,
) {
  const { org, scope } = await modelsScope(db, principal, ref, 'UPDATE');
  const preset = await ownPreset(db, org, scope, id);
  if (preset.subOrgsEnabledToView !== input.enabled) {
    await store.setPresetVisibility(db, org.id, id, input.enabled);
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'presets.share',
      resourceType: 'models',
      resourceId: id,
      resourceName: preset.name,
      detail: { subOrgsEnabledToView: input.enabled },
    });
  }
  return presetAnswer(db, org, scope, id);
}

/** What a device of the preset is configured with: the preset's configuration and the data tags it publishes. */
export async function deviceConfiguration(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<mappings.DeviceConfiguration> {
  const { scope } = await modelsScope(db, principal, ref, 'READ');
  const row = await store.findVisiblePreset(db, scope, id);
  if (!row) throw notFound(`preset '${id}' not found`);
  const version = await store.modelVersion(db, row.preset.modelId, row.preset.modelVersion);
  const byPath = new Map((version?.paths ?? []).map((entry) => [entry.path, entry]));
  const tags: mappings.DeviceConfiguration['tags'] = [];
  for (const mapping of row.preset.mappings) {
    const target = byPath.get(mapping.path);
    if (!target) continue;
    tags.push({
      tag: mapping.tag,
      path: target.path,
      type: target.type,
      unit: target.unit ?? null,
      writable: target.writable === true,
      min: target.min ?? null,
      max: target.max ?? null,
      formula: mapping.formula ?? null,
    });
  }
  return {
    presetId: row.preset.id,
    presetName: row.preset.name,
    modelId: row.preset.modelId,
    modelName: row.modelName,
    modelVersion: row.preset.modelVersion,
    configuration: row.preset.deviceConfiguration,
    tags,
  };
}

/** A preset the organization may give its devices: its own or one shared by an ancestor (for the devices area). */
export async function usablePreset(db: Db, scope: store.Scope, id: string) {
  return store.findVisiblePreset(db, scope, id);
}
