/** Characters that make a spreadsheet read a cell as a formula (CSV injection); such cells get a leading quote. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** Cells holding these need RFC 4180 quoting. */
const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV cell: formula-like text defused with a leading `'`, then quoted (doubling quotes) when needed. */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record, CRLF-terminated as RFC 4180 asks. */
export function csvRow(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
