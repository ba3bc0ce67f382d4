import { SEVERITIES } from '../alarms/severity.ts';
import type { NotificationInput, NotificationRule } from './api.ts';

export type Language = NonNullable<NotificationRule['language']>;
export type NotifiedEvent = NotificationRule['source']['alarmEvents'][number];
export type Severity = NotificationRule['source']['severities'][number];

/** The languages of notification e-mail (the contract's list). */
export const LANGUAGE_CODES: readonly Language[] = ['en', 'de', 'es', 'fr', 'it'];
/** The alarm events a rule may listen to, in the order of an alarm's life. */
export const NOTIFIED_EVENTS: readonly NotifiedEvent[] = [
  'RAISED',
  'ACKNOWLEDGED',
  'RESET',
  'CONDITION_CLEARED',
  'CLEARED',
];

/** The contract's bounds, checked in the form before the server checks them again. */
export const RULE_LIMITS = {
  name: 120,
  emails: 100,
  email: 254,
  webhooks: 20,
  webhook: 2000,
  users: 500,
  groups: 100,
  alarmRules: 200,
} as const;

/** What the notification-rule form edits. */
export type RuleFormValues = {
  name: string;
  enabled: boolean;
  /** '' : the default (English) for addresses without an account. */
  language: Language | '';
  alarmEvents: NotifiedEvent[];
  severities: Severity[];
  alarmRuleIds: string[];
  userIds: string[];
  groupIds: string[];
  emails: string[];
  webhooks: string[];
};

/** A new rule: enabled, told when an alarm is raised, of every severity and alarm rule, to nobody yet. */
export function emptyRuleValues(): RuleFormValues {
  return {
    name: '',
    enabled: true,
    language: '',
    alarmEvents: ['RAISED'],
    severities: [],
    alarmRuleIds: [],
    userIds: [],
    groupIds: [],
    emails: [],
    webhooks: [],
  };
}

/** A stored rule as the form shows it. */
export function ruleToValues(rule: NotificationRule): RuleFormValues {
  return {
    name: rule.name,
    enabled: rule.enabled,
    language: rule.language ?? '',
    alarmEvents: inOrder(rule.source.alarmEvents, NOTIFIED_EVENTS),
    severities: inOrder(rule.source.severities, SEVERITIES),
    alarmRuleIds: [...rule.source.alarmRuleIds],
    userIds: [...rule.recipients.userIds],
    groupIds: [...rule.recipients.groupIds],
    emails: [...rule.recipients.emails],
    webhooks: [...rule.recipients.webhooks],
  };
}

/** The body of POST and PUT /notifications: trimmed, addresses lower-cased, every list without repeats. */
export function valuesToInput(values: RuleFormValues): NotificationInput {
  return {
    name: values.name.trim(),
    enabled: values.enabled,
    language: values.language === '' ? null : values.language,
    source: {
      alarmEvents: inOrder(unique(values.alarmEvents), NOTIFIED_EVENTS),
      severities: inOrder(unique(values.severities), SEVERITIES),
      alarmRuleIds: unique(values.alarmRuleIds),
    },
    recipients: {
      userIds: unique(values.userIds),
      groupIds: unique(values.groupIds),
      emails: unique(values.emails.map(normalizeEmail).filter(Boolean)),
      webhooks: unique(values.webhooks.map((url) => url.trim()).filter(Boolean)),
    },
  };
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** A plain address check (the server checks the format again). */
export function isEmail(value: string): boolean {
  const address = value.trim();
  return address.length <= RULE_LIMITS.email && /^[^\s@,;<>]+@[^\s@,;<>]+\.[^\s@,;<>]+$/.test(address);
}

export type WebhookProblem = 'invalid' | 'scheme' | 'credentials' | 'tooLong';

/**
 * Why a webhook address cannot be used, or undefined when it can: an absolute http(s) URL with a host and without
 * credentials in it. Whether its host may be reached (SSRF) only the server can tell.
 */
export function webhookProblem(value: string): WebhookProblem | undefined {
  const raw = value.trim();
  if (raw.length > RULE_LIMITS.webhook) return 'tooLong';
  if (/\s/.test(raw)) return 'invalid';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'scheme';
  if (!/^https?:\/\//i.test(raw) || !url.hostname) return 'invalid';
  if (url.username || url.password) return 'credentials';
  return undefined;
}

export type RuleProblem =
  | { field: 'name'; kind: 'required' | 'tooLong' }
  | { field: 'alarmEvents'; kind: 'required' }
  | { field: 'recipients'; kind: 'required' }
  | { field: 'emails'; kind: 'invalid'; values: string[] }
  | { field: 'emails'; kind: 'tooMany' }
  | { field: 'webhooks'; kind: WebhookProblem; values: string[] }
  | { field: 'webhooks'; kind: 'tooMany' };

/** Everything the form refuses before asking the server (empty: the rule may be saved). */
export function ruleProblems(values: RuleFormValues): RuleProblem[] {
  const problems: RuleProblem[] = [];
  const name = values.name.trim();
  if (!name) problems.push({ field: 'name', kind: 'required' });
  else if (name.length > RULE_LIMITS.name) problems.push({ field: 'name', kind: 'tooLong' });
  if (values.alarmEvents.length === 0) problems.push({ field: 'alarmEvents', kind: 'required' });
  const input = valuesToInput(values);
  const { recipients } = input;
  const count =
    recipients.userIds.length +
    recipients.groupIds.length +
    recipients.emails.length +
    recipients.webhooks.length;
  if (count === 0) problems.push({ field: 'recipients', kind: 'required' });
  const badEmails = recipients.emails.filter((email) => !isEmail(email));
  if (badEmails.length > 0) problems.push({ field: 'emails', kind: 'invalid', values: badEmails });
  else if (recipients.emails.length > RULE_LIMITS.emails) problems.push({ field: 'emails', kind: 'tooMany' });
  const byProblem = new Map<WebhookProblem, string[]>();
  for (const url of recipients.webhooks) {
    const problem = webhookProblem(url);
    if (problem) byProblem.set(problem, [...(byProblem.get(problem) ?? []), url]);
  }
  const firstProblem = [...byProblem.entries()][0];
  if (firstProblem) problems.push({ field: 'webhooks', kind: firstProblem[0], values: firstProblem[1] });
  else if (recipients.webhooks.length > RULE_LIMITS.webhooks)
    problems.push({ field: 'webhooks', kind: 'tooMany' });
  return problems;
}

/** How many recipients of each kind a rule has (the list's column). */
export function recipientCounts(recipients: NotificationRule['recipients']) {
  return {
    users: recipients.userIds.length,
    groups: recipients.groupIds.length,
    emails: recipients.emails.length,
    webhooks: recipients.webhooks.length,
  };
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}

function inOrder<T>(values: readonly T[], order: readonly T[]): T[] {
  return [...values].sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
