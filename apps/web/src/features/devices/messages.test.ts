import { describe, expect, it } from 'vitest';
import { positionProblem } from './messages.ts';

describe('positionProblem', () => {
  it('accepts both or none, in range', () => {
    expect(positionProblem('', '')).toBeUndefined();
    expect(positionProblem('48.1', '11.5')).toBeUndefined();
    expect(positionProblem('0', '0')).toBeUndefined();
    expect(positionProblem('-90', '180')).toBeUndefined();
  });

  it('names what is wrong', () => {
    expect(positionProblem('48', '')).toBe('devices.validation.bothCoordinates');
    expect(positionProblem(' ', '3')).toBe('devices.validation.bothCoordinates');
    expect(positionProblem('91', '3')).toBe('devices.validation.latitude');
    expect(positionProblem('x', '3')).toBe('devices.validation.latitude');
    expect(positionProblem('1', '-180.5')).toBe('devices.validation.longitude');
  });
});
