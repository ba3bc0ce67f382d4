import type { Box, DevicePosition } from '../devices/api.ts';

/** A map's visible bounds as the positions call's box: latitudes clamped, longitudes as Leaflet has them (the server wraps them). */
export function boxOf(bounds: { south: number; west: number; north: number; east: number }): Box {
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  const west = round(clamp(bounds.west, 540));
  const east = round(clamp(bounds.east, 540));
  return {
    south: round(clamp(bounds.south, 90)),
    north: round(clamp(bounds.north, 90)),
    // A view wider than the world asks for all of it.
    west: east - west >= 360 ? -180 : west,
    east: east - west >= 360 ? 180 : east,
  };
}

/** The south-west and north-east corners around the devices, or undefined without any. */
export function boundsOf(
  positions: readonly Pick<DevicePosition, 'latitude' | 'longitude'>[],
): [[number, number], [number, number]] | undefined {
  if (positions.length === 0) return undefined;
  let south = 90;
  let north = -90;
  let west = 180;
  let east = -180;
  for (const { latitude, longitude } of positions) {
    south = Math.min(south, latitude);
    north = Math.max(north, latitude);
    west = Math.min(west, longitude);
    east = Math.max(east, longitude);
  }
  return [
    [south, west],
    [north, east],
  ];
}

/** Wraps a longitude a dragged marker reports (a map panned around the world) into -180..180. */
export function wrapLongitude(value: number): number {
  return ((((value + 180) % 360) + 360) % 360) - 180;
}

/** A latitude or longitude rounded to 6 decimals (about 10 cm), as stored. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** The share of online devices in a cluster, as the angle of its ring (0..360 degrees). */
export function onlineAngle(online: number, total: number): number {
  return total > 0 ? Math.round((online / total) * 360) : 0;
}
