import {
  DASHBOARD_SCHEMA_VERSION,
  type DashboardDocument,
  type DeviceSlot,
  GRID_COLUMNS,
  type Layout,
  type Page,
  readDocument,
  type Variable,
  type Widget,
  type WidgetType,
} from '@edgeport/dashboard-schema';
import { DEFAULT_SIZES, defaultWidget, newId, normalizeLayout } from './defaults.ts';
import {
  type References,
  repairWidget,
  rootsOf,
  slotsUsedBy,
  variablesUsedBy,
  withDescendants,
} from './tree.ts';
import type { ClipboardPayload, DeleteOutcome, EditorState, PageDeleteOutcome } from './types.ts';

/**
 * The dashboard editor's pure state machine. An `EditorModel` is immutable: every function returns a new model (or
 * the same one when nothing changed), so React can compare by reference and tests can replay any sequence.
 *
 * History: the states before (`past`) and after (`future`) the present are persistent linked lists of snapshots
 * (document, open page, selection). A step pushes the present onto `past`; undo and redo move one snapshot between
 * the lists, O(1) whatever the length. Documents share every unchanged page and widget with their neighbours, so a
 * long history costs little memory. `past` keeps at least `historyLimit` steps (default 2,000): it is trimmed back
 * to the limit once it grows 1/8 beyond it, so trimming is amortized O(1) too.
 *
 * Every document the model produces passes `readDocument('dashboard', ...)`; commands that would break it (an
 * inspector edit giving an invalid widget, slots with invalid names...) change nothing.
 */

type Snapshot = {
  readonly document: DashboardDocument;
  readonly pageId: string;
  readonly selection: readonly string[];
};

type History = { readonly snapshot: Snapshot; readonly next: History | null; readonly size: number } | null;

export type EditorOptions = {
  /** Undo steps kept (default 2,000). */
  historyLimit?: number;
  /** Id generator for new widgets and pages (default `newId`; tests pass a deterministic one). */
  newId?: () => string;
};

export type EditorModel = {
  readonly present: Snapshot;
  readonly past: History;
  readonly future: History;
  /** The document last saved (or loaded); `dirty` compares by reference. */
  readonly saved: DashboardDocument;
  readonly historyLimit: number;
  readonly newId: () => string;
};

export const DEFAULT_HISTORY_LIMIT = 2000;
const MAX_WIDGETS_PER_PAGE = 1000;
const MAX_PAGES = 100;
const MAX_SLOTS = 20;
const MAX_VARIABLES = 100;
const MAX_Y = 10_000;
const EMPTY: readonly string[] = Object.freeze([]);

/** An editor on `document` (a valid document, as `readDocument` returns it), open on its root page. */
export function createEditor(document: DashboardDocument, options: EditorOptions = {}): EditorModel {
  const pageId = document.pages.some((page) => page.id === document.rootPageId)
    ? document.rootPageId
    : (document.pages[0]?.id ?? document.rootPageId);
  return {
    present: { document, pageId, selection: EMPTY },
    past: null,
    future: null,
    saved: document,
    historyLimit: Math.max(1, options.historyLimit ?? DEFAULT_HISTORY_LIMIT),
    newId: options.newId ?? (() => newId()),
  };
}

const views = new WeakMap<EditorModel, EditorState>();

/** What the editor page renders (cached per model, so the same model gives the same object). */
export function editorState(model: EditorModel): EditorState {
  let view = views.get(model);
  if (!view) {
    view = {
      document: model.present.document,
      pageId: model.present.pageId,
      selection: model.present.selection,
      canUndo: model.past !== null,
      canRedo: model.future !== null,
      dirty: model.present.document !== model.saved,
    };
    views.set(model, view);
  }
  return view;
}

/** How many undo and redo steps the model holds. */
export function historyDepth(model: EditorModel): { undo: number; redo: number } {
  return { undo: model.past?.size ?? 0, redo: model.future?.size ?? 0 };
}

/** The problems of a document (empty when valid), by the schema's checks (group cycles included). */
export function documentProblems(document: DashboardDocument): string[] {
  const read = readDocument('dashboard', document);
  return read.ok ? [] : read.errors;
}

// ---------------------------------------------------------------------------------------------------------------
// History

function push(history: History, snapshot: Snapshot): History {
  return { snapshot, next: history, size: (history?.size ?? 0) + 1 };
}

