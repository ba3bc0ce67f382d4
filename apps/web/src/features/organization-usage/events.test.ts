import { describe, expect, it } from 'vitest';
import { eventColor, eventKey } from './events.ts';
import { reasonKey } from './reasons.ts';

describe('journal reasons and licence events in words', () => {
  it('names known ones and leaves others as stored', () => {
    expect(reasonKey('device.activated')).toBe(
      'organizationUsage.consumptions.journal.reasons.device.activated',
    );
    expect(reasonKey('device')).toBeUndefined();
    expect(reasonKey('toString')).toBeUndefined();
    expect(eventKey('EXPIRED')).toBe('organizationUsage.consumptions.history.events.EXPIRED');
    expect(eventKey('SOMETHING_NEW')).toBeUndefined();
    expect(eventColor('EXPIRY_WARNING')).toBe('orange');
    expect(eventColor('SOMETHING_NEW')).toBe('gray');
  });
});
