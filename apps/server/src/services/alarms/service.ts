import type { alarms } from '@edgeport/contract';
import { and } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { recordAudit } from '../audit/service.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import { pathOf } from './conditions.ts';
import type { AlarmEngine } from './engine.ts';
import * as store from './store.ts';

export type AlarmAction = 'ack' | 'reset' | 'clear';
export type AlarmDeps = { db: Db; engine: AlarmEngine };

const PERMISSION_OF: Record<AlarmAction, 'ACK' | 'RESET' | 'CLEAR'> = {
  ack: 'ACK',
  reset: 'RESET',
  clear: 'CLEAR',
};

/** How an operator is named in an alarm's history: the e-mail of the token, else its user name, else the id. */
function operatorName(principal: Principal): string {
  const { email, preferred_username: username } = principal.token as {
    email?: unknown;
    preferred_username?: unknown;
  };
  if (typeof email === 'string' && email) return email;
  if (typeof username === 'string' && username) return username;
  return principal.userId;
}

// --- alarms ---

export async function searchAlarms(
  { db }: AlarmDeps,
  principal: Principal,
  ref: string,
  search: alarms.AlarmSearch,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const { rows, total } = await store.searchAlarms(db, org.id, search);
  return { items: rows.map(store.toAlarm), total, page: search.page ?? 0, pageSize: search.pageSize ?? 50 };
}

export async function getAlarm(
  { db }: AlarmDeps,
  principal: Principal,
  ref: string,
  id: string,
): Promise<alarms.AlarmWithHistory> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const row = await store.alarmById(db, id, org.id);
  if (!row) throw notFound(`alarm '${id}' not found`);
  return { ...store.toAlarm(row), history: await store.historyOf(db, row.id) };
}

export async function severityCount(
  { db }: AlarmDeps,
  principal: Principal,
  ref: string,
  filter: string | undefined,
): Promise<alarms.SeverityCounts> {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  return store.severityCounts(db, org.id, filter);
}

function encodeCursor(last: { label: string; id: string }): string {
  return Buffer.from(JSON.stringify([last.label, last.id])).toString('base64url');
}

function decodeCursor(next: string): { label: string; id: string } {
  try {
    const [label, id] = JSON.parse(Buffer.from(next, 'base64url').toString('utf8')) as unknown[];
    if (
      typeof label === 'string' &&
      typeof id === 'string' &&
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    )
      return { label, id };
  } catch {
    // Falls through to the refusal below.
  }
  throw badRequest('querystring/next must be a cursor a previous page answered');
}

export async function severityCountByDevice(
  { db }: AlarmDeps,
  principal: Principal,
  ref: string,
  pageSize: number,
  next: string | undefined,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const after = next ? decodeCursor(next) : undefined;
  const page = await store.severityCountsByDevice(db, org.id, pageSize, after);
  return { items: page.items, next: page.last ? encodeCursor(page.last) : null };
}

export async function actOnAlarms(
  { db, engine }: AlarmDeps,
  principal: Principal,
  ref: string,
  action: AlarmAction,
  ids: string[],
) {
  const org = await authorizeInOrganization(db, principal, ref, PERMISSION_OF[action], 'alarms');
  const wanted = [...new Set(ids)];
  const found = await store.alarmKeys(db, store.idsIn(org.id, wanted));
  const known = new Set(found.map((row) => row.id));
  const missing = wanted.find((id) => !known.has(id));
  if (missing) throw notFound(`body/ids: alarm '${missing}' not found`);
  const affected = await engine.act({
    organizationId: org.id,
    action,
    alarms: found,
    by: operatorName(principal),
  });
  // Nothing changed (every alarm was already done, not required or closed): nothing to audit.
  if (affected === 0) return { affected };
  const single = wanted.length === 1 ? await store.alarmById(db, wanted[0] as string, org.id) : undefined;
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `alarms.${action}`,
    resourceType: 'alarms',
    resourceId: single?.id ?? null,
    resourceName: single?.name ?? '',
    detail: { ids: wanted, requested: wanted.length, affected },
  });
  return { affected };
}

export async function actOnAllAlarms(
  { db, engine }: AlarmDeps,
  principal: Principal,
  ref: string,
  action: AlarmAction,
  filter: alarms.AlarmFilter,
) {
  const org = await authorizeInOrganization(db, principal, ref, PERMISSION_OF[action], 'alarms');
  const matching = await store.alarmKeys(
    db,
    and(store.filterCondition(org.id, filter), store.applicable(action)),
  );
  const affected = await engine.act({
    organizationId: org.id,
    action,
    alarms: matching,
    by: operatorName(principal),
  });
  if (affected === 0) return { affected };
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: `alarms.${action}All`,
    resourceType: 'alarms',
    resourceId: null,
    resourceName: '',
    detail: { filter, matched: matching.length, affected },
  });
  return { affected };
}

// --- rules ---

export async function listRules({ db }: AlarmDeps, principal: Principal, ref: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  const rows = await store.rulesOf(db, org.id);
  return { items: rows.map(store.toRule), total: rows.length };
}

export async function getRule({ db }: AlarmDeps, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'devices');
  return store.toRule(await ruleOf(db, org.id, id));
}

async function ruleOf(db: Db, organizationId: string, id: string) {
  const row = await store.ruleById(db, organizationId, id);
  if (!row) throw notFound(`alarm rule '${id}' not found`);
  return row;
}

const NUMERIC = new Set(['number', 'integer']);

/**
 * The checks the schema cannot make: a range's low not above its high, the device one of the organization, and the
 * watched path one of its model (of the right type) when the device has a model.
 */
