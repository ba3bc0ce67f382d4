/** What a dashboard data export holds: the stored values, or the averages of the 1-minute or 1-hour rollups. */
export type ExportResolution = 'raw' | 'minute' | 'hour';

/** The longest range an automatic export gives as stored values, and as 1-minute averages. */
export const EXPORT_RAW_SPAN_MS = 24 * 60 * 60 * 1000;
export const EXPORT_MINUTE_SPAN_MS = 31 * 24 * 60 * 60 * 1000;

/**
 * What an automatic export gives for a range: the stored values up to a day, 1-minute averages up to 31 days (44,640
 * rows), 1-hour averages beyond (8,784 rows for the longest range).
 */
export function exportResolutionFor(fromMs: number, toMs: number): ExportResolution {
  const span = toMs - fromMs;
  if (span <= EXPORT_RAW_SPAN_MS) return 'raw';
  return span <= EXPORT_MINUTE_SPAN_MS ? 'minute' : 'hour';
}
