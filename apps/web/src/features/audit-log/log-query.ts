/** The log view as the address keeps it, so a filtered view can be shared as a link. */
export type SortColumn = 'at' | 'actorEmail' | 'action' | 'resourceType';

export type LogView = {
  who: string;
  /** An action, or an action prefix ending with a dot. */
  what: string;
  resourceType: string;
  /** ISO instants. */
  from: string;
  to: string;
  search: string;
  sort: SortColumn;
  order: 'asc' | 'desc';
  page: number;
  pageSize: number;
};

export const SORT_COLUMNS: readonly SortColumn[] = ['at', 'actorEmail', 'action', 'resourceType'];
export const PAGE_SIZES = [25, 50, 100, 250, 500] as const;
const DEFAULT_PAGE_SIZE = 50;

export const DEFAULT_VIEW: LogView = {
  who: '',
  what: '',
  resourceType: '',
  from: '',
  to: '',
  search: '',
  sort: 'at',
  order: 'desc',
  page: 0,
  pageSize: DEFAULT_PAGE_SIZE,
};

/** Address parameter of each part of the view. */
const PARAM = {
  who: 'who',
  what: 'what',
  resourceType: 'type',
  from: 'from',
  to: 'to',
  search: 'q',
  sort: 'sort',
  order: 'order',
  page: 'page',
  pageSize: 'size',
} as const satisfies Record<keyof LogView, string>;

function isInstant(value: string): boolean {
  return value !== '' && !Number.isNaN(Date.parse(value));
}

function text(params: URLSearchParams, key: string, maxLength: number): string {
  return (params.get(key) ?? '').slice(0, maxLength);
}

/** Time runs newest first; the other columns A to Z. */
export function defaultOrder(sort: SortColumn): 'asc' | 'desc' {
  return sort === 'at' ? 'desc' : 'asc';
}

/** The view an address asks for; anything malformed falls back to its default. */
export function parseLogView(params: URLSearchParams): LogView {
  const sort = params.get(PARAM.sort);
  const order = params.get(PARAM.order);
  const page = Number(params.get(PARAM.page));
  const pageSize = Number(params.get(PARAM.pageSize));
  const from = params.get(PARAM.from) ?? '';
  const to = params.get(PARAM.to) ?? '';
  const validSort = SORT_COLUMNS.find((column) => column === sort);
  return {
    who: text(params, PARAM.who, 254),
    what: text(params, PARAM.what, 120),
    resourceType: text(params, PARAM.resourceType, 60),
    from: isInstant(from) ? new Date(from).toISOString() : '',
    to: isInstant(to) ? new Date(to).toISOString() : '',
    search: text(params, PARAM.search, 200),
    sort: validSort ?? DEFAULT_VIEW.sort,
    order: order === 'asc' || order === 'desc' ? order : defaultOrder(validSort ?? DEFAULT_VIEW.sort),
    page: Number.isInteger(page) && page > 0 ? page : 0,
    pageSize: PAGE_SIZES.find((size) => size === pageSize) ?? DEFAULT_PAGE_SIZE,
  };
}

/** The address parameters of a view; defaults are left out so links stay short. */
export function logViewParams(view: LogView): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(PARAM) as Array<keyof LogView>) {
    const value = view[key];
    const fallback = key === 'order' ? defaultOrder(view.sort) : DEFAULT_VIEW[key];
    if (value === fallback || value === '') continue;
    params.set(PARAM[key], String(value));
  }
  return params;
}

export type EntryFilter = {
  who?: string;
  what?: string;
  resourceType?: string;
  from?: string;
  to?: string;
  search?: string;
  sort: SortColumn;
  order: 'asc' | 'desc';
};

/** The filters and order of a view as the audit service takes them (the list and the CSV export). */
export function entryFilter(view: LogView): EntryFilter {
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    who: optional(view.who),
    what: optional(view.what),
    resourceType: optional(view.resourceType),
    from: optional(view.from),
    to: optional(view.to),
    search: optional(view.search),
    sort: view.sort,
    order: view.order,
  };
}

/** The filter without its empty parts, as query parameters. */
export function filterParams(filter: EntryFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) {
    if (typeof value === 'string' && value !== '') params.set(key, value);
  }
  return params;
}

/** A time range that ends before it starts. */
export function isRangeReversed(view: Pick<LogView, 'from' | 'to'>): boolean {
  return view.from !== '' && view.to !== '' && Date.parse(view.from) > Date.parse(view.to);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO instant as a `datetime-local` input value, in the browser's time zone (minutes). */
export function toLocalInput(iso: string): string {
  if (!isInstant(iso)) return '';
  const date = new Date(iso);
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/**
 * A `datetime-local` value as an ISO instant. The input has minutes only, so an end of range includes its whole
 * minute.
 */
export function fromLocalInput(value: string, edge: 'start' | 'end'): string {
  if (value === '') return '';
  const local = new Date(value);
  if (Number.isNaN(local.getTime())) return '';
  if (edge === 'end') local.setSeconds(59, 999);
  else local.setSeconds(0, 0);
  return local.toISOString();
}

/** The action prefixes (`roles.`) of the actions present, for "every change of …" choices. */
export function actionPrefixes(actions: readonly string[]): string[] {
  const prefixes = new Set<string>();
  for (const action of actions) {
    const dot = action.indexOf('.');
    if (dot > 0) prefixes.add(action.slice(0, dot + 1));
  }
  return [...prefixes].sort();
}
