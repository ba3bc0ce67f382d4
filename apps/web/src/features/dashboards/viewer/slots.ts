import type { DeviceSlot } from '@edgeport/dashboard-schema';

/** The query parameter that picks a slot's device in the viewer's address (spec 2). */
export const SLOT_PARAM_PREFIX = 'ecc_device_';

export function slotParam(slot: string): string {
  return `${SLOT_PARAM_PREFIX}${slot}`;
}

/** The devices the address asks for, by slot (`ecc_device_{slot}={deviceId}`). */
export function requestedSlots(params: URLSearchParams): Record<string, string> {
  const slots: Record<string, string> = {};
  for (const [name, value] of params) {
    if (name.startsWith(SLOT_PARAM_PREFIX) && name.length > SLOT_PARAM_PREFIX.length && value)
      slots[name.slice(SLOT_PARAM_PREFIX.length)] = value;
  }
  return slots;
}

/** The address with the slot's device set (or removed), other parameters kept. */
export function withSlotDevice(
  params: URLSearchParams,
  slot: string,
  deviceId: string | null,
): URLSearchParams {
  const next = new URLSearchParams(params);
  if (deviceId) next.set(slotParam(slot), deviceId);
  else next.delete(slotParam(slot));
  return next;
}

/** The version the address asks for (`version={n}`), or undefined for the current one. */
export function requestedVersion(params: URLSearchParams): number | undefined {
  const raw = params.get('version');
  if (raw === null || !/^[1-9][0-9]{0,8}$/.test(raw)) return undefined;
  return Number(raw);
}

/**
 * Each slot's device: the one the address asks for, else the slot's default device, else the first device (by label)
 * of the slot's model; undefined when there is none.
 */
export function resolveSlotDevices(
  slots: readonly DeviceSlot[],
  requested: Readonly<Record<string, string | undefined>>,
  firstOfSlot: Readonly<Record<string, string | undefined>>,
): Record<string, string | undefined> {
  return Object.fromEntries(
    slots.map((slot) => [slot.name, requested[slot.name] || slot.defaultDeviceId || firstOfSlot[slot.name]]),
  );
}

/** Whether a slot still waits for its model's first device to decide. */
export function needsFirstDevice(
  slot: DeviceSlot,
  requested: Readonly<Record<string, string | undefined>>,
): boolean {
  return !requested[slot.name] && !slot.defaultDeviceId && slot.modelId !== undefined;
}
