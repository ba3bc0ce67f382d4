/**
 * Prices are integers in minor units (cents) everywhere: the server stores them so and the portal never turns them
 * into floating-point numbers. Formatting builds the exact decimal string from the integer and hands that string to
 * Intl.NumberFormat (which formats decimal strings exactly).
 */

/** How many minor-unit digits a currency has (EUR 2, JPY 0, KWD 3), as the locale data says. */
export function currencyDigits(currency: string): number {
  try {
    return (
      new Intl.NumberFormat('en-US', { style: 'currency', currency }).resolvedOptions()
        .maximumFractionDigits ?? 2
    );
  } catch {
    return 2;
  }
}

/** 1999 with 2 digits -> "19.99"; -5 -> "-0.05"; 7 with 0 digits -> "7". Integer arithmetic only. */
export function minorToDecimal(minor: number, digits: number): `${number}` {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`${minor} is not an amount in minor units`);
  const negative = minor < 0;
  const units = String(Math.abs(minor));
  if (digits <= 0) return `${negative ? '-' : ''}${units}` as `${number}`;
  const padded = units.padStart(digits + 1, '0');
  const whole = padded.slice(0, padded.length - digits);
  const fraction = padded.slice(padded.length - digits);
  return `${negative ? '-' : ''}${whole}.${fraction}` as `${number}`;
}

/** An amount in minor units as the locale writes money: formatMoney(1999, 'EUR', 'de-DE') -> "19,99 €". */
export function formatMoney(minor: number, currency: string, locale: string): string {
  const digits = currencyDigits(currency);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minorToDecimal(minor, digits));
  } catch {
    // An unknown currency code: the amount with the code beside it.
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits: digits }).format(minorToDecimal(minor, digits))} ${currency}`;
  }
}
