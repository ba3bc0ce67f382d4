import { describe, expect, it } from 'vitest';
import {
  limitProblem,
  limitsToValues,
  refusesRetention,
  retentionProblem,
  usageOf,
  valuesToLimitsInput,
} from './limits-form.ts';

/** The server's maximum in these tests (TELEMETRY_RETENTION_MAX_DAYS's default). */
const MAX_DAYS = 3650;

describe('limits form ↔ API body', () => {
  it('shows unlimited as an empty field and sends only the limits with a number', () => {
    const values = limitsToValues({
      devices: 10,
      users: null,
      dashboards: 0,
      dataPointsPerDay: null,
      notificationsPerDay: 500,
      telemetryRetentionDays: null,
    });
    expect(values).toEqual({
      devices: '10',
      users: '',
      dashboards: '0',
      dataPointsPerDay: '',
      notificationsPerDay: '500',
      telemetryRetentionDays: '',
    });
    expect(valuesToLimitsInput({ ...values, devices: ' 12 ' }, MAX_DAYS)).toEqual({
      devices: 12,
      dashboards: 0,
      notificationsPerDay: 500,
    });
  });

  it("sends an empty body when no limit has a number, which the server answers with 'undefined limits'", () => {
    expect(
      valuesToLimitsInput(
        {
          devices: '',
          users: ' ',
          dashboards: '',
          dataPointsPerDay: '',
          notificationsPerDay: '',
          telemetryRetentionDays: '',
        },
        MAX_DAYS,
      ),
    ).toEqual({});
  });

  it('shows the retention as days (empty: the server default) and sends it along with the other limits', () => {
    const values = limitsToValues({
      devices: 4,
      users: null,
      dashboards: null,
      dataPointsPerDay: null,
      notificationsPerDay: null,
      telemetryRetentionDays: 30,
    });
    expect(values.telemetryRetentionDays).toBe('30');
    // A PUT replaces every limit: the retention goes with the others, or it would fall back to the default.
    expect(valuesToLimitsInput({ ...values, devices: '5' }, MAX_DAYS)).toEqual({
      devices: 5,
      telemetryRetentionDays: 30,
    });
    // Empty: absent from the body, which is the server's default.
    expect(valuesToLimitsInput({ ...values, telemetryRetentionDays: ' ' }, MAX_DAYS)).toEqual({ devices: 4 });
    // The retention alone is a defined limit.
    expect(valuesToLimitsInput({ ...values, devices: '', telemetryRetentionDays: ' 7 ' }, MAX_DAYS)).toEqual({
      telemetryRetentionDays: 7,
    });
    // What the form refuses is never sent.
    expect(valuesToLimitsInput({ ...values, telemetryRetentionDays: '0' }, MAX_DAYS)).toEqual({ devices: 4 });
    expect(valuesToLimitsInput({ ...values, telemetryRetentionDays: '3651' }, MAX_DAYS)).toEqual({
      devices: 4,
    });
  });

  it('accepts a retention of whole days from 1 to the server maximum', () => {
    expect(retentionProblem('', MAX_DAYS)).toBeUndefined();
    expect(retentionProblem('  ', MAX_DAYS)).toBeUndefined();
    expect(retentionProblem('1', MAX_DAYS)).toBeUndefined();
    expect(retentionProblem('30', MAX_DAYS)).toBeUndefined();
    expect(retentionProblem('3650', MAX_DAYS)).toBeUndefined();
    expect(retentionProblem('0', MAX_DAYS)).toBe('range');
    expect(retentionProblem('3651', MAX_DAYS)).toBe('range');
    expect(retentionProblem('400', 365)).toBe('range');
    expect(retentionProblem('-1', MAX_DAYS)).toBe('invalid');
    expect(retentionProblem('1.5', MAX_DAYS)).toBe('invalid');
    expect(retentionProblem('a month', MAX_DAYS)).toBe('invalid');
  });

  it("tells a refusal of the retention by the server's message", () => {
    expect(refusesRetention('body/telemetryRetentionDays must be >= 1')).toBe(true);
    expect(
      refusesRetention("body/telemetryRetentionDays must be at most 3650 days (the server's maximum)"),
    ).toBe(true);
    expect(refusesRetention('undefined limits')).toBe(false);
    expect(refusesRetention(undefined)).toBe(false);
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
