import type { DashboardDocument } from '@edgeport/dashboard-schema';
import { useState, useSyncExternalStore } from 'react';
import type { EditorOptions } from './editor.ts';
import { createEditorStore } from './store.ts';
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
  const [store] = useState(() => createEditorStore(initialDocument, options));
  const state = useSyncExternalStore(store.subscribe, store.getState, store.getState);
  return [state, store.commands];
}
