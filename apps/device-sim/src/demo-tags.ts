import type { TagSpec } from './signals.ts';

/** The data tags of the demo preset "Packaging line PLC" (apps/server/src/services/mappings/demo.ts). */
export const PACKAGING_LINE_TAGS: TagSpec[] = [
  { tag: 'LineSpeed', kind: 'number', base: 120, amplitude: 25, periodS: 90 },
  { tag: 'Running', kind: 'boolean', periodS: 300 },
  { tag: 'PackCount', kind: 'integer', base: 5000, amplitude: 4000, periodS: 3600 },
  { tag: 'MotorTemp', kind: 'integer', base: 650, amplitude: 80, periodS: 240 },
  { tag: 'MotorCurrent', kind: 'number', base: 12, amplitude: 3, periodS: 60 },
  { tag: 'TankLevel', kind: 'number', base: 60, amplitude: 30, periodS: 600 },
  { tag: 'StatusText', kind: 'string', periodS: 200 },
  { tag: 'SpeedSetpoint', kind: 'number', base: 120, amplitude: 0 },
];

/** Three values per message: the load-test message of the ingest benchmark. */
export const BENCH_TAGS: TagSpec[] = [
  { tag: 'LineSpeed', kind: 'number', base: 120, amplitude: 25, periodS: 90 },
  { tag: 'MotorCurrent', kind: 'number', base: 12, amplitude: 3, periodS: 60 },
  { tag: 'TankLevel', kind: 'number', base: 60, amplitude: 30, periodS: 600 },
];
