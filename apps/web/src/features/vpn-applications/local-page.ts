import type { PageRequest, PageResult } from '../../shared/ui/DataTable.tsx';

/**
 * One page of a list the server answers whole (applications, profiles, shortcuts: a handful per organization):
 * the rows whose texts contain the search (case-insensitive), sorted by name, then cut to the requested page.
 */
export function localPage<Row>(
  rows: readonly Row[],
  request: PageRequest,
  texts: (row: Row) => readonly string[],
  sortKey: (row: Row) => string,
): PageResult<Row> {
  const needle = request.search?.trim().toLocaleLowerCase() ?? '';
  const matching = needle
    ? rows.filter((row) => texts(row).some((text) => text.toLocaleLowerCase().includes(needle)))
    : [...rows];
  matching.sort((a, b) =>
    sortKey(a).localeCompare(sortKey(b), undefined, { sensitivity: 'base', numeric: true }),
  );
  const start = request.page * request.pageSize;
  return { items: matching.slice(start, start + request.pageSize), total: matching.length };
}
