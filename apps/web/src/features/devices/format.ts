import type { DeviceStatus } from './api.ts';

/** Spec/architecture: one colour per connection status, the same in every table, drawer, chart and map. */
export const STATUS_COLOR: Record<DeviceStatus, string> = { ONLINE: 'teal', OFFLINE: 'gray' };
/** The same colours as CSS values (for the map's markers and the status chart). */
export const STATUS_CSS: Record<DeviceStatus, string> = {
  ONLINE: 'var(--mantine-color-teal-6)',
  OFFLINE: 'var(--mantine-color-gray-6)',
};

export function isDeviceStatus(value: string): value is DeviceStatus {
  return value === 'ONLINE' || value === 'OFFLINE';
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
  ['second', 1],
];

/** "5 minutes ago", "vor 2 Stunden": a past (or future) instant relative to `now`, in the locale's words. */
export function relativeTime(iso: string, now: number, locale: string): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const size = Math.abs(seconds);
  for (const [unit, length] of UNITS) {
    if (size >= length || unit === 'second') return format.format(Math.trunc(seconds / length), unit);
  }
  return format.format(seconds, 'second');
}

export function absoluteTime(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'medium' }).format(new Date(iso));
}

export type StatusSegment = { status: DeviceStatus; from: number; to: number };

/**
 * The ONLINE/OFFLINE periods between `from` and `to`, from status changes (any order). The status before the first
 * change inside the window is the one of the last change before it, else the opposite of the first change inside it
 * (a change is a change), else `current`.
 */
export function statusSegments(
  changes: readonly { status: string; at: string }[],
  from: number,
  to: number,
  current: DeviceStatus,
): StatusSegment[] {
  const sorted = changes
    .flatMap((change) =>
      isDeviceStatus(change.status) ? [{ status: change.status, at: new Date(change.at).getTime() }] : [],
    )
    .sort((a, b) => a.at - b.at);
  const before = sorted.filter((change) => change.at <= from).at(-1);
  const inside = sorted.filter((change) => change.at > from && change.at < to);
  const first = inside[0];
  let status: DeviceStatus = before?.status ?? (first ? opposite(first.status) : current);
  const segments: StatusSegment[] = [];
  let start = from;
  for (const change of inside) {
    if (change.status === status) continue;
    segments.push({ status, from: start, to: change.at });
    status = change.status;
    start = change.at;
  }
  segments.push({ status, from: start, to });
  return segments.filter((segment) => segment.to > segment.from);
}

function opposite(status: DeviceStatus): DeviceStatus {
  return status === 'ONLINE' ? 'OFFLINE' : 'ONLINE';
}

/** The share of the window each status had, 0..1. */
export function uptimeShare(segments: readonly StatusSegment[]): number {
  const total = segments.reduce((sum, segment) => sum + (segment.to - segment.from), 0);
  if (total <= 0) return 0;
  const online = segments
    .filter((segment) => segment.status === 'ONLINE')
    .reduce((sum, segment) => sum + (segment.to - segment.from), 0);
  return online / total;
}

/** Tags as typed in a free-text field ("a, b c" -> ["a", "b c"]): trimmed, without blanks or repeats. */
export function parseTags(input: readonly string[]): string[] {
  return [...new Set(input.map((tag) => tag.trim()).filter((tag) => tag.length > 0))];
}

/** A coordinate in the locale's digits, to 5 decimals (about a metre). */
export function formatCoordinate(value: number, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 5 }).format(value);
}
