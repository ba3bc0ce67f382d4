import type { triggers } from '@edgeport/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { recordAudit } from '../audit/service.ts';
import { deviceInOrganization } from '../core/devices/service.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import type { OrganizationRow } from '../core/organizations/store.ts';
import { dataAccessOf } from '../core/roles/data-access.ts';
import { hostNetwork } from '../notifications/network.ts';
import { webhookPolicyOf } from '../notifications/settings.ts';
import { webhookUrlRefusal } from '../notifications/ssrf.ts';
import { modelPathsOf } from '../platform/values/store.ts';
import type { TriggerEngine } from './engine.ts';
import { setpointFor } from './setpoint.ts';
import * as store from './store.ts';

/** `privateHosts`: WEBHOOK_ALLOWED_PRIVATE_HOSTS, for the check of webhook actions. */
export type TriggerContext = { db: Db; engine: TriggerEngine; privateHosts: readonly string[] };

const iso = (at: Date | null) => (at ? at.toISOString() : null);

export function toTrigger(row: store.TriggerRow): triggers.Trigger {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    enabled: row.enabled,
    condition: row.condition,
    action: row.action,
    cooldownSeconds: row.cooldownSeconds,
    runCount: row.runCount,
    lastRunAt: iso(row.lastRunAt),
    lastError: row.lastError,
    lastErrorAt: iso(row.lastErrorAt),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The organization's trigger rules by name (READ organizations). */
export async function listTriggers(
  db: Db,
  principal: Principal,
  ref: string,
): Promise<{ items: triggers.Trigger[]; total: number }> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const rows = await store.listTriggers(db, org.id);
  return { items: rows.map(toTrigger), total: rows.length };
}

async function triggerOf(db: Db, organizationId: string, id: string): Promise<store.TriggerRow> {
  const row = await store.findTrigger(db, organizationId, id);
  if (!row) throw notFound(`trigger '${id}' not found`);
  return row;
}

export async function getTrigger(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
): Promise<triggers.Trigger> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  return toTrigger(await triggerOf(db, org.id, id));
}

async function checkCondition(
  db: Db,
  org: OrganizationRow,
  principal: Principal,
  condition: triggers.TriggerCondition,
) {
  if (condition.kind === 'alarm') {
    const found = await store.alarmRulesAmong(db, org.id, condition.ruleIds);
    const missing = condition.ruleIds.find((id) => !found.has(id));
    if (missing) throw notFound(`body/condition/ruleIds: alarm rule '${missing}' not found`);
    return;
  }
  if (typeof condition.value === 'boolean' && condition.operator !== '==' && condition.operator !== '!=') {
    throw badRequest('body/condition/operator must be == or != for a boolean value');
  }
  const access = await dataAccessOf(db, principal.userId, org.id);
  if (!access.canRead(condition.path))
    throw forbidden(`your data roles do not allow reading ${condition.path}`);
  if (condition.deviceId === null) return;
  const device = await deviceInOrganization(db, org.id, condition.deviceId);
  if (!device) throw notFound(`body/condition/deviceId: device '${condition.deviceId}' not found`);
  if (!device.presetId) return;
  const path = (await modelPathsOf(db, device.presetId)).get(condition.path);
  if (!path) throw badRequest(`body/condition/path '${condition.path}' is not a path of the device's model`);
  const numeric = path.type === 'number' || path.type === 'integer';
  const matches = numeric ? typeof condition.value === 'number' : typeof condition.value === path.type;
  if (!matches) throw badRequest(`body/condition/value must be a ${path.type} like ${condition.path}`);
}

async function checkAction(
  { db, privateHosts }: TriggerContext,
  org: OrganizationRow,
  principal: Principal,
  action: triggers.TriggerAction,
) {
  switch (action.kind) {
    case 'notify':
      if (!(await store.notificationRuleExists(db, org.id, action.notificationId))) {
        throw notFound(`body/action/notificationId: notification rule '${action.notificationId}' not found`);
      }
      return;
    case 'webhook': {
      const policy = await webhookPolicyOf(db, org.id, privateHosts);
      const refusal = await webhookUrlRefusal(action.url, policy, hostNetwork);
      if (refusal) throw badRequest(`body/action/url: ${refusal}`);
      return;
    }
    case 'write': {
      const access = await dataAccessOf(db, principal.userId, org.id);
      if (!access.canWrite(action.path))
        throw forbidden(`your data roles do not allow writing ${action.path}`);
      await setpointFor(db, org.id, action, 'body/action');
      return;
    }
    case 'alarm':
      return;
  }
}

