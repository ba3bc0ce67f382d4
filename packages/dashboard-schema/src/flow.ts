import { type Static, Type } from 'typebox';
import { ElementId, SlotName, Widget } from './dashboard.ts';

/**
 * The flow document, schema version 1. A flow is a tree of entries; each entry opens a dashboard (with devices for its
 * slots) or a nested flow, and carries an alias, an icon and a colour for its card. `parentId` makes the tree; the
 * entries without one are the flow's first level. `position` is where the flow editor draws the entry.
 */
export const FLOW_SCHEMA_VERSION = 1;

/** The icons a flow card may show (names of the portal's icon set). */
export const FLOW_ICONS = [
  'dashboard',
  'gauge',
  'chart',
  'factory',
  'device',
  'alarm',
  'map',
  'settings',
  'folder',
  'bolt',
] as const;

const strict = { additionalProperties: false } as const;
const Uuid = Type.String({ format: 'uuid' });

export const FlowTarget = Type.Union([
  Type.Object(
    {
      kind: Type.Literal('dashboard'),
      dashboardId: Uuid,
      /** A fixed version; absent means the dashboard's current version. */
      version: Type.Optional(Type.Integer({ minimum: 1 })),
      slots: Type.Optional(Type.Record(SlotName, Uuid)),
    },
    strict,
  ),
  Type.Object({ kind: Type.Literal('flow'), flowId: Uuid }, strict),
]);

export const FlowEntry = Type.Object(
  {
    id: ElementId,
    parentId: Type.Optional(ElementId),
    alias: Type.String({ minLength: 1, maxLength: 100 }),
    // Unsafe keeps the same JSON schema but types it as the icon names (a Union over a mapped array types `never`).
    icon: Type.Unsafe<FlowIcon>(Type.Union(FLOW_ICONS.map((icon) => Type.Literal(icon)))),
    color: Type.String({ pattern: '^#[0-9a-fA-F]{6}$' }),
    target: FlowTarget,
    position: Type.Object({ x: Type.Number(), y: Type.Number() }, strict),
  },
  strict,
);

export const FlowDocument = Type.Object(
  {
    schemaVersion: Type.Literal(FLOW_SCHEMA_VERSION),
    entries: Type.Array(FlowEntry, { maxItems: 500 }),
  },
  strict,
);

/** A saved widget (the `/widgets` collection): widgets to drop into any dashboard, with their groups. */
export const WIDGET_SCHEMA_VERSION = 2;
export const WidgetDocument = Type.Object(
  {
    schemaVersion: Type.Literal(WIDGET_SCHEMA_VERSION),
    widgets: Type.Array(Widget, { minItems: 1, maxItems: 200 }),
  },
  strict,
);

export type FlowIcon = (typeof FLOW_ICONS)[number];
export type FlowTarget = Static<typeof FlowTarget>;
export type FlowEntry = Static<typeof FlowEntry>;
export type FlowDocument = Static<typeof FlowDocument>;
export type WidgetDocument = Static<typeof WidgetDocument>;
