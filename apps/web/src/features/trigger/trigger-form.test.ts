import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Trigger } from './api.ts';
import { runOutcome } from './run-outcome.ts';
import {
  comparisonText,
  emptyTriggerValues,
  isModelPath,
  parseValue,
  runState,
  type TriggerFormValues,
  triggerProblems,
  triggerToValues,
  valuesToInput,
} from './trigger-form.ts';

const DEVICE = '6a1f2c3d-0000-4000-8000-000000000010';
const RULE = '6a1f2c3d-0000-4000-8000-000000000020';
const NOTIFICATION = '6a1f2c3d-0000-4000-8000-000000000030';

function base(): Omit<Trigger, 'condition' | 'action'> {
  return {
    id: '6a1f2c3d-0000-4000-8000-000000000001',
    organizationId: '6a1f2c3d-0000-4000-8000-0000000000aa',
    name: 'Hot motor',
    enabled: true,
    cooldownSeconds: 60,
    runCount: 0,
    lastRunAt: null,
    lastError: null,
    lastErrorAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
  };
}

function form(changes: (values: TriggerFormValues) => void): TriggerFormValues {
  const values = emptyTriggerValues();
  values.name = 'Rule';
  values.data = { deviceId: '', path: '/motor/temp', operator: '>', valueType: 'number', value: '80' };
  values.notify = { notificationId: NOTIFICATION };
  changes(values);
  return values;
}

describe('trigger form ↔ API body', () => {
  it('builds a data condition on every device with a typed value', () => {
    expect(valuesToInput(form(() => {}))).toEqual({
      name: 'Rule',
      enabled: true,
      cooldownSeconds: 0,
      condition: { kind: 'data', deviceId: null, path: '/motor/temp', operator: '>', value: 80 },
      action: { kind: 'notify', notificationId: NOTIFICATION },
    });
  });

  it('builds each kind of condition and action from the chosen fields only', () => {
    const alarmToWrite = valuesToInput(
      form((values) => {
        values.conditionKind = 'alarm';
        values.alarm = { event: 'ACKNOWLEDGED', severities: ['MINOR', 'CRITICAL'], ruleIds: [RULE, RULE] };
        values.actionKind = 'write';
        values.write = { deviceId: DEVICE, path: ' /valve/open ', valueType: 'boolean', value: 'true' };
      }),
    );
    expect(alarmToWrite.condition).toEqual({
      kind: 'alarm',
      event: 'ACKNOWLEDGED',
      severities: ['CRITICAL', 'MINOR'],
      ruleIds: [RULE],
    });
    expect(alarmToWrite.action).toEqual({
      kind: 'write',
      deviceId: DEVICE,
      path: '/valve/open',
      value: true,
    });

    const webhook = valuesToInput(
      form((values) => {
        values.data = {
          deviceId: DEVICE,
          path: '/state',
          operator: '==',
          valueType: 'string',
          value: 'fault',
        };
        values.actionKind = 'webhook';
        values.webhook = { url: ' https://hooks.example.com/t ' };
      }),
    );
    expect(webhook.condition).toEqual({
      kind: 'data',
      deviceId: DEVICE,
      path: '/state',
      operator: '==',
      value: 'fault',
    });
    expect(webhook.action).toEqual({ kind: 'webhook', url: 'https://hooks.example.com/t' });

    const raise = valuesToInput(
      form((values) => {
        values.actionKind = 'alarm';
        values.raise = { severity: 'WARNING', message: ' Too hot ', ackRequired: true, resetRequired: false };
      }),
    );
    expect(raise.action).toEqual({
      kind: 'alarm',
      severity: 'WARNING',
      message: 'Too hot',
      ackRequired: true,
      resetRequired: false,
    });
  });

  it('gives back a stored trigger unchanged after showing it in the form (any condition and action)', () => {
    const value = fc.oneof(
      fc
        .double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 })
        .map((n) => (Object.is(n, -0) ? 0 : n)),
      fc.boolean(),
      fc.string({ maxLength: 20 }),
    );
    const path = fc.stringMatching(/^(\/[a-z][a-z0-9_]{0,8}){1,3}$/);
    const condition = fc.oneof(
      fc.record({
        kind: fc.constant('data' as const),
        deviceId: fc.constantFrom(null, DEVICE),
        path,
        operator: fc.constantFrom(
          '>' as const,
          '>=' as const,
          '<' as const,
          '<=' as const,
          '==' as const,
          '!=' as const,
        ),
        value,
      }),
      fc.record({
        kind: fc.constant('alarm' as const),
        event: fc.constantFrom('RAISED' as const, 'CLEARED' as const, 'CLOSED' as const),
        severities: fc.subarray(['CRITICAL' as const, 'MAJOR' as const, 'INFO' as const]),
        ruleIds: fc.subarray([RULE]),
      }),
    );
    const action = fc.oneof(
      fc.constant({ kind: 'notify' as const, notificationId: NOTIFICATION }),
      fc.constant({ kind: 'webhook' as const, url: 'https://hooks.example.com/x' }),
      fc.record({ kind: fc.constant('write' as const), deviceId: fc.constant(DEVICE), path, value }),
      fc.record({
        kind: fc.constant('alarm' as const),
        severity: fc.constantFrom('MAJOR' as const, 'INFO' as const),
        message: fc.stringMatching(/^[A-Za-z][A-Za-z ]{0,20}[a-z]$/),
        ackRequired: fc.boolean(),
        resetRequired: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(
        condition,
        action,
        fc.boolean(),
        fc.integer({ min: 0, max: 86_400 }),
        (c, a, enabled, cooldown) => {
          const trigger: Trigger = { ...base(), condition: c, action: a, enabled, cooldownSeconds: cooldown };
          const values = triggerToValues(trigger);
          expect(triggerProblems(values)).toEqual([]);
          expect(valuesToInput(values)).toEqual({
            name: trigger.name,
            enabled,
            cooldownSeconds: cooldown,
            condition: c,
            action: a,
          });
        },
      ),
    );
  });
});

