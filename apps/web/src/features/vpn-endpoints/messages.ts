import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';

/** A failed endpoint call in the user's words: 409 a name in use, 404 gone, 403 not allowed, 400 refused input. */
export function endpointFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 409)) return t('vpnEndpoints.errors.taken');
  if (hasStatus(error, 404)) return t('vpnEndpoints.errors.gone');
  if (hasStatus(error, 403)) return t('vpnEndpoints.errors.forbidden');
  if (hasStatus(error, 400)) return t('vpnEndpoints.errors.invalid');
  return describeError(t, error);
}
