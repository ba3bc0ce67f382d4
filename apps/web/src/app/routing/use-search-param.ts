import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * One query parameter of the address as state (`?device=<id>`): what a drawer or a view shows stays in the address,
 * so it can be shared and survives a reload. Null removes the parameter; a change replaces the history entry.
 */
export function useSearchParam(name: string): [string | null, (value: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (value: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [name, setParams],
  );
  return [params.get(name), set];
}
