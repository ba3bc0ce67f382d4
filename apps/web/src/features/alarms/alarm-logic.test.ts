import { describe, expect, it } from 'vitest';
import { applicableCounts, applicableIds, appliesTo, chunks } from './actions.ts';
import {
  ALL_ALARMS,
  alarmFilter,
  fromLocalInput,
  isFiltered,
  OPEN_ALARMS,
  reversedRange,
  searchBody,
  toLocalInput,
} from './alarm-query.ts';
import { matchesFilter, mergeLiveAlarm, refreshChosen } from './live-merge.ts';
import { badgeCount, bySeverity, highestSeverity, SEVERITIES, SEVERITY_COLOR } from './severity.ts';
import type { Alarm } from './types.ts';

function alarm(overrides: Partial<Alarm> = {}): Alarm {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    organizationId: '00000000-0000-4000-8000-0000000000aa',
    ruleId: '00000000-0000-4000-8000-0000000000bb',
    triggerId: null,
    deviceId: '00000000-0000-4000-8000-0000000000cc',
    deviceLabel: 'Press 7',
    name: 'Oil too hot',
    path: '/oil/temperature',
    severity: 'MAJOR',
    status: 'ACTIVE',
    ack: 'REQUIRED',
    reset: 'NOT_REQUIRED',
    open: true,
    message: 'Oil at 93 °C on Press 7',
    value: 93,
    raisedAt: '2025-03-01T10:00:00.000Z',
    conditionClearedAt: null,
    ackAt: null,
    ackBy: null,
    resetAt: null,
    resetBy: null,
    clearedAt: null,
    clearedBy: null,
    updatedAt: '2025-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('severity', () => {
  it('orders from critical to info and gives each its colour', () => {
    expect(SEVERITIES).toEqual(['CRITICAL', 'MAJOR', 'MINOR', 'WARNING', 'INFO']);
    expect(SEVERITY_COLOR).toEqual({
      CRITICAL: 'red',
      MAJOR: 'orange',
      MINOR: 'yellow',
      WARNING: 'blue',
      INFO: 'gray',
    });
    const sorted = [{ severity: 'INFO' }, { severity: 'CRITICAL' }, { severity: 'MINOR' }] as const;
    expect([...sorted].sort(bySeverity).map((entry) => entry.severity)).toEqual([
      'CRITICAL',
      'MINOR',
      'INFO',
    ]);
  });

  it('finds the highest severity present', () => {
    const counts = { CRITICAL: 0, MAJOR: 0, MINOR: 2, WARNING: 5, INFO: 1, total: 8 };
    expect(highestSeverity(counts)).toBe('MINOR');
    expect(highestSeverity({ ...counts, CRITICAL: 1 })).toBe('CRITICAL');
    expect(highestSeverity({ CRITICAL: 0, MAJOR: 0, MINOR: 0, WARNING: 0, INFO: 0, total: 0 })).toBeNull();
    expect(highestSeverity(undefined)).toBeNull();
  });

  it('caps the badge text', () => {
    expect(badgeCount(7)).toBe('7');
    expect(badgeCount(999)).toBe('999');
    expect(badgeCount(1000)).toBe('999+');
  });
});

describe('filters to the search body', () => {
  it('asks for open alarms, newest first, by default', () => {
    expect(searchBody({ page: 0, pageSize: 50 }, OPEN_ALARMS)).toEqual({
      open: true,
      page: 0,
      pageSize: 50,
      sort: 'raisedAt',
      order: 'desc',
    });
  });

  it('sends only what narrows, trimmed', () => {
    const body = searchBody(
      { page: 2, pageSize: 20, search: '  press ', sort: 'severity', order: 'asc' },
      {
        open: 'closed',
        severities: ['CRITICAL', 'MAJOR'],
        statuses: ['CLEARED'],
        deviceId: id(5),
        from: '2025-01-01T00:00:00.000Z',
        to: '2025-02-01T00:00:00.000Z',
      },
    );
    expect(body).toEqual({
      open: false,
      severities: ['CRITICAL', 'MAJOR'],
      statuses: ['CLEARED'],
      deviceId: id(5),
      search: 'press',
      from: '2025-01-01T00:00:00.000Z',
      to: '2025-02-01T00:00:00.000Z',
      page: 2,
      pageSize: 20,
      sort: 'severity',
      order: 'asc',
    });
  });

  it('leaves the open state out for the whole history and ignores a column the server cannot sort', () => {
    const body = searchBody(
      { page: 0, pageSize: 50, search: '   ', sort: 'message', order: 'asc' },
      ALL_ALARMS,
    );
    expect(body).toEqual({ page: 0, pageSize: 50, sort: 'raisedAt', order: 'desc' });
    expect(alarmFilter(ALL_ALARMS)).toEqual({});
  });

  it('tells a filtered list from the default one and spots a reversed range', () => {
    expect(isFiltered(OPEN_ALARMS, OPEN_ALARMS)).toBe(false);
    expect(isFiltered(OPEN_ALARMS, OPEN_ALARMS, 'x')).toBe(true);
    expect(isFiltered({ ...OPEN_ALARMS, severities: ['INFO'] }, OPEN_ALARMS)).toBe(true);
    expect(isFiltered(OPEN_ALARMS, ALL_ALARMS)).toBe(true);
    expect(reversedRange({ from: '2025-02-01T00:00:00.000Z', to: '2025-01-01T00:00:00.000Z' })).toBe(true);
    expect(reversedRange({ from: '2025-01-01T00:00:00.000Z', to: '' })).toBe(false);
  });

  it('round-trips a local date-time input', () => {
    const iso = fromLocalInput('2025-03-04T05:06');
    expect(toLocalInput(iso)).toBe('2025-03-04T05:06');
    expect(fromLocalInput('')).toBe('');
    expect(fromLocalInput('nonsense')).toBe('');
    expect(toLocalInput('')).toBe('');
  });
});

