import type { live } from '@edgeport/contract';
import { useEffect, useRef, useState } from 'react';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { liveClientFor } from './live-client.ts';

export type LiveAlarmHandlers = {
  /** An alarm of the organization was raised or changed. */
  onAlarm: (message: live.LiveAlarm) => void;
  /**
   * The connection came back after a break: changes sent meanwhile were missed, so whatever the screen shows should
   * be loaded again.
   */
  onReconnect?: () => void;
};

/**
 * The organization's alarm changes as they happen over `/svc/live` (no subscription: the server sends them to every
 * session of the organization). Opens the connection while `enabled`; answers whether it is connected. The handlers
 * may change on every render: the latest ones are called.
 */
export function useLiveAlarms(handlers: LiveAlarmHandlers, enabled = true): { connected: boolean } {
  const { organization, token } = useOrganizationApi();
  const [connected, setConnected] = useState(false);
  const latest = useRef(handlers);
  latest.current = handlers;

  // biome-ignore lint/correctness/useExhaustiveDependencies: token() is stable per organization; handlers go through the ref.
  useEffect(() => {
    if (!enabled) return;
    const client = liveClientFor(organization.id, token);
    let wasOpen = client.state === 'open';
    let lost = false;
    const stopState = client.onState((state) => {
      setConnected(state === 'open');
      if (state === 'open') {
        if (lost) latest.current.onReconnect?.();
        wasOpen = true;
        lost = false;
      } else if (wasOpen) {
        lost = true;
      }
    });
    const stopAlarms = client.onAlarm((message) => latest.current.onAlarm(message));
    setConnected(client.state === 'open');
    return () => {
      stopState();
      stopAlarms();
    };
  }, [organization.id, enabled]);

  return { connected: enabled && connected };
}
