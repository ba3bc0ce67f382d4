import { useCallback, useMemo } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { DashboardView } from './DashboardView.tsx';
import { requestedSlots, requestedVersion, withSlotDevice } from './slots.ts';

/**
 * Spec 2 /dashboards/{projectId}: the dashboard viewer. `version` picks a version (the current one by default);
 * `ecc_device_{slot}` picks each slot's device, and choosing a device in a slot's picker writes it back to the
 * address (so the address can be shared and bookmarked).
 */
export default function ViewerPage() {
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const version = requestedVersion(params);
  const slotsKey = params.toString();
  // biome-ignore lint/correctness/useExhaustiveDependencies: `slotsKey` stands for the parameters.
  const slotDevices = useMemo(() => requestedSlots(params), [slotsKey]);
  const onSlotChange = useCallback(
    (slot: string, deviceId: string | null) =>
      setParams((current) => withSlotDevice(current, slot, deviceId), { replace: true }),
    [setParams],
  );
  return (
    <DashboardView
      key={projectId}
      dashboardId={projectId}
      version={version}
      slotDevices={slotDevices}
      onSlotChange={onSlotChange}
    />
  );
}
