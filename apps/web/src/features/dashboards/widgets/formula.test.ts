import { describe, expect, it } from 'vitest';
import { applyFormula, compiledFormula, formulaOf, timedThrough } from './formula.ts';

describe('binding formulas (formulaMapping)', () => {
  it('compiles each formula once and computes numbers through it', () => {
    const fahrenheit = compiledFormula('value * 1.8 + 32');
    expect(fahrenheit).not.toBeNull();
    expect(compiledFormula('value * 1.8 + 32')).toBe(fahrenheit);
    expect(applyFormula(100, fahrenheit)).toBe(212);
    expect(applyFormula(-40, fahrenheit)).toBe(-40);
    expect(applyFormula(3, compiledFormula('if value > 2 then 1 else 0'))).toBe(1);
  });

  it('passes values that are not numbers through unchanged, and every value when the formula is not valid', () => {
    const double = compiledFormula('value * 2');
    expect(applyFormula(true, double)).toBe(true);
    expect(applyFormula('running', double)).toBe('running');
    expect(compiledFormula('process.exit()')).toBeNull();
    expect(compiledFormula('value +')).toBeNull();
    expect(applyFormula(5, compiledFormula('value +'))).toBe(5);
  });

  it('keeps a timed value the same object when the formula leaves it unchanged', () => {
    const point = { ts: 1, value: 'idle' };
    expect(timedThrough(point, compiledFormula('value * 2'))).toBe(point);
    expect(timedThrough({ ts: 2, value: 4 }, compiledFormula('value * 2'))).toEqual({ ts: 2, value: 8 });
  });

  it('reads the formula of device bindings only', () => {
    expect(formulaOf({ slot: 'oven', path: '/t', formula: 'value / 10' })).toBe('value / 10');
    expect(formulaOf({ slot: 'oven', path: '/t' })).toBeUndefined();
    expect(formulaOf({ variable: 'mode' })).toBeUndefined();
  });
});
