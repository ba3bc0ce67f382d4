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
 * Keeps a form showing its source (undo, redo, a change made elsewhere), except when the change is the form's own
 * commit coming back after the person typed on: the inspector follows the editor's state a moment later (a deferred
 * render, which typing interrupts), so resetting then would wipe what was typed in the next field meanwhile.
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
  const own = useRef<{ next: Next; values: Values } | null>(null);
  const follow = useStableCallback((current: Source) => {
    const last = own.current;
    own.current = null;
    const typedSince = last !== null && !sameJson(last.values, form.getValues());
    if (last && sameJson(last.next, current) && typedSince) return;
    form.reset(toValues(current));
    onReset();
  });
  useEffect(() => follow(source), [source, follow]);
  return useStableCallback((next: Next) => {
    // A deep copy: the form changes its values object in place as the person types.
    own.current = { next, values: structuredClone(form.getValues()) };
    onCommit(next);
  });
}
