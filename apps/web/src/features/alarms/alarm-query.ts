import type { PageRequest } from '../../shared/ui/DataTable.tsx';
import type { AlarmFilter, AlarmSearch, AlarmStatus, Severity } from './types.ts';

export type { AlarmFilter, AlarmSearch, AlarmStatus };

type SortKey = NonNullable<AlarmSearch['sort']>;

/** Which alarms a list shows: open ones (/alarms), closed ones, or both (the history's default). */
export type OpenFilter = 'open' | 'closed' | 'all';

/** The filters a screen keeps beside the table's own page, sort and search box. */
export type AlarmFilters = {
  open: OpenFilter;
  severities: Severity[];
  statuses: AlarmStatus[];
  deviceId: string | null;
  /** ISO instants (raised at or after / before); empty: no bound. */
  from: string;
  to: string;
};

export const OPEN_ALARMS: AlarmFilters = {
  open: 'open',
  severities: [],
  statuses: [],
  deviceId: null,
  from: '',
  to: '',
};
export const ALL_ALARMS: AlarmFilters = { ...OPEN_ALARMS, open: 'all' };

const SORT_KEYS: readonly SortKey[] = ['raisedAt', 'severity', 'deviceLabel', 'name', 'updatedAt'];

function isSortKey(value: string | undefined): value is SortKey {
  return value !== undefined && (SORT_KEYS as readonly string[]).includes(value);
}

/** The filter part of a search (also what ackAll, resetAll and clearAll act on): only what narrows is sent. */
export function alarmFilter(filters: AlarmFilters, search?: string): AlarmFilter {
  const filter: AlarmFilter = {};
  if (filters.open !== 'all') filter.open = filters.open === 'open';
  if (filters.severities.length > 0) filter.severities = [...filters.severities];
  if (filters.statuses.length > 0) filter.statuses = [...filters.statuses];
  if (filters.deviceId) filter.deviceId = filters.deviceId;
  const text = search?.trim();
  if (text) filter.search = text.slice(0, 200);
  if (filters.from) filter.from = filters.from;
  if (filters.to) filter.to = filters.to;
  return filter;
}

/** The body of `POST /alarms/search` for the table's page request and the screen's filters. */
export function searchBody(request: PageRequest, filters: AlarmFilters): AlarmSearch {
  const body: AlarmSearch = {
    ...alarmFilter(filters, request.search),
    page: request.page,
    pageSize: request.pageSize,
  };
  if (isSortKey(request.sort)) {
    body.sort = request.sort;
    body.order = request.order ?? 'asc';
  } else {
    body.sort = 'raisedAt';
    body.order = 'desc';
  }
  return body;
}

/** Whether any filter (or the search text) narrows the list beyond the screen's own default. */
export function isFiltered(filters: AlarmFilters, base: AlarmFilters, search?: string): boolean {
  return (
    filters.open !== base.open ||
    filters.severities.length > 0 ||
    filters.statuses.length > 0 ||
    filters.deviceId !== null ||
    filters.from !== '' ||
    filters.to !== '' ||
    Boolean(search?.trim())
  );
}

/** True when `from` is after `to` (both set). */
export function reversedRange(filters: Pick<AlarmFilters, 'from' | 'to'>): boolean {
  return filters.from !== '' && filters.to !== '' && filters.from > filters.to;
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as a `datetime-local` input's value in the browser's time zone ('' stays ''). */
export function toLocalInput(iso: string): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (local time) as an ISO instant; '' or an invalid value: ''. */
export function fromLocalInput(value: string): string {
  if (!value) return '';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '' : date.toISOString();
}
