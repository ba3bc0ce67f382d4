/** The SQLSTATE of a database error, found through drizzle's wrapping `cause` chain (node-postgres and PGlite). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let current = error; typeof current === 'object' && current !== null; ) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A unique index refused the row (23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === '23505';
}
