import type { Action, Binding, DeviceBinding, Widget, WidgetType } from '@edgeport/dashboard-schema';
import type { ReactNode } from 'react';
import type { Resolution } from '../../data-explore/resolution.ts';

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

  // Optional members (a hand-made runtime, in a test or a preview, may leave them out; widgets then show what the
  // members above answer at render time).

  /**
   * Calls `listener` when the binding's value, history, meta or loading state changes — at most once per animation
   * frame, and only for this binding: widgets subscribe here (useSyncExternalStore) so that a message re-renders only
   * the widgets it concerns. Answers the function that stops.
   */
  subscribe?(binding: Binding, listener: () => void): () => void;
  /** Whether the slot's device's stored values are still loading. */
  loading?(slot: string): boolean;
  /** The slot's label (the document's), for messages such as "No device in slot Press". */
  slotLabel?(slot: string): string;
  /** The label of the slot's device, for confirmations ("Write 42 °C to /line/setpoint of Press 1?"). */
  deviceLabelOf?(slot: string): string | undefined;
  /** Unit, type and whether the caller may write, as the platform answered for the binding's path. */
  metaOf?(binding: Binding): { unit: string | null; type: string | null; writable: boolean } | undefined;
  /**
   * What the binding's stored history was taken from: the stored values ('raw'), or the minute or hour rollups (the
   * minimum and maximum of each) for a long window; undefined before it came or without one (variables).
   */
  resolutionOf?(binding: Binding): Resolution | undefined;
  /** The device's status as last reported live. */
  statusOf?(deviceId: string): 'ONLINE' | 'OFFLINE' | undefined;
  /** The slot names of the document, in order (map and alarm widgets show the slots' devices). */
  slots?(): readonly string[];
};

/** One entry of the editor's palette. `flag` names the experimental feature that must be on to offer it. */
export type PaletteEntry = { type: WidgetType; flag?: 'deviceTableWidget' | 'mapAlarmWidget' };

export type WidgetViewProps = {
  widget: Widget;
  runtime: WidgetRuntime;
  /** A group's content: its child widgets, laid out by the page that shows them. */
  children?: ReactNode;
};
