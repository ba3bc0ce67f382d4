import { type Static, Type } from 'typebox';

/**
 * The dashboard document, schema version 2 (the current one).
 *
 * A dashboard is a root project with pages. Each page holds a flat list of widgets; a widget whose `parentId` names a
 * group of the same page sits inside that group, so a page is a tree of widgets and groups. Widgets read device values
 * through bindings to model paths of a named device slot: the viewer picks each slot's device from the query parameter
 * `ecc_device_{slot}` (or the slot's default device), so one dashboard serves every device of a model.
 *
 * Every text a user types is data: the portal renders it as text, never as markup or script.
 */
export const DASHBOARD_SCHEMA_VERSION = 2;

/** Ids of pages and widgets: short, URL- and selector-safe. */
export const ElementId = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

/** A slot name; the viewer reads its device from `ecc_device_{name}`. */
export const SlotName = Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z][a-z0-9_]*$' });

export const VariableName = Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z][A-Za-z0-9_]*$' });

export const ModelPath = Type.String({ minLength: 2, maxLength: 300, pattern: '^/' });

const Uuid = Type.String({ format: 'uuid' });
const ScalarValue = Type.Union([Type.Number(), Type.Boolean(), Type.String({ maxLength: 1000 })]);
const Label = (maxLength: number) => Type.String({ maxLength });
const strict = { additionalProperties: false } as const;

export const DeviceSlot = Type.Object(
  {
    name: SlotName,
    label: Label(100),
    /** The model the slot's devices follow; the editor offers its paths. */
    modelId: Type.Optional(Uuid),
    /** The device shown when the address names none. */
    defaultDeviceId: Type.Optional(Uuid),
  },
  strict,
);

export const Variable = Type.Object(
  {
    name: VariableName,
    type: Type.Union([Type.Literal('number'), Type.Literal('string'), Type.Literal('boolean')]),
    initial: ScalarValue,
  },
  strict,
);

/** Where a widget's value comes from: a model path of a slot's device, or a dashboard variable. */
export const DeviceBinding = Type.Object(
  {
    slot: SlotName,
    path: ModelPath,
    /**
     * What the widget shows, computed from the path's number `value` (feature flag formulaMapping), e.g.
     * `value * 1.8 + 32`. Checked by `@edgeport/formula`; writes go to the path unchanged.
     */
    formula: Type.Optional(Type.String({ minLength: 1, maxLength: 500 })),
  },
  strict,
);
export const VariableBinding = Type.Object({ variable: VariableName }, strict);
export const Binding = Type.Union([DeviceBinding, VariableBinding]);

/** What a button does. */
export const NavigateAction = Type.Object({ kind: Type.Literal('navigate'), pageId: ElementId }, strict);
export const LoadDashboardAction = Type.Object(
  {
    kind: Type.Literal('loadDashboard'),
    dashboardId: Uuid,
    /** The other dashboard's slots: a fixed device, or the device this dashboard shows in one of its slots. */
    slots: Type.Record(
      SlotName,
      Type.Union([Type.Object({ deviceId: Uuid }, strict), Type.Object({ slot: SlotName }, strict)]),
    ),
  },
  strict,
);
export const WriteAction = Type.Object(
  {
    kind: Type.Literal('write'),
    binding: DeviceBinding,
    value: ScalarValue,
    /** Ask the user before writing (default true). */
    confirm: Type.Optional(Type.Boolean()),
  },
  strict,
);
export const SetVariableAction = Type.Object(
  { kind: Type.Literal('setVariable'), variable: VariableName, value: ScalarValue },
  strict,
);
export const Action = Type.Union([NavigateAction, LoadDashboardAction, WriteAction, SetVariableAction]);

/** Grid position in the page's (or group's) grid of `GRID_COLUMNS` columns and rows of `GRID_ROW_HEIGHT` px. */
export const GRID_COLUMNS = 24;
export const GRID_ROW_HEIGHT = 24;
export const Layout = Type.Object(
  {
    x: Type.Integer({ minimum: 0, maximum: GRID_COLUMNS - 1 }),
    y: Type.Integer({ minimum: 0, maximum: 10_000 }),
    w: Type.Integer({ minimum: 1, maximum: GRID_COLUMNS }),
    h: Type.Integer({ minimum: 1, maximum: 200 }),
  },
  strict,
);

const Decimals = Type.Integer({ minimum: 0, maximum: 6 });
const Unit = Label(20);
const WindowSeconds = Type.Integer({ minimum: 10, maximum: 7 * 86_400 });
const Series = Type.Array(Binding, { maxItems: 8 });

function widget<Kind extends string, Extra extends Record<string, import('typebox').TSchema>>(
  type: Kind,
  extra: Extra,
) {
  return Type.Object(
    {
      id: ElementId,
      type: Type.Literal(type),
      /** The group this widget sits in; absent on the page's top level. */
      parentId: Type.Optional(ElementId),
      title: Type.Optional(Label(200)),
      layout: Layout,
      /** Who sees the widget in the viewer (feature flag widgetPermissions): everyone (default) or editors and owners. */
      visibleTo: Type.Optional(Type.Union([Type.Literal('everyone'), Type.Literal('editors')])),
      ...extra,
    },
    strict,
  );
}

