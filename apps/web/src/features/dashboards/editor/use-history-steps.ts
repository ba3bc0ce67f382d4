import { useEffect, useMemo, useRef, useState } from 'react';
import type { EditorCommands } from '../model/types.ts';

/** How long after an undo or redo the inspector waits before it follows the document. */
export const INSPECTOR_SETTLE_MS = 250;

/**
 * The commands with undo and redo marking a run of history steps: `stepping` is true from an undo or redo until
 * INSPECTOR_SETTLE_MS pass without another. The inspector holds still meanwhile (holding Ctrl+Z renders its forms
 * once at the end, not at every step: the canvas and toolbar alone follow each step at once).
 */
export function useHistorySteps(commands: EditorCommands): { commands: EditorCommands; stepping: boolean } {
  const [stepping, setStepping] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const stepped = useMemo<EditorCommands>(() => {
    const step = (run: () => void) => {
      run();
      setStepping(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setStepping(false), INSPECTOR_SETTLE_MS);
    };
    return { ...commands, undo: () => step(commands.undo), redo: () => step(commands.redo) };
  }, [commands]);
  return { commands: stepped, stepping };
}
