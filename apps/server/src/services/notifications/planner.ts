import type { alarms } from '@edgeport/contract';
import type { Db } from '../../db/index.ts';
import type { TriggerNotice } from './notifier.ts';
import { quietUntil } from './quiet-hours.ts';
import { type Recipient, recipientKey, recipientsOf } from './recipients.ts';
import type { ChannelConfig } from './settings.ts';
import type * as store from './store.ts';
import { alarmText, type Language, type Rendered, type TextContext, triggerText } from './texts.ts';

/** What planning deliveries needs besides the database: the organization, its settings and the portal's address. */
export type PlanContext = {
  organization: store.OrganizationRef;
  channel: ChannelConfig;
  portalOrigin: string;
  now: Date;
};

export type AlarmChangeLike = { event: alarms.AlarmEventKind; alarm: alarms.Alarm };

/** Whether a rule listens to this alarm change: its event kind, severity and alarm rule. */
export function ruleMatches(rule: store.RuleRow, change: AlarmChangeLike): boolean {
  const { source } = rule;
  if (!rule.enabled) return false;
  if (!(source.alarmEvents as readonly string[]).includes(change.event)) return false;
  if (source.severities.length > 0 && !source.severities.includes(change.alarm.severity)) return false;
  if (source.alarmRuleIds.length > 0) {
    const ruleId = change.alarm.ruleId;
    if (!ruleId || !source.alarmRuleIds.includes(ruleId)) return false;
  }
  return true;
}

function textContext(context: PlanContext): TextContext {
  return {
    organizationName: context.organization.name,
    portalOrigin: context.portalOrigin,
    timeZone: context.channel.quietHours?.timeZone ?? 'UTC',
  };
}

/**
 * One delivery row for one recipient. E-mail created inside the quiet hours waits until they end unless it is
 * `urgent` (a CRITICAL alarm); webhooks are never held.
 */
function deliveryFor(
  context: PlanContext,
  rule: { id: string | null; name: string },
  recipient: Recipient,
  render: (language: Language) => Rendered,
  webhookPayload: Record<string, unknown>,
  urgent: boolean,
): store.NewDelivery {
  const { organization, now } = context;
  const base = {
    organizationId: organization.id,
    notificationId: rule.id,
    notificationName: rule.name,
    target: recipient.target,
    status: 'PENDING' as const,
    attempts: 0,
  };
  if (recipient.channel === 'email') {
    const rendered = render(recipient.language);
    const held = urgent ? undefined : quietUntil(context.channel.quietHours, now);
    return {
      ...base,
      channel: 'email',
      language: recipient.language,
      subject: rendered.subject,
      body: rendered.text,
      payload: { ...webhookPayload, heldForQuietHours: held !== undefined },
      nextAttemptAt: held ?? now,
    };
  }
  const rendered = render('en');
  return {
    ...base,
    channel: 'webhook',
    language: 'en',
    subject: rendered.subject,
    body: rendered.text,
    payload: webhookPayload,
    nextAttemptAt: now,
  };
}

/**
 * The deliveries an alarm change makes: for every enabled rule of the organization that listens to it, one per
 * recipient — and one per recipient over all rules (the first rule by name names it).
 */
export async function planAlarmDeliveries(
  db: Db,
  rules: store.RuleRow[],
  change: AlarmChangeLike,
  context: PlanContext,
): Promise<store.NewDelivery[]> {
  const texts = textContext(context);
  const payload = {
    event: change.event,
    alarm: change.alarm,
    organizationId: context.organization.id,
  };
  const urgent = change.alarm.severity === 'CRITICAL';
  const seen = new Set<string>();
  const out: store.NewDelivery[] = [];
  for (const rule of rules.filter((candidate) => ruleMatches(candidate, change))) {
    for (const recipient of await recipientsOf(db, context.organization.id, rule)) {
      const key = recipientKey(recipient);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(
        deliveryFor(
          context,
          rule,
          recipient,
          (language) => alarmText(language, change, texts),
          payload,
          urgent,
        ),
      );
    }
  }
  return out;
}

/** The deliveries of a trigger's "send notification" action: every recipient of that rule. */
export async function planTriggerDeliveries(
  db: Db,
  rule: store.RuleRow,
  notice: TriggerNotice,
  context: PlanContext,
): Promise<store.NewDelivery[]> {
  const texts = textContext(context);
  const payload = {
    event: 'TRIGGER',
    trigger: { id: notice.triggerId, name: notice.triggerName, detail: notice.detail },
    organizationId: context.organization.id,
  };
  const recipients = await recipientsOf(db, context.organization.id, rule);
  return recipients.map((recipient) =>
    deliveryFor(
      context,
      rule,
      recipient,
      (language) => triggerText(language, notice, context.now, texts),
      payload,
      false,
    ),
  );
}

/** The one delivery of a trigger's "call a webhook" action. */
export function planWebhookCall(
  url: string,
  payload: Record<string, unknown>,
  context: PlanContext,
): store.NewDelivery {
  const trigger = payload.trigger as { name?: unknown } | undefined;
  const name = typeof trigger?.name === 'string' ? `trigger: ${trigger.name}` : 'webhook';
  const body = {
    event: typeof payload.event === 'string' ? payload.event : 'TRIGGER',
    ...payload,
    organizationId: context.organization.id,
  };
  return {
    organizationId: context.organization.id,
    notificationId: null,
    notificationName: name,
    channel: 'webhook',
    target: url,
    language: 'en',
    subject: name,
    body: '',
    payload: body,
    status: 'PENDING',
    attempts: 0,
    nextAttemptAt: context.now,
  };
}
