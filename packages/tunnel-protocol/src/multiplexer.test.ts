import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { Duplex } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodeFrame, FrameType, HEADER_BYTES, MAX_DATA_BYTES } from './frames.ts';
import {
  Multiplexer,
  type MultiplexerOptions,
  type MuxTransport,
  OpenFailedError,
  type OpenRequest,
  OpenTimeoutError,
  TunnelClosedError,
} from './multiplexer.ts';

/** One end of an in-memory link: messages arrive in order, asynchronously, like over a socket. */
type End = MuxTransport & { sent: (Buffer | string)[]; queued: number; close(reason: string): void };

function link(): [End, End] {
  const make = (): End & {
    deliver?: (data: Buffer | string) => void;
    closeListeners: ((r: string) => void)[];
  } => ({
    sent: [],
    queued: 0,
    closeListeners: [],
    send(data) {
      this.sent.push(data);
      this.queued += data.length;
      const size = data.length;
      setImmediate(() => {
        this.queued -= size;
        other(this).deliver?.(data);
      });
    },
    bufferedAmount() {
      return this.queued;
    },
    onMessage(listener) {
      this.deliver = listener;
    },
    onClose(listener) {
      this.closeListeners.push(listener);
    },
    close(reason) {
      setImmediate(() => {
        for (const end of [a, b]) for (const listener of end.closeListeners) listener(reason);
      });
    },
  });
  const a = make();
  const b = make();
  const other = (end: End) => (end === a ? b : a);
  return [a, b];
}

/** A server and an agent side; the agent answers OPEN with `onOpen` (default: accept and echo). */
function pair(onOpen?: (request: OpenRequest) => void, options: MultiplexerOptions = {}) {
  const [serverEnd, agentEnd] = link();
  const server = new Multiplexer(serverEnd, options);
  const agent = new Multiplexer(agentEnd, {
    ...options,
    onOpen:
      onOpen ??
      ((request) => {
        const stream = request.accept();
        stream.pipe(stream);
      }),
  });
  return { server, agent, serverEnd, agentEnd };
}

async function readAll(stream: Duplex): Promise<Buffer> {
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  await once(stream, 'end');
  return Buffer.concat(chunks);
}

function closed(stream: Duplex): Promise<unknown> {
  return stream.closed ? Promise.resolve() : once(stream, 'close');
}

