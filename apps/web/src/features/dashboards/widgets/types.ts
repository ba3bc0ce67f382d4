import type { Action, Binding, DeviceBinding, Widget, WidgetType } from '@edgeport/dashboard-schema';

export type ScalarValue = number | boolean | string;
export type TimedValue = { value: ScalarValue; ts: number };

/**
 * What a widget reads and does, given by the page that shows it: the viewer (live values, actions) or the editor
 * (the same live values; actions and writes are off, `mode` is 'edit'). Built by `useDashboardRuntime`.
 */
export type WidgetRuntime = {
  mode: 'view' | 'edit';
  /** The device each slot shows, by slot name (undefined when the slot has none). */
  deviceOf(slot: string): string | undefined;
  /** The latest value of a binding, live. */
  valueOf(binding: Binding): TimedValue | undefined;
  /** Recent values of a binding for charts, oldest first, within the last `windowSeconds`. */
  historyOf(binding: Binding, windowSeconds: number): readonly TimedValue[];
  /** Writes a set-point (after the widget asked for confirmation). Rejects with the server's error. */
  write(binding: DeviceBinding, value: ScalarValue): Promise<void>;
  /** Runs a button's action (navigate, load another dashboard, write, set a variable). */
  run(action: Action): Promise<void>;
  /** An asset's address (image widget). */
  assetUrl(source: 'dashboard' | 'gallery', name: string): string;
};

/** One entry of the editor's palette. `flag` names the experimental feature that must be on to offer it. */
export type PaletteEntry = { type: WidgetType; flag?: 'deviceTableWidget' | 'mapAlarmWidget' };

export type WidgetViewProps = { widget: Widget; runtime: WidgetRuntime };
