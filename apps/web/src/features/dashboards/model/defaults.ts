import { GRID_COLUMNS, type Layout, type Widget, type WidgetType } from '@edgeport/dashboard-schema';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
const LETTERS = 52;

/**
 * A new id for a widget or a page: 12 characters of `[A-Za-z0-9_-]` starting with a letter (so it is also a valid
 * CSS selector and URL segment), about 71 random bits from the platform's CSPRNG — collisions are not a concern even
 * for ids pasted between dashboards.
 */
export function newId(length = 12): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let id = '';
  for (const [index, byte] of bytes.entries()) {
    id += index === 0 ? ALPHABET.charAt(byte % LETTERS) : ALPHABET.charAt(byte & 63);
  }
  return id;
}

/** The size a new widget of each type starts with (columns of the 24-column grid × rows). */
export const DEFAULT_SIZES: Readonly<Record<WidgetType, { w: number; h: number }>> = {
  value: { w: 4, h: 3 },
  gauge: { w: 5, h: 5 },
  lineChart: { w: 8, h: 6 },
  barChart: { w: 8, h: 6 },
  table: { w: 6, h: 6 },
  deviceTable: { w: 12, h: 8 },
  map: { w: 8, h: 8 },
  alarmList: { w: 8, h: 6 },
  image: { w: 6, h: 6 },
  text: { w: 6, h: 3 },
  button: { w: 4, h: 2 },
  switch: { w: 4, h: 2 },
  setpoint: { w: 4, h: 3 },
  iframe: { w: 8, h: 6 },
  group: { w: 8, h: 8 },
};

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, Math.round(Number.isFinite(value) ? value : min)));
}

/** A layout inside the schema's bounds: whole numbers, `x + w` within the 24 columns. */
export function normalizeLayout(layout: Layout): Layout {
  const w = clamp(layout.w, 1, GRID_COLUMNS);
  return {
    x: clamp(layout.x, 0, GRID_COLUMNS - w),
    y: clamp(layout.y, 0, 10_000),
    w,
    h: clamp(layout.h, 1, 200),
  };
}

export type DefaultWidgetContext = {
  /** The page a new button navigates to (the dashboard's root page); 'page-1' when not given. */
  rootPageId?: string;
};

/**
 * A valid widget of the type with sensible default options, at `layout` (defaults: top left, the type's size).
 * Bindings start empty (the inspector binds them); a button starts navigating to the root page, labelled 'Button';
 * an iframe starts at `https://` (no address yet: the widget shows nothing until one is entered).
 */
export function defaultWidget(
  type: WidgetType,
  id: string,
  layout?: Partial<Layout>,
  context: DefaultWidgetContext = {},
): Widget {
  const size = DEFAULT_SIZES[type];
  const place = normalizeLayout({ x: 0, y: 0, ...size, ...layout });
  const base = { id, layout: place };
  switch (type) {
    case 'value':
      return { ...base, type, options: { decimals: 1 } };
    case 'gauge':
      return { ...base, type, options: { min: 0, max: 100, decimals: 1 } };
    case 'lineChart':
      return { ...base, type, bindings: [], options: { windowSeconds: 600 } };
    case 'barChart':
      return { ...base, type, bindings: [], options: { windowSeconds: 3600, bucketSeconds: 300 } };
    case 'table':
      return { ...base, type, bindings: [], options: {} };
    case 'deviceTable':
      return { ...base, type, options: { pageSize: 10 } };
    case 'map':
      return { ...base, type, options: { showAlarms: true } };
    case 'alarmList':
      return { ...base, type, options: { limit: 20 } };
    case 'image':
      return { ...base, type, options: { asset: '', source: 'dashboard', fit: 'contain' } };
    case 'text':
      return { ...base, type, options: { text: '', size: 'md' } };
    case 'button':
      return {
        ...base,
        type,
        action: { kind: 'navigate', pageId: context.rootPageId ?? 'page-1' },
        options: { label: 'Button' },
      };
    case 'switch':
      return { ...base, type, options: { confirm: true } };
    case 'setpoint':
      return { ...base, type, options: { step: 1 } };
    case 'iframe':
      return { ...base, type, options: { url: 'https://' } };
    case 'group':
      return { ...base, type, options: {} };
  }
}
