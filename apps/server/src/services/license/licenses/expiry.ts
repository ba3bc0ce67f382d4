import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/index.ts';
import type { Ingest } from '../../../ingest/index.ts';
import { insertAuditRecord } from '../../audit/store.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { PaymentProvider } from '../billing/payment-provider.ts';
import { LICENSE_TERM_MS } from '../service.ts';
import { type ExpiryFacts, expiryWarningText } from './expiry-texts.ts';
import * as lifecycle from './lifecycle.ts';
import { announceAll } from './service.ts';
import * as store from './store.ts';

export type LicenseExpiryDeps = {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  notifier: Notifier;
  payments: PaymentProvider;
  ingest: Ingest;
};

/** Expiry warnings go out this many days before a licence's term ends (each once a term). */
export const WARNING_DAYS = [30, 7] as const;
/** How often the sweep runs. */
export const SWEEP_INTERVAL_MS = 60_000;
/** Rows one pass takes of each kind; a pass repeats until nothing is due. */
const BATCH = 200;
const MAX_BATCHES = 50;

const DAY_MS = lifecycle.DAY_MS;

/**
 * Licence terms on the server's clock: warnings 30 and 7 days ahead, renewal of autorenew licences (charged through
 * the payment provider), expiry of the rest with their device licences (and the devices' access).
 */
export class LicenseExpiry {
  readonly #deps: LicenseExpiryDeps;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> = Promise.resolve();

  constructor(deps: LicenseExpiryDeps) {
    this.#deps = deps;
  }

  async start(): Promise<void> {
    if (this.#timer) return;
    this.#timer = setInterval(() => {
      this.sweep().catch((error: unknown) => this.#deps.log.error({ error }, 'licence expiry sweep failed'));
    }, SWEEP_INTERVAL_MS);
    this.#timer.unref();
  }

  /** One pass over every licence due now (also run by the test clock after it moves). Passes never overlap. */
  async sweep(): Promise<void> {
    const next = this.#running.catch(() => {}).then(() => this.#pass());
    this.#running = next;
    return next;
  }

  async close(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running.catch(() => {});
  }

