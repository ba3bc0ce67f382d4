import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.ts';
import type { DeviceEvents } from '../../ingest/events.ts';

export type NotifierConfig = {
  smtpUrl: string | undefined;
  baseDomain: string;
  notificationRetryDelaysMs: number[];
};

/** What a trigger rule tells the recipients of a notification rule. */
export type TriggerNotice = { triggerId: string; triggerName: string; detail: string };

/**
 * Turns alarm changes (and trigger actions) into deliveries for the matching notification rules, and delivers them:
 * e-mail (SMTP_URL, else the outbox) and webhooks (SSRF-checked, signed), with retries and backoff; deliveries that
 * finally fail make the failed-notification log.
 */
export class Notifier {
  private readonly db: Db;
  private readonly events: DeviceEvents;
  private readonly log: FastifyBaseLogger;
  private readonly config: NotifierConfig;

  constructor(deps: { db: Db; events: DeviceEvents; log: FastifyBaseLogger; config: NotifierConfig }) {
    this.db = deps.db;
    this.events = deps.events;
    this.log = deps.log;
    this.config = deps.config;
  }

  /** Listens to alarm changes and starts the delivery worker. */
  async start(): Promise<void> {}

  /** A trigger's "send notification" action: deliveries to the recipients of that notification rule. */
  async notifyTrigger(
    _organizationId: string,
    _notificationId: string,
    _notice: TriggerNotice,
  ): Promise<void> {}

  /** A trigger's "call a webhook" action: one delivery to the URL (same checks, retries and log). */
  async callWebhook(
    _organizationId: string,
    _url: string,
    _payload: Record<string, unknown>,
  ): Promise<void> {}

  /** Resolves when every delivery attempt started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {}

  async close(): Promise<void> {}
}
