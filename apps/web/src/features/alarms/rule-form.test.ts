import { describe, expect, it } from 'vitest';
import {
  describeCondition,
  formToInput,
  NEW_RULE,
  parseNumber,
  ruleProblems,
  ruleToForm,
} from './rule-form.ts';

const words = {
  outside: (low: string, high: string) => `outside ${low}…${high}`,
  inside: (low: string, high: string) => `inside ${low}…${high}`,
  noData: (seconds: string) => `no data for ${seconds} s`,
  offline: 'device offline',
  number: (value: number) => String(value),
};

describe('alarm rule form', () => {
  it('needs a name, a path starting with / and a threshold', () => {
    expect(ruleProblems(NEW_RULE)).toEqual({
      name: 'nameRequired',
      path: 'pathRequired',
      threshold: 'numberRequired',
    });
    expect(ruleProblems({ ...NEW_RULE, name: 'Hot', path: 'motor/temp', threshold: 80 }).path).toBe(
      'pathFormat',
    );
    expect(ruleProblems({ ...NEW_RULE, name: 'Hot', path: '/motor/temp', threshold: '80,5' })).toEqual({});
  });

  it('checks the kind-specific fields only', () => {
    const base = { ...NEW_RULE, name: 'x', path: '/a' };
    expect(ruleProblems({ ...base, kind: 'range', low: 10, high: 5 })).toEqual({ high: 'rangeReversed' });
    expect(ruleProblems({ ...base, kind: 'range', low: '', high: 5 })).toEqual({ low: 'numberRequired' });
    expect(ruleProblems({ ...base, kind: 'noData', seconds: 0 })).toEqual({ seconds: 'secondsRange' });
    expect(ruleProblems({ ...base, kind: 'noData', seconds: 1.5 })).toEqual({ seconds: 'secondsRange' });
    expect(ruleProblems({ ...NEW_RULE, name: 'x', kind: 'offline', path: '' })).toEqual({});
    expect(ruleProblems({ ...base, kind: 'boolean', delaySeconds: -1 })).toEqual({
      delaySeconds: 'delayRange',
    });
    expect(ruleProblems({ ...base, kind: 'boolean', hysteresis: -0.5 })).toEqual({
      hysteresis: 'hysteresisRange',
    });
  });

  it('builds the condition of each kind', () => {
    const base = { ...NEW_RULE, name: ' Oil hot ', path: ' /oil/temp ' };
    expect(formToInput({ ...base, threshold: '92,5', hysteresis: 2 })).toEqual({
      name: 'Oil hot',
      description: '',
      enabled: true,
      deviceId: null,
      condition: { kind: 'threshold', path: '/oil/temp', operator: '>', value: 92.5 },
      severity: 'MAJOR',
      ackRequired: true,
      resetRequired: false,
      delaySeconds: 0,
      hysteresis: 2,
      message: '',
    });
    expect(formToInput({ ...base, kind: 'range', low: 1, high: 9, inside: true }).condition).toEqual({
      kind: 'range',
      path: '/oil/temp',
      low: 1,
      high: 9,
      inside: true,
    });
    expect(formToInput({ ...base, kind: 'boolean', booleanValue: 'false' }).condition).toEqual({
      kind: 'boolean',
      path: '/oil/temp',
      value: false,
    });
    expect(formToInput({ ...base, kind: 'noData', seconds: '60' }).condition).toEqual({
      kind: 'noData',
      path: '/oil/temp',
      seconds: 60,
    });
    const offline = formToInput({ ...base, kind: 'offline', hysteresis: 3 });
    expect(offline.condition).toEqual({ kind: 'offline' });
    expect(offline.hysteresis).toBe(0);
  });

  it('round-trips a stored rule', () => {
    const rule = {
      name: 'Door open',
      description: 'cabinet',
      enabled: false,
      deviceId: '00000000-0000-4000-8000-000000000001',
      condition: { kind: 'boolean' as const, path: '/door/open', value: true },
      severity: 'WARNING' as const,
      ackRequired: false,
      resetRequired: true,
      delaySeconds: 30,
      hysteresis: 0,
      message: '{device}: door open',
    };
    expect(formToInput(ruleToForm(rule))).toEqual(rule);
  });

  it('parses typed numbers', () => {
    expect(parseNumber('')).toBeUndefined();
    expect(parseNumber(' 1,25 ')).toBe(1.25);
    expect(parseNumber('abc')).toBeUndefined();
    expect(parseNumber(Number.NaN)).toBeUndefined();
    expect(parseNumber(-3)).toBe(-3);
  });

  it('describes conditions for the rules list', () => {
    expect(describeCondition({ kind: 'threshold', path: '/t', operator: '>=', value: 80 }, words)).toBe(
      '/t >= 80',
    );
    expect(describeCondition({ kind: 'range', path: '/p', low: 1, high: 5 }, words)).toBe('/p outside 1…5');
    expect(describeCondition({ kind: 'noData', path: '/p', seconds: 60 }, words)).toBe(
      '/p: no data for 60 s',
    );
    expect(describeCondition({ kind: 'offline' }, words)).toBe('device offline');
  });
});
