import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { registrationFailure } from './register-form.ts';

describe('registration failures', () => {
  it('409 is an existing email', () => {
    expect(registrationFailure(new HttpError('status', { status: 409 }))).toEqual({ kind: 'emailExists' });
  });

  it('a 400 points at the field its message names', () => {
    const failure = (message: string) =>
      registrationFailure(new HttpError('status', { status: 400, serverMessage: message }));
    expect(failure('body/email must match format "email"')).toEqual({ kind: 'field', field: 'email' });
    expect(failure('password: too short')).toEqual({ kind: 'field', field: 'password' });
    expect(failure('acceptedAgreementIds must include every current agreement')).toEqual({
      kind: 'field',
      field: 'acceptedAgreementIds',
    });
    expect(failure('something else')).toMatchObject({ kind: 'other' });
  });

  it('anything else is a failed call', () => {
    expect(registrationFailure(new HttpError('network'))).toMatchObject({ kind: 'other' });
  });
});
