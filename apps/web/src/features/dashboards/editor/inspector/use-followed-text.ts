import { type Dispatch, type SetStateAction, useEffect, useRef, useState } from 'react';
import { useStableCallback } from '../use-stable-callback.ts';
import { followSource, type OwnCommit } from './use-form-follows.ts';

/** A commit of a text field on its way back as its source: what it comes back as, and the text when it was made. */
export type TextCommit = OwnCommit<string>;

/**
 * What a text field shows once its source (`source`) reached it, and which of its own commits are still on their way:
 * a form's rule (`followSource`) for one field.
 * - A source that is one of the field's own commits (the latest, or an earlier one a deferred render still shows)
 *   leaves what the person typed since alone; the text is only replaced by the committed form (trimmed, say) when
 *   nothing was typed since that commit and no later commit is awaited.
 * - Anything else (undo, redo, a change made elsewhere) replaces the text, and no commit is awaited any more.
 */
export function followText(
  pending: readonly TextCommit[],
  source: string,
  text: string,
): { text: string; pending: TextCommit[] } {
  const decision = followSource(pending, source, text);
  return { text: decision.reset ? source : text, pending: decision.pending };
}

/**
 * The text of a field that edits one value of the editor's state (a page title, a formula, a value to write), kept
 * showing that value (undo, redo, a change made elsewhere), except when the change is the field's own commit coming
 * back after the person typed on: the inspector follows the editor's state a moment later (a deferred render), so
 * replacing the text then would wipe what was typed after Enter.
 *
 * `noteCommit(committed)` tells it the value the source will come back as; call it before handing the value on.
 */
export function useFollowedText(source: string): {
  text: string;
  setText: Dispatch<SetStateAction<string>>;
  noteCommit: (committed: string) => void;
} {
  const [text, setText] = useState(source);
  const pending = useRef<TextCommit[]>([]);
  const follow = useStableCallback((current: string) => {
    const decision = followText(pending.current, current, text);
    pending.current = decision.pending;
    setText(decision.text);
  });
  useEffect(() => follow(source), [source, follow]);
  const noteCommit = useStableCallback((committed: string) => {
    pending.current = [...pending.current, { committed, typed: text }];
  });
  return { text, setText, noteCommit };
}
