import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { sampleDocument } from './test-fixtures.ts';
import type { EditorCommands, EditorState } from './types.ts';
import { useDashboardEditor } from './useDashboardEditor.ts';
import type { EditorClipboardActions } from './useEditorShortcuts.ts';
import { useEditorShortcuts } from './useEditorShortcuts.ts';

/**
 * The hooks rendered once without a DOM (this workspace has no jsdom; the editor's browser tests exercise them in
 * Chromium): they give the editor's state and commands, and the shortcut hook mounts and returns its actions.
 */
type Seen = { state: EditorState; commands: EditorCommands; actions: EditorClipboardActions };
const rendered: Seen[] = [];
const document = sampleDocument();

function Probe() {
  const [state, commands] = useDashboardEditor(document);
  const actions = useEditorShortcuts(commands, { onProtected: () => {} });
  rendered.push({ state, commands, actions });
  return createElement('span', null, state.pageId);
}

describe('editor hooks', () => {
  it('useDashboardEditor gives the state and working commands; useEditorShortcuts its actions', () => {
    expect(renderToString(createElement(Probe))).toBe('<span>home</span>');
    const seen = rendered[0];
    if (!seen) throw new Error('not rendered');
    expect(seen.state).toMatchObject({
      document,
      pageId: 'home',
      selection: [],
      canUndo: false,
      dirty: false,
    });
    expect(seen.commands.deleteSelection()).toBe('page-protected');
    expect(seen.actions.deleteSelection()).toBe('page-protected');
    expect(seen.commands.addWidget('text')).toMatch(/^[A-Za-z]/);
  });
});
