import { describe, expect, it } from 'vitest';
import { checkProduct, checkVersion, type ProductDraft, parseCount } from './product-form.ts';

const draft: ProductDraft = {
  code: 'DEV-1Y',
  name: ' Device licence, one year ',
  description: '',
  resourceType: 'devices',
  quantity: '1',
  termDays: '365',
  price: '49.90',
  currency: 'eur',
  vpn: false,
};

describe('parseCount', () => {
  it('takes whole numbers in range only', () => {
    expect(parseCount(' 12 ', 1, 100)).toEqual({ ok: true, value: 12 });
    expect(parseCount('', 1, 100)).toEqual({ ok: false, problem: { key: 'validation.required' } });
    for (const text of ['1.5', '-1', '1e3', '1 000', 'x'])
      expect(parseCount(text, 1, 100), text).toEqual({
        ok: false,
        problem: { key: 'validation.wholeNumber' },
      });
    expect(parseCount('0', 1, 100)).toEqual({
      ok: false,
      problem: { key: 'validation.range', values: { min: 1, max: 100 } },
    });
    expect(parseCount('101', 1, 100).ok).toBe(false);
  });
});

describe('checkProduct', () => {
  it('converts the draft: trimmed texts, the currency in capitals, the price exactly in minor units', () => {
    expect(checkProduct(draft)).toEqual({
      ok: true,
      input: {
        code: 'DEV-1Y',
        name: 'Device licence, one year',
        description: '',
        resourceType: 'devices',
        quantity: 1,
        termDays: 365,
        priceMinor: 4990,
        currency: 'EUR',
        vpn: false,
      },
    });
    const yen = checkProduct({ ...draft, price: '5000', currency: 'JPY' });
    expect(yen.ok && yen.input.priceMinor).toBe(5000);
  });

  it('hands out VPN licences only for a devices product', () => {
    const vpn = checkProduct({ ...draft, vpn: true });
    expect(vpn.ok && vpn.input.vpn).toBe(true);
    const users = checkProduct({ ...draft, resourceType: 'users', vpn: true });
    expect(users.ok && users.input.vpn).toBe(false);
  });

  it('names every field that is wrong', () => {
    const result = checkProduct({
      ...draft,
      code: 'no spaces',
      name: '  ',
      quantity: '0',
      termDays: '4000',
      price: '12.345',
      currency: 'EURO',
    });
    expect(result).toEqual({
      ok: false,
      problems: {
        code: { key: 'validation.code' },
        name: { key: 'validation.required' },
        quantity: { key: 'validation.range', values: { min: 1, max: 1_000_000_000 } },
        termDays: { key: 'validation.range', values: { min: 1, max: 3660 } },
        currency: { key: 'validation.currency' },
        price: { key: 'validation.priceDecimals', values: { digits: 2 } },
      },
    });
  });

  it('refuses prices the service does not store', () => {
    expect(checkVersion({ ...draft, price: '10000000000.01' })).toEqual({
      ok: false,
      problems: { price: { key: 'validation.priceTooLarge', values: { digits: 2 } } },
    });
    expect(checkVersion({ ...draft, price: '' })).toEqual({
      ok: false,
      problems: { price: { key: 'validation.priceRequired', values: { digits: 2 } } },
    });
    expect(checkVersion({ ...draft, price: '1,5' })).toMatchObject({ ok: true, input: { priceMinor: 150 } });
  });
});
