import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { formatDate, licenseActions } from './format.ts';
import { dealerFailure } from './messages.ts';

describe('licenseActions', () => {
  it('offers what the licence service allows in each status', () => {
    expect(licenseActions('ISSUED')).toEqual({ renew: false, autorenew: true, revoke: true });
    expect(licenseActions('ACTIVE')).toEqual({ renew: true, autorenew: true, revoke: true });
    expect(licenseActions('EXPIRED')).toEqual({ renew: true, autorenew: true, revoke: true });
    expect(licenseActions('REVOKED')).toEqual({ renew: false, autorenew: false, revoke: false });
  });
});

describe('dates', () => {
  it('formats in the locale', () => {
    expect(formatDate('2026-03-05T10:00:00Z', 'en-US')).toBe('Mar 5, 2026');
    expect(formatDate('2026-03-05T10:00:00Z', 'de-DE')).toBe('05.03.2026');
    expect(formatDate(null, 'en-US')).toBe('');
  });
});

describe('dealerFailure', () => {
  const t = ((key: string) => key) as unknown as TFunction;
  const status = (code: number) => new HttpError('status', { status: code });

  it('says what a refusal means for the step that was tried', () => {
    expect(dealerFailure(t, 'product', status(409))).toBe('dealer.errors.codeTaken');
    expect(dealerFailure(t, 'deleteProduct', status(409))).toBe('dealer.errors.productInUse');
    expect(dealerFailure(t, 'revoke', status(409))).toBe('dealer.errors.licenseState');
    expect(dealerFailure(t, 'markPaid', status(409))).toBe('dealer.errors.invoiceNotOpen');
    expect(dealerFailure(t, 'client', status(409))).toBe('dealer.errors.conflict');
    expect(dealerFailure(t, 'renew', status(404))).toBe('dealer.errors.gone');
    expect(dealerFailure(t, 'issue', status(403))).toBe('dealer.errors.forbidden');
    expect(dealerFailure(t, 'version', status(400))).toBe('dealer.errors.invalid');
    expect(dealerFailure(t, 'issue', status(500))).toBe('errors.status');
  });
});
