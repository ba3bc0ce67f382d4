import type { Db } from '../../../db/index.ts';
import type { TransactionResult } from '../../../db/schema.ts';
import type { PaymentProvider } from './payment-provider.ts';

// The billing engineer builds these; the store (organization apps) and licence renewal call them.

export type AuthorizationRequest = {
  organizationId: string;
  description: string;
  /** What it pays for, as in invoices.reference, e.g. `app:{organizationAppId}`. */
  purpose: string;
  currency: string;
  maxAmountMinor: number;
  maxExecutions: number;
  /** The user's answer to "authorize these payments?"; false gives USER_REJECTED. */
  approved: boolean;
  createdBy: string | null;
};

/** Records a preauthorized transaction and answers its result (AUTHORIZED and the id, or why not). */
export async function authorizeTransaction(
  _db: Db,
  _request: AuthorizationRequest,
): Promise<{ id: string; result: TransactionResult }> {
  throw new Error('authorizeTransaction is not built yet');
}

/** Charges the next execution order of an ACTIVE transaction through the provider. */
export async function executeTransaction(
  _db: Db,
  _payments: PaymentProvider,
  _transactionId: string,
  _amountMinor: number,
  _description: string,
): Promise<{ n: number; invoiceId: string; status: 'PENDING' | 'PAID' | 'FAILED' }> {
  throw new Error('executeTransaction is not built yet');
}
