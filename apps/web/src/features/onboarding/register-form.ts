import { hasStatus, isHttpError } from '../../shared/http/errors.ts';

export const PASSWORD_MIN_LENGTH = 8;
export const ORGANIZATION_NAME_MIN_LENGTH = 2;

export type RegisterFormValues = {
  organizationName: string;
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  confirmPassword: string;
  acceptedAgreementIds: string[];
};

export type RegisterField = keyof RegisterFormValues;

const FIELDS: readonly RegisterField[] = [
  'organizationName',
  'firstName',
  'lastName',
  'email',
  'password',
  'acceptedAgreementIds',
];

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type RegistrationFailure =
  | { kind: 'emailExists' }
  | { kind: 'field'; field: RegisterField }
  | { kind: 'other'; error: unknown };

/**
 * What a failed registration means for the form: 409 is an existing email; a 400 names the offending field first
 * in its message (`email: …`, `body/email must …`); anything else is shown as a failed call.
 */
export function registrationFailure(error: unknown): RegistrationFailure {
  if (hasStatus(error, 409)) return { kind: 'emailExists' };
  if (hasStatus(error, 400) && isHttpError(error)) {
    const message = error.serverMessage ?? '';
    const field = FIELDS.find((candidate) => new RegExp(`(^|[/\\s])${candidate}\\b`).test(message));
    if (field) return { kind: 'field', field };
  }
  return { kind: 'other', error };
}