const target = { host: '10.0.0.5', port: 502 };
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the multiplexer', () => {
  it('opens a stream and carries bytes both ways, in frames of at most 64 KiB', async () => {
    const { server, serverEnd } = pair();
    const stream = await server.open(target);
    const payload = randomBytes(3 * 1024 * 1024 + 17);
    const back = readAll(stream);
    stream.end(payload);
    expect((await back).equals(payload)).toBe(true);
    const sizes = serverEnd.sent.filter((m): m is Buffer => typeof m !== 'string').map((m) => m.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_DATA_BYTES + HEADER_BYTES);
  });

  it('refuses with the other side’s reason, and gives up after the timeout', async () => {
    let aborted: AbortSignal | undefined;
    const { server } = pair((request) => {
      if (request.target.port === 1) request.refuse('10.0.0.5:1 is not allowed');
      else aborted = request.signal; // never answers
    });
    await expect(server.open({ ...target, port: 1 })).rejects.toThrow(
      new OpenFailedError('10.0.0.5:1 is not allowed'),
    );
    await expect(server.open(target, { timeoutMs: 50 })).rejects.toBeInstanceOf(OpenTimeoutError);
    await tick();
    expect(aborted?.aborted).toBe(true);
    expect(server.streamCount).toBe(0);
  });

  it('half-closes: END from one side still lets the other write, and both close without RESET', async () => {
    let agentStream: Duplex | undefined;
    const { server, serverEnd, agentEnd } = pair((request) => {
      agentStream = request.accept();
    });
    const stream = await server.open(target);
    stream.end(Buffer.from('request'));
    if (!agentStream) throw new Error('no agent stream');
    const agentSide = agentStream;
    expect((await readAll(agentSide)).toString()).toBe('request');
    // The server's side is done writing, but still reads the answer.
    const answer = readAll(stream);
    agentSide.end(Buffer.from('answer after the request ended'));
    expect((await answer).toString()).toBe('answer after the request ended');
    await Promise.all([closed(stream), closed(agentSide)]);
    const types = (end: End) =>
      end.sent.filter((m): m is Buffer => typeof m !== 'string').map((m) => decodeFrame(m).type);
    expect(types(serverEnd)).not.toContain(FrameType.RESET);
    expect(types(agentEnd)).not.toContain(FrameType.RESET);
    expect(server.streamCount).toBe(0);
  });

  it('resets: destroying one side errors the other with the reason', async () => {
    let agentStream: Duplex | undefined;
    const { server } = pair((request) => {
      agentStream = request.accept();
    });
    const stream = await server.open(target);
    const failed = once(stream, 'error');
    agentStream?.on('error', () => {});
    agentStream?.destroy(new Error('connection reset by the PLC'));
    const [error] = (await failed) as [Error];
    expect(error.message).toBe('the stream was reset by the other side: connection reset by the PLC');
  });

  it('fails open streams and pending opens when the transport closes', async () => {
    let hold = false;
    const { server, agent, serverEnd } = pair((request) => {
      if (hold) return;
      request.accept().on('error', () => {});
    });
    const stream = await server.open(target);
    hold = true;
    const pending = server.open(target);
    const failed = once(stream, 'error');
    serverEnd.close('link lost');
    await expect(pending).rejects.toBeInstanceOf(TunnelClosedError);
    const [error] = (await failed) as [Error];
    expect(error.message).toBe('the tunnel closed: link lost');
    expect(server.closed && agent.closed).toBe(true);
    await expect(server.open(target)).rejects.toBeInstanceOf(TunnelClosedError);
  });

  it('pauses only the sender of a stream whose consumer does not read; the others go on; memory stays bounded', async () => {
    const window = 256 * 1024;
    const agentStreams = new Map<number, Duplex>();
    const { server } = pair(
      (request) => {
        agentStreams.set(request.target.port, request.accept());
      },
      { initialWindow: window },
    );
    const slow = await server.open({ ...target, port: 1 });
    // The slow stream's consumer does not read: the sender may put one window in flight, then waits.
    const block = Buffer.alloc(64 * 1024, 1);
    let accepted = 0;
    while (slow.write(block)) accepted += block.length;
    for (let i = 0; i < 40; i += 1) {
      slow.write(block);
      await tick();
    }
    const slowReceiver = agentStreams.get(1);
    if (!slowReceiver) throw new Error('no slow stream');
    expect(slowReceiver.readableLength).toBeLessThanOrEqual(window);
    expect(slow.writableLength).toBeGreaterThan(40 * block.length - window);
    expect((slow as unknown as { waitingForCredit: boolean }).waitingForCredit).toBe(true);

    // Meanwhile 20 other streams each carry 1 MiB (four windows) through.
    const fast = await Promise.all(
      Array.from({ length: 20 }, async (_, index) => {
        const stream = await server.open({ ...target, port: 100 + index });
        const receiver = agentStreams.get(100 + index);
        if (!receiver) throw new Error('no stream');
        const payload = randomBytes(1024 * 1024);
        const received = readAll(receiver);
        stream.end(payload);
        return (await received).equals(payload);
      }),
    );
    expect(fast.every(Boolean)).toBe(true);
    expect(slowReceiver.readableLength).toBeLessThanOrEqual(window);

    // Once its consumer reads, the slow stream delivers everything.
    slow.end();
    const all = await readAll(slowReceiver);
    expect(all.length).toBe(accepted + block.length + 40 * block.length);
  });

  it('carries 100 parallel streams of random sizes intact', async () => {
    const { server } = pair(undefined, { initialWindow: 128 * 1024 });
    const results = await Promise.all(
      Array.from({ length: 100 }, async (_, index) => {
        const stream = await server.open({ ...target, port: index + 1 });
        const payload = randomBytes(Math.floor(Math.random() * 300_000));
        const back = readAll(stream);
        for (let offset = 0; offset < payload.length; offset += 10_000)
          if (!stream.write(payload.subarray(offset, offset + 10_000))) await once(stream, 'drain');
        stream.end();
        return (await back).equals(payload);
      }),
    );
    expect(results.every(Boolean)).toBe(true);
    await tick();
    expect(server.streamCount).toBe(0);
  });

  it('waits while the transport is congested', async () => {
    const { server, serverEnd } = pair(undefined, { maxBuffered: 100 * 1024 });
    const stream = await server.open(target);
    stream.write(Buffer.alloc(512 * 1024));
    // Frames are queued only up to one batch (four frames) over the limit; the rest waits for the link to drain.
    expect(serverEnd.queued).toBeLessThanOrEqual(100 * 1024 + 4 * (MAX_DATA_BYTES + HEADER_BYTES));
    expect(serverEnd.queued).toBeLessThan(512 * 1024);
    const back = readAll(stream);
    stream.end();
    expect((await back).length).toBe(512 * 1024);
  });
});
