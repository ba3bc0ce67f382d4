import { checkFormula } from '@edgeport/formula';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import {
  AlarmListWidget,
  BarChartWidget,
  type Binding,
  ButtonWidget,
  DASHBOARD_SCHEMA_VERSION,
  DashboardDocument,
  DeviceTableWidget,
  GaugeWidget,
  GroupWidget,
  IframeWidget,
  ImageWidget,
  LineChartWidget,
  MapWidget,
  SetpointWidget,
  SwitchWidget,
  TableWidget,
  TextWidget,
  ValueWidget,
  type Widget,
  type WidgetType,
} from './dashboard.ts';
import { FLOW_SCHEMA_VERSION, FlowDocument, WIDGET_SCHEMA_VERSION, WidgetDocument } from './flow.ts';
import { DashboardDocumentV1, migrateV1 } from './legacy.ts';

export type DocumentKind = 'dashboard' | 'flow' | 'widget';
export type DocumentOf<Kind extends DocumentKind> = Kind extends 'dashboard'
  ? DashboardDocument
  : Kind extends 'flow'
    ? FlowDocument
    : WidgetDocument;

export type ReadResult<Document> = { ok: true; document: Document } | { ok: false; errors: string[] };

const WIDGETS: Record<WidgetType, TSchema> = {
  value: ValueWidget,
  gauge: GaugeWidget,
  lineChart: LineChartWidget,
  barChart: BarChartWidget,
  table: TableWidget,
  deviceTable: DeviceTableWidget,
  map: MapWidget,
  alarmList: AlarmListWidget,
  image: ImageWidget,
  text: TextWidget,
  button: ButtonWidget,
  switch: SwitchWidget,
  setpoint: SetpointWidget,
  iframe: IframeWidget,
  group: GroupWidget,
};
export const WIDGET_TYPES = Object.keys(WIDGETS) as WidgetType[];

const checkers = new Map<TSchema, ReturnType<typeof Compile>>();
function checkerOf(schema: TSchema) {
  let checker = checkers.get(schema);
  if (!checker) {
    checker = Compile(schema);
    checkers.set(schema, checker);
  }
  return checker;
}