export const ValueWidget = widget('value', {
  binding: Type.Optional(Binding),
  options: Type.Object({ unit: Type.Optional(Unit), decimals: Type.Optional(Decimals) }, strict),
});
export const GaugeWidget = widget('gauge', {
  binding: Type.Optional(Binding),
  options: Type.Object(
    { min: Type.Number(), max: Type.Number(), unit: Type.Optional(Unit), decimals: Type.Optional(Decimals) },
    strict,
  ),
});
export const LineChartWidget = widget('lineChart', {
  bindings: Series,
  options: Type.Object({ windowSeconds: WindowSeconds }, strict),
});
export const BarChartWidget = widget('barChart', {
  bindings: Series,
  options: Type.Object(
    { windowSeconds: WindowSeconds, bucketSeconds: Type.Integer({ minimum: 1, maximum: 86_400 }) },
    strict,
  ),
});
/** Current values of several paths, one row each. */
export const TableWidget = widget('table', {
  bindings: Type.Array(Binding, { maxItems: 50 }),
  options: Type.Object({}, strict),
});
/** The organization's devices with status (feature flag deviceTableWidget). */
export const DeviceTableWidget = widget('deviceTable', {
  options: Type.Object({ pageSize: Type.Integer({ minimum: 5, maximum: 100 }) }, strict),
});
/** The slots' devices on a map, coloured by their active alarms (feature flag mapAlarmWidget). */
export const MapWidget = widget('map', {
  options: Type.Object({ showAlarms: Type.Boolean() }, strict),
});
export const AlarmListWidget = widget('alarmList', {
  options: Type.Object(
    { slot: Type.Optional(SlotName), limit: Type.Integer({ minimum: 1, maximum: 100 }) },
    strict,
  ),
});
/** An asset of the dashboard (uploaded through the asset service) or of the organization's gallery. */
export const ImageWidget = widget('image', {
  options: Type.Object(
    {
      asset: Label(200),
      source: Type.Union([Type.Literal('dashboard'), Type.Literal('gallery')]),
      fit: Type.Union([Type.Literal('contain'), Type.Literal('cover')]),
      alt: Type.Optional(Label(200)),
    },
    strict,
  ),
});
export const TextWidget = widget('text', {
  options: Type.Object(
    {
      text: Label(5000),
      size: Type.Union([Type.Literal('sm'), Type.Literal('md'), Type.Literal('lg'), Type.Literal('xl')]),
    },
    strict,
  ),
});
export const ButtonWidget = widget('button', {
  action: Action,
  options: Type.Object({ label: Label(100) }, strict),
});
/** Writes true/false to a boolean path, after confirmation unless `confirm` is false. */
export const SwitchWidget = widget('switch', {
  binding: Type.Optional(DeviceBinding),
  options: Type.Object({ confirm: Type.Boolean() }, strict),
});
/** Writes a typed number to a path, after confirmation. */
export const SetpointWidget = widget('setpoint', {
  binding: Type.Optional(DeviceBinding),
  options: Type.Object(
    {
      min: Type.Optional(Type.Number()),
      max: Type.Optional(Type.Number()),
      step: Type.Optional(Type.Number({ exclusiveMinimum: 0 })),
      unit: Type.Optional(Unit),
    },
    strict,
  ),
});
/** Another web page, sandboxed (no same-origin, no top navigation). Only https addresses (the portal's frame-src). */
export const IframeWidget = widget('iframe', {
  options: Type.Object({ url: Type.String({ maxLength: 2000, pattern: '^https://' }) }, strict),
});
/** A frame around widgets whose `parentId` is this group's id. */
export const GroupWidget = widget('group', {
  options: Type.Object({}, strict),
});

export const Widget = Type.Union([
  ValueWidget,
  GaugeWidget,
  LineChartWidget,
  BarChartWidget,
  TableWidget,
  DeviceTableWidget,
  MapWidget,
  AlarmListWidget,
  ImageWidget,
  TextWidget,
  ButtonWidget,
  SwitchWidget,
  SetpointWidget,
  IframeWidget,
  GroupWidget,
]);

export const Page = Type.Object(
  { id: ElementId, title: Label(100), widgets: Type.Array(Widget, { maxItems: 1000 }) },
  strict,
);

export const DashboardDocument = Type.Object(
  {
    schemaVersion: Type.Literal(DASHBOARD_SCHEMA_VERSION),
    /** The page the viewer opens first; it cannot be deleted. */
    rootPageId: ElementId,
    pages: Type.Array(Page, { minItems: 1, maxItems: 100 }),
    slots: Type.Array(DeviceSlot, { maxItems: 20 }),
    variables: Type.Array(Variable, { maxItems: 100 }),
  },
  strict,
);

export type DeviceSlot = Static<typeof DeviceSlot>;
export type Variable = Static<typeof Variable>;
export type Binding = Static<typeof Binding>;
export type DeviceBinding = Static<typeof DeviceBinding>;
export type Action = Static<typeof Action>;
export type Layout = Static<typeof Layout>;
export type Widget = Static<typeof Widget>;
export type WidgetType = Widget['type'];
export type WidgetOf<Type extends WidgetType> = Extract<Widget, { type: Type }>;
export type Page = Static<typeof Page>;
export type DashboardDocument = Static<typeof DashboardDocument>;
