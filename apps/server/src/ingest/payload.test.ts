import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TEST_MAPPINGS, TEST_PATHS } from '../../test/support/devices.ts';
import { bindMappings } from '../services/mappings/binding.ts';
import { decodeMessage, isMalformed, MAX_PAYLOAD_BYTES } from './payload.ts';

const binding = {
  presetId: 'p',
  modelId: 'm',
  modelVersion: 1,
  tags: bindMappings(TEST_MAPPINGS, TEST_PATHS),
};
const NOW = Date.parse('2026-11-22T12:00:00Z');
const decode = (body: unknown) => decodeMessage(Buffer.from(JSON.stringify(body)), binding, NOW);

describe('decoding a data message', () => {
  it('maps tags to model paths, applies formulas and keeps the device timestamp', () => {
    const message = decode({
      ts: NOW - 5000,
      values: { LineSpeed: 12.5, MotorTemp: 655, Running: true, Batch: 7 },
    });
    expect(message).toEqual({
      ts: NOW - 5000,
      values: { '/line/speed': 12.5, '/motor/temperature': 65.5, '/line/running': true, '/batch/count': 7 },
      reportedTags: new Map([
        ['LineSpeed', 'number'],
        ['MotorTemp', 'number'],
        ['Running', 'boolean'],
        ['Batch', 'number'],
      ]),
      refusals: [],
    });
  });

  it('accepts ISO dates and uses the server clock without ts', () => {
    expect(decode({ ts: '2026-11-22T11:59:00Z', values: { LineSpeed: 1 } })).toMatchObject({
      ts: NOW - 60_000,
    });
    expect(decode({ values: { LineSpeed: 1 } })).toMatchObject({ ts: NOW });
  });

  it('refuses whole messages that are not an object with values, or too old, too new or too large', () => {
    for (const body of [[], 'x', { value: {} }, { values: [] }, { ts: 'soon', values: {} }]) {
      expect(isMalformed(decode(body))).toBe(true);
    }
    expect(decode({ ts: NOW - 400 * 86_400_000, values: {} })).toMatchObject({
      malformed: expect.stringMatching(/year/),
    });
    expect(decode({ ts: NOW + 2 * 86_400_000, values: {} })).toMatchObject({
      malformed: expect.stringMatching(/ahead/),
    });
    expect(decodeMessage(Buffer.from('{broken'), binding, NOW)).toEqual({ malformed: 'payload is not JSON' });
    const huge = Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 32);
    expect(decodeMessage(huge, binding, NOW)).toMatchObject({ malformed: expect.stringMatching(/larger/) });
  });

  it('refuses unknown tags and wrong types one by one and keeps the rest', () => {
    const message = decode({
      values: { Nope: 1, LineSpeed: 'fast', Batch: 1.5, Running: 1, StatusText: 3, MotorTemp: 700 },
    });
    if (isMalformed(message)) throw new Error('unexpected');
    expect(message.values).toEqual({ '/motor/temperature': 70 });
    expect(message.refusals.map((refusal) => refusal.reason).sort()).toEqual([
      'unknownPath',
      'wrongType',
      'wrongType',
      'wrongType',
      'wrongType',
    ]);
  });

  it('without a preset, every tag is unknown but still reported', () => {
    const message = decodeMessage(Buffer.from('{"values":{"Pressure":2}}'), undefined, NOW);
    if (isMalformed(message)) throw new Error('unexpected');
    expect(message.values).toEqual({});
    expect([...message.reportedTags.keys()]).toEqual(['Pressure']);
    expect(message.refusals).toHaveLength(1);
  });

  it('never throws and never keeps a value of the wrong type, whatever the bytes', () => {
    const typeOf = new Map(TEST_PATHS.map((path) => [path.path, path.type]));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          fc.json().map((text) => new TextEncoder().encode(text)),
        ),
        (bytes) => {
          const message = decodeMessage(Buffer.from(bytes), binding, NOW);
          if (isMalformed(message)) return;
          for (const [path, value] of Object.entries(message.values)) {
            const type = typeOf.get(path);
            if (type === 'boolean') expect(typeof value).toBe('boolean');
            else if (type === 'string') expect(typeof value).toBe('string');
            else expect(Number.isFinite(value)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
