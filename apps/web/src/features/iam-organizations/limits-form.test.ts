import { describe, expect, it } from 'vitest';
import { limitProblem, limitsToValues, usageOf, valuesToLimitsInput } from './limits-form.ts';

describe('limits form ↔ API body', () => {
  it('shows unlimited as an empty field and sends only the limits with a number', () => {
    const values = limitsToValues({
      devices: 10,
      users: null,
      dashboards: 0,
      dataPointsPerDay: null,
      notificationsPerDay: 500,
    });
    expect(values).toEqual({
      devices: '10',
      users: '',
      dashboards: '0',
      dataPointsPerDay: '',
      notificationsPerDay: '500',
    });
    expect(valuesToLimitsInput({ ...values, devices: ' 12 ' })).toEqual({
      devices: 12,
      dashboards: 0,
      notificationsPerDay: 500,
    });
  });

  it("sends an empty body when no limit has a number, which the server answers with 'undefined limits'", () => {
    expect(
      valuesToLimitsInput({
        devices: '',
        users: ' ',
        dashboards: '',
        dataPointsPerDay: '',
        notificationsPerDay: '',
      }),
    ).toEqual({});
  });

  it('accepts whole numbers up to a billion', () => {
    expect(limitProblem('')).toBeUndefined();
    expect(limitProblem('1000000000')).toBeUndefined();
    expect(limitProblem('1000000001')).toBe('range');
    expect(limitProblem('1.5')).toBe('invalid');
    expect(limitProblem('-1')).toBe('invalid');
    expect(limitProblem('ten')).toBe('invalid');
  });

  it('fills the bar by the share used and colours it by how close the limit is', () => {
    expect(usageOf(5, null)).toEqual({ percent: 0, level: 'unlimited' });
    expect(usageOf(5, 10)).toEqual({ percent: 50, level: 'ok' });
    expect(usageOf(8, 10)).toEqual({ percent: 80, level: 'high' });
    expect(usageOf(10, 10)).toEqual({ percent: 100, level: 'reached' });
    expect(usageOf(12, 10)).toEqual({ percent: 100, level: 'reached' });
    expect(usageOf(0, 0)).toEqual({ percent: 100, level: 'reached' });
  });
});
