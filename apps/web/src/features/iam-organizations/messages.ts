import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';

export type DeleteRefusal = 'subOrganizations' | 'devices' | 'lastTopLevel' | 'other';

/**
 * Which refusal a 409 on deleting an organization is. The server's text only picks the reason; what is shown is the
 * portal's own translated sentence (spec 8).
 */
export function deleteRefusal(error: unknown, knownChildren: number): DeleteRefusal {
  const message = isHttpError(error) ? (error.serverMessage ?? '') : '';
  if (/sub-organization/i.test(message)) return 'subOrganizations';
  if (/device/i.test(message)) return 'devices';
  if (/top-level/i.test(message)) return 'lastTopLevel';
  return knownChildren > 0 ? 'subOrganizations' : 'other';
}

export function deleteFailure(t: TFunction, error: unknown, name: string, knownChildren: number): string {
  if (hasStatus(error, 409))
    return t(`iamOrganizations.delete.refused.${deleteRefusal(error, knownChildren)}`, { name });
  return commonFailure(t, error);
}

/** Failures every action shares: no permission (403), gone meanwhile (404), refused input (400). */
export function commonFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 403)) return t('iamOrganizations.errors.forbidden');
  if (hasStatus(error, 404)) return t('iamOrganizations.errors.gone');
  if (hasStatus(error, 400)) return t('iamOrganizations.errors.invalid');
  return describeError(t, error);
}

/** A taken name (409) in the policy and client editors. */
export function saveFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 409)) return t('iamOrganizations.errors.nameTaken');
  return commonFailure(t, error);
}
