import { describe, expect, it } from 'vitest';
import { invalidRanges, isAddressRange, policyFormOf, policyInputOf } from './policy-form.ts';

describe('address ranges of a security policy', () => {
  it('accepts what the server accepts', () => {
    for (const good of [
      '10.0.0.0/8',
      '192.0.2.7',
      '0.0.0.0/0',
      '2001:db8::/32',
      '::1',
      'fe80::1/64',
      '::ffff:10.0.0.1',
    ]) {
      expect(isAddressRange(good), good).toBe(true);
    }
  });

  it('refuses anything else', () => {
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0/8',
      '256.1.1.1',
      'example.com',
      '1.2.3.4/8/1',
      '::1/129',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      '',
    ]) {
      expect(isAddressRange(bad), bad).toBe(false);
    }
  });

  it('names the lines that are wrong, ignoring blank lines', () => {
    expect(invalidRanges('10.0.0.0/8\n\n  nope \n2001:db8::/32, 300.0.0.1')).toEqual(['nope', '300.0.0.1']);
  });
});

describe('the policy form', () => {
  it('turns the fields into the request and back', () => {
    const input = policyInputOf({
      name: '  Office ',
      description: ' main ',
      parentId: '',
      allowedIpRanges: '10.0.0.0/8\n10.0.0.0/8\n 192.0.2.0/24 ',
      requireTotp: true,
      maxSessionMinutes: 90,
    });
    expect(input).toEqual({
      name: 'Office',
      description: 'main',
      parentId: null,
      rules: { allowedIpRanges: ['10.0.0.0/8', '192.0.2.0/24'], requireTotp: true, maxSessionMinutes: 90 },
    });
    const values = policyFormOf({
      ...input,
      id: 'p',
      organizationId: 'o',
      parentId: 'q',
      deviceCount: 0,
      userCount: 0,
      childCount: 0,
      createdAt: '2030-01-01T00:00:00.000Z',
    });
    expect(values).toMatchObject({ parentId: 'q', allowedIpRanges: '10.0.0.0/8\n192.0.2.0/24' });
  });
});
