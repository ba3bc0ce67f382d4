import { describe, expect, it } from 'vitest';
import {
  needsFirstDevice,
  requestedSlots,
  requestedVersion,
  resolveSlotDevices,
  withSlotDevice,
} from './slots.ts';

const MODEL = '7d3f0c8e-1111-4c1a-8f00-000000000001';
const DEFAULT = '7d3f0c8e-2222-4c1a-8f00-000000000002';
const ASKED = '7d3f0c8e-3333-4c1a-8f00-000000000003';
const FIRST = '7d3f0c8e-4444-4c1a-8f00-000000000004';

describe('device slots in the viewer address', () => {
  it('reads ecc_device_ parameters and the version', () => {
    const params = new URLSearchParams(`ecc_device_press=${ASKED}&ecc_device_=x&version=3&other=1`);
    expect(requestedSlots(params)).toEqual({ press: ASKED });
    expect(requestedVersion(params)).toBe(3);
    expect(requestedVersion(new URLSearchParams('version=0'))).toBeUndefined();
    expect(requestedVersion(new URLSearchParams('version=abc'))).toBeUndefined();
    expect(requestedVersion(new URLSearchParams(''))).toBeUndefined();
  });

  it('sets and removes a slot device, keeping the other parameters', () => {
    const params = new URLSearchParams('version=2');
    const set = withSlotDevice(params, 'press', ASKED);
    expect(set.toString()).toBe(`version=2&ecc_device_press=${ASKED}`);
    expect(withSlotDevice(set, 'press', null).toString()).toBe('version=2');
    expect(params.toString()).toBe('version=2');
  });

  it('resolves each slot: the address, else the default device, else the first device of the model', () => {
    const slots = [
      { name: 'press', label: 'Press', modelId: MODEL, defaultDeviceId: DEFAULT },
      { name: 'oven', label: 'Oven', modelId: MODEL },
      { name: 'free', label: 'Free' },
    ];
    expect(resolveSlotDevices(slots, {}, { oven: FIRST })).toEqual({
      press: DEFAULT,
      oven: FIRST,
      free: undefined,
    });
    expect(resolveSlotDevices(slots, { press: ASKED, oven: ASKED }, { oven: FIRST })).toEqual({
      press: ASKED,
      oven: ASKED,
      free: undefined,
    });
    expect(slots.map((slot) => needsFirstDevice(slot, {}))).toEqual([false, true, false]);
    expect(needsFirstDevice({ name: 'oven', label: 'Oven', modelId: MODEL }, { oven: ASKED })).toBe(false);
  });
});
