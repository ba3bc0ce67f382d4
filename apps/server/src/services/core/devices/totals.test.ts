import { afterEach, describe, expect, it } from 'vitest';
import {
  forgetTotals,
  REMEMBER_FROM,
  rememberedIfSlow,
  rememberedTotal,
  rememberTotal,
  totalKey,
} from './totals.ts';

afterEach(() => forgetTotals());

describe('remembered device totals', () => {
  const key = totalKey('org-1', { status: 'ONLINE' });

  it('remembers a large total for five seconds', () => {
    rememberTotal(key, 100_000, 1_000);
    expect(rememberedTotal(key, 5_999)).toBe(100_000);
    expect(rememberedTotal(key, 6_001)).toBeUndefined();
  });

  it('does not remember small totals, which are cheap and must be exact', () => {
    rememberTotal(key, REMEMBER_FROM - 1, 1_000);
    expect(rememberedTotal(key, 1_000)).toBeUndefined();
  });

  it("forgets one organization's totals and keeps the others", () => {
    const other = totalKey('org-2', {});
    rememberTotal(key, 20_000);
    rememberTotal(other, 30_000);
    forgetTotals('org-1');
    expect(rememberedTotal(key)).toBeUndefined();
    expect(rememberedTotal(other)).toBe(30_000);
  });

  it('keys by filter', () => {
    expect(totalKey('o', { tags: ['a'] })).not.toBe(totalKey('o', { tags: ['b'] }));
  });
});

describe('answers remembered when slow', () => {
  it('reuses a slow answer and recomputes a quick one', async () => {
    let calls = 0;
    const slow = async () => {
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 30));
      return calls;
    };
    const options = { slowMs: 10, ttlMs: 60_000 };
    expect(await rememberedIfSlow('org-1|tags', slow, options)).toBe(1);
    expect(await rememberedIfSlow('org-1|tags', slow, options)).toBe(1);
    forgetTotals('org-1');
    expect(await rememberedIfSlow('org-1|tags', slow, options)).toBe(2);
    let quick = 0;
    const fast = async () => ++quick;
    expect(await rememberedIfSlow('org-2|tags', fast, options)).toBe(1);
    expect(await rememberedIfSlow('org-2|tags', fast, options)).toBe(2);
  });
});
