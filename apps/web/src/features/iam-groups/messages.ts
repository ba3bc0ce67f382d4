import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';

export type GroupAction = 'save' | 'delete' | 'member' | 'roles';

/**
 * A failed group call in the user's words: the server's text is never shown (spec 8), known refusals get their own
 * message (409: the name is taken or the group is still needed; 404: it is gone; 403: not allowed).
 */
export function groupFailure(t: TFunction, action: GroupAction, error: unknown): string {
  if (hasStatus(error, 409))
    return t(action === 'save' ? 'iamGroups.errors.nameTaken' : 'iamGroups.errors.inUse');
  if (hasStatus(error, 404))
    return t(
      action === 'member'
        ? 'iamGroups.errors.memberGone'
        : action === 'roles'
          ? 'iamGroups.errors.roleGone'
          : 'iamGroups.errors.gone',
    );
  if (hasStatus(error, 403)) return t('iamGroups.errors.forbidden');
  if (hasStatus(error, 400)) return t('iamGroups.errors.invalid');
  return describeError(t, error);
}

/** "Ada Lovelace (ada@example.com)", or the address alone when the person has no name. */
export function personLabel(person: { email: string; firstName: string; lastName: string }): string {
  const name = `${person.firstName} ${person.lastName}`.trim();
  return name ? `${name} (${person.email})` : person.email;
}
