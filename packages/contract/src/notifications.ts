// Notification rules, their deliveries (and the failed-notification log), the organization's channel settings
// (service `/svc/notifications`; every call names the organization in the query).
import { type Static, Type } from 'typebox';
import { SEVERITIES } from './alarms.ts';
import { literals, Uuid } from './common.ts';

export const LANGUAGES = ['en', 'de', 'es', 'fr', 'it'] as const;
export const Language = literals(LANGUAGES);

export const NOTIFIED_ALARM_EVENTS = [
  'RAISED',
  'ACKNOWLEDGED',
  'RESET',
  'CONDITION_CLEARED',
  'CLEARED',
] as const;

const WebhookUrl = Type.String({ format: 'uri', maxLength: 2000, pattern: '^https?://' });

/** What a rule listens to: alarm events (filtered) and trigger rules whose action is "send notification". */
export const NotificationSource = Type.Object(
  {
    alarmEvents: Type.Array(literals(NOTIFIED_ALARM_EVENTS), {
      maxItems: 5,
      description: 'empty: no alarm notifications',
    }),
    severities: Type.Array(literals(SEVERITIES), {
      maxItems: 5,
      description: 'empty: every severity',
    }),
    alarmRuleIds: Type.Array(Uuid, { maxItems: 200, description: 'empty: every alarm rule' }),
  },
  { additionalProperties: false },
);
export type NotificationSource = Static<typeof NotificationSource>;

export const Recipients = Type.Object(
  {
    userIds: Type.Array(Uuid, { maxItems: 500 }),
    groupIds: Type.Array(Uuid, { maxItems: 100, description: 'user groups: every member' }),
    emails: Type.Array(Type.String({ format: 'email', maxLength: 254 }), { maxItems: 100 }),
    webhooks: Type.Array(WebhookUrl, { maxItems: 20 }),
  },
  { additionalProperties: false },
);
export type Recipients = Static<typeof Recipients>;

const ruleFields = {
  name: Type.String({ minLength: 1, maxLength: 120 }),
  enabled: Type.Optional(Type.Boolean({ default: true })),
  language: Type.Optional(
    Type.Unsafe<(typeof LANGUAGES)[number] | null>({
      type: ['string', 'null'],
      enum: [...LANGUAGES, null],
      description: 'e-mail language for addresses without an account; users get their own locale',
    }),
  ),
  source: NotificationSource,
  recipients: Recipients,
};
export const NotificationInput = Type.Object(ruleFields, { additionalProperties: false });
export type NotificationInput = Static<typeof NotificationInput>;

export const Notification = Type.Object({
  id: Uuid,
  organizationId: Uuid,
  name: Type.String(),
  enabled: Type.Boolean(),
  language: Type.Union([Language, Type.Null()]),
  source: NotificationSource,
  recipients: Recipients,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type Notification = Static<typeof Notification>;
export const NotificationList = Type.Object({ items: Type.Array(Notification), total: Type.Integer() });

export const DELIVERY_STATUSES = ['PENDING', 'SENT', 'FAILED'] as const;
export const DeliveryStatus = literals(DELIVERY_STATUSES);
export const Channel = Type.Union([Type.Literal('email'), Type.Literal('webhook')]);

/** One message to one recipient; FAILED ones (retries used up) make the failed-notification log. */
export const Delivery = Type.Object({
  id: Uuid,
  notificationId: Type.Union([Uuid, Type.Null()]),
  notificationName: Type.String(),
  channel: Channel,
  target: Type.String({ description: 'e-mail address or webhook URL' }),
  subject: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  lastError: Type.Union([Type.String(), Type.Null()]),
  nextAttemptAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  sentAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type Delivery = Static<typeof Delivery>;
export const DeliveryQuery = Type.Object(
  {
    organization: Type.String({ minLength: 1, maxLength: 80 }),
    status: Type.Optional(DeliveryStatus),
    channel: Type.Optional(Channel),
    page: Type.Optional(Type.Integer({ minimum: 0, maximum: 100_000, default: 0 })),
    pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  },
  { additionalProperties: false },
);
export const DeliveryPage = Type.Object({
  items: Type.Array(Delivery),
  total: Type.Integer(),
  page: Type.Integer(),
  pageSize: Type.Integer(),
});

const Clock = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM' });
/** E-mail held back between start and end (in the time zone); CRITICAL alarms are sent anyway. */
export const QuietHours = Type.Object(
  { start: Clock, end: Clock, timeZone: Type.String({ minLength: 1, maxLength: 64 }) },
  { additionalProperties: false },
);

export const ChannelSettings = Type.Object({
  sender: Type.Union([Type.String(), Type.Null()], {
    description: 'From: of notification e-mail; null: the default',
  }),
  webhookSecretSet: Type.Boolean({ description: 'webhooks are signed (X-Edgeport-Signature, HMAC-SHA256)' }),
  quietHours: Type.Union([QuietHours, Type.Null()]),
  allowedWebhookHosts: Type.Array(Type.String(), {
    description:
      "when not empty, the only hosts (host or host:port) the organization's webhooks may go to; they open no " +
      'private, loopback, link-local or metadata address (only WEBHOOK_ALLOWED_PRIVATE_HOSTS opens private ones)',
  }),
});
export type ChannelSettings = Static<typeof ChannelSettings>;
export const ChannelSettingsUpdate = Type.Object(
  {
    sender: Type.Optional(Type.Union([Type.String({ format: 'email', maxLength: 254 }), Type.Null()])),
    webhookSecret: Type.Optional(
      Type.Union([Type.String({ minLength: 16, maxLength: 200 }), Type.Null()], {
        description: 'null removes it',
      }),
    ),
    quietHours: Type.Optional(Type.Union([QuietHours, Type.Null()])),
    allowedWebhookHosts: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 253 }), { maxItems: 50 }),
    ),
  },
  { additionalProperties: false },
);
export type ChannelSettingsUpdate = Static<typeof ChannelSettingsUpdate>;
