/**
 * The plant's machine of the remote-access benchmark, in its own process (forked with an IPC channel by
 * bench/remote-access.ts): one TCP port where the first byte says what to do — 'U' + u64 length receives that many
 * bytes and answers the count (8 bytes), 'D' + u64 length sends that many bytes and ends, 'E' echoes — and one HTTP
 * port answering every request with the same page. Usage: node bench/remote-access-machine.ts <address>
 */
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Socket } from 'node:net';

const CHUNK = Buffer.alloc(64 * 1024, 0x5a);
export const PAGE = `<!doctype html><html><head><title>Machine</title></head><body><h1>bench-machine</h1>${'<p>status ok</p>'.repeat(100)}</body></html>`;

export type MachineMessage =
  | { type: 'ready'; tcpPort: number; httpPort: number }
  | { type: 'requests'; count: number };

/** Writes `total` bytes in 64 KiB chunks, waiting for 'drain' when the socket's buffer is full. */
export async function sendBytes(socket: Socket, total: number): Promise<void> {
  let sent = 0;
  while (sent < total) {
    const chunk = total - sent >= CHUNK.length ? CHUNK : CHUNK.subarray(0, total - sent);
    sent += chunk.length;
    if (!socket.write(chunk)) {
      await new Promise<void>((resolve, reject) => {
        const done = () => {
          socket.off('close', closed);
          resolve();
        };
        const closed = () => {
          socket.off('drain', done);
          reject(new Error('closed while sending'));
        };
        socket.once('drain', done);
        socket.once('close', closed);
      });
    }
  }
}

function serve(socket: Socket) {
  socket.setNoDelay(true);
  socket.on('error', () => undefined);
  socket.once('readable', function first() {
    const head = socket.read(1) as Buffer | null;
    if (!head) {
      socket.once('readable', first);
      return;
    }
    const mode = String.fromCharCode(head[0] ?? 0);
    if (mode === 'E') {
      socket.pipe(socket);
    } else if (mode === 'U') {
      // The length first, then the bytes; the answer comes when all arrived (the companion's WebSocket leg has no
      // half-close: a client that ends its side closes the whole connection).
      const readLength = () => {
        const length = socket.read(8) as Buffer | null;
        if (!length) {
          socket.once('readable', readLength);
          return;
        }
        const expected = Number(length.readBigUInt64BE());
        let received = 0;
        socket.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received >= expected) {
            const answer = Buffer.alloc(8);
            answer.writeBigUInt64BE(BigInt(received));
            socket.end(answer);
          }
        });
      };
      readLength();
    } else if (mode === 'D') {
      const readLength = () => {
        const length = socket.read(8) as Buffer | null;
        if (!length) {
          socket.once('readable', readLength);
          return;
        }
        sendBytes(socket, Number(length.readBigUInt64BE())).then(
          () => socket.end(),
          () => socket.destroy(),
        );
      };
      readLength();
    } else {
      socket.destroy();
    }
  });
}

function main() {
  const address = process.argv[2];
  if (!address || !process.send) throw new Error('usage: fork bench/remote-access-machine.ts <address>');
  const send = (message: MachineMessage) => process.send?.(message);
  let requests = 0;
  const http = createHttpServer((_request, response) => {
    requests += 1;
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(PAGE),
    });
    response.end(PAGE);
  });
  http.keepAliveTimeout = 60_000;
  const tcp = createServer(serve);
  const port = (server: { address(): unknown }) => {
    const bound = server.address();
    return typeof bound === 'object' && bound && 'port' in bound ? Number(bound.port) : 0;
  };
  tcp.listen(0, address, () =>
    http.listen(0, address, () => send({ type: 'ready', tcpPort: port(tcp), httpPort: port(http) })),
  );
  process.on('message', (message) => {
    if (message === 'requests') send({ type: 'requests', count: requests });
  });
  process.on('disconnect', () => process.exit(0));
}

if (import.meta.main) main();
