import { type ReactElement, useRef } from 'react';

type Kept = { inputs: readonly unknown[]; element: ReactElement };

export type KeptElements = {
  /** The element kept for `key` if it was built from the same inputs (each the same value), else a new one. */
  keep: (key: string, inputs: readonly unknown[], build: () => ReactElement) => ReactElement;
  /** Forgets the elements of keys no longer shown (`count` of them are). */
  prune: (count: number, isShown: (key: string) => boolean) => void;
};

/**
 * Elements kept across renders by key: React skips an element that is the very same object, so an undo step that
 * adds or removes one widget of fifty builds and compares one element, not fifty.
 */
export function useKeptElements(): KeptElements {
  const kept = useRef<KeptElements | null>(null);
  kept.current ??= keptElements();
  return kept.current;
}

export function keptElements(): KeptElements {
  const elements = new Map<string, Kept>();
  return {
    keep(key, inputs, build) {
      const old = elements.get(key);
      if (
        old &&
        old.inputs.length === inputs.length &&
        old.inputs.every((input, at) => input === inputs[at])
      ) {
        return old.element;
      }
      const element = build();
      elements.set(key, { inputs, element });
      return element;
    },
    prune(count, isShown) {
      if (elements.size <= count) return;
      for (const key of elements.keys()) if (!isShown(key)) elements.delete(key);
    },
  };
}
