/**
 * Money is kept in integer minor units (cents) everywhere; it is shown without ever becoming a floating-point
 * number: the minor units are written out as a decimal string (digits of the currency) that Intl.NumberFormat
 * formats exactly.
 */

const fractionDigitsCache = new Map<string, number>();

/** How many minor-unit digits a currency has (EUR 2, JPY 0, KWD 3); 2 for a code Intl does not know. */
export function fractionDigits(currency: string): number {
  const code = currency.toUpperCase();
  const known = fractionDigitsCache.get(code);
  if (known !== undefined) return known;
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions()
        .maximumFractionDigits ?? 2;
  } catch {
    digits = 2;
  }
  fractionDigitsCache.set(code, digits);
  return digits;
}

type Decimal = `${number}`;

/** `123456` cents with 2 digits -> "1234.56"; `-5` -> "-0.05"; exact for any safe integer (and beyond, as bigint). */
export function minorToDecimal(amountMinor: number | bigint, digits: number): Decimal {
  if (typeof amountMinor === 'number' && !Number.isSafeInteger(amountMinor))
    throw new Error(`an amount in minor units must be a whole number, got ${amountMinor}`);
  const value = BigInt(amountMinor);
  const negative = value < 0n;
  const magnitude = (negative ? -value : value).toString();
  if (digits <= 0) return `${negative ? '-' : ''}${magnitude}` as Decimal;
  const padded = magnitude.padStart(digits + 1, '0');
  const whole = padded.slice(0, padded.length - digits);
  const fraction = padded.slice(padded.length - digits);
  return `${negative ? '-' : ''}${whole}.${fraction}` as Decimal;
}

/** An amount in minor units as the locale writes money: `formatMoney(123456, 'EUR', 'de-DE')` -> "1.234,56 €". */
export function formatMoney(amountMinor: number, currency: string, locale: string): string {
  const code = currency.toUpperCase();
  const digits = fractionDigits(code);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minorToDecimal(amountMinor, digits));
  } catch {
    // A currency code Intl refuses: the number and the code as they are.
    return `${new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(minorToDecimal(amountMinor, digits))} ${code}`;
  }
}