describe('which bulk actions apply to a selection', () => {
  const needsAck = alarm({ id: id(1) });
  const needsReset = alarm({ id: id(2), ack: 'DONE', reset: 'REQUIRED', status: 'CLEARED' });
  const activeOnly = alarm({ id: id(3), ack: 'NOT_REQUIRED', reset: 'NOT_REQUIRED' });
  const closed = alarm({ id: id(4), open: false, ack: 'REQUIRED', clearedAt: '2025-03-01T11:00:00.000Z' });

  it('acknowledges only what still needs it, resets likewise, clears every open alarm', () => {
    expect(appliesTo('ack', needsAck)).toBe(true);
    expect(appliesTo('ack', needsReset)).toBe(false);
    expect(appliesTo('reset', needsReset)).toBe(true);
    expect(appliesTo('reset', needsAck)).toBe(false);
    expect(appliesTo('clear', activeOnly)).toBe(true);
  });

  it('never acts on a closed alarm', () => {
    for (const action of ['ack', 'reset', 'clear'] as const) expect(appliesTo(action, closed)).toBe(false);
  });

  it('counts per action and sends only the ids it applies to', () => {
    const chosen = [needsAck, needsReset, activeOnly, closed];
    expect(applicableCounts(chosen)).toEqual({ ack: 1, reset: 1, clear: 3 });
    expect(applicableIds('clear', chosen)).toEqual([id(1), id(2), id(3)]);
    expect(applicableIds('ack', [closed])).toEqual([]);
    expect(applicableCounts([])).toEqual({ ack: 0, reset: 0, clear: 0 });
  });

  it('splits long selections into calls of at most 500 ids', () => {
    const ids = Array.from({ length: 1203 }, (_, index) => index);
    expect(chunks(ids).map((part) => part.length)).toEqual([500, 500, 203]);
    expect(chunks([])).toEqual([]);
  });
});

describe('live merge', () => {
  const view = { filter: alarmFilter(OPEN_ALARMS), page: 0, sort: 'raisedAt', order: 'desc' as const };
  const page = (items: Alarm[]) => ({ items, total: items.length, page: 0, pageSize: 3 });

  it('replaces a row shown with its newer state', () => {
    const shown = alarm({ id: id(1) });
    const acked = alarm({ id: id(1), ack: 'DONE', ackBy: 'ann', updatedAt: '2025-03-01T10:05:00.000Z' });
    const merged = mergeLiveAlarm(page([shown]), acked, view);
    expect(merged.items).toEqual([acked]);
    expect(merged.total).toBe(1);
  });

  it('ignores a change older than the row shown', () => {
    const shown = alarm({ id: id(1), updatedAt: '2025-03-01T10:05:00.000Z' });
    const before = page([shown]);
    expect(mergeLiveAlarm(before, alarm({ id: id(1) }), view)).toBe(before);
  });

  it('puts a new matching alarm on top of a newest-first first page, keeping the page size', () => {
    const before = page([alarm({ id: id(1) }), alarm({ id: id(2) }), alarm({ id: id(3) })]);
    const raised = alarm({ id: id(9), severity: 'CRITICAL' });
    const merged = mergeLiveAlarm(before, raised, view);
    expect(merged.items.map((item) => item.id)).toEqual([id(9), id(1), id(2)]);
    expect(merged.total).toBe(4);
  });

  it('leaves the page alone for a new alarm that does not match, or on another page or order', () => {
    const before = page([alarm({ id: id(1) })]);
    const info = alarm({ id: id(9), severity: 'INFO' });
    const onlyCritical = { ...view, filter: { ...view.filter, severities: ['CRITICAL' as const] } };
    expect(mergeLiveAlarm(before, info, onlyCritical)).toBe(before);
    expect(mergeLiveAlarm(before, info, { ...view, page: 1 })).toBe(before);
    expect(mergeLiveAlarm(before, info, { ...view, sort: 'severity' })).toBe(before);
    expect(mergeLiveAlarm(before, alarm({ id: id(9), open: false }), view)).toBe(before);
  });

  it('matches filters as the server does', () => {
    const subject = alarm();
    expect(matchesFilter(subject, {})).toBe(true);
    expect(matchesFilter(subject, { open: false })).toBe(false);
    expect(matchesFilter(subject, { statuses: ['CLEARED'] })).toBe(false);
    expect(matchesFilter(subject, { search: 'press 7' })).toBe(true);
    expect(matchesFilter(subject, { search: 'pump' })).toBe(false);
    expect(matchesFilter(subject, { deviceId: id(77) })).toBe(false);
    expect(matchesFilter(subject, { from: '2025-03-01T10:00:00.000Z' })).toBe(true);
    expect(matchesFilter(subject, { to: '2025-03-01T10:00:00.000Z' })).toBe(false);
    expect(matchesFilter(subject, { ack: 'REQUIRED', reset: 'NOT_REQUIRED' })).toBe(true);
  });

  it('keeps the chosen alarms current', () => {
    const chosen = new Map([[id(1), alarm({ id: id(1) })]]);
    const acked = alarm({ id: id(1), ack: 'DONE' });
    expect(refreshChosen(chosen, acked).get(id(1))).toEqual(acked);
    expect(refreshChosen(chosen, alarm({ id: id(2) }))).toBe(chosen);
  });
});
