import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';

export type RoleUsage = { users: number; groups: number };

export function isInUse(usage: RoleUsage): boolean {
  return usage.users > 0 || usage.groups > 0;
}

/** "used by 2 groups and 1 user", in the interface language. */
export function usageText(t: TFunction, usage: RoleUsage): string {
  return t('iamRoles.usage.text', {
    groups: t('iamRoles.usage.groups', { count: usage.groups }),
    users: t('iamRoles.usage.users', { count: usage.users }),
  });
}

/** Why deleting failed: a role in use (409) says by whom; anything else as the portal describes failures. */
export function deleteFailure(t: TFunction, error: unknown, name: string, usage: RoleUsage): string {
  if (hasStatus(error, 409)) return t('iamRoles.delete.inUse', { name, usage: usageText(t, usage) });
  if (hasStatus(error, 404)) return t('iamRoles.errors.gone');
  return describeError(t, error);
}

/** Why saving failed: a taken name (409), fields the server refused (400), a role gone meanwhile (404). */
export function saveFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 409)) return t('iamRoles.editor.nameTaken');
  if (hasStatus(error, 400)) return t('iamRoles.errors.invalid');
  if (hasStatus(error, 404)) return t('iamRoles.errors.gone');
  if (hasStatus(error, 403)) return t('iamRoles.errors.forbidden');
  return describeError(t, error);
}
