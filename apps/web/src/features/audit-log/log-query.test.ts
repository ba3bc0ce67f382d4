import { describe, expect, it } from 'vitest';
import {
  actionPrefixes,
  DEFAULT_VIEW,
  entryFilter,
  filterParams,
  fromLocalInput,
  isRangeReversed,
  logViewParams,
  parseLogView,
  toLocalInput,
} from './log-query.ts';

describe('log view in the address', () => {
  it('reads every filter, sort and page and writes the same address back', () => {
    const params = new URLSearchParams({
      who: 'alice',
      what: 'roles.',
      type: 'roles',
      from: '2024-01-01T10:00:00.000Z',
      to: '2024-01-02T10:00:00.000Z',
      q: 'Operator',
      sort: 'actorEmail',
      order: 'desc',
      page: '2',
      size: '100',
    });
    const view = parseLogView(params);
    expect(view).toEqual({
      who: 'alice',
      what: 'roles.',
      resourceType: 'roles',
      from: '2024-01-01T10:00:00.000Z',
      to: '2024-01-02T10:00:00.000Z',
      search: 'Operator',
      sort: 'actorEmail',
      order: 'desc',
      page: 2,
      pageSize: 100,
    });
    expect(Object.fromEntries(logViewParams(view))).toEqual(Object.fromEntries(params));
  });

  it('falls back to defaults for malformed parts and leaves defaults out of the address', () => {
    const view = parseLogView(
      new URLSearchParams({ sort: 'detail', order: 'sideways', page: '-3', size: '7', from: 'yesterday' }),
    );
    expect(view).toEqual(DEFAULT_VIEW);
    expect(logViewParams(view).toString()).toBe('');
  });

  it('orders time newest first and other columns A to Z unless the address says otherwise', () => {
    expect(parseLogView(new URLSearchParams('sort=action')).order).toBe('asc');
    expect(parseLogView(new URLSearchParams('')).order).toBe('desc');
    expect(logViewParams({ ...DEFAULT_VIEW, sort: 'action', order: 'asc' }).toString()).toBe('sort=action');
    expect(logViewParams({ ...DEFAULT_VIEW, order: 'asc' }).toString()).toBe('order=asc');
  });
});

describe('filters for the service', () => {
  it('leaves out empty filters and trims text', () => {
    const filter = entryFilter({ ...DEFAULT_VIEW, who: '  bob ', search: '' });
    expect(filter).toEqual({ who: 'bob', sort: 'at', order: 'desc' });
    expect(filterParams(filter).toString()).toBe('who=bob&sort=at&order=desc');
  });

  it('notices a reversed time range', () => {
    expect(isRangeReversed({ from: '2024-02-01T00:00:00Z', to: '2024-01-01T00:00:00Z' })).toBe(true);
    expect(isRangeReversed({ from: '2024-01-01T00:00:00Z', to: '2024-01-01T00:00:00Z' })).toBe(false);
    expect(isRangeReversed({ from: '', to: '2024-01-01T00:00:00Z' })).toBe(false);
  });
});

describe('datetime-local inputs', () => {
  it('round-trip through ISO instants in the local time zone, the end covering its whole minute', () => {
    const start = fromLocalInput('2024-03-05T08:15', 'start');
    const end = fromLocalInput('2024-03-05T08:15', 'end');
    expect(Date.parse(end) - Date.parse(start)).toBe(59_999);
    expect(toLocalInput(start)).toBe('2024-03-05T08:15');
    expect(toLocalInput(end)).toBe('2024-03-05T08:15');
    expect(new Date(start).getHours()).toBe(8);
  });

  it('treat empty or invalid values as no limit', () => {
    expect(fromLocalInput('', 'start')).toBe('');
    expect(fromLocalInput('not a date', 'end')).toBe('');
    expect(toLocalInput('')).toBe('');
  });
});

describe('action prefixes', () => {
  it('are the distinct areas of the actions, sorted', () => {
    expect(actionPrefixes(['users.create', 'roles.update', 'roles.create', 'odd'])).toEqual([
      'roles.',
      'users.',
    ]);
  });
});
