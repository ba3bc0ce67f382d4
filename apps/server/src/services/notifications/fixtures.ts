import { notifications } from '@edgeport/contract';
import { type Static, Type } from 'typebox';
import type { Db } from '../../db/index.ts';
import { normalizeAllowedHost } from './ssrf.ts';
import * as store from './store.ts';

/*
 * Browser-test fixtures (`POST /test-support/tenants`): notification rules, deliveries (the failed-notification log)
 * and channel settings, stored directly — webhook URLs and allowed hosts are not checked here; the SSRF guard still
 * checks every delivery (a local receiver is never reached).
 */

const source = notifications.NotificationSource.properties;

export const NotificationRuleFixture = Type.Object({
  org: Type.String(),
  name: Type.String({ minLength: 1 }),
  enabled: Type.Optional(Type.Boolean()),
  language: Type.Optional(Type.Union([notifications.Language, Type.Null()])),
  /** Default ['RAISED']. */
  alarmEvents: Type.Optional(source.alarmEvents),
  severities: Type.Optional(source.severities),
  /** Keys of seeded users. */
  users: Type.Optional(Type.Array(Type.String())),
  emails: Type.Optional(Type.Array(Type.String())),
  webhooks: Type.Optional(Type.Array(Type.String())),
});

export const DeliveryFixture = Type.Object({
  org: Type.String(),
  /** The name of a seeded notification rule of the organization (absent: a trigger's webhook call). */
  notification: Type.Optional(Type.String()),
  channel: notifications.Channel,
  target: Type.String({ minLength: 1 }),
  subject: Type.Optional(Type.String()),
  /** Default FAILED. */
  status: Type.Optional(notifications.DeliveryStatus),
  attempts: Type.Optional(Type.Integer({ minimum: 0 })),
  lastError: Type.Optional(Type.String()),
  minutesAgo: Type.Optional(Type.Integer({ minimum: 0 })),
});

export const NotificationSettingsFixture = Type.Object({
  org: Type.String(),
  sender: Type.Optional(Type.String()),
  webhookSecret: Type.Optional(Type.String()),
  quietHours: Type.Optional(notifications.QuietHours),
  allowedWebhookHosts: Type.Optional(Type.Array(Type.String())),
});

export type NotificationFixtures = {
  notifications?: Static<typeof NotificationRuleFixture>[];
  notificationDeliveries?: Static<typeof DeliveryFixture>[];
  notificationSettings?: Static<typeof NotificationSettingsFixture>[];
};

const refuse = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/** Seeds the notification fixtures; answers the rule ids by name and the delivery ids in order. */
export async function seedNotificationFixtures(
  db: Db,
  fixture: NotificationFixtures,
  organizations: Record<string, { id: string }>,
  users: Record<string, { id: string }>,
): Promise<{ notifications: Record<string, string>; deliveries: string[] }> {
  const orgOf = (field: string, key: string) => {
    const org = organizations[key];
    if (!org) throw refuse(`${field}.org '${key}' is not a seeded organization`);
    return org;
  };
  for (const settings of fixture.notificationSettings ?? []) {
    const org = orgOf('notificationSettings', settings.org);
    await store.saveSettings(db, org.id, {
      sender: settings.sender ?? null,
      webhookSecret: settings.webhookSecret ?? null,
      quietHours: settings.quietHours ?? null,
      allowedWebhookHosts: (settings.allowedWebhookHosts ?? []).map(
        (host) => normalizeAllowedHost(host) ?? host,
      ),
    });
  }
  const rules: Record<string, string> = {};
  for (const rule of fixture.notifications ?? []) {
    const org = orgOf('notifications', rule.org);
    const userIds = (rule.users ?? []).map((key) => {
      const user = users[key];
      if (!user) throw refuse(`notifications.users '${key}' is not a seeded user`);
      return user.id;
    });
    const row = await store.insertRule(db, org.id, {
      name: rule.name,
      enabled: rule.enabled ?? true,
      language: rule.language ?? null,
      source: {
        alarmEvents: rule.alarmEvents ?? ['RAISED'],
        severities: rule.severities ?? [],
        alarmRuleIds: [],
      },
      recipients: { userIds, groupIds: [], emails: rule.emails ?? [], webhooks: rule.webhooks ?? [] },
    });
    rules[rule.name] = row.id;
  }
  const deliveries: string[] = [];
  for (const delivery of fixture.notificationDeliveries ?? []) {
    const org = orgOf('notificationDeliveries', delivery.org);
    const notificationId = delivery.notification ? rules[delivery.notification] : undefined;
    if (delivery.notification && !notificationId)
      throw refuse(`notificationDeliveries.notification '${delivery.notification}' is not a seeded rule`);
    const status = delivery.status ?? 'FAILED';
    const at = new Date(Date.now() - (delivery.minutesAgo ?? 0) * 60_000);
    const [row] = await store.insertDeliveries(db, [
      {
        organizationId: org.id,
        notificationId: notificationId ?? null,
        notificationName: delivery.notification ?? 'webhook',
        channel: delivery.channel,
        target: delivery.target,
        subject: delivery.subject ?? `Notification to ${delivery.target}`,
        body: delivery.subject ?? '',
        payload: {},
        status,
        attempts: delivery.attempts ?? (status === 'PENDING' ? 0 : 1),
        lastError: delivery.lastError ?? (status === 'FAILED' ? 'the webhook answered HTTP 503' : null),
        // A seeded PENDING delivery is not taken up by the worker for a day.
        nextAttemptAt: status === 'PENDING' ? new Date(Date.now() + 86_400_000) : null,
        sentAt: status === 'SENT' ? at : null,
        createdAt: at,
      },
    ]);
    if (row) deliveries.push(row.id);
  }
  return { notifications: rules, deliveries };
}
