import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';

export type DealerAction =
  | 'client'
  | 'issue'
  | 'renew'
  | 'autorenew'
  | 'revoke'
  | 'product'
  | 'version'
  | 'deleteProduct'
  | 'markPaid';

const CONFLICT: Partial<Record<DealerAction, string>> = {
  product: 'dealer.errors.codeTaken',
  deleteProduct: 'dealer.errors.productInUse',
  renew: 'dealer.errors.licenseState',
  autorenew: 'dealer.errors.licenseState',
  revoke: 'dealer.errors.licenseState',
  issue: 'dealer.errors.issueRefused',
  markPaid: 'dealer.errors.invoiceNotOpen',
};

/**
 * A failed dealer call in the user's words (the server's text is never shown, spec 8): 409 the state does not allow
 * it (a code in use, a licence already revoked, an invoice no longer open); 404 gone; 403 not allowed; 400 refused.
 */
export function dealerFailure(t: TFunction, action: DealerAction, error: unknown): string {
  if (hasStatus(error, 409)) return t(CONFLICT[action] ?? 'dealer.errors.conflict');
  if (hasStatus(error, 404)) return t('dealer.errors.gone');
  if (hasStatus(error, 403)) return t('dealer.errors.forbidden');
  if (hasStatus(error, 400)) return t('dealer.errors.invalid');
  return describeError(t, error);
}
