import type { FastifyBaseLogger } from 'fastify';
import { realmOrigin } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import type { AlarmChange, DeviceEvents } from '../../ingest/events.ts';
import { consumeDaily } from '../limits/enforce.ts';
import { attemptDelivery } from './attempt.ts';
import { emailSender } from './email.ts';
import { hostNetwork, type WebhookNetwork } from './network.ts';
import { type PlanContext, planAlarmDeliveries, planTriggerDeliveries, planWebhookCall } from './planner.ts';
import { channelConfigOf } from './settings.ts';
import { webhookUrlRefusal } from './ssrf.ts';
import * as store from './store.ts';
import { DeliveryWorker } from './worker.ts';

export type NotifierConfig = {
  smtpUrl: string | undefined;
  baseDomain: string;
  notificationRetryDelaysMs: number[];
  /** For the portal links in the texts (the realm's origin); http and the default port when absent. */
  publicScheme?: 'http' | 'https';
  publicPort?: number;
  /** WEBHOOK_ALLOWED_PRIVATE_HOSTS: the only hosts whose private addresses webhooks may reach. */
  webhookAllowedPrivateHosts?: readonly string[];
};

/** What a trigger rule tells the recipients of a notification rule. */
export type TriggerNotice = { triggerId: string; triggerName: string; detail: string };

