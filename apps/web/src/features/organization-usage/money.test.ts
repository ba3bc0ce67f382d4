import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMoney, fractionDigits, minorToDecimal } from './money.ts';

describe('money from integer minor units', () => {
  it('writes minor units as an exact decimal', () => {
    expect(minorToDecimal(123456, 2)).toBe('1234.56');
    expect(minorToDecimal(5, 2)).toBe('0.05');
    expect(minorToDecimal(-5, 2)).toBe('-0.05');
    expect(minorToDecimal(0, 2)).toBe('0.00');
    expect(minorToDecimal(1999, 0)).toBe('1999');
    expect(minorToDecimal(1234, 3)).toBe('1.234');
    expect(minorToDecimal(Number.MAX_SAFE_INTEGER, 2)).toBe('90071992547409.91');
    expect(() => minorToDecimal(1.5, 2)).toThrow(/whole number/);
  });

  it('knows the minor digits of a currency', () => {
    expect(fractionDigits('EUR')).toBe(2);
    expect(fractionDigits('jpy')).toBe(0);
    expect(fractionDigits('KWD')).toBe(3);
  });

  it('formats in the locale without floating-point rounding', () => {
    expect(formatMoney(123456, 'EUR', 'en-US')).toBe('€1,234.56');
    expect(formatMoney(123456, 'EUR', 'de-DE').replace(/\s/g, ' ')).toBe('1.234,56 €');
    expect(formatMoney(1999, 'JPY', 'en-US')).toBe('¥1,999');
    // 0.1 + 0.2 style errors cannot happen: 10 + 20 cents are 30 cents.
    expect(formatMoney(30, 'USD', 'en-US')).toBe('$0.30');
    expect(formatMoney(900719925474099, 'USD', 'en-US')).toBe('$9,007,199,254,740.99');
  });

  it('any whole amount round-trips through its decimal text', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: 0, max: 3 }), (amount, digits) => {
        const text = minorToDecimal(amount, digits);
        const back = BigInt(text.replace('.', ''));
        expect(back).toBe(BigInt(amount));
        expect(text.split('.')[1]?.length ?? 0).toBe(digits);
      }),
    );
  });
});
