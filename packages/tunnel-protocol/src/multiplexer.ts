/**
 * TCP streams multiplexed over one message transport (the tunnel WebSocket), each a Node `Duplex`.
 *
 * Flow control is per stream and credit based: a side may have at most `initialWindow` bytes of a stream in flight
 * that the other side's consumer has not read yet. The receiver returns credit (WINDOW) as its consumer reads — for
 * a stream piped into a socket, as the socket accepts the bytes — so a slow consumer pauses only its own sender, and
 * a tunnel holds at most one window per stream in memory. On top of that, writers wait while the transport itself
 * has more than `maxBuffered` bytes queued (a slow link).
 *
 * Streams are opened by one side (the server) with `open()`; the other side (the agent) answers through `onOpen`.
 */
import { Duplex } from 'node:stream';
import { type ControlMessage, encodeControl, parseControl } from './control.ts';
import {
  decodeFrame,
  encodeDataFrames,
  encodeFrame,
  type Frame,
  FrameType,
  INITIAL_WINDOW,
  MAX_DATA_BYTES,
  MAX_STREAM_ID,
  type TunnelTarget,
} from './frames.ts';

/** What the multiplexer needs of a message transport (a WebSocket: binary and text messages, in order). */
export interface MuxTransport {
  send(data: Buffer | string): void;
  /** Bytes queued in the transport and not yet written out; writers wait while it is above `maxBuffered`. */
  bufferedAmount?(): number;
  onMessage(listener: (data: Buffer | string) => void): void;
  onClose(listener: (reason: string) => void): void;
}

/** A stream the other side asks to open (agent side). Answer once: `accept()` or `refuse(reason)`. */
export interface OpenRequest {
  readonly streamId: number;
  readonly target: TunnelTarget;
  /** Aborted when the opener gives up (timeout, reset) or the tunnel closes before the answer. */
  readonly signal: AbortSignal;
  accept(): TunnelStream;
  refuse(reason: string): void;
}

/** Bytes a writer sends between two checks of the transport's queue (one allocation for their frames). */
const BATCH_BYTES = 4 * MAX_DATA_BYTES;

export type MultiplexerOptions = {
  /** Streams the other side opens; without it every OPEN is refused. */
  onOpen?: (request: OpenRequest) => void;
  /** Text messages. */
  onControl?: (message: ControlMessage) => void;
  /** A malformed frame or message: the owner should close the transport (default: the multiplexer fails). */
  onProtocolError?: (error: Error) => void;
  /** Bytes of a stream in flight without credit (both directions). Default 1 MiB. */
  initialWindow?: number;
  /** Transport bytes queued above which writers wait. Default 8 MiB. */
  maxBuffered?: number;
};

/** The tunnel closed (or was closed) before or while the stream was open. */
export class TunnelClosedError extends Error {}
/** The other side refused to open the stream; the message is its reason. */
export class OpenFailedError extends Error {}
/** The other side did not answer an OPEN in time. */
export class OpenTimeoutError extends Error {}

type PendingOpen = {
  resolve: (stream: TunnelStream) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
};
type PendingWrite = { chunk: Buffer; offset: number; callback: (error?: Error | null) => void };

/** One TCP stream through the tunnel. `end()` half-closes it (END); `destroy()` resets it (RESET). */
export class TunnelStream extends Duplex {
  readonly streamId: number;
  readonly target: TunnelTarget;
  readonly #mux: Multiplexer;
  readonly #window: number;
  #credit: number;
  #received = 0;
  #credited = 0;
  #sent = 0;
  #pending: PendingWrite | undefined;
  #localEnded = false;
  #remoteEnded = false;
  #resetByPeer = false;

  constructor(mux: Multiplexer, streamId: number, target: TunnelTarget, window: number) {
    super({
      allowHalfOpen: true,
      readableHighWaterMark: Math.min(MAX_DATA_BYTES, Math.floor(window / 4)),
      writableHighWaterMark: MAX_DATA_BYTES,
    });
    this.#mux = mux;
    this.streamId = streamId;
    this.target = target;
    this.#window = window;
    this.#credit = window;
  }

