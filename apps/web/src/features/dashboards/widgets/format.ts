import type { Binding } from '@edgeport/dashboard-schema';
import type { TFunction } from 'i18next';
import type { ScalarValue } from './types.ts';

const numberFormats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string, decimals: number | undefined): Intl.NumberFormat {
  const key = `${locale}|${decimals ?? ''}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(
      locale,
      decimals === undefined
        ? { maximumFractionDigits: 3 }
        : { minimumFractionDigits: decimals, maximumFractionDigits: decimals },
    );
    numberFormats.set(key, format);
  }
  return format;
}

/** A value as the widgets show it: numbers locale-formatted, booleans as On/Off, strings as they are. */
export function formatValue(t: TFunction, locale: string, value: ScalarValue, decimals?: number): string {
  if (typeof value === 'number') return numberFormat(locale, decimals).format(value);
  if (typeof value === 'boolean')
    return t(value ? 'dashboardWidgets.value.on' : 'dashboardWidgets.value.off');
  return value;
}

/** A value with its unit ("42.5 °C"). */
export function withUnit(text: string, unit: string | null | undefined): string {
  return unit ? `${text} ${unit}` : text;
}

/** A number for charts and gauges: booleans as 0/1, strings not charted. */
export function numeric(value: ScalarValue | undefined): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return null;
}

/** A binding in words: "Press · /line/speed" (slot label and path) or the variable's name. */
export function bindingLabel(binding: Binding, slotLabel?: (slot: string) => string): string {
  if ('variable' in binding) return binding.variable;
  return `${slotLabel?.(binding.slot) ?? binding.slot} · ${binding.path}`;
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The time of a value in the user's language: what `Date#toLocaleString(locale)` gives (date and time, numeric), with
 * one formatter per language (value widgets format their time on every new value).
 */
export function formatTime(locale: string, ts: number): string {
  let format = timeFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    timeFormats.set(locale, format);
  }
  return format.format(ts);
}
