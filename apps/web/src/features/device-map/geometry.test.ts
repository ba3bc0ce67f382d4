import { describe, expect, it } from 'vitest';
import { boundsOf, boxOf, onlineAngle, roundCoordinate, wrapLongitude } from './geometry.ts';

describe('boxOf', () => {
  it('clamps latitudes and keeps wrapped longitudes for the server', () => {
    expect(boxOf({ south: -95, west: 370, north: 95, east: 390 })).toEqual({
      south: -90,
      north: 90,
      west: 370,
      east: 390,
    });
  });

  it('asks for the whole world when the view is wider than it', () => {
    expect(boxOf({ south: -60, west: -400, north: 60, east: 400 })).toMatchObject({ west: -180, east: 180 });
  });
});

describe('boundsOf', () => {
  it('spans the devices', () => {
    expect(
      boundsOf([
        { latitude: 48, longitude: 11 },
        { latitude: -33, longitude: 151 },
      ]),
    ).toEqual([
      [-33, 11],
      [48, 151],
    ]);
    expect(boundsOf([])).toBeUndefined();
  });
});

describe('coordinates', () => {
  it('wraps and rounds', () => {
    expect(wrapLongitude(190)).toBe(-170);
    expect(wrapLongitude(-181)).toBe(179);
    expect(wrapLongitude(11.5)).toBe(11.5);
    expect(roundCoordinate(48.12345678)).toBe(48.123457);
    expect(onlineAngle(1, 4)).toBe(90);
    expect(onlineAngle(0, 0)).toBe(0);
  });
});
