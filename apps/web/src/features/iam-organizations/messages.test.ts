import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { deleteFailure, deleteRefusal } from './messages.ts';

const conflict = (serverMessage?: string) => new HttpError('status', { status: 409, serverMessage });
const t = ((key: string, options?: Record<string, unknown>) =>
  `${key}|${options?.name ?? ''}`) as unknown as TFunction;

describe('why deleting an organization was refused', () => {
  it('picks the reason from the refusal, never showing the server text', () => {
    expect(deleteRefusal(conflict("organization 'X' has 2 sub-organizations; delete"), 0)).toBe(
      'subOrganizations',
    );
    expect(deleteRefusal(conflict("organization 'X' has 1 device; move"), 0)).toBe('devices');
    expect(deleteRefusal(conflict("organization 'X' is the last top-level organization"), 0)).toBe(
      'lastTopLevel',
    );
    expect(deleteRefusal(conflict(), 3)).toBe('subOrganizations');
    expect(deleteRefusal(conflict(), 0)).toBe('other');
    expect(deleteFailure(t, conflict('has 1 device'), 'Plant', 0)).toBe(
      'iamOrganizations.delete.refused.devices|Plant',
    );
  });

  it('describes other failures as the portal does', () => {
    expect(deleteFailure(t, new HttpError('status', { status: 403 }), 'Plant', 0)).toBe(
      'iamOrganizations.errors.forbidden|',
    );
  });
});
