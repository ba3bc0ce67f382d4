import { useEffect, useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useStableCallback } from '../use-stable-callback.ts';
import { sameJson } from './widget-form.ts';

type Follows<Source, Values extends FieldValues, Next extends Source> = {
  form: UseFormReturn<Values>;
  /** What the form shows; it is reset to `toValues(source)` whenever this changes, then `onReset` runs. */
  source: Source;
  toValues: (source: Source) => Values;
  onReset: () => void;
  /** Hands on what the form committed (a new source). */
  onCommit: (next: Next) => void;
};

/**
 * A commit of the form on its way back as the source: what the form will show of it (`committed`), and the form's
 * values when it was made (`typed`).
 */
export type OwnCommit<Values> = { committed: Values; typed: Values };

/**
 * Whether a source that reached the form (as the form would show it, `sourceValues`) should reset it, and which of the
 * form's own commits are still on their way.
 * - A source whose fields are the same as the one the form last followed (`followed`) changed elsewhere (a binding,
 *   the layout): the form is left alone, so what the person is typing stays.
 * - A source that shows one of the form's own commits (the latest, or an earlier one a deferred render still shows;
 *   the editor may have joined other changes to it) comes back after the person typed on when the form's values moved
 *   since that commit: resetting then would wipe what they typed.
 * - Anything else (undo, redo, a change of these fields made elsewhere) resets the form, and no commit is awaited any
 *   more.
 * A form that already shows the source's values is never reset: a reset re-mounts a field array's rows, which would
 * take the focus, and close a list, that the person has meanwhile moved on to.
 */
export function followSource<Values>(
  pending: readonly OwnCommit<Values>[],
  sourceValues: Values,
  values: Values,
  followed?: Values,
): { reset: boolean; pending: OwnCommit<Values>[] } {
  if (followed !== undefined && sameJson(sourceValues, followed))
    return { reset: false, pending: [...pending] };
  const at = pending.findIndex((commit) => sameJson(commit.committed, sourceValues));
  const own = pending[at];
  const rest = own ? pending.slice(at + 1) : [];
  const shows = sameJson(sourceValues, values);
  if (!own) return { reset: !shows, pending: rest };
  return { reset: !shows && rest.length === 0 && sameJson(own.typed, values), pending: rest };
}

/**
 * Keeps a form showing its source's fields (undo, redo, a change made elsewhere), except when the change is one of the
 * form's own commits coming back after the person typed on: the inspector follows the editor's state a moment later (a
 * deferred render, which typing interrupts, and which may show an earlier commit than the last), so resetting then
 * would wipe what was typed in the next field meanwhile.
 *
 * Returns `commit(next)`: the form hands on `next` through it (to `onCommit`), noting it as its own.
 */
export function useFormFollows<Source, Values extends FieldValues, Next extends Source>({
  form,
  source,
  toValues,
  onReset,
  onCommit,
}: Follows<Source, Values, Next>): (next: Next) => void {
  const pending = useRef<OwnCommit<Values>[]>([]);
  const followed = useRef<Values | undefined>(undefined);
  const follow = useStableCallback((current: Source) => {
    const sourceValues = toValues(current);
    const decision = followSource(pending.current, sourceValues, form.getValues(), followed.current);
    pending.current = decision.pending;
    followed.current = sourceValues;
    if (!decision.reset) return;
    form.reset(sourceValues);
    onReset();
  });
  useEffect(() => follow(source), [source, follow]);
  return useStableCallback((next: Next) => {
    // A deep copy: the form changes its values object in place as the person types.
    pending.current = [
      ...pending.current,
      { committed: toValues(next), typed: structuredClone(form.getValues()) },
    ];
    onCommit(next);
  });
}