  /** Bytes received from the other side. */
  get bytesReceived(): number {
    return this.#received;
  }

  /** Bytes sent to the other side. */
  get bytesSent(): number {
    return this.#sent;
  }

  /** Whether writing waits for credit from the other side (its consumer is not reading). */
  get waitingForCredit(): boolean {
    return this.#pending !== undefined && this.#credit === 0;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.#pending = { chunk, offset: 0, callback };
    this.pump();
  }

  override _writev(
    chunks: { chunk: Buffer; encoding: BufferEncoding }[],
    callback: (error?: Error | null) => void,
  ): void {
    const chunk =
      chunks.length === 1 && chunks[0] ? chunks[0].chunk : Buffer.concat(chunks.map((c) => c.chunk));
    this._write(chunk, 'binary', callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.#mux.closed) {
      callback(new TunnelClosedError('the tunnel is closed'));
      return;
    }
    this.#localEnded = true;
    this.#mux.sendFrame({ type: FrameType.END, streamId: this.streamId });
    callback();
  }

  override _read(): void {
    if (this.#remoteEnded) return;
    const consumed = this.#received - this.readableLength - this.#credited;
    if (consumed > 0 && consumed >= this.#window / 4) {
      this.#credited += consumed;
      this.#mux.sendFrame({ type: FrameType.WINDOW, streamId: this.streamId, credit: consumed });
    }
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#pending = undefined;
    const clean = this.#localEnded && this.#remoteEnded;
    this.#mux.forget(this);
    if (!clean && !this.#resetByPeer && !this.#mux.closed)
      this.#mux.sendFrame({
        type: FrameType.RESET,
        streamId: this.streamId,
        reason: error?.message ?? 'closed',
      });
    callback(error);
  }

  /** Sends what credit and the transport allow of the pending write (internal). */
  pump(): void {
    const pending = this.#pending;
    if (!pending || this.destroyed) return;
    while (pending.offset < pending.chunk.length && this.#credit > 0) {
      if (this.#mux.congested()) {
        this.#mux.waitForDrain(this);
        return;
      }
      // What credit allows, up to BATCH_BYTES, as DATA frames of at most MAX_DATA_BYTES built in one allocation.
      const bytes = Math.min(pending.chunk.length - pending.offset, this.#credit, BATCH_BYTES);
      for (const frame of encodeDataFrames(
        this.streamId,
        pending.chunk.subarray(pending.offset, pending.offset + bytes),
      ))
        this.#mux.sendRaw(frame);
      pending.offset += bytes;
      this.#credit -= bytes;
      this.#sent += bytes;
    }
    if (pending.offset === pending.chunk.length) {
      this.#pending = undefined;
      pending.callback();
    }
  }

  /** A frame for this stream (internal). */
  receive(frame: Frame): void {
    switch (frame.type) {
      case FrameType.DATA: {
        if (this.#remoteEnded) {
          this.destroy(new Error('protocol error: DATA after END'));
          return;
        }
        if (this.#received + frame.data.length - this.#credited > this.#window) {
          this.destroy(new Error('protocol error: the other side sent beyond its credit'));
          return;
        }
        this.#received += frame.data.length;
        this.push(frame.data);
        return;
      }
      case FrameType.WINDOW:
        this.#credit += frame.credit;
        this.pump();
        return;
      case FrameType.END:
        this.#remoteEnded = true;
        this.push(null);
        return;
      case FrameType.RESET:
        this.#resetByPeer = true;
        this.destroy(
          new Error(`the stream was reset by the other side: ${frame.reason || 'no reason given'}`),
        );
        return;
      default:
        this.destroy(new Error(`protocol error: unexpected frame type ${frame.type} on an open stream`));
    }
  }
}

/** One side of a tunnel: the streams over one transport, and its control messages. */
export class Multiplexer {
  readonly #transport: MuxTransport;
  readonly #options: MultiplexerOptions;
  readonly #window: number;
  readonly #maxBuffered: number;
  readonly #streams = new Map<number, TunnelStream>();
  readonly #opening = new Map<number, PendingOpen>();
  readonly #requests = new Map<number, AbortController>();
  readonly #drainWaiters = new Set<TunnelStream>();
  #drainTimer: NodeJS.Timeout | undefined;
  #nextId = 1;
  #closed: string | undefined;

