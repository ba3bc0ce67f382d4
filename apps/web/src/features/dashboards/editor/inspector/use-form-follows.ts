import { useEffect, useRef } from 'react';
import type { FieldValues, UseFormReturn } from 'react-hook-form';
import { useStableCallback } from '../use-stable-callback.ts';
import { sameJson } from './widget-form.ts';

/**
 * Keeps `form` showing `source` (undo, redo, a change made elsewhere): whenever `source` changes, the form is reset to
 * `toValues(source)` and `onReset` runs. Except when the change is the form's own commit coming back after the person
 * typed on: the inspector follows the editor's state a moment later (a deferred render, which typing interrupts), so
 * resetting then would wipe what was typed in the next field meanwhile.
 *
 * Returns `committed`, to be called with what the form hands on each time it does.
 */
export function useFormFollows<Source, Values extends FieldValues>(
  form: UseFormReturn<Values>,
  source: Source,
  toValues: (source: Source) => Values,
  onReset: () => void,
): (next: Source) => void {
  const own = useRef<{ next: Source; values: Values } | null>(null);
  const follow = useStableCallback((current: Source) => {
    const last = own.current;
    own.current = null;
    const typedSince = last !== null && !sameJson(last.values, form.getValues());
    if (last && sameJson(last.next, current) && typedSince) return;
    form.reset(toValues(current));
    onReset();
  });
  useEffect(() => follow(source), [source, follow]);
  return useStableCallback((next: Source) => {
    // A deep copy: the form changes its values object in place as the person types.
    own.current = { next, values: structuredClone(form.getValues()) };
  });
}
