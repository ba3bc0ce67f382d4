import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import {
  displayName,
  endOfDayIso,
  localDateInput,
  looksLikeEmail,
  normalizeEmail,
  userFailure,
  userStatuses,
} from './messages.ts';

const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
const status = (code: number) => new HttpError('status', { status: code, serverMessage: 'raw server text' });

describe('userFailure', () => {
  it('maps the refusals of each action to this screen’s own words, never the server text', () => {
    expect(userFailure(t, 'invite', status(409))).toBe('iamUsers.errors.alreadyMember');
    expect(userFailure(t, 'save', status(409))).toBe('iamUsers.errors.emailTaken');
    expect(userFailure(t, 'delete', status(409))).toBe('iamUsers.errors.notYourself');
    expect(userFailure(t, 'apiKey', status(409))).toBe('iamUsers.errors.tooManyKeys');
    expect(userFailure(t, 'invite', status(404))).toBe('iamUsers.errors.assignmentGone');
    expect(userFailure(t, 'policies', status(404))).toBe('iamUsers.errors.policyGone');
    expect(userFailure(t, 'apiKeyDelete', status(404))).toBe('iamUsers.errors.keyGone');
    expect(userFailure(t, 'save', status(404))).toBe('iamUsers.errors.gone');
    expect(userFailure(t, 'save', status(403))).toBe('iamUsers.errors.forbidden');
    const shared = new HttpError('status', {
      status: 403,
      serverMessage: "user 'x' also belongs to another organization",
    });
    expect(userFailure(t, 'save', shared)).toBe('iamUsers.errors.notManaged');
    const invited = new HttpError('status', { status: 409, serverMessage: "email: 'x' is already invited" });
    expect(userFailure(t, 'invite', invited)).toBe('iamUsers.errors.alreadyInvited');
    expect(userFailure(t, 'invite', status(400))).toBe('iamUsers.errors.invalid');
    expect(userFailure(t, 'save', status(500))).toBe('errors.status {"status":500}');
    expect(userFailure(t, 'save', new HttpError('network'))).toBe('errors.network');
    expect(userFailure(t, 'invite', status(409))).not.toContain('raw server text');
  });
});

describe('user presentation', () => {
  it('names a person by their names, else by e-mail', () => {
    expect(displayName({ email: 'a@x.test', firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(displayName({ email: 'a@x.test', firstName: ' ', lastName: '' })).toBe('a@x.test');
  });

  it('shows enabled or disabled, and what the user still has to do', () => {
    const base = { enabled: true, invitationPending: false, passwordChangeInvitation: false };
    expect(userStatuses(base)).toEqual(['active']);
    expect(userStatuses({ ...base, enabled: false })).toEqual(['disabled']);
    expect(userStatuses({ ...base, invitationPending: true, passwordChangeInvitation: true })).toEqual([
      'active',
      'invited',
    ]);
    expect(userStatuses({ ...base, passwordChangeInvitation: true })).toEqual(['active', 'passwordChange']);
  });
});

describe('form helpers', () => {
  it('checks and normalizes e-mail addresses', () => {
    expect(looksLikeEmail('name@example.com')).toBe(true);
    expect(looksLikeEmail(' name@example.com ')).toBe(true);
    expect(looksLikeEmail('name@example')).toBe(false);
    expect(looksLikeEmail('na me@example.com')).toBe(false);
    expect(normalizeEmail('  Name@Example.COM ')).toBe('name@example.com');
  });

  it('turns a date input into the end of that local day, and back', () => {
    const iso = endOfDayIso('2030-04-05');
    const end = new Date(iso ?? '');
    expect([end.getFullYear(), end.getMonth(), end.getDate(), end.getHours(), end.getMinutes()]).toEqual([
      2030, 3, 5, 23, 59,
    ]);
    expect(endOfDayIso('')).toBeUndefined();
    expect(endOfDayIso('05.04.2030')).toBeUndefined();
    expect(localDateInput(new Date(2030, 0, 9, 12))).toBe('2030-01-09');
  });
});
