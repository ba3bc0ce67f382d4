import type { TFunction } from 'i18next';
import { formatMoney } from '../../shared/money/money.ts';

/** The part of a catalogue plan the store shows (the contract's AppPlan). */
export type PlanPrice = {
  id: string;
  name: string;
  priceMinor: number;
  currency: string;
  period: 'MONTH' | 'YEAR';
};

export function isFree(plan: Pick<PlanPrice, 'priceMinor'>): boolean {
  return plan.priceMinor === 0;
}

/**
 * The plan a catalogue card advertises ("from …"): the cheapest one. Plans of a year are compared by their price per
 * year, plans of a month by theirs: the card says the period next to the price, so no conversion is needed; among
 * equal prices a monthly plan comes first. Integers only.
 */
export function cheapestPlan<Plan extends PlanPrice>(plans: readonly Plan[]): Plan | undefined {
  let best: Plan | undefined;
  for (const plan of plans) {
    if (
      !best ||
      plan.priceMinor < best.priceMinor ||
      (plan.priceMinor === best.priceMinor && plan.period === 'MONTH' && best.period === 'YEAR')
    ) {
      best = plan;
    }
  }
  return best;
}

export function planById<Plan extends PlanPrice>(plans: readonly Plan[], id: string | null | undefined) {
  return plans.find((plan) => plan.id === id);
}

/** The texts a price needs: a formatted amount, or undefined for a free plan (the screen says "Free"). */
export function priceOf(
  plan: Pick<PlanPrice, 'priceMinor' | 'currency'>,
  locale: string,
): string | undefined {
  return isFree(plan) ? undefined : formatMoney(plan.priceMinor, plan.currency, locale);
}

/** "9,90 € per month" or "Free", in the user's words. */
export function planPriceText(t: TFunction, locale: string, plan: PlanPrice): string {
  const price = priceOf(plan, locale);
  return price === undefined
    ? t('store.price.free')
    : t('store.price.perPeriod', { price, period: t(`store.period.${plan.period}`) });
}
