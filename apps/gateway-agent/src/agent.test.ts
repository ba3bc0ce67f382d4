import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { encodeControl, parseControl } from '@edgeport/tunnel-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { type AgentHandle, startAgent } from './agent.ts';
import { parseEdgeConfig, parseEndpoint } from './config.ts';

const config = (tunnelUrl: string) => ({
  version: 1 as const,
  server: 'http://portal.test',
  tunnelUrl,
  gatewayId: '6f1c0c1e-5a55-4b7e-9a3c-2f1f3c3d4e5f',
  secret: 's3cret',
  name: 'press-1',
  domain: 'acme',
  lanNetwork: '10.213.0.0/24',
  issuedAt: '2026-01-01T00:00:00.000Z',
});

const cleanup: (() => Promise<unknown> | undefined)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((close) => close()));
});

function server(options: ConstructorParameters<typeof WebSocketServer>[0] = {}) {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', ...options });
  cleanup.push(
    () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(resolve);
      }),
  );
  return wss;
}

function agent(url: string, extra: Partial<Parameters<typeof startAgent>[0]> = {}) {
  const lines: string[] = [];
  const handle: AgentHandle = startAgent({ config: config(url), log: (line) => lines.push(line), ...extra });
  cleanup.push(() => handle.close());
  return { handle, lines };
}

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const delays = (lines: string[]) =>
  lines.flatMap((line) => {
    const match = /^reconnecting in (\d+) ms$/.exec(line);
    return match ? [Number(match[1])] : [];
  });

describe('the gateway agent', () => {
  it('authenticates, says hello, counts itself connected on welcome', async () => {
    const wss = server();
    await once(wss, 'listening');
    const headers: (string | undefined)[] = [];
    wss.on('connection', (socket, request) => {
      headers.push(request.headers.authorization);
      socket.on('message', (data) => {
        const hello = parseControl(data.toString());
        expect(hello).toMatchObject({ type: 'hello', lanNetwork: '10.213.0.0/24' });
        socket.send(encodeControl({ type: 'welcome', gatewayId: 'g', name: 'press-1', lanNetwork: null }));
      });
    });
    const { handle, lines } = agent(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/tunnel`, {
      endpoints: [parseEndpoint('hmi=10.213.0.5:80/http')],
    });
    expect(handle.isConnected()).toBe(false);
    await handle.whenConnected();
    expect(handle.isConnected()).toBe(true);
    expect(headers).toEqual(['Gateway 6f1c0c1e-5a55-4b7e-9a3c-2f1f3c3d4e5f:s3cret']);
    expect(lines).toContain('connected as gateway press-1 (g), LAN 10.213.0.0/24');
    await handle.close();
    await expect(handle.whenConnected()).rejects.toThrow('the agent is closed');
  });

  it('reconnects with exponential backoff and jitter while the server is unreachable', async () => {
    const wss = server();
    await once(wss, 'listening');
    const port = (wss.address() as AddressInfo).port;
    await new Promise((resolve) => wss.close(resolve));
    const { lines } = agent(`ws://127.0.0.1:${port}/tunnel`, { minBackoffMs: 20, maxBackoffMs: 160 });
    await until(() => delays(lines).length >= 6);
    const seen = delays(lines).slice(0, 6);
    const bases = [20, 40, 80, 160, 160, 160];
    seen.forEach((delay, index) => {
      const base = bases[index] ?? 0;
      expect(delay).toBeGreaterThanOrEqual(Math.floor(base * 0.8));
      expect(delay).toBeLessThanOrEqual(Math.ceil(base * 1.2));
    });
  });

  it('says clearly when its credentials are refused, and retries at the slowest pace', async () => {
    const wss = server({ verifyClient: (_info, done) => done(false, 401, 'Unauthorized') });
    await once(wss, 'listening');
    const { handle, lines } = agent(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/tunnel`, {
      minBackoffMs: 10,
      maxBackoffMs: 1000,
    });
    await until(() => delays(lines).length >= 1);
    expect(lines).toContain('the gateway credentials were refused: fetch a new edge configuration file');
    expect(delays(lines)[0]).toBeGreaterThanOrEqual(800);
    expect(handle.isConnected()).toBe(false);
  });

  it('treats a missing pong as a dead link and reconnects', async () => {
    const wss = server({ autoPong: false });
    await once(wss, 'listening');
    let connections = 0;
    wss.on('connection', (socket) => {
      connections += 1;
      socket.on('message', () =>
        socket.send(encodeControl({ type: 'welcome', gatewayId: 'g', name: 'press-1', lanNetwork: null })),
      );
    });
    const { handle, lines } = agent(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}/tunnel`, {
      minBackoffMs: 10,
      pingIntervalMs: 30,
      pongTimeoutMs: 60,
    });
    await handle.whenConnected();
    await until(() => connections >= 2);
    expect(lines).toContain('no pong from the server within 0.06 s: the link is dead');
  });
});

describe('TLS', () => {
  it('connects to a wss: URL, checking the server certificate against the given CA', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'edgeport-agent-tls-'));
    cleanup.push(() => rm(dir, { recursive: true, force: true }));
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ]);
    const cert = await readFile(path.join(dir, 'cert.pem'));
    const https = createServer({ cert, key: await readFile(path.join(dir, 'key.pem')) });
    const wss = new WebSocketServer({ server: https });
    wss.on('connection', (socket) =>
      socket.on('message', () =>
        socket.send(encodeControl({ type: 'welcome', gatewayId: 'g', name: 'press-1', lanNetwork: null })),
      ),
    );
    https.listen(0, '127.0.0.1');
    await once(https, 'listening');
    cleanup.push(
      () =>
        new Promise((resolve) => {
          for (const client of wss.clients) client.terminate();
          https.close(resolve);
        }),
    );
    const url = `wss://127.0.0.1:${(https.address() as AddressInfo).port}/tunnel`;
    const untrusted = agent(url, { minBackoffMs: 5000 });
    await until(() => untrusted.lines.some((line) => line.startsWith('tunnel error:')));
    expect(untrusted.lines.find((line) => line.startsWith('tunnel error:'))).toMatch(
      /self-signed certificate/,
    );
    const trusted = agent(url, { tls: { ca: cert } });
    await trusted.handle.whenConnected();
    expect(trusted.handle.isConnected()).toBe(true);
  });
});