function trimmed(history: History, limit: number): History {
  if (!history || history.size <= limit + Math.ceil(limit / 8)) return history;
  const kept: Snapshot[] = [];
  for (let node: History = history; node && kept.length < limit; node = node.next) kept.push(node.snapshot);
  let rebuilt: History = null;
  for (let index = kept.length - 1; index >= 0; index -= 1) rebuilt = push(rebuilt, kept[index] as Snapshot);
  return rebuilt;
}

/** A new history step to `document` (no step when the document did not change). */
function commit(
  model: EditorModel,
  document: DashboardDocument,
  pageId = model.present.pageId,
  selection: readonly string[] = model.present.selection,
): EditorModel {
  if (document === model.present.document) return moved(model, pageId, selection);
  return {
    ...model,
    present: { document, pageId, selection },
    past: trimmed(push(model.past, model.present), model.historyLimit),
    future: null,
  };
}

/** The open page or the selection changed (not a history step). */
function moved(model: EditorModel, pageId: string, selection: readonly string[]): EditorModel {
  const present = model.present;
  if (pageId === present.pageId && sameIds(selection, present.selection)) return model;
  return { ...model, present: { document: present.document, pageId, selection } };
}

function sameIds(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

export function undo(model: EditorModel): EditorModel {
  if (!model.past) return model;
  return {
    ...model,
    present: model.past.snapshot,
    past: model.past.next,
    future: push(model.future, model.present),
  };
}

export function redo(model: EditorModel): EditorModel {
  if (!model.future) return model;
  return {
    ...model,
    present: model.future.snapshot,
    future: model.future.next,
    past: trimmed(push(model.past, model.present), model.historyLimit),
  };
}

/** After a save: `document` (default the current one) is the saved one. History is kept. */
export function markSaved(
  model: EditorModel,
  document: DashboardDocument = model.present.document,
): EditorModel {
  return document === model.saved ? model : { ...model, saved: document };
}

// ---------------------------------------------------------------------------------------------------------------
// Document helpers

function openPageOf(model: EditorModel): Page {
  const { document, pageId } = model.present;
  const page = document.pages.find((candidate) => candidate.id === pageId) ?? document.pages[0];
  if (!page) throw new Error('A dashboard document has at least one page');
  return page;
}

function withPage(document: DashboardDocument, page: Page): DashboardDocument {
  return {
    ...document,
    pages: document.pages.map((candidate) => (candidate.id === page.id ? page : candidate)),
  };
}

function withWidgets(document: DashboardDocument, page: Page, widgets: Widget[]): DashboardDocument {
  return withPage(document, { ...page, widgets });
}

function allIds(document: DashboardDocument): Set<string> {
  const ids = new Set<string>();
  for (const page of document.pages) {
    ids.add(page.id);
    for (const widget of page.widgets) ids.add(widget.id);
  }
  return ids;
}

/** A fresh id not in `taken` (and then taken). */
function freshId(model: EditorModel, taken: Set<string>): string {
  for (;;) {
    const id = model.newId();
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

function referencesOf(document: DashboardDocument): References {
  return {
    slots: new Set(document.slots.map((slot) => slot.name)),
    variables: new Set(document.variables.map((variable) => variable.name)),
    pageIds: new Set(document.pages.map((page) => page.id)),
    rootPageId: document.rootPageId,
  };
}

/** The document with every widget's dangling references repaired (pages and widgets shared when unchanged). */
function repaired(document: DashboardDocument): DashboardDocument {
  const refs = referencesOf(document);
  let changed = false;
  const pages = document.pages.map((page) => {
    let pageChanged = false;
    const widgets = page.widgets.map((widget) => {
      const next = repairWidget(widget, refs);
      if (next !== widget) pageChanged = true;
      return next;
    });
    if (!pageChanged) return page;
    changed = true;
    return { ...page, widgets };
  });
  return changed ? { ...document, pages } : document;
}

function overlaps(a: Layout, b: Layout): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * The first free place (smallest row, then column) for a `w`×`h` widget among `taken` in a 24-column grid. The best
 * place's row is 0 or the bottom of a widget, its column 0 or the right edge of one, so only those are tried.
 */
export function firstFreePlace(taken: readonly Layout[], w: number, h: number): { x: number; y: number } {
  const width = Math.min(Math.max(1, w), GRID_COLUMNS);
  const rows = [...new Set([0, ...taken.map((layout) => layout.y + layout.h)])].sort((a, b) => a - b);
  const columns = [...new Set([0, ...taken.map((layout) => layout.x + layout.w)])]
    .filter((x) => x + width <= GRID_COLUMNS)
    .sort((a, b) => a - b);
  for (const y of rows) {
    if (y > MAX_Y) break;
    const inRows = taken.filter((layout) => layout.y < y + h && y < layout.y + layout.h);
    for (const x of columns) {
      const place = { x, y, w: width, h };
      if (!inRows.some((layout) => overlaps(layout, place))) return { x, y };
    }
  }
  return { x: 0, y: Math.min(MAX_Y, Math.max(0, ...taken.map((layout) => layout.y + layout.h))) };
}

// ---------------------------------------------------------------------------------------------------------------
// Pages and selection (no history step)

export function openPage(model: EditorModel, pageId: string): EditorModel {
  if (!model.present.document.pages.some((page) => page.id === pageId)) return model;
  return moved(model, pageId, pageId === model.present.pageId ? model.present.selection : EMPTY);
}

export function select(
  model: EditorModel,
  widgetIds: readonly string[],
  mode: 'replace' | 'toggle',
): EditorModel {
  const onPage = new Set(openPageOf(model).widgets.map((widget) => widget.id));
  const wanted = [...new Set(widgetIds)].filter((id) => onPage.has(id));
  if (mode === 'replace') return moved(model, model.present.pageId, wanted.length === 0 ? EMPTY : wanted);
  const current = model.present.selection;
  const toggled = new Set(wanted);
  const selection = [
    ...current.filter((id) => !toggled.has(id)),
    ...wanted.filter((id) => !current.includes(id)),
  ];
  return moved(model, model.present.pageId, selection.length === 0 ? EMPTY : selection);
}

/** Selects every widget of the open page (groups and their children). */
export function selectAll(model: EditorModel): EditorModel {
  const ids = openPageOf(model).widgets.map((widget) => widget.id);
  return moved(model, model.present.pageId, ids.length === 0 ? EMPTY : ids);
}

// ---------------------------------------------------------------------------------------------------------------
// Widgets

/**
 * Adds a widget of `type` with its default options to the open page's top level: at `layout` when it gives both x
 * and y, else at the first free place (its size from `layout` or the type's default). Selects it. The id is '' and
 * nothing changes when the page is full (1,000 widgets).
 */
export function addWidget(
  model: EditorModel,
  type: WidgetType,
  layout: Partial<Layout> = {},
): { model: EditorModel; widgetId: string } {
  const page = openPageOf(model);
  const document = model.present.document;
  if (page.widgets.length >= MAX_WIDGETS_PER_PAGE) return { model, widgetId: '' };
  const size = normalizeLayout({ x: 0, y: 0, ...DEFAULT_SIZES[type], ...layout });
  const place =
    layout.x !== undefined && layout.y !== undefined
      ? size
      : {
          ...size,
          ...firstFreePlace(
            page.widgets.filter((widget) => widget.parentId === undefined).map((widget) => widget.layout),
            size.w,
            size.h,
          ),
        };
  const widgetId = freshId(model, allIds(document));
  const widget = defaultWidget(type, widgetId, place, { rootPageId: document.rootPageId });
  return {
    model: commit(model, withWidgets(document, page, [...page.widgets, widget]), page.id, [widgetId]),
    widgetId,
  };
}

/** Where a widget is: its page and index. */
function locate(document: DashboardDocument, widgetId: string, preferred: string) {
  const pages = [...document.pages].sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
  for (const page of pages) {
    const index = page.widgets.findIndex((widget) => widget.id === widgetId);
    if (index >= 0) return { page, index, widget: page.widgets[index] as Widget };
  }
  return undefined;
}

/**
 * Replaces one widget with `change(widget)` (the inspector's edits): one step. Nothing changes when `change` returns
 * the same widget, changes its id, or gives a document `readDocument` refuses (the problems are returned).
 */
export function updateWidget(
  model: EditorModel,
  widgetId: string,
  change: (widget: Widget) => Widget,
): { model: EditorModel; problems: string[] } {
  const document = model.present.document;
  const found = locate(document, widgetId, model.present.pageId);
  if (!found) return { model, problems: [`widget '${widgetId}' is not in the dashboard`] };
  const next = change(found.widget);
  if (next === found.widget) return { model, problems: [] };
  if (next.id !== widgetId) return { model, problems: ['the id of a widget cannot change'] };
  const widgets = found.page.widgets.slice();
  widgets[found.index] = next;
  const candidate = withWidgets(document, found.page, widgets);
  const problems = documentProblems(candidate);
  if (problems.length > 0) return { model, problems };
  return { model: commit(model, candidate), problems: [] };
}

/** New layouts of several widgets of the open page (a drag or resize): one step, none when nothing moved. */
export function moveWidgets(
  model: EditorModel,
  layouts: readonly { id: string; layout: Layout }[],
): EditorModel {
  const page = openPageOf(model);
  const wanted = new Map(layouts.map((entry) => [entry.id, normalizeLayout(entry.layout)]));
  let changed = false;
  const widgets = page.widgets.map((widget) => {
    const layout = wanted.get(widget.id);
    if (!layout) return widget;
    const old = widget.layout;
    if (layout.x === old.x && layout.y === old.y && layout.w === old.w && layout.h === old.h) return widget;
    changed = true;
    return { ...widget, layout };
  });
  return changed ? commit(model, withWidgets(model.present.document, page, widgets)) : model;
}

/**
 * Deletes the selected widgets with their descendants (a group takes its children along): one step, selection
 * cleared. With nothing selected the page itself is selected, and a page is never deleted this way:
 * 'page-protected'. 'nothing-selected' when the selection names no widget of the open page.
 */
export function deleteSelection(model: EditorModel): { model: EditorModel; outcome: DeleteOutcome } {
  const selection = model.present.selection;
  if (selection.length === 0) return { model, outcome: 'page-protected' };
  const page = openPageOf(model);
  const onPage = selection.filter((id) => page.widgets.some((widget) => widget.id === id));
  if (onPage.length === 0) return { model, outcome: 'nothing-selected' };
  const gone = withDescendants(page.widgets, onPage);
  const widgets = page.widgets.filter((widget) => !gone.has(widget.id));
  return {
    model: commit(model, withWidgets(model.present.document, page, widgets), page.id, EMPTY),
    outcome: 'deleted',
  };
}

/**
 * The selected widgets with every descendant of a selected group (in page order), the slots and variables their
 * bindings and actions use. Null when only the page is selected.
 */
export function copySelection(model: EditorModel): ClipboardPayload | null {
  const selection = model.present.selection;
  if (selection.length === 0) return null;
  const page = openPageOf(model);
  const ids = withDescendants(page.widgets, selection);
  const widgets = page.widgets.filter((widget) => ids.has(widget.id));
  if (widgets.length === 0) return null;
  const slotNames = new Set(widgets.flatMap(slotsUsedBy));
  const variableNames = new Set(widgets.flatMap(variablesUsedBy));
  const { document } = model.present;
  return {
    format: 'edgeport/widgets',
    schemaVersion: DASHBOARD_SCHEMA_VERSION,
    widgets,
    slots: document.slots.filter((slot) => slotNames.has(slot.name)),
    variables: document.variables.filter((variable) => variableNames.has(variable.name)),
  };
}

/** Copy, then delete the copied widgets (one step). */
export function cutSelection(model: EditorModel): { model: EditorModel; payload: ClipboardPayload | null } {
  const payload = copySelection(model);
  if (!payload) return { model, payload };
  return { model: deleteSelection(model).model, payload };
}

/** Merges `incoming` into `existing` by name: an existing one keeps its definition; at most `max`. */
function mergeByName<Item extends { name: string }>(
  existing: Item[],
  incoming: readonly Item[],
  max: number,
) {
  const names = new Set(existing.map((item) => item.name));
  const added = incoming.filter((item) => {
    if (names.has(item.name)) return false;
    names.add(item.name);
    return true;
  });
  if (added.length === 0) return existing;
  return [...existing, ...added].slice(0, Math.max(max, existing.length));
}

/** How far down (rows) the pasted top-level `block` must go to overlap nothing in `taken`, from `from` on. */
function freeOffset(taken: readonly Layout[], block: readonly Layout[], from: number): number {
  const fits = (dy: number) =>
    !block.some((layout) => taken.some((other) => overlaps(other, { ...layout, y: layout.y + dy })));
  if (fits(from)) return from;
  const bottom = Math.max(0, ...taken.map((layout) => layout.y + layout.h));
  const top = Math.min(...block.map((layout) => layout.y));
  const below = Math.max(from, bottom - top);
  if (taken.length * block.length > 4000) return below;
  const candidates = new Set<number>();
  for (const other of taken) {
    for (const layout of block) {
      const dy = other.y + other.h - layout.y;
      if (dy > from && dy < below) candidates.add(dy);
    }
  }
  for (const dy of [...candidates].sort((a, b) => a - b)) if (fits(dy)) return dy;
  return below;
}

/**
 * Pastes a clipboard payload into the open page (one step) and selects the pasted top-level widgets.
 *
 * - Every widget gets a new id; a widget keeps its parent when the parent is pasted too, else it goes to the page's
 *   top level (its layout unchanged). Parent links that are not groups or form a cycle are dropped.
 * - Pasted into the page holding the originals (a widget of the same id, type and place is there), the widgets go
 *   below them; elsewhere they keep their place unless it is taken, then they go down to the first rows where they
 *   overlap nothing.
 * - Slots and variables the document lacks are added from the payload (one of the same name keeps the document's
 *   definition). Bindings to slots or variables that still do not exist are dropped; a button whose action names a
 *   page, slot or variable the document lacks navigates to the root page instead (see `repairWidget`).
 * - Nothing changes when the page would exceed 1,000 widgets or the result would not be a valid document.
 */
export function paste(model: EditorModel, payload: ClipboardPayload): EditorModel {
  const document = model.present.document;
  const page = openPageOf(model);
  const seen = new Set<string>();
  const incoming = payload.widgets.filter((widget) => {
    if (seen.has(widget.id)) return false;
    seen.add(widget.id);
    return true;
  });
  if (incoming.length === 0 || page.widgets.length + incoming.length > MAX_WIDGETS_PER_PAGE) return model;

  const slots = mergeByName(document.slots, payload.slots, MAX_SLOTS);
  const variables = mergeByName(document.variables, payload.variables ?? [], MAX_VARIABLES);
  const refs: References = {
    ...referencesOf(document),
    slots: new Set(slots.map((slot) => slot.name)),
    variables: new Set(variables.map((variable) => variable.name)),
  };

  const groups = new Set(incoming.filter((widget) => widget.type === 'group').map((widget) => widget.id));
  const parentOf = new Map<string, string | undefined>();
  for (const widget of incoming) {
    parentOf.set(
      widget.id,
      widget.parentId !== undefined && groups.has(widget.parentId) ? widget.parentId : undefined,
    );
  }
  // Break cycles of parent links: the widget where a cycle closes goes to the top level.
  for (const widget of incoming) {
    const path = new Set<string>();
    for (let id: string | undefined = widget.id; id !== undefined; id = parentOf.get(id)) {
      if (path.has(id)) {
        parentOf.set(id, undefined);
        break;
      }
      path.add(id);
    }
  }

  const taken = allIds(document);
  const renamed = new Map(incoming.map((widget) => [widget.id, freshId(model, taken)]));
  const topLevel = page.widgets
    .filter((widget) => widget.parentId === undefined)
    .map((widget) => widget.layout);
  const roots = incoming.filter((widget) => parentOf.get(widget.id) === undefined);
  const block = roots.map((widget) => normalizeLayout(widget.layout));
  // The originals are on this page (copied here, or in a duplicate of the dashboard): same id, type and place.
  const samePage = incoming.some((widget) =>
    page.widgets.some(
      (existing) =>
        existing.id === widget.id &&
        existing.type === widget.type &&
        existing.layout.x === widget.layout.x &&
        existing.layout.y === widget.layout.y,
    ),
  );
  const start = samePage
    ? Math.max(...block.map((layout) => layout.y + layout.h)) - Math.min(...block.map((layout) => layout.y))
    : 0;
  const dy = freeOffset(topLevel, block, start);

  const pasted = incoming.map((widget) => {
    const parent = parentOf.get(widget.id);
    const layout =
      parent === undefined ? normalizeLayout({ ...widget.layout, y: widget.layout.y + dy }) : widget.layout;
    const { parentId: _old, ...rest } = widget;
    const copy = {
      ...rest,
      id: renamed.get(widget.id) as string,
      ...(parent !== undefined && { parentId: renamed.get(parent) as string }),
      layout,
    } as Widget;
    return repairWidget(copy, refs);
  });

  const candidate = withWidgets({ ...document, slots, variables }, page, [...page.widgets, ...pasted]);
  if (documentProblems(candidate).length > 0) return model;
  return commit(
    model,
    candidate,
    page.id,
    roots.map((widget) => renamed.get(widget.id) as string),
  );
}

/**
 * Puts the selected widgets (the topmost of them: a selected group's selected children stay in it) in a new group
 * at their bounding box, one step, and selects the group. The children's layouts move into the group's own
 * 24-column grid (columns scaled, rows kept). Nothing happens when the selected widgets sit in different parents.
 */
export function groupSelection(model: EditorModel): EditorModel {
  const page = openPageOf(model);
  const roots = rootsOf(page.widgets, new Set(model.present.selection));
  if (roots.length === 0 || page.widgets.length >= MAX_WIDGETS_PER_PAGE) return model;
  const members = page.widgets.filter((widget) => roots.includes(widget.id));
  const parentId = members[0]?.parentId;
  if (members.some((widget) => widget.parentId !== parentId)) return model;
  const left = Math.min(...members.map((widget) => widget.layout.x));
  const top = Math.min(...members.map((widget) => widget.layout.y));
  const right = Math.max(...members.map((widget) => widget.layout.x + widget.layout.w));
  const bottom = Math.max(...members.map((widget) => widget.layout.y + widget.layout.h));
  const box = normalizeLayout({ x: left, y: top, w: right - left, h: bottom - top });
  const scale = GRID_COLUMNS / box.w;
  const groupId = freshId(model, allIds(model.present.document));
  const group: Widget = {
    id: groupId,
    type: 'group',
    ...(parentId !== undefined && { parentId }),
    layout: box,
    options: {},
  };
  const memberIds = new Set(roots);
  const widgets: Widget[] = [];
  for (const widget of page.widgets) {
    if (widget.id === members[0]?.id) widgets.push(group);
    if (!memberIds.has(widget.id)) {
      widgets.push(widget);
      continue;
    }
    const layout = normalizeLayout({
      x: Math.round((widget.layout.x - box.x) * scale),
      y: widget.layout.y - box.y,
      w: Math.max(1, Math.round(widget.layout.w * scale)),
      h: widget.layout.h,
    });
    widgets.push({ ...widget, parentId: groupId, layout });
  }
  return commit(model, withWidgets(model.present.document, page, widgets), page.id, [groupId]);
}

/**
 * Dissolves the selected groups (the topmost ones: a selected group inside another selected group stays) in one step:
 * their children move to the group's parent, their layouts back into the parent's grid, and become the selection.
 * Nothing happens when no group is selected.
 */
export function ungroupSelection(model: EditorModel): EditorModel {
  const page = openPageOf(model);
  const topmost = new Set(rootsOf(page.widgets, new Set(model.present.selection)));
  const groups = new Map(
    page.widgets
      .filter((widget) => widget.type === 'group' && topmost.has(widget.id))
      .map((widget) => [widget.id, widget]),
  );
  if (groups.size === 0) return model;
  const released: string[] = [];
  const widgets: Widget[] = [];
  for (const widget of page.widgets) {
    if (groups.has(widget.id)) continue;
    const group = widget.parentId === undefined ? undefined : groups.get(widget.parentId);
    if (!group) {
      widgets.push(widget);
      continue;
    }
    const scale = group.layout.w / GRID_COLUMNS;
    const layout = normalizeLayout({
      x: group.layout.x + Math.round(widget.layout.x * scale),
      y: group.layout.y + widget.layout.y,
      w: Math.max(1, Math.round(widget.layout.w * scale)),
      h: widget.layout.h,
    });
    const { parentId: _old, ...rest } = widget;
    widgets.push({
      ...rest,
      ...(group.parentId !== undefined && { parentId: group.parentId }),
      layout,
    } as Widget);
    released.push(widget.id);
  }
  const document = withWidgets(model.present.document, page, widgets);
  return commit(model, document, page.id, released.length === 0 ? EMPTY : released);
}

// ---------------------------------------------------------------------------------------------------------------
// Pages

/** Adds an empty page after the others and opens it (one step). '' and no change at 100 pages. */
export function addPage(model: EditorModel, title: string): { model: EditorModel; pageId: string } {
  const document = model.present.document;
  if (document.pages.length >= MAX_PAGES) return { model, pageId: '' };
  const pageId = freshId(model, allIds(document));
  const page: Page = { id: pageId, title: title.slice(0, 100), widgets: [] };
  return { model: commit(model, { ...document, pages: [...document.pages, page] }, pageId, EMPTY), pageId };
}

export function renamePage(model: EditorModel, pageId: string, title: string): EditorModel {
  const document = model.present.document;
  const page = document.pages.find((candidate) => candidate.id === pageId);
  const next = title.slice(0, 100);
  if (!page || page.title === next) return model;
  return commit(model, withPage(document, { ...page, title: next }));
}

/**
 * Deletes a page and its widgets (one step). The root page cannot be deleted ('root-protected'), nor the last page
 * ('last-page'). Buttons navigating to the deleted page navigate to the root page instead. When the open page goes,
 * the root page opens. An unknown page id changes nothing and answers 'deleted' (it is not there).
 */
export function deletePage(
  model: EditorModel,
  pageId: string,
): { model: EditorModel; outcome: PageDeleteOutcome } {
  const document = model.present.document;
  if (pageId === document.rootPageId) return { model, outcome: 'root-protected' };
  if (document.pages.length <= 1) return { model, outcome: 'last-page' };
  if (!document.pages.some((page) => page.id === pageId)) return { model, outcome: 'deleted' };
  const next = repaired({ ...document, pages: document.pages.filter((page) => page.id !== pageId) });
  const open = model.present.pageId === pageId;
  return {
    model: commit(
      model,
      next,
      open ? document.rootPageId : model.present.pageId,
      open ? EMPTY : model.present.selection,
    ),
    outcome: 'deleted',
  };
}

/** Moves a page to another position in the pages list (one step). */
export function movePage(model: EditorModel, pageId: string, toIndex: number): EditorModel {
  const pages = model.present.document.pages;
  const from = pages.findIndex((page) => page.id === pageId);
  const to = Math.min(Math.max(0, Math.round(toIndex)), pages.length - 1);
  if (from < 0 || from === to) return model;
  const next = pages.slice();
  const [page] = next.splice(from, 1);
  next.splice(to, 0, page as Page);
  return commit(model, { ...model.present.document, pages: next });
}

/** Makes another page the root page (the one the viewer opens first and that cannot be deleted). One step. */
export function setRootPage(model: EditorModel, pageId: string): EditorModel {
  const document = model.present.document;
  if (document.rootPageId === pageId || !document.pages.some((page) => page.id === pageId)) return model;
  return commit(model, { ...document, rootPageId: pageId });
}

// ---------------------------------------------------------------------------------------------------------------
// Slots and variables

function uniqueByName<Item extends { name: string }>(items: readonly Item[]): Item[] {
  const names = new Set<string>();
  return items.filter((item) => {
    if (names.has(item.name)) return false;
    names.add(item.name);
    return true;
  });
}

function replaceDefinitions(
  model: EditorModel,
  change: Partial<Pick<DashboardDocument, 'slots' | 'variables'>>,
): { model: EditorModel; problems: string[] } {
  const document = model.present.document;
  const next = repaired({ ...document, ...change });
  if (JSON.stringify(next) === JSON.stringify(document)) return { model, problems: [] };
  const problems = documentProblems(next);
  if (problems.length > 0) return { model, problems };
  return { model: commit(model, next), problems: [] };
}

/**
 * The dashboard's device slots (one step; a later slot of a name already listed is ignored). Widgets lose their
 * bindings to removed slots (see `repairWidget`; `widgetsUsingSlot` tells the UI who would). Nothing changes when a
 * slot is invalid (its problems are returned).
 */
export function setSlots(model: EditorModel, slots: readonly DeviceSlot[]) {
  return replaceDefinitions(model, { slots: uniqueByName(slots) });
}

/** The dashboard's variables, like `setSlots`. */
export function setVariables(model: EditorModel, variables: readonly Variable[]) {
  return replaceDefinitions(model, { variables: uniqueByName(variables) });
}

/** The ids of the widgets (all pages) that use a slot: what removing it would unbind. */
export function widgetsUsingSlot(document: DashboardDocument, slot: string): string[] {
  return document.pages.flatMap((page) =>
    page.widgets.filter((widget) => slotsUsedBy(widget).includes(slot)).map((widget) => widget.id),
  );
}

/** The ids of the widgets (all pages) that use a variable. */
export function widgetsUsingVariable(document: DashboardDocument, variable: string): string[] {
  return document.pages.flatMap((page) =>
    page.widgets.filter((widget) => variablesUsedBy(widget).includes(variable)).map((widget) => widget.id),
  );
}
