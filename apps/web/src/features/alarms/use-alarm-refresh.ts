import type { live } from '@edgeport/contract';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { useLiveAlarms } from '../../shared/live/use-live-alarms.ts';
import { ALARMS_KEY } from './query-keys.ts';

/** A burst of alarm changes (a whole line tripping) asks the server once, this long after the first change. */
const COALESCE_MS = 150;

const pending = new WeakMap<QueryClient, Map<string, ReturnType<typeof setTimeout>>>();

/**
 * Reloads every alarm query of the organization (lists, counts, the open alarm) soon: the changes of one burst are
 * coalesced into one reload however many screens (the badge, the list) asked for it.
 */
export function scheduleAlarmRefresh(queryClient: QueryClient, organizationId: string): void {
  let timers = pending.get(queryClient);
  if (!timers) {
    timers = new Map();
    pending.set(queryClient, timers);
  }
  if (timers.has(organizationId)) return;
  const all = timers;
  all.set(
    organizationId,
    setTimeout(() => {
      all.delete(organizationId);
      void queryClient.invalidateQueries({ queryKey: [ALARMS_KEY, organizationId] });
    }, COALESCE_MS),
  );
}

/**
 * Keeps the organization's alarm queries current over `/svc/live`: each alarm change (and a reconnection, after
 * which changes may have been missed) reloads them; `onAlarm` sees each change first, to show it at once.
 */
export function useAlarmRefresh(
  enabled: boolean,
  onAlarm?: (message: live.LiveAlarm) => void,
): { connected: boolean } {
  const { organization } = useOrganizationApi();
  const queryClient = useQueryClient();
  return useLiveAlarms(
    {
      onAlarm: (message) => {
        onAlarm?.(message);
        scheduleAlarmRefresh(queryClient, organization.id);
      },
      onReconnect: () => scheduleAlarmRefresh(queryClient, organization.id),
    },
    enabled,
  );
}
