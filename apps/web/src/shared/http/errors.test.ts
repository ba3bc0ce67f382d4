import { describe, expect, it } from 'vitest';
import { HttpError, isNotFound } from './errors.ts';

describe('isNotFound', () => {
  it('is true for 404 and for 400 (an id that cannot be one)', () => {
    expect(isNotFound(new HttpError('status', { status: 404 }))).toBe(true);
    expect(isNotFound(new HttpError('status', { status: 400 }))).toBe(true);
  });

  it('is false for other statuses, other failures and other errors', () => {
    expect(isNotFound(new HttpError('status', { status: 403 }))).toBe(false);
    expect(isNotFound(new HttpError('status', { status: 500 }))).toBe(false);
    expect(isNotFound(new HttpError('network'))).toBe(false);
    expect(isNotFound(new Error('404'))).toBe(false);
  });
});
