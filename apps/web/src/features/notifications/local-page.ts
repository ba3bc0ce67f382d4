import type { PageRequest, PageResult } from '../../shared/ui/DataTable.tsx';

/**
 * One page of a list the server answers whole (notification and trigger rules): filtered by the search text on the
 * given fields, sorted by name, cut to the requested page.
 */
export function localPage<Row>(
  rows: readonly Row[] | undefined,
  request: PageRequest,
  text: (row: Row) => string[],
): PageResult<Row> | undefined {
  if (!rows) return undefined;
  const needle = request.search?.trim().toLocaleLowerCase() ?? '';
  const matching = needle
    ? rows.filter((row) => text(row).some((value) => value.toLocaleLowerCase().includes(needle)))
    : [...rows];
  const start = request.page * request.pageSize;
  return { items: matching.slice(start, start + request.pageSize), total: matching.length };
}
