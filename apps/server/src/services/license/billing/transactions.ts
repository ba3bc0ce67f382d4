import type { Db } from '../../../db/index.ts';
import type { TransactionResult } from '../../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { PaymentProvider } from './payment-provider.ts';
import * as store from './store.ts';

// The store (organization apps) and licence renewal call these; the HTTP calls are in billing/service.ts.

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

/** Why a request is refused, in the order the checks run; AUTHORIZED when none applies. */
export function resultOf(
  request: Pick<AuthorizationRequest, 'maxAmountMinor' | 'maxExecutions' | 'approved'>,
  inAppPurchases: boolean,
): TransactionResult {
  if (!inAppPurchases) return 'ERROR_NO_IN_APP_PURCHASES';
  if (request.maxAmountMinor === 0 || request.maxExecutions === 0) return 'ERROR_NO_EMPTY_TRANSACTIONS';
  if (!request.approved) return 'USER_REJECTED';
  return 'AUTHORIZED';
}

function assertWhole(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0)
    throw badRequest(`${name} must be a whole, non-negative number, got ${value}`);
}

/**
 * Records a preauthorized transaction and answers its result (AUTHORIZED and the id, or why not). Refused requests
 * are recorded too, with status REFUSED. Does not write the audit record (the caller does, with its principal).
 */
export async function authorizeTransaction(
  db: Db,
  request: AuthorizationRequest,
): Promise<{ id: string; result: TransactionResult }> {
  assertWhole('maxAmountMinor', request.maxAmountMinor);
  assertWhole('maxExecutions', request.maxExecutions);
  if (!/^[A-Z]{3}$/.test(request.currency))
    throw badRequest(`currency must be a 3-letter ISO 4217 code, got '${request.currency}'`);
  const org = await store.findOrganizationFlags(db, request.organizationId);
  if (!org) throw notFound(`organization '${request.organizationId}' not found`);
  const result = resultOf(request, org.inAppPurchases);
  const row = await store.insertTransaction(db, {
    organizationId: request.organizationId,
    description: request.description,
    purpose: request.purpose,
    currency: request.currency,
    maxAmountMinor: request.maxAmountMinor,
    maxExecutions: request.maxExecutions,
    result,
    status: result === 'AUTHORIZED' ? 'ACTIVE' : 'REFUSED',
    createdBy: request.createdBy,
  });
  return { id: row.id, result };
}

export type ExecutionStatus = 'PENDING' | 'PAID' | 'FAILED';

/** An execution's status from the provider's answer: money moved (PAID), an invoice waits (PENDING), or refused. */
export function executionStatusOf(status: 'PAID' | 'OPEN' | 'FAILED'): ExecutionStatus {
  return status === 'OPEN' ? 'PENDING' : status;
}

/**
 * Charges the next execution order of an ACTIVE transaction through the provider (invoice reference
 * `transaction:{id}/{n}`), all in one database transaction. 409 when the transaction is not ACTIVE, has made
 * maxExecutions already, or the amount is over maxAmountMinor; 404 for an unknown transaction. After the last
 * allowed execution the transaction is EXHAUSTED. A FAILED charge still uses up its execution order (retry it).
 */
export async function executeTransaction(
  db: Db,
  payments: PaymentProvider,
  transactionId: string,
  amountMinor: number,
  description: string,
): Promise<{ n: number; invoiceId: string; status: 'PENDING' | 'PAID' | 'FAILED' }> {
  assertWhole('amountMinor', amountMinor);
  return db.transaction(async (transaction) => {
    const tx = transaction as unknown as Db;
    const row = await store.lockTransaction(tx, transactionId);
    if (!row) throw notFound(`transaction '${transactionId}' not found`);
    if (row.status !== 'ACTIVE')
      throw conflict(`transaction '${transactionId}' is ${row.status}; it allows no further executions`);
    const made = await store.countExecutions(tx, transactionId);
    if (made >= row.maxExecutions)
      throw conflict(`transaction '${transactionId}' has made all ${row.maxExecutions} allowed executions`);
    if (amountMinor > row.maxAmountMinor)
      throw conflict(`amountMinor ${amountMinor} is over the authorized maximum of ${row.maxAmountMinor}`);
    const n = made + 1;
    const charged = await payments.charge(tx, {
      organizationId: row.organizationId,
      amountMinor,
      currency: row.currency,
      description,
      reference: `transaction:${row.id}/${n}`,
    });
    const status = executionStatusOf(charged.status);
    await store.insertExecution(tx, {
      transactionId: row.id,
      n,
      amountMinor,
      invoiceId: charged.invoiceId,
      status,
      error:
        charged.status === 'FAILED' ? (charged.error ?? 'the payment provider refused the charge') : null,
    });
    if (n >= row.maxExecutions) await store.setTransactionStatus(tx, row.id, 'EXHAUSTED');
    return { n, invoiceId: charged.invoiceId, status };
  });
}
