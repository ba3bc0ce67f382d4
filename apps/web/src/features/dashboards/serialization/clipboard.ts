import {
  DASHBOARD_SCHEMA_VERSION,
  type DeviceSlot,
  readDocument,
  type Variable,
  WIDGET_SCHEMA_VERSION,
  type Widget,
} from '@edgeport/dashboard-schema';
import type { ClipboardPayload } from '../model/types.ts';

/**
 * The text form of copied widgets, for the system clipboard and the in-app one:
 *
 *     {"format":"edgeport/widgets","schemaVersion":2,"widgets":[...],"slots":[...],"variables":[...]}
 *
 * Text from the clipboard comes from anywhere (another tab, another application, a hostile page), so reading it
 * checks everything with the dashboard schema: the format marker, every widget against its type's schema (unknown
 * fields, script-like addresses, oversized texts are refused), the slots and the variables. Anything wrong: null,
 * and nothing is pasted. Version 1 widgets (the old `kind`/`props` form, from older portals) are migrated through
 * `readDocument`'s version 1 reader.
 */
export const CLIPBOARD_FORMAT = 'edgeport/widgets';

/** Larger texts are not even parsed (1,000 widgets with long texts stay well below). */
export const MAX_CLIPBOARD_CHARS = 4_000_000;
const MAX_WIDGETS = 1000;
/** The widget document holds at most 200 widgets: larger payloads are checked in chunks. */
const CHUNK = 200;

export function toClipboardText(payload: ClipboardPayload): string {
  return JSON.stringify({
    format: CLIPBOARD_FORMAT,
    schemaVersion: payload.schemaVersion,
    widgets: payload.widgets,
    slots: payload.slots,
    variables: payload.variables ?? [],
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The slots and variables, checked by the dashboard schema (names, labels, ids, types). */
function readDefinitions(
  slots: unknown,
  variables: unknown,
): { slots: DeviceSlot[]; variables: Variable[] } | null {
  const read = readDocument('dashboard', {
    schemaVersion: DASHBOARD_SCHEMA_VERSION,
    rootPageId: 'clipboard',
    pages: [{ id: 'clipboard', title: '', widgets: [] }],
    slots,
    variables,
  });
  return read.ok ? { slots: read.document.slots, variables: read.document.variables } : null;
}

function readCurrent(raw: Record<string, unknown>): ClipboardPayload | null {
  const { widgets } = raw;
  if (!Array.isArray(widgets) || widgets.length === 0 || widgets.length > MAX_WIDGETS) return null;
  for (let start = 0; start < widgets.length; start += CHUNK) {
    const chunk = widgets.slice(start, start + CHUNK);
    if (!readDocument('widget', { schemaVersion: WIDGET_SCHEMA_VERSION, widgets: chunk }).ok) return null;
  }
  const definitions = readDefinitions(raw.slots ?? [], raw.variables ?? []);
  if (!definitions) return null;
  return {
    format: CLIPBOARD_FORMAT,
    schemaVersion: DASHBOARD_SCHEMA_VERSION,
    widgets: widgets as Widget[],
    ...definitions,
  };
}

const SLOT_NAME = /^[a-z][a-z0-9_]{0,31}$/;

/** Version 1: widgets of the old form; slots as names (or `{name, label}`). Migrated as a one-page v1 dashboard. */
function readVersion1(raw: Record<string, unknown>): ClipboardPayload | null {
  const { widgets } = raw;
  if (!Array.isArray(widgets) || widgets.length === 0 || widgets.length > MAX_WIDGETS) return null;
  const labels = new Map<string, string>();
  for (const slot of Array.isArray(raw.slots) ? raw.slots : []) {
    const name = typeof slot === 'string' ? slot : isRecord(slot) ? slot.name : undefined;
    if (typeof name !== 'string' || !SLOT_NAME.test(name)) return null;
    const label = isRecord(slot) && typeof slot.label === 'string' ? slot.label : name;
    labels.set(name, label);
  }
  for (const widget of widgets) {
    const slot = isRecord(widget) ? widget.deviceSlot : undefined;
    if (typeof slot === 'string' && SLOT_NAME.test(slot) && !labels.has(slot)) labels.set(slot, slot);
  }
  const read = readDocument('dashboard', {
    schemaVersion: 1,
    devices: [...labels.keys()],
    pages: [{ name: 'clipboard', widgets }],
  });
  if (!read.ok) return null;
  const migrated = read.document.pages[0]?.widgets ?? [];
  const definitions = readDefinitions(
    read.document.slots.map((slot) => ({ ...slot, label: labels.get(slot.name) ?? slot.label })),
    [],
  );
  if (!definitions || migrated.length === 0) return null;
  return {
    format: CLIPBOARD_FORMAT,
    schemaVersion: DASHBOARD_SCHEMA_VERSION,
    widgets: migrated,
    ...definitions,
  };
}

/** The payload in clipboard text, or null when the text is not valid copied widgets (see the module's comment). */
export function fromClipboardText(text: unknown): ClipboardPayload | null {
  if (typeof text !== 'string' || text.length > MAX_CLIPBOARD_CHARS) return null;
  const trimmed = text.trim();
  if (!trimmed.startsWith('{')) return null;
  let raw: unknown;
  try {
    raw = JSON.parse(trimmed);
  } catch {
    return null;
  }
  if (!isRecord(raw) || raw.format !== CLIPBOARD_FORMAT) return null;
  if (raw.schemaVersion === DASHBOARD_SCHEMA_VERSION) return readCurrent(raw);
  if (raw.schemaVersion === 1) return readVersion1(raw);
  return null;
}
