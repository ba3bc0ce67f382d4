import type { Duplex } from 'node:stream';
import type { RawData, WebSocket } from 'ws';

/** Bytes queued in a WebSocket before the stream feeding it is paused, and resumed below the low mark. */
const HIGH_WATER = 1024 * 1024;
const LOW_WATER = 256 * 1024;

export type RelayCounters = {
  /** Bytes that came from the WebSocket and were written to the stream. */
  toStream?: (bytes: number) => void;
  /** Bytes that came from the stream and were sent on the WebSocket. */
  fromStream?: (bytes: number) => void;
};

function bufferOf(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** A close reason fits in a control frame (123 bytes). */
function closeReason(text: string): string {
  const buffer = Buffer.from(text);
  return buffer.length <= 123
    ? text
    : buffer
        .subarray(0, 120)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
}

/** The text message that says "no more bytes from my side" (TCP half-close); bytes always travel as binary messages. */
export const END_OF_STREAM = 'end';

/**
 * Carries raw bytes between a WebSocket (binary messages) and a byte stream, both ways, with backpressure: a slow
 * reader pauses the other side instead of filling memory. Half-close passes through: the stream's end is sent as the
 * text message `end` and ends the other side's writing only, so a client that shuts down its sending still gets the
 * answer. The WebSocket closes once both directions have ended, or when either side fails. Resolves once both are
 * closed.
 */
export function relay(socket: WebSocket, stream: Duplex, counters: RelayCounters = {}): Promise<void> {
  return new Promise((resolve) => {
    let streamClosed = false;
    let socketClosed = false;
    let paused = false;
    let sentEnd = false;
    let receivedEnd = false;
    const settle = () => {
      if (streamClosed && socketClosed) resolve();
    };
    const closeWhenBothEnded = () => {
      if (sentEnd && receivedEnd && socket.readyState === socket.OPEN) socket.close(1000, 'end');
    };

    const resumeWhenDrained = () => {
      if (paused && socket.bufferedAmount < LOW_WATER) {
        paused = false;
        stream.resume();
      }
    };
    stream.on('data', (chunk: Buffer) => {
      if (socket.readyState !== socket.OPEN) return;
      counters.fromStream?.(chunk.length);
      socket.send(chunk, { binary: true }, resumeWhenDrained);
      if (socket.bufferedAmount >= HIGH_WATER) {
        paused = true;
        stream.pause();
      }
    });
    stream.on('end', () => {
      if (socket.readyState !== socket.OPEN) return;
      sentEnd = true;
      socket.send(END_OF_STREAM, { binary: false }, closeWhenBothEnded);
    });
    stream.on('error', (error: Error) => {
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING)
        socket.close(1011, closeReason(error.message));
    });
    stream.on('close', () => {
      streamClosed = true;
      if (socket.readyState === socket.OPEN) socket.close(1000, 'closed');
      settle();
    });

    socket.on('message', (data: RawData, isBinary: boolean) => {
      if (!isBinary) {
        receivedEnd = true;
        if (stream.writable) stream.end();
        closeWhenBothEnded();
        return;
      }
      const chunk = bufferOf(data);
      if (!stream.writable) return;
      counters.toStream?.(chunk.length);
      if (!stream.write(chunk)) {
        socket.pause();
        stream.once('drain', () => socket.resume());
      }
    });
    socket.on('close', () => {
      socketClosed = true;
      // What was written still goes out; then the stream's write side ends.
      if (stream.writable) stream.end();
      else if (!stream.destroyed) stream.destroy();
      // A peer that never ends its side would hold the stream open: give it a moment, then drop it.
      if (!stream.destroyed) setTimeout(() => stream.destroy(), 5_000).unref();
      settle();
    });
    socket.on('error', () => stream.destroy());
  });
}
