import type { common } from '@edgeport/contract';
import { asc, desc, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { badRequest } from '../../../http/errors.ts';

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
  const key = query.sort ?? fallback;
  const column = Object.hasOwn(columns, key) ? columns[key] : undefined;
  if (!column) throw badRequest(`sort must be one of ${Object.keys(columns).join(', ')}`);
  const direction = query.order === 'desc' ? desc : asc;
  return [direction(column), direction(tieBreaker)];
}
