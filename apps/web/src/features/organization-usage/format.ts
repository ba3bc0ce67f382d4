import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../shared/money/money.ts';

/** What a cell shows for a value that is not there (not a text to translate). */
export const NONE = '—';

export type Formats = {
  locale: string;
  count: (value: number) => string;
  /** A signed change: "+3", "−1", "0". */
  delta: (value: number) => string;
  date: (iso: string | null | undefined) => string;
  dateTime: (iso: string | null | undefined) => string;
  money: (amountMinor: number, currency: string) => string;
};

/** Numbers, dates and money in the interface language (whole numbers; money from integer minor units). */
export function useFormats(): Formats {
  const { i18n } = useTranslation();
  const locale = i18n.language;
  return useMemo(() => {
    const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
    const delta = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, signDisplay: 'exceptZero' });
    const date = new Intl.DateTimeFormat(locale, { dateStyle: 'medium' });
    const dateTime = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' });
    const instant = (format: Intl.DateTimeFormat) => (iso: string | null | undefined) => {
      if (!iso) return NONE;
      const ms = Date.parse(iso);
      return Number.isFinite(ms) ? format.format(ms) : NONE;
    };
    return {
      locale,
      count: (value) => count.format(value),
      delta: (value) => delta.format(value),
      date: instant(date),
      dateTime: instant(dateTime),
      money: (amountMinor, currency) => formatMoney(amountMinor, currency, locale),
    };
  }, [locale]);
}
