/** An instant in the locale's words, to the second ("4 Mar 2025, 10:02:13"). */
export function formatTime(iso: string, locale: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(date);
}

/** A reported value as the locale writes it: numbers with its separators, booleans and texts as they are. */
export function formatValue(value: number | boolean | string | null | undefined, locale: string): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number')
    return new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(value);
  return String(value);
}
