import type { DashboardDocument } from '@edgeport/dashboard-schema';
import * as editor from './editor.ts';
import type { EditorCommands, EditorState, ListChange } from './types.ts';

/**
 * The editor model held for React: `getState` (a stable snapshot for `useSyncExternalStore`), `subscribe`, and the
 * commands, whose identities never change. Commands run synchronously on the latest model and return their result
 * at once (the new widget's id, the delete outcome, the copied payload).
 */
export type EditorStore = {
  getState(): EditorState;
  getModel(): editor.EditorModel;
  subscribe(listener: () => void): () => void;
  commands: EditorCommands;
};

const applied = <Item>(change: ListChange<Item>, current: readonly Item[]): readonly Item[] =>
  typeof change === 'function' ? change(current) : change;

export function createEditorStore(
  document: DashboardDocument,
  options: editor.EditorOptions = {},
): EditorStore {
  let model = editor.createEditor(document, options);
  const listeners = new Set<() => void>();
  const set = (next: editor.EditorModel) => {
    if (next === model) return;
    model = next;
    for (const listener of [...listeners]) listener();
  };
  const commands: EditorCommands = {
    openPage: (pageId) => set(editor.openPage(model, pageId)),
    select: (widgetIds, mode) => set(editor.select(model, widgetIds, mode)),
    selectAll: () => set(editor.selectAll(model)),
    addWidget: (type, layout) => {
      const result = editor.addWidget(model, type, layout);
      set(result.model);
      return result.widgetId;
    },
    updateWidget: (widgetId, change) => set(editor.updateWidget(model, widgetId, change).model),
    moveWidgets: (layouts) => set(editor.moveWidgets(model, layouts)),
    deleteSelection: () => {
      const result = editor.deleteSelection(model);
      set(result.model);
      return result.outcome;
    },
    copySelection: () => editor.copySelection(model),
    cutSelection: () => {
      const result = editor.cutSelection(model);
      set(result.model);
      return result.payload;
    },
    paste: (payload) => set(editor.paste(model, payload)),
    groupSelection: () => set(editor.groupSelection(model)),
    ungroupSelection: () => set(editor.ungroupSelection(model)),
    addPage: (title) => {
      const result = editor.addPage(model, title);
      set(result.model);
      return result.pageId;
    },
    renamePage: (pageId, title) => set(editor.renamePage(model, pageId, title)),
    deletePage: (pageId) => {
      const result = editor.deletePage(model, pageId);
      set(result.model);
      return result.outcome;
    },
    movePage: (pageId, toIndex) => set(editor.movePage(model, pageId, toIndex)),
    setRootPage: (pageId) => set(editor.setRootPage(model, pageId)),
    setSlots: (slots) => set(editor.setSlots(model, applied(slots, model.present.document.slots)).model),
    setVariables: (variables) =>
      set(editor.setVariables(model, applied(variables, model.present.document.variables)).model),
    undo: () => set(editor.undo(model)),
    redo: () => set(editor.redo(model)),
    markSaved: (saved) => set(editor.markSaved(model, saved)),
    load: (next) => set(editor.createEditor(next, { historyLimit: model.historyLimit, newId: model.newId })),
  };
  return {
    getState: () => editor.editorState(model),
    getModel: () => model,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    commands,
  };
}
