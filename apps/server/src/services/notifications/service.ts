import type { notifications } from '@edgeport/contract';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Db } from '../../db/index.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import { recordAudit } from '../audit/service.ts';
import { authorizeInOrganization } from '../core/organizations/service.ts';
import { hostNetwork } from './network.ts';
import { webhookPolicyOf } from './settings.ts';
import { webhookUrlRefusal } from './ssrf.ts';
import * as store from './store.ts';

type Organization = Awaited<ReturnType<typeof authorizeInOrganization>>;
type Input = notifications.NotificationInput;

const unique = <T>(values: readonly T[]) => [...new Set(values)];

function toNotification(row: store.RuleRow): notifications.Notification {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    enabled: row.enabled,
    language: (row.language as notifications.Notification['language']) ?? null,
    source: row.source,
    recipients: row.recipients,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toDelivery(row: store.DeliveryRow): notifications.Delivery {
  return {
    id: row.id,
    notificationId: row.notificationId,
    notificationName: row.notificationName,
    channel: row.channel,
    target: row.target,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    lastError: row.lastError,
    nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

const nameTaken = (name: string) =>
  conflict(`name: a notification rule named '${name}' already exists in this organization`);

/** The first id of `ids` that is not in `known`, with its index. */
function firstUnknown(ids: string[], known: Set<string>): [number, string] | undefined {
  const index = ids.findIndex((id) => !known.has(id));
  return index < 0 ? undefined : [index, ids[index] as string];
}

/**
 * The rule as it is stored: names trimmed, lists without repeats, e-mail addresses in lower case; every reference
 * checked against the organization (400 naming the field) and every webhook against the SSRF guard.
 */
async function validated(
  db: Db,
  org: Organization,
  input: Input,
  privateHosts: readonly string[],
): Promise<store.RuleValues> {
  const name = input.name.trim();
  if (name === '') throw badRequest('body/name must not be blank');
  const source: notifications.NotificationSource = {
    alarmEvents: unique(input.source.alarmEvents),
    severities: unique(input.source.severities),
    alarmRuleIds: unique(input.source.alarmRuleIds),
  };
  const recipients: notifications.Recipients = {
    userIds: unique(input.recipients.userIds),
    groupIds: unique(input.recipients.groupIds),
    emails: unique(input.recipients.emails.map((email) => email.trim().toLowerCase())),
    webhooks: unique(input.recipients.webhooks.map((url) => url.trim())),
  };
  const strangerUser = firstUnknown(
    recipients.userIds,
    await store.membersAmong(db, org.id, recipients.userIds),
  );
  if (strangerUser)
    throw badRequest(
      `body/recipients/userIds/${strangerUser[0]}: user '${strangerUser[1]}' is not a member of this organization`,
    );
  const strangerGroup = firstUnknown(
    recipients.groupIds,
    await store.groupsAmong(db, org.id, recipients.groupIds),
  );
  if (strangerGroup)
    throw badRequest(
      `body/recipients/groupIds/${strangerGroup[0]}: group '${strangerGroup[1]}' is not a user group of this organization`,
    );
  const strangerRule = firstUnknown(
    source.alarmRuleIds,
    await store.alarmRulesAmong(db, org.id, source.alarmRuleIds),
  );
  if (strangerRule)
    throw badRequest(
      `body/source/alarmRuleIds/${strangerRule[0]}: alarm rule '${strangerRule[1]}' is not an alarm rule of this organization`,
    );
  if (recipients.webhooks.length > 0) {
    const policy = await webhookPolicyOf(db, org.id, privateHosts);
    for (const [index, url] of recipients.webhooks.entries()) {
      const refusal = await webhookUrlRefusal(url, policy, hostNetwork);
      if (refusal) throw badRequest(`body/recipients/webhooks/${index}: ${refusal}`);
    }
  }
  return {
    name,
    enabled: input.enabled ?? true,
    language: input.language ?? null,
    source,
    recipients,
  };
}

/** What the audit log keeps of a rule: no addresses or webhook URLs (a URL may carry a token). */
function auditDetail(values: store.RuleValues) {
  return {
    enabled: values.enabled,
    language: values.language,
    alarmEvents: values.source.alarmEvents,
    severities: values.source.severities,
    alarmRules: values.source.alarmRuleIds.length,
    users: values.recipients.userIds.length,
    groups: values.recipients.groupIds.length,
    emails: values.recipients.emails.length,
    webhooks: values.recipients.webhooks.length,
  };
}

async function ruleIn(db: Db, org: Organization, id: string): Promise<store.RuleRow> {
  const row = await store.findRule(db, org.id, id);
  if (!row) throw notFound(`notification rule '${id}' not found in this organization`);
  return row;
}

export async function listRules(db: Db, principal: Principal, ref: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'notifications');
  const rows = await store.rulesOf(db, org.id);
  return { items: rows.map(toNotification), total: rows.length };
}

export async function getRule(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'notifications');
  return toNotification(await ruleIn(db, org, id));
}

/** `privateHosts`: WEBHOOK_ALLOWED_PRIVATE_HOSTS, for the check of the webhooks. */
export async function createRule(
  db: Db,
  principal: Principal,
  ref: string,
  input: Input,
  privateHosts: readonly string[],
) {
  const org = await authorizeInOrganization(db, principal, ref, 'CREATE', 'notifications');
  const values = await validated(db, org, input, privateHosts);
  if (await store.findRuleByName(db, org.id, values.name)) throw nameTaken(values.name);
  let row: store.RuleRow;
  try {
    row = await store.insertRule(db, org.id, values);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.name);
    throw error;
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'notifications.create',
    resourceType: 'notifications',
    resourceId: row.id,
    resourceName: row.name,
    detail: auditDetail(values),
  });
  return toNotification(row);
}