  constructor(transport: MuxTransport, options: MultiplexerOptions = {}) {
    this.#transport = transport;
    this.#options = options;
    this.#window = options.initialWindow ?? INITIAL_WINDOW;
    this.#maxBuffered = options.maxBuffered ?? 8 * 1024 * 1024;
    transport.onMessage((data) => this.#receive(data));
    transport.onClose((reason) => this.close(reason));
  }

  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /** Streams open now (including those being opened). */
  get streamCount(): number {
    return this.#streams.size + this.#requests.size;
  }

  /** Opens a stream to `target` on the other side; rejects with the other side's reason, or after `timeoutMs`. */
  open(target: TunnelTarget, { timeoutMs = 10_000 }: { timeoutMs?: number } = {}): Promise<TunnelStream> {
    if (this.#closed) return Promise.reject(new TunnelClosedError(`the tunnel is closed: ${this.#closed}`));
    const streamId = this.#allocateId();
    const stream = new TunnelStream(this, streamId, target, this.#window);
    this.#streams.set(streamId, stream);
    return new Promise<TunnelStream>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#opening.delete(streamId);
        this.#streams.delete(streamId);
        this.sendFrame({ type: FrameType.RESET, streamId, reason: 'open timed out' });
        reject(new OpenTimeoutError(`no answer from the gateway within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      this.#opening.set(streamId, { resolve, reject, timer });
      this.sendFrame({ type: FrameType.OPEN, streamId, target });
    });
  }

  sendControl(message: ControlMessage): void {
    if (!this.#closed) this.#transport.send(encodeControl(message));
  }

  /** Fails every stream and pending open (the transport closed); later calls do nothing. */
  close(reason: string): void {
    if (this.#closed) return;
    this.#closed = reason || 'closed';
    clearTimeout(this.#drainTimer);
    this.#drainWaiters.clear();
    const error = () => new TunnelClosedError(`the tunnel closed: ${this.#closed}`);
    for (const [streamId, pending] of this.#opening) {
      clearTimeout(pending.timer);
      this.#streams.delete(streamId);
      pending.reject(error());
    }
    this.#opening.clear();
    for (const controller of this.#requests.values()) controller.abort(error());
    this.#requests.clear();
    for (const stream of [...this.#streams.values()]) stream.destroy(error());
    this.#streams.clear();
  }

  // --- internal (used by TunnelStream) ---------------------------------------------------------------------------

  sendFrame(frame: Frame): void {
    if (!this.#closed) this.#transport.send(encodeFrame(frame));
  }

  sendRaw(frame: Buffer): void {
    if (!this.#closed) this.#transport.send(frame);
  }

  forget(stream: TunnelStream): void {
    if (this.#streams.get(stream.streamId) === stream) this.#streams.delete(stream.streamId);
    this.#drainWaiters.delete(stream);
  }

  congested(): boolean {
    return (this.#transport.bufferedAmount?.() ?? 0) > this.#maxBuffered;
  }

  waitForDrain(stream: TunnelStream): void {
    this.#drainWaiters.add(stream);
    if (this.#drainTimer === undefined) this.#drainTimer = setTimeout(() => this.#checkDrain(), 2);
  }

  #checkDrain(): void {
    this.#drainTimer = undefined;
    if (this.#closed) return;
    if ((this.#transport.bufferedAmount?.() ?? 0) > this.#maxBuffered / 2) {
      this.#drainTimer = setTimeout(() => this.#checkDrain(), 2);
      return;
    }
    const waiters = [...this.#drainWaiters];
    this.#drainWaiters.clear();
    for (const stream of waiters) stream.pump();
  }

  #allocateId(): number {
    for (;;) {
      const id = this.#nextId;
      this.#nextId = id >= MAX_STREAM_ID ? 1 : id + 1;
      if (!this.#streams.has(id)) return id;
    }
  }

  #protocolError(error: Error): void {
    if (this.#options.onProtocolError) this.#options.onProtocolError(error);
    else this.close(`protocol error: ${error.message}`);
  }

  #receive(data: Buffer | string): void {
    if (this.#closed) return;
    if (typeof data === 'string') {
      let message: ControlMessage;
      try {
        message = parseControl(data);
      } catch (error) {
        this.#protocolError(error as Error);
        return;
      }
      this.#options.onControl?.(message);
      return;
    }
    let frame: Frame;
    try {
      frame = decodeFrame(data);
    } catch (error) {
      this.#protocolError(error as Error);
      return;
    }
    switch (frame.type) {
      case FrameType.OPEN:
        this.#requested(frame.streamId, frame.target);
        return;
      case FrameType.OPEN_OK:
      case FrameType.OPEN_FAIL:
        this.#answered(frame);
        return;
      default: {
        const request = this.#requests.get(frame.streamId);
        if (request && frame.type === FrameType.RESET) {
          this.#requests.delete(frame.streamId);
          request.abort(new Error(`the opener gave up: ${frame.reason}`));
          return;
        }
        // Frames of a stream already gone (data in flight when it was reset) are dropped.
        this.#streams.get(frame.streamId)?.receive(frame);
      }
    }
  }

  #answered(frame: Frame & { type: typeof FrameType.OPEN_OK | typeof FrameType.OPEN_FAIL }): void {
    const pending = this.#opening.get(frame.streamId);
    if (!pending) {
      // An answer after we gave up: make sure the other side drops the stream.
      if (frame.type === FrameType.OPEN_OK)
        this.sendFrame({ type: FrameType.RESET, streamId: frame.streamId, reason: 'open timed out' });
      return;
    }
    clearTimeout(pending.timer);
    this.#opening.delete(frame.streamId);
    const stream = this.#streams.get(frame.streamId);
    if (frame.type === FrameType.OPEN_OK && stream) {
      pending.resolve(stream);
      return;
    }
    this.#streams.delete(frame.streamId);
    pending.reject(
      frame.type === FrameType.OPEN_FAIL
        ? new OpenFailedError(frame.reason || 'the gateway refused the stream')
        : new TunnelClosedError('the stream was closed'),
    );
  }

  #requested(streamId: number, target: TunnelTarget): void {
    if (this.#streams.has(streamId) || this.#requests.has(streamId)) {
      this.#protocolError(new Error(`OPEN of stream ${streamId}, which is open`));
      return;
    }
    const onOpen = this.#options.onOpen;
    if (!onOpen) {
      this.sendFrame({ type: FrameType.OPEN_FAIL, streamId, reason: 'this side does not accept streams' });
      return;
    }
    const controller = new AbortController();
    this.#requests.set(streamId, controller);
    let answered = false;
    const answer = () => {
      if (answered) throw new Error(`stream ${streamId} was already answered`);
      answered = true;
      const current = this.#requests.get(streamId) === controller;
      this.#requests.delete(streamId);
      return current && !this.#closed;
    };
    onOpen({
      streamId,
      target,
      signal: controller.signal,
      accept: () => {
        const live = answer();
        const stream = new TunnelStream(this, streamId, target, this.#window);
        if (!live) {
          stream.destroy(new TunnelClosedError('the opener gave up or the tunnel closed'));
          return stream;
        }
        this.#streams.set(streamId, stream);
        this.sendFrame({ type: FrameType.OPEN_OK, streamId });
        return stream;
      },
      refuse: (reason) => {
        if (answer()) this.sendFrame({ type: FrameType.OPEN_FAIL, streamId, reason });
      },
    });
  }
}