export const DAILY_LIMIT_REACHED = 'notifications per day limit reached';

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
  private readonly email: ReturnType<typeof emailSender>;
  private readonly worker: DeliveryWorker;
  private readonly network: WebhookNetwork;
  private readonly privateHosts: readonly string[];
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly onAlarm = (change: AlarmChange) => {
    this.track(
      this.handleAlarm(change).catch((error: unknown) =>
        this.log.error({ error, alarmId: change.alarm.id }, 'notifications for an alarm change failed'),
      ),
    );
  };
  private started = false;

  constructor(deps: {
    db: Db;
    events: DeviceEvents;
    log: FastifyBaseLogger;
    config: NotifierConfig;
    /** Where webhooks are checked against and connect through; this host's by default (tests inject one). */
    network?: WebhookNetwork;
  }) {
    this.db = deps.db;
    this.events = deps.events;
    this.log = deps.log;
    this.config = deps.config;
    this.email = emailSender(deps.db, deps.config.smtpUrl);
    this.network = deps.network ?? hostNetwork;
    this.privateHosts = deps.config.webhookAllowedPrivateHosts ?? [];
    this.worker = new DeliveryWorker({
      db: deps.db,
      log: deps.log,
      delaysMs: deps.config.notificationRetryDelaysMs,
      attempt: (row) =>
        attemptDelivery(row, {
          db: deps.db,
          sendEmail: this.email.send,
          baseDomain: deps.config.baseDomain,
          network: this.network,
          privateHosts: this.privateHosts,
        }),
    });
  }

  /** Listens to alarm changes and starts the delivery worker (which also takes up deliveries left PENDING). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.events.on('alarm', this.onAlarm);
    this.wake();
  }

  /** A trigger's "send notification" action: deliveries to the recipients of that notification rule. */
  async notifyTrigger(organizationId: string, notificationId: string, notice: TriggerNotice): Promise<void> {
    await this.tracked(async () => {
      const rule = await store.findRule(this.db, organizationId, notificationId);
      if (!rule) throw new Error(`notification rule '${notificationId}' not found in this organization`);
      if (!rule.enabled) throw new Error(`notification rule '${rule.name}' is disabled`);
      const context = await this.context(organizationId);
      if (!context) return;
      const rows = await planTriggerDeliveries(this.db, rule, notice, context);
      const limited = await this.store(organizationId, rows);
      if (limited) throw new Error(DAILY_LIMIT_REACHED);
    });
  }

  /**
   * A trigger's "call a webhook" action: one delivery to the URL (same checks, retries and log). A URL the SSRF guard
   * refuses makes a FAILED delivery at once and throws with the reason.
   */
  async callWebhook(organizationId: string, url: string, payload: Record<string, unknown>): Promise<void> {
    await this.tracked(async () => {
      const context = await this.context(organizationId);
      if (!context) return;
      const row = planWebhookCall(url, payload, context);
      const policy = {
        privateHosts: this.privateHosts,
        organizationHosts: context.channel.allowedWebhookHosts,
      };
      const refusal = await webhookUrlRefusal(url, policy, this.network);
      if (refusal) {
        await store.insertDeliveries(this.db, [
          { ...row, status: 'FAILED', nextAttemptAt: null, lastError: refusal },
        ]);
        throw new Error(refusal);
      }
      const limited = await this.store(organizationId, [row]);
      if (limited) throw new Error(DAILY_LIMIT_REACHED);
    });
  }

  /**
   * E-mails the platform itself sends to people outside any notification rule (licence expiry warnings): stored as
   * deliveries of the organization (same worker, retries and failed-delivery log), not counted against its daily
   * notification limit. Answers how many were stored.
   */
  async sendEmails(
    organizationId: string,
    name: string,
    messages: { to: string; language: string; subject: string; body: string }[],
    payload: Record<string, unknown>,
  ): Promise<number> {
    const rows = await store.insertDeliveries(
      this.db,
      messages.map((message) => ({
        organizationId,
        notificationId: null,
        notificationName: name,
        channel: 'email' as const,
        target: message.to.toLowerCase(),
        language: message.language,
        subject: message.subject,
        body: message.body,
        payload,
        status: 'PENDING' as const,
        attempts: 0,
        // The delivery worker runs on the real time, not on the licence clock.
        nextAttemptAt: new Date(),
      })),
    );
    if (rows.length > 0) this.wake();
    return rows.length;
  }

  /** Looks for due deliveries now (after a resend). */
  wake(): void {
    this.track(this.worker.wake());
  }

  /** Resolves when every delivery attempt started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    await this.worker.idle();
    if (this.inFlight.size > 0) await this.settled();
  }

  async close(): Promise<void> {
    this.events.off('alarm', this.onAlarm);
    await Promise.allSettled([...this.inFlight]);
    await this.worker.close();
    this.email.close();
  }

  private track(promise: Promise<unknown>): void {
    const settled = promise.catch(() => {});
    this.inFlight.add(settled);
    void settled.finally(() => this.inFlight.delete(settled));
  }

  private async tracked<T>(work: () => Promise<T>): Promise<T> {
    const promise = work();
    this.track(promise);
    return promise;
  }

  private async context(organizationId: string): Promise<PlanContext | undefined> {
    const organization = await store.findOrganization(this.db, organizationId);
    if (!organization) return undefined;
    const scheme = this.config.publicScheme ?? 'http';
    const portalOrigin = realmOrigin(
      {
        publicScheme: scheme,
        publicPort: this.config.publicPort ?? (scheme === 'https' ? 443 : 80),
        baseDomain: this.config.baseDomain,
      },
      organization.realm,
    );
    return {
      organization,
      channel: await channelConfigOf(this.db, organizationId),
      portalOrigin,
      now: new Date(),
    };
  }

  private async handleAlarm(change: AlarmChange): Promise<void> {
    const rules = await store.enabledRulesOf(this.db, change.organizationId);
    if (rules.length === 0) return;
    const context = await this.context(change.organizationId);
    if (!context) return;
    const rows = await planAlarmDeliveries(this.db, rules, change, context);
    await this.store(change.organizationId, rows);
  }

  /**
   * Stores the deliveries after counting them against the organization's daily limit: over the limit they are stored
   * FAILED with the reason (the failed-notification log shows them). Answers whether the limit refused them.
   */
  private async store(organizationId: string, rows: store.NewDelivery[]): Promise<boolean> {
    if (rows.length === 0) return false;
    const allowed = await consumeDaily(this.db, organizationId, 'notificationsPerDay', rows.length);
    await store.insertDeliveries(
      this.db,
      allowed
        ? rows
        : rows.map((row) => ({
            ...row,
            status: 'FAILED',
            nextAttemptAt: null,
            lastError: DAILY_LIMIT_REACHED,
          })),
    );
    if (allowed) this.wake();
    return !allowed;
  }
}
