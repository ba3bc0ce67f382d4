import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';
import type { Issue } from './model-form.ts';

/** A problem of the model editor in the user's language. */
export function issueText(t: TFunction, issue: Issue): string {
  return t(`dataModels.validation.${issue.key}`, issue.values ?? {});
}

export type Subject = 'model' | 'preset';

/**
 * A failed model or preset call in the user's words (the server's text is never shown, spec 8): 409 a name in use,
 * 404 gone, 403 not allowed (or shared by a parent organization), 400 refused input.
 */
export function saveFailure(t: TFunction, subject: Subject, error: unknown): string {
  if (hasStatus(error, 409)) return t(`dataModels.errors.${subject}NameTaken`);
  if (hasStatus(error, 404)) return t(`dataModels.errors.${subject}Gone`);
  if (hasStatus(error, 403)) return t('dataModels.errors.forbidden');
  if (hasStatus(error, 400)) return t('dataModels.errors.invalid');
  return describeError(t, error);
}

/** A refused delete: 409 says how many presets (or devices) still use it, when that count is known. */
export function deleteFailure(
  t: TFunction,
  subject: Subject,
  error: unknown,
  inUse: number | undefined,
): string {
  if (hasStatus(error, 409)) {
    if (inUse === undefined || inUse <= 0) return t(`dataModels.errors.${subject}InUse`);
    return subject === 'model'
      ? t('dataModels.errors.modelUsedBy', { count: inUse })
      : t('dataModels.errors.presetUsedBy', { count: inUse });
  }
  if (hasStatus(error, 404)) return t(`dataModels.errors.${subject}Gone`);
  if (hasStatus(error, 403)) return t('dataModels.errors.forbidden');
  return describeError(t, error);
}

/** A load failure (drawers, pickers). */
export function loadFailure(t: TFunction, subject: Subject, error: unknown): string {
  if (hasStatus(error, 404)) return t(`dataModels.errors.${subject}Gone`);
  return describeError(t, error);
}

/** The formula check's answer in the user's words: what kind of problem, never the parser's text. */
export function formulaProblem(error: string | undefined): string {
  if (!error) return 'formulaInvalid';
  if (error.includes('blank')) return 'formulaBlank';
  if (error.includes('at most')) return 'formulaTooLong';
  if (error.includes('must give a number')) return 'formulaNotNumber';
  if (error.includes('does not parse')) return 'formulaSyntax';
  return 'formulaInvalid';
}
