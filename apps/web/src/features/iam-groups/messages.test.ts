import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { groupFailure, personLabel } from './messages.ts';

const t = ((key: string) => key) as unknown as TFunction;
const status = (code: number) => new HttpError('status', { status: code, serverMessage: 'raw server text' });

describe('group failures', () => {
  it('maps known refusals to the feature’s own messages and never shows the server text', () => {
    expect(groupFailure(t, 'save', status(409))).toBe('iamGroups.errors.nameTaken');
    expect(groupFailure(t, 'delete', status(409))).toBe('iamGroups.errors.inUse');
    expect(groupFailure(t, 'member', status(404))).toBe('iamGroups.errors.memberGone');
    expect(groupFailure(t, 'roles', status(404))).toBe('iamGroups.errors.roleGone');
    expect(groupFailure(t, 'save', status(404))).toBe('iamGroups.errors.gone');
    expect(groupFailure(t, 'roles', status(403))).toBe('iamGroups.errors.forbidden');
    expect(groupFailure(t, 'save', status(400))).toBe('iamGroups.errors.invalid');
    expect(groupFailure(t, 'save', status(500))).toBe('errors.status');
    expect(groupFailure(t, 'save', new HttpError('network'))).toBe('errors.network');
  });

  it('labels people by name and address', () => {
    expect(personLabel({ email: 'a@x.test', firstName: 'Ada', lastName: 'Lovelace' })).toBe(
      'Ada Lovelace (a@x.test)',
    );
    expect(personLabel({ email: 'a@x.test', firstName: '', lastName: '' })).toBe('a@x.test');
  });
});
