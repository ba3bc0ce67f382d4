// Latest values of a device and set-point writes back to it.
import { type Static, Type } from 'typebox';

import { DataValue } from './common.ts';

export { DataValue };

export const LatestValue = Type.Object({
  path: Type.String({ description: 'model path' }),
  value: DataValue,
  ts: Type.String({ format: 'date-time' }),
  type: Type.Union([Type.String(), Type.Null()], { description: "the path's type in the device's model" }),
  unit: Type.Union([Type.String(), Type.Null()]),
  writable: Type.Boolean({ description: 'whether the caller may write a set-point to this path' }),
});
export type LatestValue = Static<typeof LatestValue>;

export const LatestValues = Type.Object({
  deviceId: Type.String({ format: 'uuid' }),
  status: Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]),
  values: Type.Array(LatestValue),
});
export type LatestValues = Static<typeof LatestValues>;

export const SetpointWrite = Type.Object(
  { path: Type.String({ minLength: 2, maxLength: 300, pattern: '^/' }), value: DataValue },
  { additionalProperties: false },
);
export type SetpointWrite = Static<typeof SetpointWrite>;

export const SetpointSent = Type.Object({
  id: Type.String({ format: 'uuid' }),
  path: Type.String(),
  tag: Type.String({ description: 'the data tag of the device the preset binds the path to' }),
  value: DataValue,
  sentAt: Type.String({ format: 'date-time' }),
  deviceOnline: Type.Boolean({
    description: 'false: the broker keeps the set-point until the device connects',
  }),
});
export type SetpointSent = Static<typeof SetpointSent>;
