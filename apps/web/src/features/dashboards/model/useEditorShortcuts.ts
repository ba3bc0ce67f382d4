import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { type Options, useHotkeys } from 'react-hotkeys-hook';
import { browserClipboardEnvironment } from './clipboard-access.ts';
import {
  type ClipboardEventLike,
  createShortcutController,
  isInDialog,
  type ShortcutCallbacks,
} from './shortcuts.ts';
import type { ClipboardPayload, DeleteOutcome, EditorCommands } from './types.ts';

export type EditorShortcutOptions = ShortcutCallbacks & {
  /** Off while the editor is not usable (loading, saving, a read-only viewer). Default true. */
  enabled?: boolean;
};

/** The same actions for toolbar buttons and menus (they write and read the clipboards like the keys do). */
export type EditorClipboardActions = {
  copy(): ClipboardPayload | null;
  cut(): ClipboardPayload | null;
  paste(): Promise<ClipboardPayload | null>;
  deleteSelection(): DeleteOutcome;
};

/**
 * The dashboard editor's keyboard shortcuts, on the whole document while the editor is mounted:
 *
 * | keys | action |
 * | --- | --- |
 * | Mod+C / Mod+X | copy / cut the selected widgets (system clipboard when permitted, always the in-app one) |
 * | Mod+V | paste (the system clipboard — the paste event's data, else `readText` — else the in-app clipboard) |
 * | Delete, Backspace | delete the selected widgets; with only the page selected `onProtected()` |
 * | Mod+Z | undo |
 * | Mod+Shift+Z, Mod+Y | redo |
 * | Mod+A | select every widget of the open page |
 * | Mod+G | group the selected widgets |
 * | Escape | select the page |
 *
 * Mod is Cmd on macOS, Ctrl elsewhere. Keys are matched by the character they type (so Ctrl+Z is Ctrl+Z on German and
 * French keyboards too). Nothing fires while typing in an input, textarea, select or contenteditable, nor inside a
 * dialog. Outcomes reach the page through the callbacks (`onProtected` → "The page cannot be deleted").
 */
export function useEditorShortcuts(
  commands: EditorCommands,
  options: EditorShortcutOptions = {},
): EditorClipboardActions {
  const latest = useRef({ commands, options });
  useLayoutEffect(() => {
    latest.current = { commands, options };
  });
  const [controller] = useState(() =>
    createShortcutController({
      commands: () => latest.current.commands,
      callbacks: () => latest.current.options,
      environment: browserClipboardEnvironment,
    }),
  );
  const enabled = options.enabled ?? true;
  const keys: Options = {
    enabled,
    useKey: true,
    preventDefault: false,
    ignoreEventWhen: (event) => isInDialog(event.target),
  };
  // One hook for every shortcut: react-hotkeys-hook runs each hook's own listener on every key event (key mapping,
  // form-field checks), and an undo step is a key event.
  useHotkeys(
    EDITOR_KEYS,
    (event, hotkey) => {
      const action = EDITOR_ACTIONS[hotkey.hotkey];
      if (!action) return;
      // Copy, cut and paste keep the key's default so that the browser fires its clipboard event (see shortcuts.ts).
      if (action.keepsDefault !== true) event.preventDefault();
      action.run(controller, latest.current.commands);
    },
    keys,
    [controller],
  );

  useEffect(() => {
    if (!enabled) return;
    const onCopy = (event: ClipboardEvent) => controller.handleCopyEvent(event as ClipboardEventLike);
    const onPaste = (event: ClipboardEvent) => controller.handlePasteEvent(event as ClipboardEventLike);
    document.addEventListener('copy', onCopy);
    document.addEventListener('cut', onCopy);
    document.addEventListener('paste', onPaste);
    return () => {
      document.removeEventListener('copy', onCopy);
      document.removeEventListener('cut', onCopy);
      document.removeEventListener('paste', onPaste);
    };
  }, [controller, enabled]);

  return useMemo(
    () => ({
      copy: controller.copy,
      cut: controller.cut,
      paste: controller.paste,
      deleteSelection: controller.deleteSelection,
    }),
    [controller],
  );
}

type ShortcutController = ReturnType<typeof createShortcutController>;
type EditorAction = {
  run(controller: ShortcutController, commands: EditorCommands): void;
  keepsDefault?: true;
};

/** Each shortcut as react-hotkeys-hook names the matched key (lower case, trimmed). */
const EDITOR_ACTIONS: Readonly<Record<string, EditorAction>> = {
  'mod+c': { run: (controller) => controller.copy(), keepsDefault: true },
  'mod+x': { run: (controller) => controller.cut(), keepsDefault: true },
  'mod+v': { run: (controller) => void controller.paste(), keepsDefault: true },
  delete: { run: (controller) => controller.deleteSelection() },
  backspace: { run: (controller) => controller.deleteSelection() },
  'mod+z': { run: (_, commands) => commands.undo() },
  'mod+shift+z': { run: (_, commands) => commands.redo() },
  'mod+y': { run: (_, commands) => commands.redo() },
  'mod+a': { run: (_, commands) => commands.selectAll() },
  'mod+g': { run: (_, commands) => commands.groupSelection() },
  escape: { run: (_, commands) => commands.select([], 'replace') },
};
const EDITOR_KEYS = Object.keys(EDITOR_ACTIONS).join(',');
