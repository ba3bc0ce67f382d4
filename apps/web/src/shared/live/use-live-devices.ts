import { useEffect, useState } from 'react';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { type LiveValue, liveClientFor } from './live-client.ts';

export type LiveDevices = {
  /** By device id, then by model path. */
  values: Record<string, Record<string, LiveValue>>;
  status: Record<string, 'ONLINE' | 'OFFLINE'>;
  connected: boolean;
};

/** Live values and status of the given devices, as they arrive over `/svc/live`. */
export function useLiveDevices(deviceIds: readonly string[]): LiveDevices {
  const { organization, token } = useOrganizationApi();
  const [live, setLive] = useState<LiveDevices>({ values: {}, status: {}, connected: false });
  const key = [...deviceIds].sort().join(',');

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for deviceIds; token() is stable per organization.
  useEffect(() => {
    const client = liveClientFor(organization.id, token);
    const stopState = client.onState((state) =>
      setLive((current) => ({ ...current, connected: state === 'open' })),
    );
    const stops = key
      .split(',')
      .filter(Boolean)
      .map((deviceId) =>
        client.subscribe(deviceId, {
          values: (message) =>
            setLive((current) => {
              const device = { ...current.values[deviceId] };
              for (const [path, value] of Object.entries(message.values)) {
                const known = device[path];
                if (!known || known.ts <= message.ts) device[path] = { value, ts: message.ts };
              }
              return { ...current, values: { ...current.values, [deviceId]: device } };
            }),
          status: (message) =>
            setLive((current) => ({ ...current, status: { ...current.status, [deviceId]: message.status } })),
        }),
      );
    setLive((current) => ({ ...current, connected: client.state === 'open' }));
    return () => {
      stopState();
      for (const stop of stops) stop();
    };
  }, [organization.id, key]);

  return live;
}
