import { isHttpError } from '../../shared/http/errors.ts';

/** Spec 3: the results of an authorization request for a preauthorized transaction. */
export const TRANSACTION_RESULTS = [
  'AUTHORIZED',
  'USER_REJECTED',
  'ERROR_NO_EMPTY_TRANSACTIONS',
  'ERROR_NO_IN_APP_PURCHASES',
] as const;
export type TransactionResult = (typeof TRANSACTION_RESULTS)[number];

export function isTransactionResult(value: unknown): value is TransactionResult {
  return typeof value === 'string' && (TRANSACTION_RESULTS as readonly string[]).includes(value);
}

/** A refused authorization: one of the refusing results, or NOT_AUTHORIZED when the server named none. */
export type Refusal = Exclude<TransactionResult, 'AUTHORIZED'> | 'NOT_AUTHORIZED';

/** The i18n key (under `store.results`) that says what a result means for the user. */
export function resultKey(result: TransactionResult | Refusal): string {
  switch (result) {
    case 'NOT_AUTHORIZED':
      return 'store.results.notAuthorized';
    case 'AUTHORIZED':
      return 'store.results.authorized';
    case 'USER_REJECTED':
      return 'store.results.userRejected';
    case 'ERROR_NO_EMPTY_TRANSACTIONS':
      return 'store.results.noEmptyTransactions';
    case 'ERROR_NO_IN_APP_PURCHASES':
      return 'store.results.noInAppPurchases';
  }
}

/** Declining is the user's own choice (a notice); the two errors are refusals the organization must fix. */
export function resultColor(result: TransactionResult | Refusal): 'green' | 'yellow' | 'red' {
  if (result === 'AUTHORIZED') return 'green';
  return result === 'USER_REJECTED' ? 'yellow' : 'red';
}

const REFUSING = TRANSACTION_RESULTS.filter(
  (result): result is Exclude<TransactionResult, 'AUTHORIZED'> => result !== 'AUTHORIZED',
);

/**
 * The result of a refused authorization: the server answers 402 and names the result in its message ("the payment of
 * plan 'pro' was not authorized: USER_REJECTED"). Undefined for any other failure.
 */
export function refusalOf(error: unknown): Refusal | undefined {
  if (!isHttpError(error) || error.kind !== 'status' || error.status !== 402) return undefined;
  const message = error.serverMessage ?? '';
  const named = REFUSING.find((result) => new RegExp(`\\b${result}\\b`).test(message));
  return named ?? 'NOT_AUTHORIZED';
}
