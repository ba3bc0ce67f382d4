import { fromLocalInput, MAX_SPAN_MS } from '../../data-explore/time-range.ts';

/** The quick ranges of the viewer's data export, each ending now. */
export const EXPORT_PRESETS = ['1h', '24h', '7d'] as const;
export type ExportPreset = (typeof EXPORT_PRESETS)[number];

const HOUR = 3_600_000;
const PRESET_MS: Record<ExportPreset, number> = { '1h': HOUR, '24h': 24 * HOUR, '7d': 7 * 24 * HOUR };

/** A quick range, or explicit bounds as typed in `<input type="datetime-local">` (the browser's time zone). */
export type ExportChoice =
  | { kind: 'preset'; preset: ExportPreset }
  | { kind: 'custom'; from: string; to: string };

export type ExportRange =
  | { ok: true; from: string; to: string }
  | { ok: false; problem: 'invalid' | 'reversed' | 'tooLong' };

/** The bounds (ISO instants) the export asks for, or why it cannot. */
export function exportRange(choice: ExportChoice, now: number): ExportRange {
  const [from, to] =
    choice.kind === 'preset'
      ? [now - PRESET_MS[choice.preset], now]
      : [fromLocalInput(choice.from), fromLocalInput(choice.to)];
  if (!Number.isFinite(from) || !Number.isFinite(to)) return { ok: false, problem: 'invalid' };
  if (to <= from) return { ok: false, problem: 'reversed' };
  if (to - from > MAX_SPAN_MS) return { ok: false, problem: 'tooLong' };
  return { ok: true, from: new Date(from).toISOString(), to: new Date(to).toISOString() };
}

/** The slots' devices the export names: the chosen ones only (a slot without a device uses its default). */
export function exportSlots(devices: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const slots: Record<string, string> = {};
  for (const [slot, id] of Object.entries(devices)) if (id) slots[slot] = id;
  return slots;
}
