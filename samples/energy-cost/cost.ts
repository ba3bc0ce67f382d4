/**
 * Exact energy cost arithmetic: a tariff in integer cents per kWh, a consumption in kWh with at most three decimals
 * (that is, whole watt-hours), and the cost in integer cents, rounded half up. BigInt only, never floating point.
 */

const KWH = /^\s*(\d{1,12})(?:[.,](\d{1,3}))?\s*$/;
const CENTS = /^\s*(\d{1,9})\s*$/;

/** "12", "12.5", "0,125" -> watt-hours (12000n, 12500n, 125n); undefined for anything else. */
export function parseKwh(text: string): bigint | undefined {
  const match = KWH.exec(text);
  if (!match) return undefined;
  const whole = BigInt(match[1] ?? '0');
  const fraction = BigInt((match[2] ?? '').padEnd(3, '0'));
  return whole * 1000n + fraction;
}

/** A tariff in whole cents per kWh ("27" -> 27n); undefined for anything else (no decimals, no sign). */
export function parseTariff(text: string): bigint | undefined {
  const match = CENTS.exec(text);
  return match ? BigInt(match[1] ?? '0') : undefined;
}

/** The cost in cents of `wattHours` at `centsPerKwh`, rounded half up to a whole cent. */
export function costCents(wattHours: bigint, centsPerKwh: bigint): bigint {
  return (wattHours * centsPerKwh + 500n) / 1000n;
}

/** 1234n -> "12.34", 5n -> "0.05". */
export function formatCents(cents: bigint): string {
  const whole = cents / 100n;
  const rest = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${rest}`;
}

/** 12500n -> "12.5" (kWh from watt-hours, without trailing zeros). */
export function formatKwh(wattHours: bigint): string {
  const whole = wattHours / 1000n;
  const rest = (wattHours % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : `${whole}`;
}
