import type { DeviceSlot } from '@edgeport/dashboard-schema';
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { hasStatus, isNotFound } from '../../../shared/http/errors.ts';
import { DASHBOARD_VIEW_KEY, type Device, fetchDevice, fetchSlotDevices } from '../api.ts';
import { needsFirstDevice, resolveSlotDevices } from './slots.ts';

export type SlotDevices = {
  /** The device of each slot (undefined: none). */
  devices: Record<string, string | undefined>;
  /** The devices each slot's picker offers, by label. */
  options: Record<string, Device[]>;
  /** Labels of the devices known, by id. */
  labels: Record<string, string>;
  /** Some slot still waits for its model's device list to decide. */
  pending: boolean;
  /** Slots whose device (asked for in the address, or the default) does not exist or is not visible. */
  unknown: Record<string, boolean>;
};

/**
 * Resolves the slots' devices (address → default → first of the model) and loads what the device pickers offer: the
 * devices of the slot's model, or the organization's when the slot names none.
 */
export function useSlotDevices(
  slots: readonly DeviceSlot[],
  requested: Readonly<Record<string, string | undefined>>,
): SlotDevices {
  const { organization, token } = useOrganizationApi();
  const lists = useQueries({
    queries: slots.map((slot) => ({
      queryKey: [DASHBOARD_VIEW_KEY, organization.id, 'slot-devices', slot.modelId ?? null],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        fetchSlotDevices(await token(), organization.id, slot.modelId, '', signal),
      staleTime: 60_000,
    })),
  });
  const options: Record<string, Device[]> = {};
  const firstOfSlot: Record<string, string | undefined> = {};
  slots.forEach((slot, index) => {
    const list = lists[index]?.data ?? [];
    options[slot.name] = list;
    firstOfSlot[slot.name] = list[0]?.id;
  });
  const pending = slots.some((slot, index) => needsFirstDevice(slot, requested) && lists[index]?.isPending);
  const devices = resolveSlotDevices(slots, requested, firstOfSlot);

  // Devices not in a picker's list (asked for by id, a default outside the model, beyond the list's length).
  const listed = new Map<string, Device>();
  for (const list of Object.values(options)) for (const device of list) listed.set(device.id, device);
  const others = [...new Set(Object.values(devices))].filter(
    (id): id is string => id !== undefined && !listed.has(id),
  );
  const details = useQueries({
    queries: others.map((id) => ({
      queryKey: [DASHBOARD_VIEW_KEY, organization.id, 'device', id],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        fetchDevice(await token(), organization.id, id, signal),
      retry: (count: number, error: unknown) => !hasStatus(error, 404) && !hasStatus(error, 400) && count < 2,
      staleTime: 60_000,
    })),
  });
  const labels: Record<string, string> = {};
  for (const [id, device] of listed) labels[id] = device.label;
  const gone = new Set<string>();
  others.forEach((id, index) => {
    const detail = details[index];
    if (detail?.data) labels[id] = detail.data.label;
    if (detail?.isError && isNotFound(detail.error)) gone.add(id);
  });
  const unknown: Record<string, boolean> = {};
  const resolved: Record<string, string | undefined> = {};
  for (const slot of slots) {
    const id = devices[slot.name];
    unknown[slot.name] = id !== undefined && gone.has(id);
    resolved[slot.name] = id !== undefined && gone.has(id) ? undefined : id;
  }
  const devicesKey = JSON.stringify(resolved);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `devicesKey` stands for the resolved devices.
  const stableDevices = useMemo(() => resolved, [devicesKey]);
  return { devices: stableDevices, options, labels, pending, unknown };
}