function uniqueName<T>(name: string, work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (isUniqueViolation(error)) throw conflict(`name: a trigger named '${name}' exists already`);
    throw error;
  });
}

/** Creates a trigger rule (UPDATE organizations); its references are checked, 409 for a name in use. */
export async function createTrigger(
  context: TriggerContext,
  principal: Principal,
  ref: string,
  input: triggers.TriggerInput,
): Promise<triggers.Trigger> {
  const { db, engine } = context;
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const name = input.name.trim();
  if (!name) throw badRequest('body/name must not be blank');
  if (await store.nameTaken(db, org.id, name))
    throw conflict(`name: a trigger named '${name}' exists already`);
  await checkCondition(db, org, principal, input.condition);
  await checkAction(context, org, principal, input.action);
  const row = await uniqueName(
    name,
    store.insertTrigger(db, {
      organizationId: org.id,
      name,
      enabled: input.enabled ?? true,
      condition: input.condition,
      action: input.action,
      cooldownSeconds: input.cooldownSeconds ?? 0,
    }),
  );
  await engine.rulesChanged(org.id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'triggers.create',
    resourceType: 'triggers',
    resourceId: row.id,
    resourceName: row.name,
    detail: {
      enabled: row.enabled,
      condition: row.condition,
      action: row.action,
      cooldownSeconds: row.cooldownSeconds,
    },
  });
  return toTrigger(row);
}

/** Changes a trigger rule (UPDATE organizations): the given fields, checked as on creation. */
export async function updateTrigger(
  context: TriggerContext,
  principal: Principal,
  ref: string,
  id: string,
  patch: triggers.TriggerPatch,
): Promise<triggers.Trigger> {
  const { db, engine } = context;
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const current = await triggerOf(db, org.id, id);
  const changes: Partial<store.NewTrigger> = {};
  if (patch.name !== undefined) {
    const name = patch.name.trim();
    if (!name) throw badRequest('body/name must not be blank');
    if (await store.nameTaken(db, org.id, name, id))
      throw conflict(`name: a trigger named '${name}' exists already`);
    changes.name = name;
  }
  if (patch.condition !== undefined) {
    await checkCondition(db, org, principal, patch.condition);
    changes.condition = patch.condition;
  }
  if (patch.action !== undefined) {
    await checkAction(context, org, principal, patch.action);
    changes.action = patch.action;
  }
  if (patch.enabled !== undefined) changes.enabled = patch.enabled;
  if (patch.cooldownSeconds !== undefined) changes.cooldownSeconds = patch.cooldownSeconds;
  const updated = await uniqueName(
    changes.name ?? current.name,
    store.updateTrigger(db, org.id, id, changes),
  );
  if (!updated) throw notFound(`trigger '${id}' not found`);
  await engine.rulesChanged(org.id);
  const before = Object.fromEntries(
    Object.keys(changes).map((key) => [key, current[key as keyof store.NewTrigger]]),
  );
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'triggers.update',
    resourceType: 'triggers',
    resourceId: updated.id,
    resourceName: updated.name,
    detail: { changes, before },
  });
  return toTrigger(updated);
}

/** Deletes a trigger rule (UPDATE organizations). */
export async function deleteTrigger(
  context: TriggerContext,
  principal: Principal,
  ref: string,
  id: string,
): Promise<void> {
  const { db, engine } = context;
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const deleted = await store.deleteTrigger(db, org.id, id);
  if (!deleted) throw notFound(`trigger '${id}' not found`);
  await engine.rulesChanged(org.id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'triggers.delete',
    resourceType: 'triggers',
    resourceId: deleted.id,
    resourceName: deleted.name,
    detail: { condition: deleted.condition, action: deleted.action },
  });
}

/** Runs the rule's action once now (UPDATE organizations) and answers the rule with its updated run and error. */
export async function runTrigger(
  context: TriggerContext,
  principal: Principal,
  ref: string,
  id: string,
): Promise<triggers.Trigger> {
  const { db, engine } = context;
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const row = await triggerOf(db, org.id, id);
  const ran = await engine.runNow(row);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'triggers.run',
    resourceType: 'triggers',
    resourceId: row.id,
    resourceName: row.name,
    detail: {
      action: row.action.kind,
      error: ran.lastErrorAt?.getTime() === ran.lastRunAt?.getTime() ? ran.lastError : null,
    },
  });
  return toTrigger(ran);
}
