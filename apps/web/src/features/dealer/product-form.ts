import { currencyDigits, isCurrencyCode, parseMoney } from '../../shared/money/money.ts';
import type { ProductInput, ResourceType, VersionInput } from './api.ts';

/** The limits of the licence service's product contract. */
export const LIMITS = {
  quantity: { min: 1, max: 1_000_000_000 },
  termDays: { min: 1, max: 3660 },
  priceMinor: 1_000_000_000_000,
  issueQuantity: { min: 1, max: 1000 },
  code: 60,
  name: 120,
  description: 2000,
} as const;

export const CODE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** A message to show: an i18n key under `dealer.` and its values. */
export type Problem = { key: string; values?: Record<string, string | number> };

/** The words of a problem (keys are under `dealer.`). */
export function problemText(
  t: (key: string, values: Record<string, string | number>) => string,
  problem: Problem,
) {
  return t(`dealer.${problem.key}`, problem.values ?? {});
}

export type VersionDraft = {
  quantity: string;
  termDays: string;
  price: string;
  currency: string;
  vpn: boolean;
};
export type ProductDraft = VersionDraft & {
  code: string;
  name: string;
  description: string;
  resourceType: ResourceType;
};

export type Checked<Input, Field extends string> =
  | { ok: true; input: Input }
  | { ok: false; problems: Partial<Record<Field, Problem>> };

/** A whole number typed in a field, within [min, max]: digits only ("1 000", "1.5", "1e3" are refused). */
export function parseCount(
  text: string,
  min: number,
  max: number,
): { ok: true; value: number } | { ok: false; problem: Problem } {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: { key: 'validation.required' } };
  if (!/^\d+$/.test(trimmed)) return { ok: false, problem: { key: 'validation.wholeNumber' } };
  const value = Number(trimmed);
  if (value < min || value > max)
    return { ok: false, problem: { key: 'validation.range', values: { min, max } } };
  return { ok: true, value };
}

const MONEY_PROBLEM = {
  required: 'validation.priceRequired',
  format: 'validation.priceFormat',
  decimals: 'validation.priceDecimals',
  tooLarge: 'validation.priceTooLarge',
} as const;

/** Grant, term and price of a version as typed, checked and converted (the price exactly, to minor units). */
export function checkVersion(draft: VersionDraft): Checked<VersionInput, keyof VersionDraft> {
  const problems: Partial<Record<keyof VersionDraft, Problem>> = {};
  const quantity = parseCount(draft.quantity, LIMITS.quantity.min, LIMITS.quantity.max);
  if (!quantity.ok) problems.quantity = quantity.problem;
  const termDays = parseCount(draft.termDays, LIMITS.termDays.min, LIMITS.termDays.max);
  if (!termDays.ok) problems.termDays = termDays.problem;
  const currency = draft.currency.trim().toUpperCase();
  if (!isCurrencyCode(currency)) problems.currency = { key: 'validation.currency' };
  const digits = currencyDigits(currency);
  const price = parseMoney(draft.price, digits);
  if (!price.ok) problems.price = { key: MONEY_PROBLEM[price.problem], values: { digits } };
  else if (price.minor > LIMITS.priceMinor)
    problems.price = { key: MONEY_PROBLEM.tooLarge, values: { digits } };
  if (!quantity.ok || !termDays.ok || !price.ok || Object.keys(problems).length > 0)
    return { ok: false, problems };
  return {
    ok: true,
    input: {
      quantity: quantity.value,
      termDays: termDays.value,
      priceMinor: price.minor,
      currency,
      vpn: draft.vpn,
    },
  };
}

/** A new product as typed: code, name, resource type and its first version. */
export function checkProduct(draft: ProductDraft): Checked<ProductInput, keyof ProductDraft> {
  const version = checkVersion(draft);
  const problems: Partial<Record<keyof ProductDraft, Problem>> = version.ok ? {} : { ...version.problems };
  const code = draft.code.trim();
  if (code === '') problems.code = { key: 'validation.required' };
  else if (code.length > LIMITS.code || !CODE_PATTERN.test(code)) problems.code = { key: 'validation.code' };
  const name = draft.name.trim();
  if (name === '') problems.name = { key: 'validation.required' };
  if (!version.ok || Object.keys(problems).length > 0) return { ok: false, problems };
  return {
    ok: true,
    input: {
      ...version.input,
      // Only a devices product hands out VPN device licences.
      vpn: draft.resourceType === 'devices' && version.input.vpn,
      code,
      name,
      description: draft.description.trim(),
      resourceType: draft.resourceType,
    },
  };
}