describe('the edge configuration file and endpoints', () => {
  it('reads the file the portal issues', () => {
    const parsed = parseEdgeConfig(JSON.stringify(config('wss://portal.test/tunnel')));
    expect(parsed).toEqual(config('wss://portal.test/tunnel'));
    expect(() => parseEdgeConfig('{')).toThrow('not JSON');
    expect(() => parseEdgeConfig(JSON.stringify({ ...config('http://x'), version: 1 }))).toThrow(
      'ws: or wss:',
    );
    expect(() => parseEdgeConfig(JSON.stringify({ ...config('ws://x'), secret: '' }))).toThrow('no secret');
  });

  it('parses --endpoint name=address:port/PROTOCOL', () => {
    expect(parseEndpoint('hmi=192.168.10.5:443/https')).toEqual({
      name: 'hmi',
      address: '192.168.10.5',
      protocol: 'HTTPS',
      port: 443,
    });
    expect(parseEndpoint('plc=192.168.10.6:502')).toMatchObject({ protocol: 'TCP', port: 502 });
    expect(() => parseEndpoint('plc=192.168.10.6')).toThrow('name=address:port/PROTOCOL');
    expect(() => parseEndpoint('plc=192.168.10.6:21/FTP')).toThrow('HTTP, HTTPS, TCP');
    expect(() => parseEndpoint('plc=192.168.10.6:70000')).toThrow('1..65535');
  });

  it('refuses a LAN that is not one', () => {
    expect(() =>
      startAgent({ config: config('ws://127.0.0.1:1/tunnel'), lanNetwork: '127.0.0.0/8' }),
    ).toThrow("lanNetwork: '127.0.0.0/8' is not a plant LAN");
  });
});
