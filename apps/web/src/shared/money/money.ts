/**
 * Money is integer minor units (cents) on the server: prices, invoices, transaction limits. What a person types
 * ("12.50", "12,5", "1200") becomes minor units by moving digits, never through floating point; and minor units are
 * shown through Intl.NumberFormat from an exact decimal string. The one place the web app handles amounts.
 */

/** The largest amount the server stores exactly (its bigint columns are read as JavaScript numbers). */
export const MAX_MINOR = BigInt(Number.MAX_SAFE_INTEGER);

/** Minor-unit digits of a currency (EUR 2, JPY 0, KWD 3); 2 when the code is not a currency Intl knows. */
export function currencyDigits(currency: string): number {
  try {
    const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
      .maximumFractionDigits;
    return digits ?? 2;
  } catch {
    return 2;
  }
}

export type MoneyProblem = 'required' | 'format' | 'decimals' | 'tooLarge';
export type ParsedMoney = { ok: true; minor: number } | { ok: false; problem: MoneyProblem };

const AMOUNT = /^(\d+)(?:[.,](\d*))?$/;

/**
 * A non-negative decimal amount in minor units: digits, optionally one decimal point or comma and at most `digits`
 * decimals ("12", "12.5", "12,50", "0.99", ".5" is refused). No signs, no thousands separators, no exponents.
 */
export function parseMoney(input: string, digits: number): ParsedMoney {
  const text = input.trim();
  if (text === '') return { ok: false, problem: 'required' };
  const match = AMOUNT.exec(text);
  if (!match) return { ok: false, problem: 'format' };
  const whole = match[1] ?? '';
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return { ok: false, problem: 'decimals' };
  const minor = BigInt(whole + fraction.padEnd(digits, '0'));
  if (minor > MAX_MINOR) return { ok: false, problem: 'tooLarge' };
  return { ok: true, minor: Number(minor) };
}

/** Minor units as an exact decimal string with `digits` decimals: 1234 and 2 -> "12.34", -5 and 2 -> "-0.05". */
export function minorToDecimal(minor: number | bigint, digits: number): string {
  const value = BigInt(minor);
  const negative = value < 0n;
  const digitsText = (negative ? -value : value).toString().padStart(digits + 1, '0');
  const whole = digitsText.slice(0, digitsText.length - digits);
  const fraction = digitsText.slice(digitsText.length - digits);
  return `${negative ? '-' : ''}${whole}${digits > 0 ? `.${fraction}` : ''}`;
}

/** What the price field shows for a stored amount (the inverse of parseMoney): 1250 EUR -> "12.50". */
export function minorToInput(minor: number, currency: string): string {
  return minorToDecimal(minor, currencyDigits(currency));
}

/** A price in the locale's words: 123456 EUR in de-DE -> "1.234,56 €". Exact: Intl formats the decimal string. */
export function formatMoney(minor: number | bigint, currency: string, locale: string): string {
  const digits = currencyDigits(currency);
  const decimal = minorToDecimal(minor, digits) as Intl.StringNumericLiteral;
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(decimal);
  } catch {
    return `${decimal} ${currency}`;
  }
}

/** Price of `quantity` licence units: integer multiplication, refused (null) beyond what is stored exactly. */
export function totalMinor(unitMinor: number, quantity: number): number | null {
  const total = BigInt(unitMinor) * BigInt(quantity);
  return total > MAX_MINOR ? null : Number(total);
}

/** The currency codes a product may be priced in (ISO 4217, three capitals). */
export function isCurrencyCode(code: string): boolean {
  if (!/^[A-Z]{3}$/.test(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}
