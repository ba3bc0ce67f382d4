import { alarms } from '@edgeport/contract/values';
import type { Severity, SeverityCounts } from './types.ts';

export type { Severity };

/** From the most to the least severe (the contract's order). */
export const SEVERITIES: readonly Severity[] = alarms.SEVERITIES;

/** One colour per severity, the same on every chip, badge and count (Mantine colour names). */
export const SEVERITY_COLOR: Record<Severity, string> = {
  CRITICAL: 'red',
  MAJOR: 'orange',
  MINOR: 'yellow',
  WARNING: 'blue',
  INFO: 'gray',
};

/** 0 for CRITICAL up to 4 for INFO: sorts the most severe first. */
export function severityRank(severity: Severity): number {
  return SEVERITIES.indexOf(severity);
}

export function bySeverity<T extends { severity: Severity }>(a: T, b: T): number {
  return severityRank(a.severity) - severityRank(b.severity);
}

export function isSeverity(value: string): value is Severity {
  return (SEVERITIES as readonly string[]).includes(value);
}

/** The most severe level with at least one open alarm, or null when none is open. */
export function highestSeverity(counts: SeverityCounts | undefined): Severity | null {
  if (!counts) return null;
  return SEVERITIES.find((severity) => counts[severity] > 0) ?? null;
}

/** The badge's text: the count, capped so the 50 px top bar keeps its shape. */
export function badgeCount(total: number): string {
  return total > 999 ? '999+' : String(total);
}
