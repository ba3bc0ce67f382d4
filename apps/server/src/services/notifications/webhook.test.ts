import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookTarget } from './ssrf.ts';
import { postWebhook, UNREACHABLE } from './webhook.ts';

/*
 * What a delivery error tells about the port behind a webhook URL: an HTTP answer is reported with its status; every
 * other outcome — nothing listening, something that is no HTTP server, something that never answers — reads the same.
 * The local ports stand for any host: the SSRF guard is not part of this (a target is made by hand).
 */

const servers: (net.Server | http.Server)[] = [];

async function listen<T extends net.Server | http.Server>(server: T): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

function targetAt(port: number): WebhookTarget {
  const address = { address: '127.0.0.1', family: 4 as const };
  return {
    url: new URL(`http://127.0.0.1:${port}/hook`),
    host: '127.0.0.1',
    port,
    address,
    addresses: [address],
    privateOpen: false,
  };
}

async function errorAt(port: number): Promise<string> {
  try {
    await postWebhook(targetAt(port), '{}', {}, 500);
  } catch (error) {
    return (error as Error).message;
  }
  return 'delivered';
}

const ports: Record<string, number> = {};

beforeAll(async () => {
  ports.closed = await closedPort();
  ports.garbage = await listen(
    net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end('SSH-2.0-OpenSSH_9.6\r\n\0\xff garbage that is no HTTP\r\n\r\n');
    }),
  );
  ports.garbageOpen = await listen(
    net.createServer((socket) => {
      socket.on('error', () => {});
      socket.write('220 mail.example ESMTP ready\r\n');
    }),
  );
  ports.silent = await listen(
    net.createServer((socket) => {
      socket.on('error', () => {});
    }),
  );
  ports.http = await listen(http.createServer((_request, response) => response.writeHead(503).end()));
  ports.ok = await listen(http.createServer((_request, response) => response.writeHead(204).end()));
});

afterAll(async () => {
  for (const server of servers) {
    server.close();
    if ('closeAllConnections' in server) server.closeAllConnections();
  }
});

describe('webhook delivery errors', () => {
  it('read the same for a closed port, a non-HTTP service and a port that never answers', async () => {
    const errors = {
      closed: await errorAt(ports.closed as number),
      garbage: await errorAt(ports.garbage as number),
      garbageOpen: await errorAt(ports.garbageOpen as number),
      silent: await errorAt(ports.silent as number),
    };
    expect(errors).toEqual({
      closed: UNREACHABLE,
      garbage: UNREACHABLE,
      garbageOpen: UNREACHABLE,
      silent: UNREACHABLE,
    });
  });

  it('report an HTTP answer with its status, and deliver on 2xx', async () => {
    expect(await errorAt(ports.http as number)).toBe('the webhook answered HTTP 503');
    expect(await errorAt(ports.ok as number)).toBe('delivered');
  });
});
