/** The rows of `db.execute`: PGlite and node-postgres both answer `{ rows }`. */
export function rowsOf<Row>(result: unknown): Row[] {
  return (result as { rows: Row[] }).rows;
}
