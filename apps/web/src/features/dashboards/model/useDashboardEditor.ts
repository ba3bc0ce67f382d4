import type { DashboardDocument } from '@edgeport/dashboard-schema';
import { useRef, useState, useSyncExternalStore } from 'react';
import type { EditorOptions } from './editor.ts';
import { createEditorStore, type EditorStore } from './store.ts';
import type { EditorCommands, EditorState } from './types.ts';

/**
 * The dashboard editor for a page: `[state, commands]`. The editor starts on `initialDocument` (later values of the
 * argument are ignored; call `commands.load(document)` to start over on another one). `commands` keeps its identity
 * for the component's life, so it can go into effect dependencies and memoized children freely.
 */
export function useDashboardEditor(
  initialDocument: DashboardDocument,
  options?: EditorOptions,
): [state: EditorState, commands: EditorCommands] {
  const store = useEditorStore(initialDocument, options);
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return [state, store.commands];
}

/**
 * The editor's store for a page, created once on `initialDocument` (later values are ignored), without subscribing:
 * the parts of the page read what they show with `useEditorSelector`, so a change renders only the parts it concerns
 * (an undo step renders the canvas and a few toolbar buttons, not the whole editor).
 */
export function useEditorStore(initialDocument: DashboardDocument, options?: EditorOptions): EditorStore {
  const [store] = useState(() => createEditorStore(initialDocument, options));
  return store;
}

/**
 * A part of the editor's state: the component renders again only when `select` gives something new, by `isEqual`
 * (default `Object.is`); while it is equal the previous value is kept, so it can go to memoized children.
 */
export function useEditorSelector<Selected>(
  store: EditorStore,
  select: (state: EditorState) => Selected,
  isEqual: (a: Selected, b: Selected) => boolean = Object.is,
): Selected {
  const kept = useRef<{
    state: EditorState;
    select: (state: EditorState) => Selected;
    value: Selected;
  } | null>(null);
  const snapshot = () => {
    const state = store.getState();
    const last = kept.current;
    if (last && last.state === state && last.select === select) return last.value;
    const next = select(state);
    const value = last && isEqual(last.value, next) ? last.value : next;
    kept.current = { state, select, value };
    return value;
  };
  return useSyncExternalStore(store.subscribe, snapshot, snapshot);
}
