import type { Db } from '../../../db/index.ts';

/** One charge: integer minor units (cents) only, never floating point. */
export type Charge = {
  organizationId: string;
  amountMinor: number;
  currency: string;
  description: string;
  /** What it pays for, as stored in `invoices.reference`: `license:{id}`, `app:{organizationAppId}`, `transaction:{id}/{n}`. */
  reference: string;
};

/** PAID when money moved at once (a card processor), OPEN when an invoice waits to be paid, FAILED when refused. */
export type ChargeResult = { invoiceId: string; status: 'PAID' | 'OPEN' | 'FAILED'; error?: string };

/**
 * Where money comes from. The default provider (`InvoiceProvider`) records an invoice that an operator of an
 * ancestor organization marks paid; a card processor implements the same interface later.
 */
export interface PaymentProvider {
  readonly name: string;
  charge(db: Db, charge: Charge): Promise<ChargeResult>;
}
