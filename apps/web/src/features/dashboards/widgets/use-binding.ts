import type { Binding } from '@edgeport/dashboard-schema';
import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import type { TimedValue, WidgetRuntime } from './types.ts';

const NO_BINDINGS: readonly Binding[] = [];

function signature(bindings: readonly Binding[]): string {
  return JSON.stringify(bindings);
}

/**
 * Re-renders the calling widget when one of its bindings changes (value, history, meta, loading) — and only then.
 * Answers a counter that grows with every change; read the values from the runtime during render.
 */
export function useBindingsTick(runtime: WidgetRuntime, bindings: readonly Binding[] = NO_BINDINGS): number {
  const counter = useRef(0);
  const key = signature(bindings);
  const current = useRef(bindings);
  current.current = bindings;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the bindings (read through the ref).
  const subscribe = useCallback(
    (notify: () => void) => {
      const stops = current.current.map(
        (binding) =>
          runtime.subscribe?.(binding, () => {
            counter.current += 1;
            notify();
          }) ?? (() => {}),
      );
      return () => {
        for (const stop of stops) stop();
      };
    },
    [runtime, key],
  );
  const snapshot = () => counter.current;
  return useSyncExternalStore(subscribe, snapshot, snapshot);
}

/** The latest value of a binding, live (undefined without a binding, a device or a value yet). */
export function useBindingValue(
  runtime: WidgetRuntime,
  binding: Binding | undefined,
): TimedValue | undefined {
  useBindingsTick(runtime, binding ? [binding] : NO_BINDINGS);
  return binding ? runtime.valueOf(binding) : undefined;
}

/**
 * Calls `onChange` (outside React's render) when one of the bindings changed, for widgets that draw imperatively
 * (charts call uPlot's setData without re-rendering) — at most once per `minIntervalMs` (the last change is always
 * drawn), so that many charts of 10 Hz values stay cheap. `onChange` may change on every render.
 */
export function useBindingsEffect(
  runtime: WidgetRuntime,
  bindings: readonly Binding[],
  onChange: () => void,
  minIntervalMs = 0,
): void {
  const latest = useRef(onChange);
  latest.current = onChange;
  const key = signature(bindings);
  const current = useRef(bindings);
  current.current = bindings;
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the bindings (read through the ref).
  useEffect(() => {
    let last = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const fire = () => {
      timer = undefined;
      last = Date.now();
      latest.current();
    };
    const changed = () => {
      if (timer !== undefined) return;
      const wait = last + minIntervalMs - Date.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    };
    const stops = current.current.map((binding) => runtime.subscribe?.(binding, changed) ?? (() => {}));
    return () => {
      clearTimeout(timer);
      for (const stop of stops) stop();
    };
  }, [runtime, key, minIntervalMs]);
}
