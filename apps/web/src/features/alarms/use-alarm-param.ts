import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/** The alarm open in the drawer, kept in the address (`?alarm=<id>`) so it can be shared and survives a reload. */
export function useAlarmParam(): [string | null, (id: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const open = useCallback(
    (id: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (id) next.set('alarm', id);
          else next.delete('alarm');
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  return [params.get('alarm'), open];
}
