import { useEffect, useState } from 'react';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { LiveBatcher, type LiveDevices, withChanges } from './live-batch.ts';
import { liveClientFor } from './live-client.ts';

/**
 * Live values and status of the given devices, as they arrive over `/svc/live` (rendered a few times a second:
 * LIVE_RENDER_EVERY_MS). `{ values: false }`: only their status, for a screen that shows no values (it then renders
 * only when a device connects or disconnects).
 */
export function useLiveDevices(deviceIds: readonly string[], { values = true } = {}): LiveDevices {
  const { organization, token } = useOrganizationApi();
  const [live, setLive] = useState<LiveDevices>({ values: {}, status: {}, connected: false });
  const key = [...deviceIds].sort().join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for deviceIds; token() is stable per organization.
  useEffect(() => {
    const client = liveClientFor(organization.id, token);
    const stopState = client.onState((state) =>
      setLive((current) => ({ ...current, connected: state === 'open' })),
    );
    const batcher = new LiveBatcher((changes) => setLive((current) => withChanges(current, changes)));
    const stops = key
      .split(',')
      .filter(Boolean)
      .map((deviceId) =>
        client.subscribe(deviceId, {
          values: values ? (message) => batcher.values(deviceId, message.ts, message.values) : undefined,
          status: (message) => batcher.status(deviceId, message.status),
        }),
      );
    setLive((current) => ({ ...current, connected: client.state === 'open' }));
    return () => {
      stopState();
      batcher.stop();
      for (const stop of stops) stop();
    };
  }, [organization.id, key, values]);

  return live;
}
