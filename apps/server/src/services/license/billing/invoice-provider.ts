import type { Db } from '../../../db/index.ts';
import { badRequest } from '../../../http/errors.ts';
import type { Charge, ChargeResult, PaymentProvider } from './payment-provider.ts';
import * as store from './store.ts';

/** 400 unless the charge is a whole, non-negative amount of minor units in a 3-letter currency. */
export function assertValidCharge(charge: Charge): void {
  if (!Number.isSafeInteger(charge.amountMinor))
    throw badRequest(`amountMinor must be a whole number of minor units, got ${charge.amountMinor}`);
  if (charge.amountMinor < 0) throw badRequest(`amountMinor must not be negative, got ${charge.amountMinor}`);
  if (!/^[A-Z]{3}$/.test(charge.currency))
    throw badRequest(`currency must be a 3-letter ISO 4217 code, got '${charge.currency}'`);
  if (!charge.reference.trim()) throw badRequest('reference must not be blank');
}

/**
 * Records the invoice of a charge (validated first). A card processor calls this too, with status PAID and its
 * payment id as `paidBy`, or FAILED, so every charge has an invoice whatever the provider.
 */
export async function recordInvoice(
  db: Db,
  provider: string,
  charge: Charge,
  outcome: { status: 'OPEN' | 'PAID' | 'FAILED'; paidAt?: Date; paidBy?: string } = { status: 'OPEN' },
): Promise<store.InvoiceRow> {
  assertValidCharge(charge);
  return store.insertInvoice(db, {
    organizationId: charge.organizationId,
    description: charge.description,
    amountMinor: charge.amountMinor,
    currency: charge.currency,
    status: outcome.status,
    provider,
    reference: charge.reference,
    paidAt: outcome.status === 'PAID' ? (outcome.paidAt ?? new Date()) : null,
    paidBy: outcome.status === 'PAID' ? (outcome.paidBy ?? null) : null,
  });
}

/**
 * The default provider: every charge becomes an OPEN invoice of the organization; an operator of an ancestor
 * organization marks it paid (`POST /organizations/{operator}/invoices/{id}/paid`, see docs/billing.md).
 */
export class InvoiceProvider implements PaymentProvider {
  readonly name = 'invoice';

  async charge(db: Db, charge: Charge): Promise<ChargeResult> {
    const invoice = await recordInvoice(db, this.name, charge);
    return { invoiceId: invoice.id, status: 'OPEN' };
  }
}
