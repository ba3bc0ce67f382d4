import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';

/**
 * A failed dashboard-service call in the user's words: 404 gone or not shared with you, 403 not allowed at your
 * level, 409 a conflict (a version number taken meanwhile, the current version), 400 refused input.
 */
export function flowsFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 404)) return t('flows.errors.notFound');
  if (hasStatus(error, 403)) return t('flows.errors.forbidden');
  if (hasStatus(error, 409)) return t('flows.errors.conflict');
  if (hasStatus(error, 400)) return t('flows.errors.invalid');
  return describeError(t, error);
}
