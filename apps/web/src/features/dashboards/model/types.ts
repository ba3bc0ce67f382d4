import type {
  DashboardDocument,
  DeviceSlot,
  Layout,
  Page,
  Variable,
  Widget,
  WidgetType,
} from '@edgeport/dashboard-schema';

/**
 * The dashboard editor's model: the document being edited, which page is open, what is selected, and the history for
 * undo/redo. Pure data and functions (no JSX); `useDashboardEditor` wraps it for React.
 *
 * Every change is one step of the history (a drag of several widgets is one step). Undo and redo swap whole immutable
 * documents (structural sharing), so each is O(1) whatever the history's length.
 */
/**
 * A new list, or how to make it from the editor's current one: adding or removing an item from what a view shows a
 * moment late (the inspector) would otherwise drop a change made meanwhile.
 */
export type ListChange<Item> = readonly Item[] | ((current: readonly Item[]) => readonly Item[]);

export type EditorState = {
  document: DashboardDocument;
  /** The page shown on the canvas. */
  pageId: string;
  /** Selected widgets of the open page; empty means the page itself is selected. */
  selection: readonly string[];
  canUndo: boolean;
  canRedo: boolean;
  /** The document differs from the last saved one. */
  dirty: boolean;
};

/** What the clipboard carries between dashboards and browser tabs (serialized by `serialization/`). */
export type ClipboardPayload = {
  /** Always 'edgeport/widgets' so a paste recognizes its own format. */
  format: 'edgeport/widgets';
  schemaVersion: number;
  /** The copied widgets with the groups' children; ids are renewed on paste. */
  widgets: Widget[];
  /** The slots the widgets' bindings use; a paste adds the ones the target dashboard lacks. */
  slots: DeviceSlot[];
  /** The variables the widgets' bindings and actions use; a paste adds the ones the target lacks (absent: none). */
  variables?: Variable[];
};

export type DeleteOutcome = 'deleted' | 'nothing-selected' | 'page-protected';
export type PageDeleteOutcome = 'deleted' | 'root-protected' | 'last-page';

export type EditorCommands = {
  openPage(pageId: string): void;
  /** replace: only these; toggle: add or remove each (Ctrl/Shift-click); clear with `select([], 'replace')`. */
  select(widgetIds: readonly string[], mode: 'replace' | 'toggle'): void;
  selectAll(): void;
  /** Adds a widget of the type with its default options at the first free place (or `layout`); selects it. */
  addWidget(type: WidgetType, layout?: Partial<Layout>): string;
  /** Replaces one widget (the inspector's edits). One history step. */
  updateWidget(widgetId: string, change: (widget: Widget) => Widget): void;
  /** New layouts of several widgets after a drag or resize. One history step; no step when nothing moved. */
  moveWidgets(layouts: readonly { id: string; layout: Layout }[]): void;
  /** Deletes the selected widgets (with a group's children). The page itself is never deleted this way. */
  deleteSelection(): DeleteOutcome;
  /** The selected widgets (with groups' children) as a clipboard payload, or null when only the page is selected. */
  copySelection(): ClipboardPayload | null;
  cutSelection(): ClipboardPayload | null;
  /** Pastes into the open page with new ids, offset below the originals; selects the pasted widgets. */
  paste(payload: ClipboardPayload): void;
  /** Puts the selected widgets in a new group (one step). */
  groupSelection(): void;
  addPage(title: string): string;
  renamePage(pageId: string, title: string): void;
  /** The root page (and the last page) cannot be deleted. */
  deletePage(pageId: string): PageDeleteOutcome;
  setSlots(slots: ListChange<DeviceSlot>): void;
  setVariables(variables: ListChange<Variable>): void;
  undo(): void;
  redo(): void;
  /**
   * After a successful save: the current document becomes the saved one (dirty false); history is kept. Pass the
   * document that was sent when the user may have edited on while the save was under way (dirty stays true then).
   */
  markSaved(saved?: DashboardDocument): void;
  /** Dissolves the selected groups: their children move to the group's parent (one step). */
  ungroupSelection(): void;
  /** Moves a page to another position of the pages list (one step). */
  movePage(pageId: string, toIndex: number): void;
  /** Makes another page the root page (one step). */
  setRootPage(pageId: string): void;
  /** Starts over on another document (a loaded version): history cleared, the document counts as saved. */
  load(document: DashboardDocument): void;
};

export type { DashboardDocument, Page, Widget };
