import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';

export type UserAction = 'invite' | 'save' | 'delete' | 'enable' | 'policies' | 'apiKey' | 'apiKeyDelete';

/** Which of two refusals with one status the server meant (its text picks our words; it is never shown). */
function serverSays(error: unknown, phrase: string): boolean {
  return isHttpError(error) && (error.serverMessage ?? '').includes(phrase);
}

/**
 * A failed call of this screen in the user's words. The server's text is never shown (spec 8); the refusals this
 * screen knows get their own message.
 */
export function userFailure(t: TFunction, action: UserAction, error: unknown): string {
  if (hasStatus(error, 409)) {
    if (action === 'invite' && serverSays(error, 'already invited'))
      return t('iamUsers.errors.alreadyInvited');
    if (action === 'invite') return t('iamUsers.errors.alreadyMember');
    if (action === 'save') return t('iamUsers.errors.emailTaken');
    if (action === 'delete') return t('iamUsers.errors.notYourself');
    if (action === 'enable') return t('iamUsers.errors.notYourself');
    if (action === 'apiKey') return t('iamUsers.errors.tooManyKeys');
  }
  if (hasStatus(error, 404)) {
    if (action === 'invite') return t('iamUsers.errors.assignmentGone');
    if (action === 'policies') return t('iamUsers.errors.policyGone');
    if (action === 'apiKey' || action === 'apiKeyDelete') return t('iamUsers.errors.keyGone');
    return t('iamUsers.errors.gone');
  }
  // The account also belongs to another organization: only its owner changes it (the form is read-only for it).
  if (hasStatus(error, 403) && serverSays(error, 'another organization'))
    return t('iamUsers.errors.notManaged');
  if (hasStatus(error, 403)) return t('iamUsers.errors.forbidden');
  if (hasStatus(error, 400)) return t('iamUsers.errors.invalid');
  return describeError(t, error);
}

/** "Ada Lovelace", or the e-mail when the person has no name. */
export function displayName(user: { email: string; firstName: string; lastName: string }): string {
  return `${user.firstName} ${user.lastName}`.trim() || user.email;
}

export type UserStatus = 'disabled' | 'invited' | 'passwordChange' | 'active';

/** The chips of the status column: enabled or disabled, and what the user still has to do. */
export function userStatuses(user: {
  enabled: boolean;
  invitationPending: boolean;
  passwordChangeInvitation: boolean;
}): UserStatus[] {
  const statuses: UserStatus[] = [user.enabled ? 'active' : 'disabled'];
  if (user.invitationPending) statuses.push('invited');
  else if (user.passwordChangeInvitation) statuses.push('passwordChange');
  return statuses;
}

export const STATUS_COLORS: Record<UserStatus, string> = {
  active: 'green',
  disabled: 'red',
  invited: 'blue',
  passwordChange: 'yellow',
};

/** The address typed in the invite form, as the server will store it. */
export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** A plain address check for the form (the server validates the format again). */
export function looksLikeEmail(value: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value.trim());
}

/** A date-input value (yyyy-mm-dd) as the end of that day in the browser's time zone, ISO for the API. */
export function endOfDayIso(date: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const [year, month, day] = date.split('-').map(Number);
  const end = new Date(year ?? 0, (month ?? 1) - 1, day ?? 1, 23, 59, 59);
  return Number.isNaN(end.getTime()) ? undefined : end.toISOString();
}

/** A date as a date input writes it (yyyy-mm-dd), in the browser's time zone. */
export function localDateInput(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}
