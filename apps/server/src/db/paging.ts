import type { common } from '@edgeport/contract';
import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '../http/errors.ts';

/** Query helpers every paged, searchable list shares. */

/** `value` as a literal inside a LIKE pattern (`%`, `_` and the escape character lose their meaning). */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (char) => `\\${char}`);
}

export function containsPattern(value: string): string {
  return `%${escapeLike(value.trim())}%`;
}

export type PageWindow = { page: number; pageSize: number; offset: number };

export function pageWindow(query: common.PageQuery): PageWindow {
  const page = query.page ?? 0;
  const pageSize = query.pageSize ?? 50;
  return { page, pageSize, offset: page * pageSize };
}

/** The page `rows` (already limited to `window`) and the number of all matching rows, queried together. */
export async function fetchPage<Row>(
  window: PageWindow,
  rows: PromiseLike<Row[]>,
  counted: PromiseLike<{ total: number }[]>,
): Promise<common.PageOf<Row>> {
  const [items, [row]] = await Promise.all([rows, counted]);
  return { items, total: row?.total ?? 0, page: window.page, pageSize: window.pageSize };
}

/** The sort key a list was asked for, or its default; 400 naming `sort` for a key the list does not sort by. */
export function sortKey<Key extends string>(
  sort: string | undefined,
  allowed: readonly Key[],
  fallback: Key,
): Key {
  if (sort === undefined) return fallback;
  const key = allowed.find((candidate) => candidate === sort);
  if (!key) throw badRequest(`sort must be one of ${allowed.join(', ')}`);
  return key;
}

/**
 * The ORDER BY of a list: the asked column (400 naming `sort` for one the list does not sort by), then `tieBreaker`
 * so pages neither repeat nor skip rows with equal values.
 */
export function orderOf(
  query: common.PageQuery,
  columns: Record<string, AnyPgColumn>,
  fallback: string,
  tieBreaker: AnyPgColumn,
): SQL[] {
  const column = columns[sortKey(query.sort, Object.keys(columns), fallback)];
  if (!column) throw badRequest(`sort must be one of ${Object.keys(columns).join(', ')}`);
  const direction = query.order === 'desc' ? desc : asc;
  return [direction(column), direction(tieBreaker)];
}