async function checkRule(
  db: Db,
  organizationId: string,
  rule: { deviceId: string | null; condition: alarms.AlarmCondition },
): Promise<void> {
  const { condition } = rule;
  if (condition.kind === 'range' && condition.low > condition.high) {
    throw badRequest('body/condition/low must not be above body/condition/high');
  }
  const path = pathOf(condition);
  if (path !== undefined && !path.startsWith('/'))
    throw badRequest("body/condition/path must start with '/'");
  if (!rule.deviceId) return;
  const device = await store.deviceWithModel(db, organizationId, rule.deviceId);
  if (!device) throw notFound(`body/deviceId: device '${rule.deviceId}' not found`);
  if (path === undefined || !device.paths) return;
  const modelPath = device.paths.find((entry) => entry.path === path);
  if (!modelPath) {
    throw badRequest(`body/condition/path '${path}' is not a path of the model of device '${device.label}'`);
  }
  if ((condition.kind === 'threshold' || condition.kind === 'range') && !NUMERIC.has(modelPath.type)) {
    throw badRequest(
      `body/condition/path '${path}' is ${modelPath.type}: a ${condition.kind} needs a number`,
    );
  }
  if (condition.kind === 'boolean' && modelPath.type !== 'boolean') {
    throw badRequest(
      `body/condition/path '${path}' is ${modelPath.type}: a boolean condition needs a boolean`,
    );
  }
}

async function ensureNameFree(db: Db, organizationId: string, name: string, except?: string) {
  if (await store.ruleNamed(db, organizationId, name, except)) {
    throw conflict(`name: an alarm rule named '${name}' already exists in this organization`);
  }
}

function nameTaken(error: unknown, name: string): never {
  if (isUniqueViolation(error)) {
    throw conflict(`name: an alarm rule named '${name}' already exists in this organization`);
  }
  throw error;
}

export async function createRule(
  { db, engine }: AlarmDeps,
  principal: Principal,
  ref: string,
  input: alarms.AlarmRuleInput,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'alarms');
  const name = input.name.trim();
  if (!name) throw badRequest('body/name must not be blank');
  const deviceId = input.deviceId ?? null;
  await checkRule(db, org.id, { deviceId, condition: input.condition });
  await ensureNameFree(db, org.id, name);
  const id = await store
    .insertRule(db, {
      organizationId: org.id,
      name,
      description: input.description ?? '',
      enabled: input.enabled ?? true,
      deviceId,
      condition: input.condition,
      severity: input.severity,
      ackRequired: input.ackRequired ?? false,
      resetRequired: input.resetRequired ?? false,
      delaySeconds: input.delaySeconds ?? 0,
      hysteresis: input.hysteresis ?? 0,
      message: input.message ?? '',
    })
    .catch((error: unknown) => nameTaken(error, name));
  await engine.rulesChanged(org.id);
  const rule = store.toRule(await ruleOf(db, org.id, id));
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'alarms.rule.create',
    resourceType: 'alarms',
    resourceId: id,
    resourceName: name,
    detail: {
      condition: rule.condition,
      severity: rule.severity,
      deviceId: rule.deviceId,
      enabled: rule.enabled,
    },
  });
  return rule;
}

export async function updateRule(
  { db, engine }: AlarmDeps,
  principal: Principal,
  ref: string,
  id: string,
  patch: alarms.AlarmRulePatch,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'alarms');
  const existing = await ruleOf(db, org.id, id);
  const name = patch.name === undefined ? existing.name : patch.name.trim();
  if (!name) throw badRequest('body/name must not be blank');
  const deviceId = patch.deviceId === undefined ? existing.deviceId : patch.deviceId;
  const condition = patch.condition ?? existing.condition;
  await checkRule(db, org.id, { deviceId, condition });
  if (name !== existing.name) await ensureNameFree(db, org.id, name, id);
  const changes = {
    name,
    deviceId,
    condition,
    ...(patch.description === undefined ? {} : { description: patch.description }),
    ...(patch.enabled === undefined ? {} : { enabled: patch.enabled }),
    ...(patch.severity === undefined ? {} : { severity: patch.severity }),
    ...(patch.ackRequired === undefined ? {} : { ackRequired: patch.ackRequired }),
    ...(patch.resetRequired === undefined ? {} : { resetRequired: patch.resetRequired }),
    ...(patch.delaySeconds === undefined ? {} : { delaySeconds: patch.delaySeconds }),
    ...(patch.hysteresis === undefined ? {} : { hysteresis: patch.hysteresis }),
    ...(patch.message === undefined ? {} : { message: patch.message }),
  };
  await store.updateRule(db, org.id, id, changes).catch((error: unknown) => nameTaken(error, name));
  await engine.rulesChanged(org.id);
  const rule = store.toRule(await ruleOf(db, org.id, id));
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'alarms.rule.update',
    resourceType: 'alarms',
    resourceId: id,
    resourceName: name,
    detail: { changed: Object.keys(patch), ...patch },
  });
  return rule;
}

export async function deleteRule({ db, engine }: AlarmDeps, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'alarms');
  const existing = await ruleOf(db, org.id, id);
  // Read before the delete: it unlinks the alarms from the rule.
  const open = await store.openAlarmsOfRule(db, org.id, id);
  await store.deleteRule(db, org.id, id);
  await engine.rulesChanged(org.id);
  await engine.ruleDeleted(org.id, id, open, operatorName(principal));
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'alarms.rule.delete',
    resourceType: 'alarms',
    resourceId: id,
    resourceName: existing.name,
    detail: { closedAlarms: open.length },
  });
}
