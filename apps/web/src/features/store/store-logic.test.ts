import fc from 'fast-check';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import {
  billingDayProblem,
  dayOf,
  dayOfInstant,
  earliestBillingDay,
  initialBillingDay,
  startOfDay,
} from './billing-date.ts';
import { toggledLike, updateApp } from './likes.ts';
import { cheapestPlan, type PlanPrice, planById, planPriceText, priceOf } from './plans.ts';
import {
  isTransactionResult,
  refusalOf,
  resultColor,
  resultKey,
  TRANSACTION_RESULTS,
} from './transactions.ts';

const t = ((key: string, options?: Record<string, unknown>) =>
  options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;

const plan = (id: string, priceMinor: number, period: 'MONTH' | 'YEAR' = 'MONTH'): PlanPrice => ({
  id,
  name: id,
  priceMinor,
  currency: 'EUR',
  period,
});

describe('plans', () => {
  it('advertises the cheapest plan; at equal prices the monthly one', () => {
    expect(cheapestPlan([plan('pro', 4900), plan('basic', 990), plan('team', 1990)])?.id).toBe('basic');
    expect(cheapestPlan([plan('y', 990, 'YEAR'), plan('m', 990, 'MONTH')])?.id).toBe('m');
    expect(cheapestPlan([plan('free', 0), plan('pro', 4900)])?.id).toBe('free');
    expect(cheapestPlan([])).toBeUndefined();
  });

  it('finds a plan by id and prices it (free has no price)', () => {
    const plans = [plan('free', 0), plan('pro', 4900, 'YEAR')];
    expect(planById(plans, 'pro')?.period).toBe('YEAR');
    expect(planById(plans, null)).toBeUndefined();
    expect(priceOf(plans[0] as PlanPrice, 'en-US')).toBeUndefined();
    expect(priceOf(plans[1] as PlanPrice, 'en-US')).toBe('€49.00');
    expect(planPriceText(t, 'en-US', plans[0] as PlanPrice)).toBe('store.price.free');
    expect(planPriceText(t, 'en-US', plans[1] as PlanPrice)).toBe(
      'store.price.perPeriod {"price":"€49.00","period":"store.period.YEAR"}',
    );
  });
});

describe('likes', () => {
  it('toggles the state and the count, never below zero', () => {
    expect(toggledLike({ id: 'a', liked: false, likeCount: 3 })).toEqual({
      id: 'a',
      liked: true,
      likeCount: 4,
    });
    expect(toggledLike({ id: 'a', liked: true, likeCount: 4 })).toEqual({
      id: 'a',
      liked: false,
      likeCount: 3,
    });
    expect(toggledLike({ id: 'a', liked: true, likeCount: 0 }).likeCount).toBe(0);
  });

  it('replaces one app of a page and leaves the rest (and pages without it) untouched', () => {
    const other = { id: 'b', liked: false, likeCount: 1 };
    const page = { items: [{ id: 'a', liked: false, likeCount: 0 }, other], total: 2 };
    const next = updateApp(page, 'a', toggledLike);
    expect(next?.items[0]).toEqual({ id: 'a', liked: true, likeCount: 1 });
    expect(next?.items[1]).toBe(other);
    expect(next?.total).toBe(2);
    expect(updateApp(page, 'zzz', toggledLike)).toBe(page);
    expect(updateApp<typeof page>(undefined, 'a', toggledLike)).toBeUndefined();
  });

  it('like then unlike comes back to the start (any count)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.integer({ min: 1, max: 1_000_000 }), (liked, likeCount) => {
        const app = { id: 'x', liked, likeCount };
        expect(toggledLike(toggledLike(app))).toEqual(app);
      }),
    );
  });
});

describe('transaction results', () => {
  const refused = (message: string | undefined, status = 402) =>
    new HttpError('status', { status, serverMessage: message });

  it('has a message for every result of spec 3', () => {
    expect(TRANSACTION_RESULTS).toEqual([
      'AUTHORIZED',
      'USER_REJECTED',
      'ERROR_NO_EMPTY_TRANSACTIONS',
      'ERROR_NO_IN_APP_PURCHASES',
    ]);
    expect(new Set(TRANSACTION_RESULTS.map(resultKey)).size).toBe(4);
    expect(resultKey('NOT_AUTHORIZED')).toBe('store.results.notAuthorized');
    expect(resultColor('AUTHORIZED')).toBe('green');
    expect(resultColor('USER_REJECTED')).toBe('yellow');
    expect(resultColor('ERROR_NO_IN_APP_PURCHASES')).toBe('red');
    expect(isTransactionResult('USER_REJECTED')).toBe(true);
    expect(isTransactionResult('REJECTED')).toBe(false);
  });

  it('reads the refusal the server names in its 402 answer', () => {
    expect(refusalOf(refused("the payment of plan 'pro' was not authorized: USER_REJECTED"))).toBe(
      'USER_REJECTED',
    );
    expect(refusalOf(refused('not authorized: ERROR_NO_EMPTY_TRANSACTIONS'))).toBe(
      'ERROR_NO_EMPTY_TRANSACTIONS',
    );
    expect(refusalOf(refused('not authorized: ERROR_NO_IN_APP_PURCHASES'))).toBe('ERROR_NO_IN_APP_PURCHASES');
    expect(refusalOf(refused(undefined))).toBe('NOT_AUTHORIZED');
  });

  it('is no refusal for other failures', () => {
    expect(refusalOf(refused('USER_REJECTED', 409))).toBeUndefined();
    expect(refusalOf(new HttpError('network'))).toBeUndefined();
    expect(refusalOf(new Error('USER_REJECTED'))).toBeUndefined();
  });
});

describe('billing days', () => {
  const now = new Date(2026, 0, 31, 15, 30);

  it('starts tomorrow, across month and year ends', () => {
    expect(earliestBillingDay(now)).toBe('2026-02-01');
    expect(earliestBillingDay(new Date(2026, 11, 31, 23, 59))).toBe('2027-01-01');
    expect(dayOf(new Date(2026, 1, 3))).toBe('2026-02-03');
  });

  it('refuses an empty, an impossible and a past (or today’s) day', () => {
    expect(billingDayProblem('', now)).toBe('required');
    expect(billingDayProblem('2026-02-30', now)).toBe('invalid');
    expect(billingDayProblem('31.01.2026', now)).toBe('invalid');
    expect(billingDayProblem('2026-01-31', now)).toBe('past');
    expect(billingDayProblem('2025-12-01', now)).toBe('past');
    expect(billingDayProblem('2026-02-01', now)).toBeUndefined();
  });

  it('sends the start of the chosen day, which is always after now', () => {
    const start = startOfDay('2026-02-01');
    expect(start?.getTime()).toBe(new Date(2026, 1, 1).getTime());
    expect((start as Date).getTime()).toBeGreaterThan(now.getTime());
  });

  it('starts the form at the current billing day, or tomorrow when that is not later', () => {
    expect(initialBillingDay(new Date(2026, 2, 3, 10).toISOString(), now)).toBe('2026-03-03');
    expect(initialBillingDay(new Date(2026, 0, 31, 18).toISOString(), now)).toBe('2026-02-01');
    expect(initialBillingDay(null, now)).toBe('2026-02-01');
  });

  it('shows an instant as its local day', () => {
    expect(dayOfInstant(new Date(2026, 4, 6, 12).toISOString())).toBe('2026-05-06');
    expect(dayOfInstant(null)).toBe('');
    expect(dayOfInstant('nonsense')).toBe('');
  });
});
