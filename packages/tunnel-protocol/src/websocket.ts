/** The multiplexer's transport over a `ws` WebSocket (server or client side). */
import type { MuxTransport } from './multiplexer.ts';

/** What is used of a `ws` WebSocket (structural, so this package does not depend on `ws`). */
export interface WebSocketLike {
  readonly bufferedAmount: number;
  readonly readyState: number;
  send(data: Buffer | string): void;
  on(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => void): unknown;
  on(event: 'close', listener: (code: number, reason: Buffer) => void): unknown;
}

const OPEN = 1;

function toBuffer(data: Buffer | ArrayBuffer | Buffer[]): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

/** Binary messages are frames, text messages control messages; sending on a socket that is not open does nothing. */
export function webSocketTransport(socket: WebSocketLike): MuxTransport {
  return {
    send: (data) => {
      if (socket.readyState === OPEN) socket.send(data);
    },
    bufferedAmount: () => socket.bufferedAmount,
    onMessage: (listener) => {
      socket.on('message', (data, isBinary) =>
        listener(isBinary ? toBuffer(data) : toBuffer(data).toString('utf8')),
      );
    },
    onClose: (listener) => {
      socket.on('close', (code, reason) => listener(reason.toString('utf8') || `code ${code}`));
    },
  };
}
