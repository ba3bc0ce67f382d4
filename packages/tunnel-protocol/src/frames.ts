/**
 * Stream frames: the binary WebSocket messages of a tunnel, `[type u8][streamId u32 BE][payload]`.
 *
 * OPEN carries the target as JSON `{host, port}`, OPEN_FAIL and RESET a reason text, DATA the bytes, WINDOW a u32
 * credit (bytes the receiver has consumed, which the sender may send again). OPEN_OK and END have no payload; END
 * is a half-close (the sender writes no more; it still reads).
 */

export const FrameType = {
  OPEN: 1,
  OPEN_OK: 2,
  OPEN_FAIL: 3,
  DATA: 4,
  END: 5,
  RESET: 6,
  WINDOW: 7,
} as const;
export type FrameType = (typeof FrameType)[keyof typeof FrameType];

export const HEADER_BYTES = 5;
/** The largest DATA payload: frames stay well under the server's 256 KiB WebSocket message limit. */
export const MAX_DATA_BYTES = 64 * 1024;
/** Credit a stream starts with in each direction. */
export const INITIAL_WINDOW = 1024 * 1024;
export const MAX_STREAM_ID = 0xffffffff;

export type TunnelTarget = { host: string; port: number };

export type Frame =
  | { type: typeof FrameType.OPEN; streamId: number; target: TunnelTarget }
  | { type: typeof FrameType.OPEN_OK; streamId: number }
  | { type: typeof FrameType.OPEN_FAIL; streamId: number; reason: string }
  | { type: typeof FrameType.DATA; streamId: number; data: Buffer }
  | { type: typeof FrameType.END; streamId: number }
  | { type: typeof FrameType.RESET; streamId: number; reason: string }
  | { type: typeof FrameType.WINDOW; streamId: number; credit: number };

function header(type: FrameType, streamId: number, payloadBytes: number): Buffer {
  const frame = Buffer.allocUnsafe(HEADER_BYTES + payloadBytes);
  frame.writeUInt8(type, 0);
  frame.writeUInt32BE(streamId, 1);
  return frame;
}

function withText(type: FrameType, streamId: number, text: string): Buffer {
  const bytes = Buffer.byteLength(text);
  const frame = header(type, streamId, bytes);
  frame.write(text, HEADER_BYTES, 'utf8');
  return frame;
}

/** A DATA frame: one copy of `data` (at most MAX_DATA_BYTES, the caller chunks). */
export function encodeData(streamId: number, data: Buffer): Buffer {
  const frame = header(FrameType.DATA, streamId, data.length);
  data.copy(frame, HEADER_BYTES);
  return frame;
}

/** `data` as DATA frames of at most MAX_DATA_BYTES, all in one allocation (one copy of the bytes). */
export function encodeDataFrames(streamId: number, data: Buffer): Buffer[] {
  if (data.length <= MAX_DATA_BYTES) return [encodeData(streamId, data)];
  const count = Math.ceil(data.length / MAX_DATA_BYTES);
  const block = Buffer.allocUnsafe(data.length + count * HEADER_BYTES);
  const frames: Buffer[] = [];
  let at = 0;
  for (let offset = 0; offset < data.length; offset += MAX_DATA_BYTES) {
    const size = Math.min(MAX_DATA_BYTES, data.length - offset);
    block.writeUInt8(FrameType.DATA, at);
    block.writeUInt32BE(streamId, at + 1);
    data.copy(block, at + HEADER_BYTES, offset, offset + size);
    frames.push(block.subarray(at, at + HEADER_BYTES + size));
    at += HEADER_BYTES + size;
  }
  return frames;
}

export function encodeFrame(frame: Frame): Buffer {
  switch (frame.type) {
    case FrameType.OPEN:
      return withText(
        frame.type,
        frame.streamId,
        JSON.stringify({ host: frame.target.host, port: frame.target.port }),
      );
    case FrameType.OPEN_FAIL:
    case FrameType.RESET:
      return withText(frame.type, frame.streamId, frame.reason);
    case FrameType.DATA:
      return encodeData(frame.streamId, frame.data);
    case FrameType.WINDOW: {
      const out = header(frame.type, frame.streamId, 4);
      out.writeUInt32BE(frame.credit, HEADER_BYTES);
      return out;
    }
    case FrameType.OPEN_OK:
    case FrameType.END:
      return header(frame.type, frame.streamId, 0);
  }
}

export class FrameError extends Error {}

function parseTarget(text: string): TunnelTarget {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FrameError('OPEN: the target is not JSON');
  }
  if (typeof value !== 'object' || value === null) throw new FrameError('OPEN: the target is not an object');
  const { host, port } = value as { host?: unknown; port?: unknown };
  if (typeof host !== 'string' || host.length === 0 || host.length > 255)
    throw new FrameError('OPEN: host must be a non-empty string');
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535)
    throw new FrameError('OPEN: port must be an integer 1..65535');
  return { host, port };
}

/** The frame in a binary message; DATA payloads are views of `message` (no copy). Throws FrameError when malformed. */
export function decodeFrame(message: Buffer): Frame {
  if (message.length < HEADER_BYTES) throw new FrameError(`a frame has at least ${HEADER_BYTES} bytes`);
  const type = message.readUInt8(0);
  const streamId = message.readUInt32BE(1);
  const payload = message.subarray(HEADER_BYTES);
  switch (type) {
    case FrameType.OPEN:
      return { type, streamId, target: parseTarget(payload.toString('utf8')) };
    case FrameType.OPEN_OK:
    case FrameType.END:
      if (payload.length !== 0) throw new FrameError(`frame type ${type} has no payload`);
      return { type, streamId };
    case FrameType.OPEN_FAIL:
    case FrameType.RESET:
      return { type, streamId, reason: payload.toString('utf8') };
    case FrameType.DATA:
      return { type, streamId, data: payload };
    case FrameType.WINDOW:
      if (payload.length !== 4) throw new FrameError('WINDOW carries a u32 credit');
      return { type, streamId, credit: payload.readUInt32BE(0) };
    default:
      throw new FrameError(`unknown frame type ${type}`);
  }
}
