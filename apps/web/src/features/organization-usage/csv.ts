import type { DayRange } from './date-range.ts';

/** One journal entry as the CSV export writes it (the journal call's fields the file keeps). */
export type CsvJournalEntry = {
  at: string;
  resourceType: string;
  delta: number;
  reason: string;
  subjectId: string | null;
};

export const JOURNAL_CSV_HEADER = ['time', 'resourceType', 'delta', 'reason', 'subjectId'] as const;

/**
 * A CSV field (RFC 4180): quoted when it holds a comma, a quote or a line break (quotes doubled). A field that a
 * spreadsheet would run as a formula (=, +, -, @ at its start, not a plain number) gets a leading apostrophe.
 */
export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text) && !/^[+-]?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One CSV record with its CRLF line end. */
export function csvLine(fields: readonly (string | number | null | undefined)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The records of journal entries, in the order given (the journal answers newest first). */
export function journalCsvLines(entries: readonly CsvJournalEntry[]): string {
  return entries
    .map((entry) =>
      csvLine([
        new Date(entry.at).toISOString(),
        entry.resourceType,
        entry.delta,
        entry.reason,
        entry.subjectId,
      ]),
    )
    .join('');
}

/** A file-name-safe form of a text: lower case ASCII letters, digits and single dashes. */
export function slug(text: string): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii.slice(0, 60).replace(/-+$/, '') || 'organization';
}

/** `consumption-{organization}-{resource type}-{first day}-{last day}.csv` (the days the user chose). */
export function journalCsvName(organizationName: string, resourceType: string, range: DayRange): string {
  return `consumption-${slug(organizationName)}-${slug(resourceType)}-${range.start}-${range.end}.csv`;
}

/** Progress of an export as a whole percentage (0 while the total is not known yet). */
export function exportPercent(fetched: number, total: number): number {
  if (total <= 0) return fetched > 0 ? 100 : 0;
  return Math.min(100, Math.floor((fetched * 100) / total));
}
