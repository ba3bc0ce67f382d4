import { type Static, Type } from 'typebox';
import {
  DASHBOARD_SCHEMA_VERSION,
  type DashboardDocument,
  GRID_COLUMNS,
  type Page,
  type Widget,
} from './dashboard.ts';

/**
 * Dashboard schema version 1, as stored before pages had ids, slots had labels and widgets had typed options: pages
 * by name, widgets with a `kind`, a flat position and free `props`, and `devices` listing the slot names. Still read,
 * so that old exports and stored versions open; `migrateV1` turns it into the current version.
 */
export const DashboardDocumentV1 = Type.Object({
  schemaVersion: Type.Literal(1),
  devices: Type.Array(Type.String({ pattern: '^[a-z][a-z0-9_]*$', maxLength: 32 }), { maxItems: 20 }),
  pages: Type.Array(
    Type.Object({
      name: Type.String({ maxLength: 100 }),
      widgets: Type.Array(
        Type.Object({
          id: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }),
          kind: Type.Union([
            Type.Literal('label'),
            Type.Literal('gauge'),
            Type.Literal('line'),
            Type.Literal('text'),
          ]),
          x: Type.Integer({ minimum: 0 }),
          y: Type.Integer({ minimum: 0 }),
          w: Type.Integer({ minimum: 1 }),
          h: Type.Integer({ minimum: 1 }),
          deviceSlot: Type.Optional(Type.String()),
          path: Type.Optional(Type.String({ pattern: '^/' })),
          props: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
        }),
        { maxItems: 1000 },
      ),
    }),
    { minItems: 1, maxItems: 100 },
  ),
});
export type DashboardDocumentV1 = Static<typeof DashboardDocumentV1>;

/** Version 1 used a 12-column grid. */
const V1_COLUMNS = 12;
const SCALE = GRID_COLUMNS / V1_COLUMNS;

type V1Widget = DashboardDocumentV1['pages'][number]['widgets'][number];

function layoutOf(widget: V1Widget): Widget['layout'] {
  const w = Math.min(GRID_COLUMNS, Math.max(1, widget.w * SCALE));
  const x = Math.min(GRID_COLUMNS - w, widget.x * SCALE);
  return { x, y: widget.y, w, h: widget.h };
}

function textProp(widget: V1Widget, name: string): string | undefined {
  const value = widget.props?.[name];
  return value === undefined ? undefined : String(value);
}

function numberProp(widget: V1Widget, name: string, fallback: number): number {
  const value = Number(widget.props?.[name]);
  return Number.isFinite(value) ? value : fallback;
}

function migrateWidget(widget: V1Widget, defaultSlot: string | undefined): Widget {
  const slot = widget.deviceSlot ?? defaultSlot;
  const binding = widget.path && slot ? { slot, path: widget.path } : undefined;
  const base = {
    id: widget.id,
    layout: layoutOf(widget),
    ...(textProp(widget, 'title') && { title: textProp(widget, 'title') }),
  };
  const unit = textProp(widget, 'unit');
  switch (widget.kind) {
    case 'label':
      return { ...base, type: 'value', ...(binding && { binding }), options: { ...(unit && { unit }) } };
    case 'gauge':
      return {
        ...base,
        type: 'gauge',
        ...(binding && { binding }),
        options: {
          min: numberProp(widget, 'min', 0),
          max: numberProp(widget, 'max', 100),
          ...(unit && { unit }),
        },
      };
    case 'line':
      return {
        ...base,
        type: 'lineChart',
        bindings: binding ? [binding] : [],
        options: { windowSeconds: 600 },
      };
    case 'text':
      return { ...base, type: 'text', options: { text: textProp(widget, 'text') ?? '', size: 'md' } };
  }
}

/** Version 1 → version 2: page ids from their position, slots labelled by name, the first page as the root. */
export function migrateV1(document: DashboardDocumentV1): DashboardDocument {
  const defaultSlot = document.devices[0];
  const pages: Page[] = document.pages.map((page, index) => ({
    id: `page-${index + 1}`,
    title: page.name,
    widgets: page.widgets.map((widget) => migrateWidget(widget, defaultSlot)),
  }));
  return {
    schemaVersion: DASHBOARD_SCHEMA_VERSION,
    rootPageId: 'page-1',
    pages,
    slots: document.devices.map((name) => ({ name, label: name })),
    variables: [],
  };
}