  async #pass(): Promise<void> {
    const now = this.#deps.clock.now();
    await this.#warn(now);
    await this.#endTerms(now);
    await this.#endStandalone(now);
  }

  /** One warning per licence and window; a licence already inside the 7-day window gets one warning for both. */
  async #warn(now: Date): Promise<void> {
    const { db, log } = this.#deps;
    const windows = [...WARNING_DAYS];
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const rows = await store.dueForWarning(db, now, windows, BATCH);
      if (rows.length === 0) return;
      for (const row of rows) {
        try {
          await this.#warnOne(row, now);
        } catch (error) {
          log.error({ error, licenseId: row.id }, 'licence expiry warning failed');
          // Marked anyway so one failing licence cannot stop the sweep; the failure is logged.
          await store.markWarned(db, row, this.#windowsReached(row, now));
        }
      }
    }
  }

  #windowsReached(row: store.LicenseRow, now: Date): number[] {
    const left = (row.expiresAt?.getTime() ?? 0) - now.getTime();
    const reached = WARNING_DAYS.filter((days) => left <= days * DAY_MS);
    return [...new Set([...row.warnedDays, ...reached])].sort((a, b) => b - a);
  }

  async #warnOne(row: store.LicenseRow, now: Date): Promise<void> {
    const { db, notifier } = this.#deps;
    if (!row.expiresAt) return;
    const warned = this.#windowsReached(row, now);
    // Marking first makes the warning go out once even if two passes meet.
    if (!(await store.markWarned(db, row, warned))) return;
    const view = await store.findById(db, row.id);
    if (!view) return;
    const days = Math.min(
      ...WARNING_DAYS.filter((window) => !row.warnedDays.includes(window) && warned.includes(window)),
    );
    const daysLeft = Math.max(0, Math.ceil((row.expiresAt.getTime() - now.getTime()) / DAY_MS));
    const recipients: { organizationId: string; emails: string[] }[] = [];
    for (const organizationId of new Set([
      view.organizationId,
      view.issuerOrganizationId ?? view.organizationId,
    ])) {
      const admins = await store.administratorsOf(db, organizationId);
      const emails = admins.map((admin) => admin.email);
      const facts: ExpiryFacts = {
        licenseCode: view.licenseCode,
        productName: view.product.name,
        holderName: view.organizationName,
        quantity: view.quantity,
        daysLeft,
        expiresAt: row.expiresAt,
        autorenew: view.autorenew,
        toHolder: organizationId === view.organizationId,
      };
      await notifier.sendEmails(
        organizationId,
        `licence expiry: ${view.licenseCode}`,
        admins.map((admin) => ({
          to: admin.email,
          language: admin.language,
          ...expiryWarningText(admin.language, facts),
        })),
        {
          event: 'LICENSE_EXPIRY_WARNING',
          licenseId: view.id,
          licenseCode: view.licenseCode,
          holderOrganizationId: view.organizationId,
          days,
          expiresAt: row.expiresAt.toISOString(),
        },
      );
      recipients.push({ organizationId, emails });
    }
    await store.insertEvent(db, {
      organizationId: view.organizationId,
      licenseId: view.id,
      event: 'EXPIRY_WARNING',
      detail: {
        days,
        daysLeft,
        expiresAt: row.expiresAt.toISOString(),
        autorenew: view.autorenew,
        recipients: recipients.reduce((total, entry) => total + entry.emails.length, 0),
      },
      at: now,
    });
  }

  /** Terms that ended: autorenew licences are renewed (charged), the others expire with their device licences. */
  async #endTerms(now: Date): Promise<void> {
    const { db, log, payments } = this.#deps;
    const failed = new Set<string>();
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const rows = (await store.activeEndingBy(db, now, BATCH + failed.size)).filter(
        (row) => !failed.has(row.id),
      );
      if (rows.length === 0) return;
      for (const row of rows) {
        try {
          await this.#endTerm(row, now, payments);
        } catch (error) {
          failed.add(row.id);
          log.error({ error, licenseId: row.id }, 'ending a licence term failed');
        }
      }
    }
  }

  async #endTerm(row: store.LicenseRow, now: Date, payments: PaymentProvider): Promise<void> {
    const { db, log } = this.#deps;
    let renewalRefused: string | undefined;
    if (row.autorenew) {
      try {
        const charge = await lifecycle.inTransaction(db, (tx) =>
          lifecycle.renewDueTerm(tx, payments, row.id, now),
        );
        if (!charge) return;
        await this.#audit(row, 'licenses.renew', {
          autorenew: true,
          previousExpiresAt: row.expiresAt?.toISOString(),
          charge,
        });
        return;
      } catch (error) {
        renewalRefused = error instanceof Error ? error.message : String(error);
        log.warn({ error, licenseId: row.id }, 'autorenew of a licence failed; it expires');
      }
    }
    const devices = await lifecycle.inTransaction(db, (tx) =>
      lifecycle.expire(tx, row.id, now, renewalRefused ? { autorenewFailed: renewalRefused } : {}),
    );
    if (!devices) return;
    announceAll(devices);
    await this.#audit(row, 'licenses.expire', {
      expiresAt: row.expiresAt?.toISOString(),
      devicesDisconnected: devices.length,
      ...(renewalRefused && { autorenewFailed: renewalRefused }),
    });
  }

  /**
   * Device licences issued on their own (no licence) follow their own term: with autorenew they run another year,
   * otherwise they expire and their device is disconnected.
   */
  async #endStandalone(now: Date): Promise<void> {
    const { db } = this.#deps;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const rows = await store.standaloneEndedBy(db, now, BATCH);
      if (rows.length === 0) return;
      for (const row of rows) {
        if (row.autorenew) {
          const from = Math.max(now.getTime(), row.expiresAt?.getTime() ?? 0);
          await store.updateDueDeviceLicense(db, row.id, now, {
            expiresAt: new Date(from + LICENSE_TERM_MS),
          });
          continue;
        }
        if (await store.updateDueDeviceLicense(db, row.id, now, { status: 'EXPIRED' })) {
          if (row.deviceId) announceAll([row.deviceId]);
          await this.#systemAudit(row.organizationId, 'deviceLicenses.expire', 'deviceLicenses', row.id, '', {
            expiresAt: row.expiresAt?.toISOString(),
            deviceId: row.deviceId,
          });
        }
      }
    }
  }

  async #audit(row: store.LicenseRow, action: string, detail: Record<string, unknown>) {
    await this.#systemAudit(row.organizationId, action, 'licenses', row.id, row.licenseCode, detail);
  }

  /** An audit record of the platform itself (no person acted). */
  async #systemAudit(
    organizationId: string,
    action: string,
    resourceType: string,
    resourceId: string,
    resourceName: string,
    detail: Record<string, unknown>,
  ) {
    const org = await store.organizationOf(this.#deps.db, organizationId);
    if (!org) return;
    await insertAuditRecord(this.#deps.db, {
      realm: org.realm,
      organizationId,
      actorId: null,
      actorEmail: 'system',
      action,
      resourceType,
      resourceId,
      resourceName,
      detail,
    });
  }
}
