import type { WidgetType } from '@edgeport/dashboard-schema';
import type { FeatureFlag } from '../../experimental/flags.ts';
import type { PaletteEntry } from './types.ts';

/**
 * Every widget type the editor's palette offers, in palette order. `flag` names the experimental feature that must be
 * on for the entry to be offered (existing widgets of the type are shown whatever the flag).
 */
export const PALETTE: PaletteEntry[] = [
  { type: 'value' },
  { type: 'gauge' },
  { type: 'lineChart' },
  { type: 'barChart' },
  { type: 'table' },
  { type: 'deviceTable', flag: 'deviceTableWidget' },
  { type: 'map', flag: 'mapAlarmWidget' },
  { type: 'alarmList' },
  { type: 'image' },
  { type: 'text' },
  { type: 'button' },
  { type: 'switch' },
  { type: 'setpoint' },
  { type: 'iframe' },
  { type: 'group' },
];

/** The palette entries whose flag (if any) is on. */
export function availablePalette(isEnabled: (flag: FeatureFlag) => boolean): PaletteEntry[] {
  return PALETTE.filter((entry) => entry.flag === undefined || isEnabled(entry.flag));
}

/** The i18n key of a widget type's name ("Value", "Line chart", …), under `dashboardWidgets.types`. */
export function widgetLabelKey(type: WidgetType): `dashboardWidgets.types.${WidgetType}` {
  return `dashboardWidgets.types.${type}`;
}

/** The i18n key of a widget type's one-line description, under `dashboardWidgets.descriptions`. */
export function widgetDescriptionKey(type: WidgetType): `dashboardWidgets.descriptions.${WidgetType}` {
  return `dashboardWidgets.descriptions.${type}`;
}

/** A 24×24 stroke icon per type (SVG path data), drawn by `WidgetIcon`. */
export const WIDGET_ICONS: Record<WidgetType, string> = {
  value: 'M4 17h4M4 7h4M6 7v10M12 7h8v10h-8zM12 12h8',
  gauge: 'M4 16a8 8 0 1 1 16 0M12 16l4-5M12 16h.01',
  lineChart: 'M3 20h18M3 4v16M6 15l4-5 3 3 5-7',
  barChart: 'M3 20h18M6 20v-6M10 20v-10M14 20v-4M18 20v-12',
  table: 'M3 5h18v14H3zM3 10h18M3 15h18M9 5v14',
  deviceTable: 'M3 5h18v14H3zM3 10h18M3 15h18M6 7.5h.01M6 12.5h.01M6 17.5h.01',
  map: 'M9 4L3 6v14l6-2 6 2 6-2V4l-6 2zM9 4v14M15 6v14',
  alarmList: 'M12 4a5 5 0 0 1 5 5v4l2 3H5l2-3V9a5 5 0 0 1 5-5zM10 19a2 2 0 0 0 4 0',
  image: 'M3 5h18v14H3zM3 16l5-5 4 4 3-3 6 6M15 9h.01',
  text: 'M5 6h14M12 6v13M9 19h6',
  button: 'M3 8h18v8H3zM8 12h8',
  switch: 'M7 8h10a4 4 0 0 1 0 8H7a4 4 0 0 1 0-8zM16 12h.01',
  setpoint: 'M4 12h16M12 4v16M8 8l-4 4 4 4M16 8l4 4-4 4',
  iframe: 'M3 5h18v14H3zM3 9h18M6 7h.01M9 7h.01',
  group: 'M3 3h7v7H3zM14 3h7v7h-7zM3 14h7v7H3zM14 14h7v7h-7z',
};
