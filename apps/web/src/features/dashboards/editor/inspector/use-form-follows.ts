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

/** A commit of the form on its way back as the source, with the form's values when it was made. */
export type OwnCommit<Next, Values> = { next: Next; values: Values };

/**
 * Whether a source that reached the form should reset it, and which of the form's own commits are still on their way.
 * A source that is one of them (the latest, or an earlier one a deferred render still shows) comes back after the
 * person typed on when the form's values moved since that commit: resetting then would wipe what they typed. Anything
 * else (undo, redo, a change made elsewhere) resets the form, and no commit is awaited any more. A form that already
 * shows the source's values (`sourceValues`) is never reset: a reset re-mounts a field array's rows, which would take
 * the focus, and close a list, that the person has meanwhile moved on to.
 */
export function followSource<Next, Values>(
  pending: readonly OwnCommit<Next, Values>[],
  source: unknown,
  values: Values,
  sourceValues: Values,
): { reset: boolean; pending: OwnCommit<Next, Values>[] } {
  const at = pending.findIndex((commit) => sameJson(commit.next, source));
  const own = pending[at];
  const rest = own ? pending.slice(at + 1) : [];
  const shows = sameJson(sourceValues, values);
  if (!own) return { reset: !shows, pending: rest };
  return { reset: !shows && rest.length === 0 && sameJson(own.values, values), pending: rest };
}

/**
 * Keeps a form showing its source (undo, redo, a change made elsewhere), except when the change is one of the form's
 * own commits coming back after the person typed on: the inspector follows the editor's state a moment later (a
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
  const pending = useRef<OwnCommit<Next, Values>[]>([]);
  const follow = useStableCallback((current: Source) => {
    const sourceValues = toValues(current);
    const decision = followSource(pending.current, current, form.getValues(), sourceValues);
    pending.current = decision.pending;
    if (!decision.reset) return;
    form.reset(sourceValues);
    onReset();
  });
  useEffect(() => follow(source), [source, follow]);
  return useStableCallback((next: Next) => {
    // A deep copy: the form changes its values object in place as the person types.
    pending.current = [...pending.current, { next, values: structuredClone(form.getValues()) }];
    onCommit(next);
  });
}
