import { sameJson } from './widget-form.ts';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * An edit the inspector made on `base` (what it showed: the editor's state a moment ago, a deferred render) applied to
 * `current` (the editor's state now): only what the edit changed, field by field into nested objects, so a change
 * made meanwhile by another part of the inspector (a binding chosen just before the title was committed) is kept.
 * Lists and values are taken whole. `current` itself is returned when the edit changes nothing.
 */
export function rebaseEdit<Value>(base: Value, next: Value, current: Value): Value {
  if (sameJson(base, next)) return current;
  if (current === base) return next;
  if (!isPlainObject(base) || !isPlainObject(next) || !isPlainObject(current)) return next;
  const result: Record<string, unknown> = { ...current };
  for (const key of new Set([...Object.keys(base), ...Object.keys(next)])) {
    if (sameJson(base[key], next[key])) continue;
    if (next[key] === undefined) delete result[key];
    else result[key] = rebaseEdit(base[key], next[key], current[key]);
  }
  return result as Value;
}
