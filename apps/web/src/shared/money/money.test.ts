import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  currencyDigits,
  formatMoney,
  isCurrencyCode,
  minorToDecimal,
  minorToInput,
  parseMoney,
  totalMinor,
} from './money.ts';

describe('parseMoney', () => {
  it('moves the digits: no floating point rounding', () => {
    expect(parseMoney('12.50', 2)).toEqual({ ok: true, minor: 1250 });
    expect(parseMoney('12,5', 2)).toEqual({ ok: true, minor: 1250 });
    expect(parseMoney('0.29', 2)).toEqual({ ok: true, minor: 29 }); // 0.29 * 100 = 28.999999999999996
    expect(parseMoney('1.005', 3)).toEqual({ ok: true, minor: 1005 });
    expect(parseMoney('4.35', 2)).toEqual({ ok: true, minor: 435 }); // 4.35 * 100 = 434.99999999999994
    expect(parseMoney(' 1200 ', 2)).toEqual({ ok: true, minor: 120000 });
    expect(parseMoney('7.', 2)).toEqual({ ok: true, minor: 700 });
    expect(parseMoney('0', 2)).toEqual({ ok: true, minor: 0 });
    expect(parseMoney('1500', 0)).toEqual({ ok: true, minor: 1500 });
    expect(parseMoney('0012.3', 2)).toEqual({ ok: true, minor: 1230 });
  });

  it('refuses what is not a plain amount, and says why', () => {
    expect(parseMoney('', 2)).toEqual({ ok: false, problem: 'required' });
    expect(parseMoney('   ', 2)).toEqual({ ok: false, problem: 'required' });
    for (const text of [
      '-1',
      '+1',
      '1e3',
      '1,234.56',
      '1.234,56',
      '.5',
      'abc',
      '12 50',
      '1_000',
      '١٢',
      'NaN',
    ])
      expect(parseMoney(text, 2), text).toEqual({ ok: false, problem: 'format' });
    expect(parseMoney('1.234', 2)).toEqual({ ok: false, problem: 'decimals' });
    expect(parseMoney('5.5', 0)).toEqual({ ok: false, problem: 'decimals' });
    expect(parseMoney('90071992547409.92', 2)).toEqual({ ok: false, problem: 'tooLarge' });
    expect(parseMoney('90071992547409.91', 2)).toEqual({ ok: true, minor: Number.MAX_SAFE_INTEGER });
  });

  it('is the exact inverse of minorToDecimal for every stored amount', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.integer({ min: 0, max: 4 }),
        (minor, digits) => {
          expect(parseMoney(minorToDecimal(minor, digits), digits)).toEqual({ ok: true, minor });
          expect(parseMoney(minorToDecimal(minor, digits).replace('.', ','), digits)).toEqual({
            ok: true,
            minor,
          });
        },
      ),
    );
  });
});

describe('minorToDecimal', () => {
  it('writes the minor units as a decimal with the currency digits', () => {
    expect(minorToDecimal(0, 2)).toBe('0.00');
    expect(minorToDecimal(5, 2)).toBe('0.05');
    expect(minorToDecimal(123456, 2)).toBe('1234.56');
    expect(minorToDecimal(-5, 2)).toBe('-0.05');
    expect(minorToDecimal(42, 0)).toBe('42');
    expect(minorToDecimal(1, 3)).toBe('0.001');
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91');
  });
});

describe('formatMoney', () => {
  it('formats in the locale with the currency digits, exactly', () => {
    const plain = (text: string) => text.replace(/\s/g, ' ');
    expect(formatMoney(123456, 'EUR', 'en-US')).toBe('€1,234.56');
    expect(plain(formatMoney(123456, 'EUR', 'de-DE'))).toBe('1.234,56 €');
    expect(plain(formatMoney(123456, 'EUR', 'fr-FR'))).toBe('1 234,56 €');
    expect(formatMoney(1500, 'JPY', 'en-US')).toBe('¥1,500');
    expect(plain(formatMoney(1005, 'KWD', 'en-US'))).toBe('KWD 1.005');
    expect(formatMoney(29, 'USD', 'en-US')).toBe('$0.29');
    // Beyond what a double holds exactly after division by 100: still every digit.
    expect(formatMoney(Number.MAX_SAFE_INTEGER, 'USD', 'en-US')).toBe('$90,071,992,547,409.91');
  });
});

describe('currencies', () => {
  it('knows the minor-unit digits of a currency', () => {
    expect(currencyDigits('EUR')).toBe(2);
    expect(currencyDigits('JPY')).toBe(0);
    expect(currencyDigits('KWD')).toBe(3);
    expect(currencyDigits('nope')).toBe(2);
    expect(minorToInput(1250, 'EUR')).toBe('12.50');
    expect(minorToInput(1250, 'JPY')).toBe('1250');
  });

  it('accepts ISO codes only', () => {
    expect(isCurrencyCode('EUR')).toBe(true);
    expect(isCurrencyCode('eur')).toBe(false);
    expect(isCurrencyCode('EURO')).toBe(false);
    expect(isCurrencyCode('')).toBe(false);
  });
});

describe('totalMinor', () => {
  it('multiplies integers, and refuses a total that would not be exact', () => {
    expect(totalMinor(1999, 3)).toBe(5997);
    expect(totalMinor(0, 1000)).toBe(0);
    expect(totalMinor(Number.MAX_SAFE_INTEGER, 2)).toBeNull();
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (unit, quantity) => {
          expect(totalMinor(unit, quantity)).toBe(Number(BigInt(unit) * BigInt(quantity)));
        },
      ),
    );
  });
});
