import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ControlError, type ControlMessage, encodeControl, parseControl } from './control.ts';
import {
  decodeFrame,
  encodeDataFrames,
  encodeFrame,
  type Frame,
  FrameError,
  FrameType,
  MAX_DATA_BYTES,
} from './frames.ts';

const streamId = fc.integer({ min: 0, max: 0xffffffff });
const frame: fc.Arbitrary<Frame> = fc.oneof(
  fc.record({
    type: fc.constant(FrameType.OPEN),
    streamId,
    target: fc.record({
      host: fc.string({ minLength: 1, maxLength: 255 }),
      port: fc.integer({ min: 1, max: 65535 }),
    }),
  }),
  fc.record({ type: fc.constant(FrameType.OPEN_OK), streamId }),
  fc.record({ type: fc.constant(FrameType.OPEN_FAIL), streamId, reason: fc.string({ unit: 'grapheme' }) }),
  fc.record({
    type: fc.constant(FrameType.DATA),
    streamId,
    data: fc.uint8Array({ maxLength: 2048 }).map((bytes) => Buffer.from(bytes)),
  }),
  fc.record({ type: fc.constant(FrameType.END), streamId }),
  fc.record({ type: fc.constant(FrameType.RESET), streamId, reason: fc.string() }),
  fc.record({
    type: fc.constant(FrameType.WINDOW),
    streamId,
    credit: fc.integer({ min: 0, max: 0xffffffff }),
  }),
);

describe('stream frames', () => {
  it('decode what they encode', () => {
    fc.assert(
      fc.property(frame, (original) => {
        const decoded = decodeFrame(encodeFrame(original));
        expect(decoded).toEqual(original);
      }),
      { numRuns: 2000 },
    );
  });

  it('are [type u8][streamId u32 BE][payload] on the wire', () => {
    const wire = encodeFrame({ type: FrameType.WINDOW, streamId: 0x01020304, credit: 65536 });
    expect([...wire]).toEqual([7, 1, 2, 3, 4, 0, 1, 0, 0]);
    const open = encodeFrame({ type: FrameType.OPEN, streamId: 9, target: { host: '10.0.0.5', port: 502 } });
    expect(open.subarray(5).toString()).toBe('{"host":"10.0.0.5","port":502}');
  });

  it('give DATA payloads as views of the message, without copying', () => {
    const data = Buffer.alloc(MAX_DATA_BYTES, 1);
    const message = encodeFrame({ type: FrameType.DATA, streamId: 1, data });
    const decoded = decodeFrame(message);
    expect(decoded.type === FrameType.DATA && decoded.data.buffer).toBe(message.buffer);
  });

  it('split large data into DATA frames of at most 64 KiB that carry it in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 * MAX_DATA_BYTES }), streamId, (size, id) => {
        const data = Buffer.alloc(size);
        for (let i = 0; i < size; i += 997) data[i] = i % 251;
        const frames = encodeDataFrames(id, data).map(decodeFrame);
        expect(frames.every((f) => f.type === FrameType.DATA && f.streamId === id)).toBe(true);
        const parts = frames.map((f) => (f.type === FrameType.DATA ? f.data : Buffer.alloc(0)));
        expect(Math.max(...parts.map((p) => p.length))).toBeLessThanOrEqual(MAX_DATA_BYTES);
        expect(Buffer.concat(parts).equals(data)).toBe(true);
      }),
      { numRuns: 50 },
    );
  });

  it('refuse malformed frames with a FrameError', () => {
    const bad = [
      Buffer.from([1, 0, 0]),
      Buffer.from([99, 0, 0, 0, 1]),
      Buffer.concat([Buffer.from([1, 0, 0, 0, 1]), Buffer.from('{"host":"x"}')]),
      Buffer.concat([Buffer.from([1, 0, 0, 0, 1]), Buffer.from('{"host":"x","port":70000}')]),
      Buffer.concat([Buffer.from([1, 0, 0, 0, 1]), Buffer.from('nope')]),
      Buffer.from([7, 0, 0, 0, 1, 0, 0]),
      Buffer.from([2, 0, 0, 0, 1, 0]),
    ];
    for (const message of bad)
      expect(() => decodeFrame(message), message.toString('hex')).toThrow(FrameError);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          decodeFrame(Buffer.from(bytes));
        } catch (error) {
          expect(error).toBeInstanceOf(FrameError);
        }
      }),
    );
  });
});

describe('control messages', () => {
  it('round-trip hello, welcome, lan, error, connect and connect-failed', () => {
    const messages: ControlMessage[] = [
      {
        type: 'hello',
        agentVersion: '0.1.0',
        lanNetwork: '192.168.10.0/24',
        endpoints: [{ name: 'hmi', address: '192.168.10.5', protocol: 'HTTP', port: 80 }],
      },
      { type: 'welcome', gatewayId: 'g', name: 'press-1', lanNetwork: null },
      { type: 'lan', lanNetwork: '10.0.0.0/16' },
      { type: 'error', message: 'bad' },
      {
        type: 'connect',
        id: '0b6f4f3e-8a1c-4c4e-9d1e-3f2a1b0c9d8e',
        token: 'A'.repeat(43),
        host: '192.168.10.5',
        port: 22,
      },
      { type: 'connect-failed', id: '0b6f4f3e-8a1c-4c4e-9d1e-3f2a1b0c9d8e', reason: 'connection refused' },
    ];
    for (const message of messages) expect(parseControl(encodeControl(message))).toEqual(message);
  });

  it('refuse unknown or malformed messages', () => {
    for (const raw of [
      'nope',
      '[]',
      '{"type":"launch"}',
      '{"type":"hello","agentVersion":1}',
      '{"type":"hello","agentVersion":"1","endpoints":[{"name":"x","address":"1.2.3.4","protocol":"FTP","port":21}]}',
      '{"type":"hello","agentVersion":"1","endpoints":[{"name":"x","address":"1.2.3.4","protocol":"TCP","port":0}]}',
      ...[
        { id: 'not-a-uuid' },
        { token: 'short' },
        { token: `${'A'.repeat(42)}=` },
        { port: 0 },
        { port: 65536 },
        { port: '22' },
        { host: 5 },
      ].map((wrong) =>
        JSON.stringify({
          type: 'connect',
          id: '0b6f4f3e-8a1c-4c4e-9d1e-3f2a1b0c9d8e',
          token: 'A'.repeat(43),
          host: '10.0.0.1',
          port: 22,
          ...wrong,
        }),
      ),
      '{"type":"connect-failed","id":"0b6f4f3e-8a1c-4c4e-9d1e-3f2a1b0c9d8e"}',
      '{"type":"connect-failed","id":"x","reason":"r"}',
    ])
      expect(() => parseControl(raw), raw).toThrow(ControlError);
  });
});
