import { describe, expect, it } from 'vitest';
import { renderMessage, type ValueCondition, valueConditionHolds } from './conditions.ts';
import { activeRule, evaluationChanged, indexRules } from './rule-cache.ts';
import type { RuleRow } from './store.ts';

const threshold = (operator: '>' | '>=' | '<' | '<=' | '==' | '!=', value: number): ValueCondition => ({
  kind: 'threshold',
  path: '/t',
  operator,
  value,
});

/** Feeds values one after another, carrying "held before" along, like the engine does. */
function run(condition: ValueCondition, values: (number | boolean | string)[], hysteresis = 0) {
  let holding = false;
  return values.map((value) => {
    const holds = valueConditionHolds(condition, value, holding, hysteresis);
    if (holds !== undefined) holding = holds;
    return holds;
  });
}

describe('threshold conditions', () => {
  it('compares with every operator', () => {
    expect(run(threshold('>', 80), [79, 80, 81])).toEqual([false, false, true]);
    expect(run(threshold('>=', 80), [79, 80, 81])).toEqual([false, true, true]);
    expect(run(threshold('<', 20), [19, 20, 21])).toEqual([true, false, false]);
    expect(run(threshold('<=', 20), [19, 20, 21])).toEqual([true, true, false]);
    expect(run(threshold('==', 5), [4, 5, 6])).toEqual([false, true, false]);
    expect(run(threshold('!=', 5), [4, 5, 6])).toEqual([true, false, true]);
  });

  it('clears only once the value is past the threshold by more than the hysteresis', () => {
    // > 80 with hysteresis 5: raised at 81, still holds at 76, clears at 75.
    expect(run(threshold('>', 80), [81, 78, 76, 75, 79, 81], 5)).toEqual([
      true,
      true,
      true,
      false,
      false,
      true,
    ]);
    // < 20 with hysteresis 2: clears at 22 or above.
    expect(run(threshold('<', 20), [19, 21, 21.9, 22, 20.5], 2)).toEqual([true, true, true, false, false]);
    expect(run(threshold('<=', 20), [20, 22, 22.1], 2)).toEqual([true, true, false]);
    expect(run(threshold('>=', 80), [80, 78, 77.9], 2)).toEqual([true, true, false]);
    // == with hysteresis: a band around the value once it held.
    expect(run(threshold('==', 50), [49, 50, 51, 52, 53], 2)).toEqual([false, true, true, true, false]);
    // != cannot widen: it is false only at the value itself.
    expect(run(threshold('!=', 0), [1, 0.5, 0], 3)).toEqual([true, true, false]);
  });

  it('ignores values of another type (they decide nothing)', () => {
    expect(run(threshold('>', 1), ['high', true, Number.NaN, 2])).toEqual([
      undefined,
      undefined,
      undefined,
      true,
    ]);
  });
});

describe('range and boolean conditions', () => {
  const outside: ValueCondition = { kind: 'range', path: '/r', low: 10, high: 20 };
  const inside: ValueCondition = { kind: 'range', path: '/r', low: 10, high: 20, inside: true };

  it('holds outside the range by default, inside with inside: true (bounds count as inside)', () => {
    expect(run(outside, [9, 10, 15, 20, 21])).toEqual([true, false, false, false, true]);
    expect(run(inside, [9, 10, 15, 20, 21])).toEqual([false, true, true, true, false]);
  });

  it('applies the hysteresis on both sides once it held', () => {
    // Outside [10, 20], hysteresis 2: after holding, it must come back into [12, 18].
    expect(run(outside, [25, 19, 18, 9, 11, 12], 2)).toEqual([true, true, false, true, true, false]);
    // Inside [10, 20], hysteresis 2: after holding, it must leave [8, 22].
    expect(run(inside, [15, 21, 22, 22.5], 2)).toEqual([true, true, true, false]);
    expect(run(inside, [15, 8, 7.9], 2)).toEqual([true, true, false]);
  });

  it('compares booleans and ignores other types', () => {
    const on: ValueCondition = { kind: 'boolean', path: '/b', value: true };
    expect(run(on, [false, true, 1, 'true', false])).toEqual([false, true, undefined, undefined, false]);
    const off: ValueCondition = { kind: 'boolean', path: '/b', value: false };
    expect(run(off, [true, false])).toEqual([false, true]);
  });
});

describe('messages', () => {
  const fields = { device: 'press-1', path: '/t', value: 91.5, rule: 'Hot', severity: 'MAJOR' as const };

  it('fills the template placeholders', () => {
    expect(
      renderMessage('{severity}: {rule} on {device} {path}={value} {unknown}', threshold('>', 80), fields),
    ).toBe('MAJOR: Hot on press-1 /t=91.5 {unknown}');
  });

  it('falls back to a default text per kind', () => {
    expect(renderMessage('', threshold('>', 80), fields)).toBe('Hot: press-1 /t = 91.5 (> 80)');
    expect(renderMessage(' ', { kind: 'offline' }, { ...fields, value: null, path: '' })).toBe(
      'Hot: press-1 is offline',
    );
    expect(renderMessage('', { kind: 'noData', path: '/t', seconds: 30 }, { ...fields, value: null })).toBe(
      'Hot: press-1 sent no /t for 30 s',
    );
  });
});

describe('rule index', () => {
  const row = (id: string, deviceId: string | null, condition: RuleRow['condition']): RuleRow => ({
    id,
    organizationId: 'org',
    name: id,
    description: '',
    enabled: true,
    deviceId,
    condition,
    severity: 'MINOR',
    ackRequired: false,
    resetRequired: false,
    delaySeconds: 0,
    hysteresis: 0,
    message: '',
    createdAt: new Date(),
    updatedAt: new Date(),
  });

  it('indexes rules by device and path, and offline rules apart', () => {
    const index = indexRules([
      activeRule(row('all', null, threshold('>', 1))),
      activeRule(row('one', 'd1', threshold('<', 1))),
      activeRule(row('off', null, { kind: 'offline' })),
      activeRule(row('off1', 'd1', { kind: 'offline' })),
    ]);
    expect(index.anyDevice.get('/t')?.map((rule) => rule.row.id)).toEqual(['all']);
    expect(
      index.byDevice
        .get('d1')
        ?.get('/t')
        ?.map((rule) => rule.row.id),
    ).toEqual(['one']);
    expect(index.offlineAny.map((rule) => rule.row.id)).toEqual(['off']);
    expect(index.offlineByDevice.get('d1')?.map((rule) => rule.row.id)).toEqual(['off1']);
    expect(index.anyDevice.get('/other')).toBeUndefined();
  });

  it('starts over only when the condition or the device changed', () => {
    const before = row('r', null, threshold('>', 1));
    expect(evaluationChanged(before, { ...before, severity: 'CRITICAL', message: 'x' })).toBe(false);
    expect(evaluationChanged(before, { ...before, condition: threshold('>', 2) })).toBe(true);
    expect(evaluationChanged(before, { ...before, deviceId: 'd' })).toBe(true);
  });
});