export async function updateRule(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: Input,
  privateHosts: readonly string[],
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'notifications');
  const before = await ruleIn(db, org, id);
  const values = await validated(db, org, input, privateHosts);
  const holder = await store.findRuleByName(db, org.id, values.name);
  if (holder && holder.id !== id) throw nameTaken(values.name);
  let row: store.RuleRow | undefined;
  try {
    row = await store.updateRule(db, org.id, id, values);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(values.name);
    throw error;
  }
  if (!row) throw notFound(`notification rule '${id}' not found in this organization`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'notifications.update',
    resourceType: 'notifications',
    resourceId: row.id,
    resourceName: row.name,
    detail: { ...auditDetail(values), ...(before.name !== row.name && { previousName: before.name }) },
  });
  return toNotification(row);
}

export async function deleteRule(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'DELETE', 'notifications');
  const row = await ruleIn(db, org, id);
  if (!(await store.deleteRule(db, org.id, id)))
    throw notFound(`notification rule '${id}' not found in this organization`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'notifications.delete',
    resourceType: 'notifications',
    resourceId: row.id,
    resourceName: row.name,
  });
}

type DeliveryQuery = {
  organization: string;
  status?: notifications.Delivery['status'];
  channel?: notifications.Delivery['channel'];
  page?: number;
  pageSize?: number;
};

export async function listDeliveries(db: Db, principal: Principal, query: DeliveryQuery) {
  const org = await authorizeInOrganization(db, principal, query.organization, 'READ', 'notifications');
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? 50;
  const { rows, total } = await store.listDeliveries(db, org.id, {
    ...(query.status && { status: query.status }),
    ...(query.channel && { channel: query.channel }),
    page,
    pageSize,
  });
  return { items: rows.map(toDelivery), total, page, pageSize };
}

/** A FAILED delivery goes out again: attempts start over and it is due now (the worker is woken by the route). */
export async function resendDelivery(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'notifications');
  const existing = await store.findDelivery(db, org.id, id);
  if (!existing) throw notFound(`delivery '${id}' not found in this organization`);
  if (existing.status !== 'FAILED')
    throw conflict(`delivery '${id}' is ${existing.status}: only a FAILED delivery can be sent again`);
  const row = await store.restartDelivery(db, org.id, id, new Date());
  if (!row) throw conflict(`delivery '${id}' is no longer FAILED`);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'notifications.resend',
    resourceType: 'notifications',
    resourceId: row.id,
    resourceName: row.notificationName,
    detail: { channel: row.channel, previousError: existing.lastError, previousAttempts: existing.attempts },
  });
  return toDelivery(row);
}
