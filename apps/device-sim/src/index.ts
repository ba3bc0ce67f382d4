export { type ActivatedSimulator, activateDevices } from './activation.ts';
export { BENCH_TAGS, PACKAGING_LINE_TAGS } from './demo-tags.ts';
export { type DeviceCredentials, SimulatedDevice } from './device.ts';
export { Fleet, type FleetProgress, progressLine } from './fleet.ts';
export type { TagSpec } from './signals.ts';
