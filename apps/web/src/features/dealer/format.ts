import type { InvoiceStatus, LicenseStatus } from './api.ts';

/** One colour per licence status, the same in every dealer table and drawer. */
export const LICENSE_STATUS_COLOR: Record<LicenseStatus, string> = {
  ISSUED: 'blue',
  ACTIVE: 'teal',
  EXPIRED: 'gray',
  REVOKED: 'red',
};

export const INVOICE_STATUS_COLOR: Record<InvoiceStatus, string> = {
  OPEN: 'yellow',
  PAID: 'teal',
  FAILED: 'red',
  VOID: 'gray',
};

/** A date in the locale's words ("Mar 5, 2026", "05.03.2026"); an empty text for no date. */
export function formatDate(iso: string | null, locale: string): string {
  if (!iso) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(new Date(iso));
}

/** A count in the locale's digits ("12,500", "12.500"). */
export function formatCount(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** Actions a licence in this status allows (the server answers 409 to the others). */
export function licenseActions(status: LicenseStatus): {
  renew: boolean;
  autorenew: boolean;
  revoke: boolean;
} {
  return {
    renew: status === 'ACTIVE' || status === 'EXPIRED',
    autorenew: status !== 'REVOKED',
    revoke: status !== 'REVOKED',
  };
}