describe('trigger validation', () => {
  it('accepts a complete trigger', () => {
    expect(triggerProblems(form(() => {}))).toEqual([]);
  });

  it('names every field it refuses', () => {
    const fields = (changes: (values: TriggerFormValues) => void) =>
      triggerProblems(form(changes)).map((problem) => `${problem.field}:${problem.kind}`);
    expect(fields((v) => (v.name = ' '))).toEqual(['name:required']);
    expect(fields((v) => (v.cooldownSeconds = 90_000))).toEqual(['cooldownSeconds:range']);
    expect(fields((v) => (v.data.path = 'motor/temp'))).toEqual(['data.path:path']);
    expect(fields((v) => (v.data.path = '/motor//temp'))).toEqual(['data.path:path']);
    expect(fields((v) => (v.data.value = 'hot'))).toEqual(['data.value:number']);
    expect(fields((v) => (v.notify.notificationId = ''))).toEqual(['notify.notificationId:required']);
    expect(
      fields((v) => {
        v.actionKind = 'webhook';
        v.webhook.url = 'ftp://example.com';
      }),
    ).toEqual(['webhook.url:scheme']);
    expect(fields((v) => (v.actionKind = 'webhook'))).toEqual(['webhook.url:required']);
    expect(fields((v) => (v.actionKind = 'write'))).toEqual([
      'write.deviceId:required',
      'write.path:path',
      'write.value:number',
    ]);
    expect(fields((v) => (v.actionKind = 'alarm'))).toEqual(['raise.message:required']);
    // An alarm condition needs no data fields.
    expect(
      fields((v) => {
        v.conditionKind = 'alarm';
        v.data.path = '';
      }),
    ).toEqual([]);
  });

  it('reads typed values by their type', () => {
    expect(parseValue('number', ' 12,5 ')).toBe(12.5);
    expect(parseValue('number', '-3e2')).toBe(-300);
    expect(parseValue('number', '')).toBeUndefined();
    expect(parseValue('number', 'Infinity')).toBeUndefined();
    expect(parseValue('boolean', 'false')).toBe(false);
    expect(parseValue('boolean', 'yes')).toBeUndefined();
    expect(parseValue('string', ' a b ')).toBe(' a b ');
    expect(isModelPath('/a/b')).toBe(true);
    expect(isModelPath('/')).toBe(false);
  });
});

describe('the state and result of runs', () => {
  it('shows a trigger failing while its last error stands', () => {
    expect(runState({ lastError: null, lastRunAt: null })).toBe('never');
    expect(runState({ lastError: null, lastRunAt: '2025-01-01T00:00:00Z' })).toBe('ran');
    expect(runState({ lastError: 'HTTP 500', lastRunAt: '2025-01-01T00:00:00Z' })).toBe('failing');
  });

  it('tells from the trigger before and after "Run now" whether the action failed', () => {
    const before = { lastError: null, lastErrorAt: null, lastRunAt: null, runCount: 0 };
    expect(runOutcome(before, { ...before, lastRunAt: '2025-01-01T00:00:01Z', runCount: 1 })).toEqual({
      ok: true,
    });
    expect(
      runOutcome(before, {
        lastError: 'connect ECONNREFUSED',
        lastErrorAt: '2025-01-01T00:00:01Z',
        lastRunAt: null,
        runCount: 0,
      }),
    ).toEqual({ ok: false, error: 'connect ECONNREFUSED' });
    const failedBefore = {
      lastError: 'old',
      lastErrorAt: '2025-01-01T00:00:00Z',
      lastRunAt: '2025-01-01T00:00:00Z',
      runCount: 3,
    };
    expect(
      runOutcome(failedBefore, {
        ...failedBefore,
        lastError: null,
        lastRunAt: '2025-01-02T00:00:00Z',
        runCount: 4,
      }),
    ).toEqual({ ok: true });
    expect(runOutcome(failedBefore, { ...failedBefore, lastErrorAt: '2025-01-02T00:00:00Z' })).toEqual({
      ok: false,
      error: 'old',
    });
  });

  it('writes a comparison as it reads', () => {
    expect(comparisonText('/motor/temp', '>', 80)).toBe('/motor/temp > 80');
    expect(comparisonText('/door/open', '==', true)).toBe('/door/open == true');
    expect(comparisonText('/state', '!=', 'ok')).toBe('/state != "ok"');
  });
});