/** The first few problems of `value` against `schema`, each naming its field below `at`. */
function problems(schema: TSchema, value: unknown, at: string): string[] {
  const checker = checkerOf(schema);
  if (checker.Check(value)) return [];
  return checker
    .Errors(value)
    .slice(0, 3)
    .map((error) => `${at}${error.instancePath} ${error.message}`);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Widgets are checked one by one against the schema of their type, so that an error names the widget's field. */
function widgetProblems(widgets: unknown, at: string): string[] {
  if (!Array.isArray(widgets)) return [`${at} must be an array`];
  return widgets.flatMap((widget, index) => {
    const where = `${at}/${index}`;
    const type = isRecord(widget) ? widget.type : undefined;
    const schema = typeof type === 'string' ? WIDGETS[type as WidgetType] : undefined;
    if (!schema) return [`${where}/type must be one of ${WIDGET_TYPES.join(', ')}`];
    return problems(schema, widget, where);
  });
}

/** Ids unique in the document, groups of the same page as parents, bindings to declared slots and variables. */
function dashboardIntegrity(document: DashboardDocument, at: string): string[] {
  const errors: string[] = [];
  const ids = new Set<string>();
  const slots = new Set(document.slots.map((slot) => slot.name));
  const variables = new Set(document.variables.map((variable) => variable.name));
  const pageIds = new Set(document.pages.map((page) => page.id));
  const unique = (id: string, where: string) => {
    if (ids.has(id)) errors.push(`${where}/id '${id}' is used twice`);
    ids.add(id);
  };
  if (!pageIds.has(document.rootPageId)) errors.push(`${at}/rootPageId must name one of the pages`);
  document.pages.forEach((page, pageIndex) => {
    const pageAt = `${at}/pages/${pageIndex}`;
    unique(page.id, pageAt);
    const groups = new Set(
      page.widgets.filter((widget) => widget.type === 'group').map((widget) => widget.id),
    );
    page.widgets.forEach((widget, index) => {
      const where = `${pageAt}/widgets/${index}`;
      unique(widget.id, where);
      if (widget.parentId !== undefined && (!groups.has(widget.parentId) || widget.parentId === widget.id)) {
        errors.push(`${where}/parentId must name a group of the same page`);
      }
      for (const [field, binding] of bindingsOf(widget)) {
        if ('slot' in binding && binding.formula !== undefined) {
          const formula = checkFormula(binding.formula);
          if (!formula.valid) errors.push(`${where}/${field}/formula ${formula.error}`);
        }
        if ('slot' in binding && !slots.has(binding.slot))
          errors.push(`${where}/${field}/slot '${binding.slot}' is not a slot of the dashboard`);
        if ('variable' in binding && !variables.has(binding.variable)) {
          errors.push(`${where}/${field}/variable '${binding.variable}' is not a variable of the dashboard`);
        }
      }
      if (
        widget.type === 'button' &&
        widget.action.kind === 'navigate' &&
        !pageIds.has(widget.action.pageId)
      ) {
        errors.push(`${where}/action/pageId must name one of the pages`);
      }
    });
    if (hasParentCycle(page.widgets)) errors.push(`${pageAt}/widgets parentId must not form a cycle`);
  });
  return errors;
}

/** A widget's bindings with the field they sit in (`binding`, `bindings/2`, `action/binding`). */
export function bindingsOf(widget: Widget): [string, Binding][] {
  const found: [string, Binding][] = [];
  if ('binding' in widget && widget.binding) found.push(['binding', widget.binding]);
  if ('bindings' in widget) {
    for (const [index, binding] of widget.bindings.entries()) found.push([`bindings/${index}`, binding]);
  }
  if (widget.type === 'button' && widget.action.kind === 'write')
    found.push(['action/binding', widget.action.binding]);
  return found;
}

function readDashboard(raw: unknown, at: string): ReadResult<DashboardDocument> {
  if (!isRecord(raw)) return { ok: false, errors: [`${at} must be an object`] };
  if (raw.schemaVersion === 1) {
    const errors = problems(DashboardDocumentV1, raw, at);
    if (errors.length > 0) return { ok: false, errors };
    return readDashboard(migrateV1(raw as DashboardDocumentV1), at);
  }
  if (raw.schemaVersion !== DASHBOARD_SCHEMA_VERSION) {
    return { ok: false, errors: [`${at}/schemaVersion must be 1 or ${DASHBOARD_SCHEMA_VERSION}`] };
  }
  const pages = Array.isArray(raw.pages) ? raw.pages : [];
  const errors = [
    ...problems(
      DashboardDocument,
      { ...raw, pages: pages.map((page) => (isRecord(page) ? { ...page, widgets: [] } : page)) },
      at,
    ),
    ...pages.flatMap((page, index) =>
      isRecord(page) ? widgetProblems(page.widgets, `${at}/pages/${index}/widgets`) : [],
    ),
  ];
  if (errors.length > 0) return { ok: false, errors };
  const document = raw as DashboardDocument;
  const broken = dashboardIntegrity(document, at);
  return broken.length > 0 ? { ok: false, errors: broken } : { ok: true, document };
}

function readFlow(raw: unknown, at: string): ReadResult<FlowDocument> {
  const errors = problems(FlowDocument, raw, at);
  if (errors.length > 0) return { ok: false, errors };
  const document = raw as FlowDocument;
  const ids = new Set(document.entries.map((entry) => entry.id));
  const broken: string[] = [];
  if (ids.size !== document.entries.length) broken.push(`${at}/entries ids must be unique`);
  document.entries.forEach((entry, index) => {
    if (entry.parentId !== undefined && (!ids.has(entry.parentId) || entry.parentId === entry.id)) {
      broken.push(`${at}/entries/${index}/parentId must name another entry`);
    }
  });
  if (broken.length === 0 && hasParentCycle(document.entries))
    broken.push(`${at}/entries parentId must not form a cycle`);
  return broken.length > 0 ? { ok: false, errors: broken } : { ok: true, document };
}

/** Whether following `parentId` links from some item comes back to it (groups of a page, entries of a flow). */
export function hasParentCycle(items: readonly { id: string; parentId?: string | undefined }[]): boolean {
  const parentOf = new Map(items.map((item) => [item.id, item.parentId]));
  const safe = new Set<string>();
  for (const item of items) {
    const path = new Set<string>();
    let id: string | undefined = item.id;
    while (id !== undefined && !safe.has(id)) {
      if (path.has(id)) return true;
      path.add(id);
      id = parentOf.get(id);
    }
    for (const visited of path) safe.add(visited);
  }
  return false;
}

function readWidgets(raw: unknown, at: string): ReadResult<WidgetDocument> {
  if (!isRecord(raw)) return { ok: false, errors: [`${at} must be an object`] };
  const errors = [
    ...problems(WidgetDocument, { ...raw, widgets: [] }, at).filter(
      (error) => !error.startsWith(`${at}/widgets `),
    ),
    ...widgetProblems(raw.widgets, `${at}/widgets`),
  ];
  return errors.length > 0 ? { ok: false, errors } : { ok: true, document: raw as WidgetDocument };
}

/**
 * Checks a stored or submitted document of the given kind and brings it to the current schema version. Errors name
 * the field below `at` (for example `body/document/pages/0/widgets/3/layout/w must be less or equal to 24`).
 */
export function readDocument<Kind extends DocumentKind>(
  kind: Kind,
  raw: unknown,
  at = 'document',
): ReadResult<DocumentOf<Kind>> {
  const result =
    kind === 'dashboard'
      ? readDashboard(raw, at)
      : kind === 'flow'
        ? readFlow(raw, at)
        : readWidgets(raw, at);
  return result as ReadResult<DocumentOf<Kind>>;
}

/** The document a new dashboard, flow or widget starts with. */
export function emptyDocument<Kind extends DocumentKind>(kind: Kind): DocumentOf<Kind> {
  const document =
    kind === 'dashboard'
      ? {
          schemaVersion: DASHBOARD_SCHEMA_VERSION,
          rootPageId: 'page-1',
          pages: [{ id: 'page-1', title: 'Page 1', widgets: [] }],
          slots: [],
          variables: [],
        }
      : kind === 'flow'
        ? { schemaVersion: FLOW_SCHEMA_VERSION, entries: [] }
        : {
            schemaVersion: WIDGET_SCHEMA_VERSION,
            widgets: [
              {
                id: 'w1',
                type: 'text',
                layout: { x: 0, y: 0, w: 6, h: 3 },
                options: { text: '', size: 'md' },
              },
            ],
          };
  return document as DocumentOf<Kind>;
}
