import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { vpn } from '@edgeport/contract';
import { type AgentHandle, startAgent } from '@edgeport/gateway-agent';
import websocket from '@fastify/websocket';
import { eq } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { ensureTestLan } from '../../test/support/test-lan.ts';
import { gatewayLogs, gateways, vpnEndpoints } from '../db/schema.ts';
import { createDevice } from '../services/core/devices/provisioning.ts';
import { createOrganization } from '../services/core/organizations/provisioning.ts';
import { tunnelRoutes } from './routes.ts';
import { TunnelHub, TunnelOpenError } from './tunnel-hub.ts';

let server: TestServer;
let origin: string;
let lan: { address: string; lanNetwork: string };
let echo: net.Server;
let echoPort: number;
const agents: AgentHandle[] = [];

type Gateway = { id: string; organizationId: string; config: vpn.EdgeConfigFile };

async function seedGateway(name: string, lanNetwork: string | null = null): Promise<Gateway> {
  const { db } = server.database;
  const org = await createOrganization(db, { realm: 'tunnel', name: `Org ${name}` });
  const device = await createDevice(db, org.id, name);
  const secret = randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(gateways)
    .values({
      organizationId: org.id,
      deviceId: device.id,
      name,
      lanNetwork,
      agentSecretHash: createHash('sha256').update(secret).digest('hex'),
    })
    .returning();
  if (!row) throw new Error('no gateway');
  const config: vpn.EdgeConfigFile = {
    version: 1,
    server: origin,
    tunnelUrl: `${origin.replace(/^http/, 'ws')}/tunnel`,
    gatewayId: row.id,
    secret,
    name,
    domain: org.resourceId,
    lanNetwork,
    issuedAt: new Date().toISOString(),
  };
  return { id: row.id, organizationId: org.id, config };
}

function agentFor(gateway: Gateway, extra: Partial<Parameters<typeof startAgent>[0]> = {}): AgentHandle {
  const agent = startAgent({ config: gateway.config, minBackoffMs: 50, maxBackoffMs: 200, ...extra });
  agents.push(agent);
  return agent;
}

async function gatewayRow(id: string) {
  const [row] = await server.database.db.select().from(gateways).where(eq(gateways.id, id));
  if (!row) throw new Error('no gateway');
  return row;
}

async function logsOf(id: string): Promise<string[]> {
  const rows = await server.database.db
    .select()
    .from(gatewayLogs)
    .where(eq(gatewayLogs.gatewayId, id))
    .orderBy(gatewayLogs.id);
  return rows.map((row) => `${row.level}${row.system ? ' system' : ''}: ${row.message}`);
}

async function until<T>(read: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Writes `data` to the stream and reads back as many bytes. */
async function echoThrough(stream: Duplex, data: Buffer): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let received = 0;
  const done = new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= data.length) resolve();
    });
    stream.on('error', reject);
  });
  stream.end(data);
  await done;
  return Buffer.concat(chunks);
}

/** An HTTP upgrade request to `url` (a data connection): the socket on 101, else the status and body. */
function upgradeRequest(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string; socket?: net.Socket }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, {
      agent: false,
      headers: { connection: 'Upgrade', upgrade: 'edgeport-stream', ...headers },
    });
    request.on('upgrade', (_response, socket: net.Socket) => resolve({ status: 101, body: '', socket }));
    request.on('response', async (response) => {
      let body = '';
      for await (const chunk of response) body += String(chunk);
      resolve({ status: response.statusCode ?? 0, body });
    });
    request.on('error', reject);
    request.end();
  });
}

beforeAll(async () => {
  lan = await ensureTestLan();
  echo = net.createServer({ allowHalfOpen: true }, (socket) => {
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  echo.listen(0, lan.address);
  await once(echo, 'listening');
  echoPort = (echo.address() as net.AddressInfo).port;
  server = await startTestServer();
  await server.app.realms.create('tunnel', 'TUNNEL');
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  origin = `http://127.0.0.1:${(server.app.server.address() as net.AddressInfo).port}`;
});

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  await server?.close();
  echo?.close();
});

describe('the gateway tunnel', () => {
  let gateway: Gateway;
  let agent: AgentHandle;
  const lines: string[] = [];

  beforeAll(async () => {
    gateway = await seedGateway('press-1');
    agent = agentFor(gateway, {
      lanNetwork: lan.lanNetwork,
      endpoints: [
        { name: 'echo', address: lan.address, protocol: 'TCP', port: 7 },
        { name: 'router', address: '127.0.0.1', protocol: 'HTTP', port: 80 },
      ],
      log: (line) => lines.push(line),
    });
    await agent.whenConnected();
  });

  it('registers the gateway: ONLINE, agent version and address, LAN and endpoints reported, logged', async () => {
    expect(server.app.tunnels.isOnline(gateway.id)).toBe(true);
    const row = await gatewayRow(gateway.id);
    expect(row).toMatchObject({ status: 'ONLINE', agentVersion: '0.1.0', lanNetwork: lan.lanNetwork });
    expect(row.agentAddress).toMatch(/127\.0\.0\.1/);
    expect(row.connectedAt).toBeInstanceOf(Date);
    const logs = await logsOf(gateway.id);
    expect(logs).toContain(`INFO: Tunnel connected from ${row.agentAddress} (agent 0.1.0)`);
    expect(logs).toContain(`INFO system: LAN network ${lan.lanNetwork} reported by the agent`);
    expect(logs.some((line) => line.startsWith('WARN: Endpoint router (127.0.0.1:80/HTTP)'))).toBe(true);
    const endpoints = await server.database.db
      .select()
      .from(vpnEndpoints)
      .where(eq(vpnEndpoints.gatewayId, gateway.id));
    expect(endpoints.map((e) => [e.name, e.address, e.port, e.source])).toEqual([
      ['echo', lan.address, 7, 'AGENT'],
    ]);
    expect(lines.some((line) => line.startsWith('connected as gateway press-1'))).toBe(true);
  });

  it('carries a TCP stream to a LAN machine', async () => {
    const stream = await server.app.tunnels.openStream(gateway.id, { host: lan.address, port: echoPort });
    const back = await echoThrough(stream, Buffer.from('hello plant'));
    expect(back.toString()).toBe('hello plant');
  });

  it('carries 50 parallel streams of 1 MiB each, intact', async () => {
    const payloads = Array.from({ length: 50 }, () => randomBytes(1024 * 1024));
    const results = await Promise.all(
      payloads.map(async (payload) => {
        const stream = await server.app.tunnels.openStream(gateway.id, { host: lan.address, port: echoPort });
        return echoThrough(stream, payload);
      }),
    );
    results.forEach((back, index) => {
      expect(back.equals(payloads[index] as Buffer)).toBe(true);
    });
    await until(
      async () => server.app.tunnels.stats().streams,
      (count) => count === 0,
    );
    expect(server.app.tunnels.stats().streams).toBe(0);
  });

  it('fails a stream the agent refuses (outside its LAN) or cannot reach, with the agent’s reason', async () => {
    await expect(
      server.app.tunnels.openStream(gateway.id, { host: '127.0.0.1', port: echoPort }),
    ).rejects.toThrow('127.0.0.1 is in a forbidden range');
    await expect(server.app.tunnels.openStream(gateway.id, { host: '10.9.9.9', port: 22 })).rejects.toThrow(
      "10.9.9.9 is outside the gateway's LAN 10.213.0.0/24",
    );
    const closed = net.createServer();
    closed.listen(0, lan.address);
    await once(closed, 'listening');
    const port = (closed.address() as net.AddressInfo).port;
    closed.close();
    await expect(server.app.tunnels.openStream(gateway.id, { host: lan.address, port })).rejects.toThrow(
      `cannot connect to ${lan.address}:${port}: connection refused (ECONNREFUSED)`,
    );
    expect(lines.some((line) => line.startsWith('refused a stream to 127.0.0.1'))).toBe(true);
  });

  it('measures one large stream through the tunnel next to a direct connection (reported, not asserted)', async () => {
    const total = 200 * 1024 * 1024;
    const chunk = randomBytes(1024 * 1024);
    const sink = net.createServer((socket) => {
      socket.resume();
      socket.on('end', () => socket.end());
    });
    sink.listen(0, lan.address);
    await once(sink, 'listening');
    const port = (sink.address() as net.AddressInfo).port;
    const pump = async (stream: Duplex) => {
      const started = process.hrtime.bigint();
      for (let sent = 0; sent < total; sent += chunk.length)
        if (!stream.write(chunk)) await once(stream, 'drain');
      stream.end();
      stream.resume();
      await once(stream, 'close');
      return Number(process.hrtime.bigint() - started) / 1e9;
    };
    const direct = await pump(net.connect({ host: lan.address, port }));
    const tunnelled = await pump(
      await server.app.tunnels.openStream(gateway.id, { host: lan.address, port }),
    );
    sink.close();
    const rate = (seconds: number) => (total / 1024 / 1024 / seconds).toFixed(0);
    console.log(
      `200 MiB one way: direct ${rate(direct)} MiB/s, through the tunnel ${rate(tunnelled)} MiB/s ` +
        `(${((direct / tunnelled) * 100).toFixed(0)}% of direct)`,
    );
  }, 120_000);

  it('reconnects by itself after a reset from the portal, and new streams work', async () => {
    expect(server.app.tunnels.disconnect(gateway.id, 'reset by a test')).toBe(true);
    await until(
      async () => server.app.tunnels.isOnline(gateway.id),
      (online) => !online,
    );
    await until(
      async () => agent.isConnected(),
      (connected) => connected,
    );
    await agent.whenConnected();
    expect(server.app.tunnels.isOnline(gateway.id)).toBe(true);
    const stream = await server.app.tunnels.openStream(gateway.id, { host: lan.address, port: echoPort });
    expect((await echoThrough(stream, Buffer.from('again'))).toString()).toBe('again');
    const logs = await until(
      () => logsOf(gateway.id),
      (all) => all.filter((line) => line.includes('Tunnel connected')).length === 2,
    );
    expect(logs).toContain('INFO: Tunnel disconnected: reset: reset by a test');
    expect(logs.filter((line) => line.includes('Tunnel connected'))).toHaveLength(2);
    expect(lines).toContain('disconnected (4000 reset)');
    expect(server.app.tunnels.disconnect('00000000-0000-4000-8000-000000000000', 'nothing')).toBe(false);
  });

  it('a second agent with the same credentials replaces the first', async () => {
    const second = agentFor(gateway, { lanNetwork: lan.lanNetwork });
    await second.whenConnected();
    await until(
      async () => agent.isConnected(),
      (connected) => !connected,
    );
    expect(agent.isConnected()).toBe(false);
    const stream = await server.app.tunnels.openStream(gateway.id, { host: lan.address, port: echoPort });
    expect((await echoThrough(stream, Buffer.from('second'))).toString()).toBe('second');
    expect(await logsOf(gateway.id)).toContain(
      'INFO system: Tunnel disconnected: replaced by a new connection from 127.0.0.1',
    );
    // When the second stops, the first (retrying slowly meanwhile) takes over again.
    await second.close();
    await until(
      async () => agent.isConnected(),
      (connected) => connected,
    );
    const row = await until(
      () => gatewayRow(gateway.id),
      (current) => current.status === 'ONLINE',
    );
    expect(row.status).toBe('ONLINE');
  });

  it('goes OFFLINE when the agent stops', async () => {
    await agent.whenConnected();
    await agent.close();
    const row = await until(
      () => gatewayRow(gateway.id),
      (current) => current.status === 'OFFLINE',
    );
    expect(row.status).toBe('OFFLINE');
    expect(server.app.tunnels.isOnline(gateway.id)).toBe(false);
    await expect(
      server.app.tunnels.openStream(gateway.id, { host: lan.address, port: echoPort }),
    ).rejects.toThrow('the gateway is not connected');
    expect((await logsOf(gateway.id)).at(-1)).toBe(
      'INFO: Tunnel disconnected: the agent closed the tunnel (agent stopped)',
    );
  });
});

describe('raw data connections (openDataConnection, the companion CLI path)', () => {
  let gateway: Gateway;
  let agent: AgentHandle;
  const lines: string[] = [];

  beforeAll(async () => {
    gateway = await seedGateway('press-data');
    agent = agentFor(gateway, { lanNetwork: lan.lanNetwork, log: (line) => lines.push(line) });
    await agent.whenConnected();
  });

  it('carries bytes both ways outside the multiplexed tunnel, with half-close, and counts as a stream', async () => {
    const payload = randomBytes(4 * 1024 * 1024);
    const socket = await server.app.tunnels.openDataConnection(gateway.id, {
      host: lan.address,
      port: echoPort,
    });
    expect(server.app.tunnels.stats().streams).toBe(1);
    // echoThrough ends our side first: the echo of everything still comes back.
    expect((await echoThrough(socket, payload)).equals(payload)).toBe(true);
    await until(
      async () => server.app.tunnels.stats().streams,
      (count) => count === 0,
    );
    expect(server.app.tunnels.stats().streams).toBe(0);
  });

  it('fails with the agent’s reason for a refused or unreachable target (connect-failed)', async () => {
    await expect(
      server.app.tunnels.openDataConnection(gateway.id, { host: '127.0.0.1', port: echoPort }),
    ).rejects.toThrow('127.0.0.1 is in a forbidden range');
    const closed = net.createServer();
    closed.listen(0, lan.address);
    await once(closed, 'listening');
    const port = (closed.address() as net.AddressInfo).port;
    closed.close();
    const failure = server.app.tunnels.openDataConnection(gateway.id, { host: lan.address, port });
    await expect(failure).rejects.toThrow(
      `cannot connect to ${lan.address}:${port}: connection refused (ECONNREFUSED)`,
    );
    await expect(failure).rejects.toMatchObject({ kind: 'refused' });
    expect(lines.some((line) => line.startsWith('refused a connection to 127.0.0.1'))).toBe(true);
  });

  it('breaks open data connections when the tunnel goes down', async () => {
    const socket = await server.app.tunnels.openDataConnection(gateway.id, {
      host: lan.address,
      port: echoPort,
    });
    let broken: Error | undefined;
    socket.on('error', (error) => (broken = error));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.write('hello');
    await once(socket, 'data');
    expect(server.app.tunnels.disconnect(gateway.id, 'reset by a test')).toBe(true);
    await closed;
    expect(broken?.message).toBe('the tunnel closed: reset: reset by a test');
    await agent.whenConnected();
    await until(
      async () => server.app.tunnels.isOnline(gateway.id),
      (online) => online,
    );
  });

  it('rejects like openStream when the gateway is offline', async () => {
    await agent.close();
    await until(
      async () => server.app.tunnels.isOnline(gateway.id),
      (online) => !online,
    );
    const offline = server.app.tunnels.openDataConnection(gateway.id, { host: lan.address, port: echoPort });
    await expect(offline).rejects.toThrow('the gateway is not connected');
    await expect(offline).rejects.toBeInstanceOf(TunnelOpenError);
  });
});

describe('agent credentials', () => {
  it('refuses a wrong secret before the upgrade: never connected, logged as refused', async () => {
    const gateway = await seedGateway('press-2', lan.lanNetwork);
    const lines: string[] = [];
    const agent = agentFor(
      { ...gateway, config: { ...gateway.config, secret: 'not-the-secret' } },
      { log: (line) => lines.push(line), minBackoffMs: 5000, maxBackoffMs: 5000 },
    );
    await until(
      async () => lines,
      (all) => all.some((line) => line.includes('credentials were refused')),
    );
    expect(lines).toContain('the gateway credentials were refused: fetch a new edge configuration file');
    expect(agent.isConnected()).toBe(false);
    await agent.close();
    const row = await gatewayRow(gateway.id);
    expect(row).toMatchObject({ status: 'OFFLINE', connectedAt: null, agentVersion: null });
    const logs = await until(
      () => logsOf(gateway.id),
      (all) => all.length > 0,
    );
    expect(logs).toEqual([
      'WARN: Tunnel refused from 127.0.0.1: wrong gateway secret (an older edge configuration file?)',
    ]);
  });

  it('refuses a missing or malformed Authorization with 401', async () => {
    for (const authorization of [undefined, 'Bearer x', 'Gateway not-a-uuid:secret']) {
      const socket = new WebSocket(`${origin.replace(/^http/, 'ws')}/tunnel`, {
        headers: authorization ? { authorization } : {},
      });
      socket.on('error', () => {});
      const [, response] = (await once(socket, 'unexpected-response')) as [unknown, { statusCode: number }];
      expect(response.statusCode).toBe(401);
      socket.terminate();
    }
  });

  it('uses the LAN the portal stored when the agent has none of its own', async () => {
    const gateway = await seedGateway('press-3', lan.lanNetwork);
    const agent = agentFor({ ...gateway, config: { ...gateway.config, lanNetwork: null } });
    await agent.whenConnected();
    const stream = await server.app.tunnels.openStream(gateway.id, { host: lan.address, port: echoPort });
    expect((await echoThrough(stream, Buffer.from('stored lan'))).toString()).toBe('stored lan');
    await agent.close();
  });
});

describe('the LAN an agent checks targets against', () => {
  it('follows the portal when the agent has no LAN of its own', async () => {
    const gateway = await seedGateway('press-4');
    const agent = agentFor(gateway);
    await agent.whenConnected();
    const target = { host: lan.address, port: echoPort };
    await expect(server.app.tunnels.openStream(gateway.id, target)).rejects.toThrow(
      'the gateway has no LAN network yet',
    );
    server.app.tunnels.lanNetworkChanged(gateway.id, lan.lanNetwork);
    const stream = await until(
      () => server.app.tunnels.openStream(gateway.id, target).catch(() => undefined),
      (opened) => opened !== undefined,
    );
    if (!stream) throw new Error('the agent did not take the new LAN');
    expect((await echoThrough(stream, Buffer.from('new lan'))).toString()).toBe('new lan');
    await agent.close();
  });
});

describe('tunnel liveness (a hub with short timers)', () => {
  let hub: TunnelHub;
  let url: string;
  let closeApp: () => Promise<unknown>;

  beforeAll(async () => {
    const app = Fastify();
    await app.register(websocket, { options: { maxPayload: 256 * 1024 } });
    // Short, but not so short that a busy machine's event-loop pause reads as a dead agent (dropped after 2.5 rounds).
    hub = new TunnelHub({
      db: server.database.db,
      helloTimeoutMs: 750,
      pingIntervalMs: 250,
      lastSeenWriteMs: 50,
      openTimeoutMs: 500,
    });
    await app.register(tunnelRoutes, { db: server.database.db, tunnels: hub });
    app.addHook('onClose', () => hub.close());
    await app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(app.server.address() as net.AddressInfo).port}/tunnel`;
    closeApp = () => app.close();
  });

  afterAll(async () => {
    await closeApp?.();
  });

  const rawAgent = (gateway: Gateway, options: { autoPong?: boolean } = {}) => {
    const socket = new WebSocket(url, {
      headers: { authorization: `Gateway ${gateway.id}:${gateway.config.secret}` },
      ...options,
    });
    socket.on('error', () => {});
    return socket;
  };

  it('keeps a tunnel past the hello timeout and refreshes lastSeenAt on pongs', async () => {
    const gateway = await seedGateway('liveness-1', lan.lanNetwork);
    const agent = agentFor({ ...gateway, config: { ...gateway.config, tunnelUrl: url } });
    await agent.whenConnected();
    const connected = (await gatewayRow(gateway.id)).connectedAt?.getTime() ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(agent.isConnected()).toBe(true);
    const stream = await hub.openStream(gateway.id, { host: lan.address, port: echoPort });
    expect((await echoThrough(stream, Buffer.from('still here'))).toString()).toBe('still here');
    expect((await gatewayRow(gateway.id)).lastSeenAt?.getTime()).toBeGreaterThan(connected);
    await agent.close();
  });

  it('closes a connection that never says hello (4400), without registering it', async () => {
    const gateway = await seedGateway('liveness-2', lan.lanNetwork);
    const socket = rawAgent(gateway);
    const [code, reason] = (await once(socket, 'close')) as [number, Buffer];
    expect([code, reason.toString()]).toEqual([4400, 'no hello']);
    expect(await logsOf(gateway.id)).toEqual([]);
    expect((await gatewayRow(gateway.id)).status).toBe('OFFLINE');
  });

  it('drops an agent that stops answering pings: OFFLINE, logged', async () => {
    const gateway = await seedGateway('liveness-3', lan.lanNetwork);
    const socket = rawAgent(gateway, { autoPong: false });
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'hello', agentVersion: 'raw', lanNetwork: null, endpoints: [] }));
    await once(socket, 'message');
    expect(hub.isOnline(gateway.id)).toBe(true);
    await once(socket, 'close');
    const logs = await until(
      () => logsOf(gateway.id),
      (all) => all.length === 2,
    );
    expect(logs).toEqual([
      'INFO: Tunnel connected from 127.0.0.1 (agent raw)',
      'INFO: Tunnel disconnected: the agent stopped answering pings',
    ]);
    expect((await gatewayRow(gateway.id)).status).toBe('OFFLINE');
  });

  it('closes the tunnel on a malformed frame (4400)', async () => {
    const gateway = await seedGateway('liveness-4', lan.lanNetwork);
    const socket = rawAgent(gateway);
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'hello', agentVersion: 'raw', lanNetwork: null, endpoints: [] }));
    await once(socket, 'message');
    socket.send(Buffer.from([42, 0, 0, 0, 1]));
    const [code] = (await once(socket, 'close')) as [number];
    expect(code).toBe(4400);
    const logs = await until(
      () => logsOf(gateway.id),
      (all) => all.length === 2,
    );
    expect(logs[1]).toBe('INFO: Tunnel disconnected: protocol error: unknown frame type 42');
  });

  it('takes a data connection only with its one-time token (wrong token 401, unknown id 404), once', async () => {
    const gateway = await seedGateway('liveness-6', lan.lanNetwork);
    const socket = rawAgent(gateway);
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'hello', agentVersion: 'raw', lanNetwork: null, endpoints: [] }));
    await once(socket, 'message');
    const opening = hub.openDataConnection(gateway.id, { host: lan.address, port: echoPort });
    const [raw] = (await once(socket, 'message')) as [Buffer];
    const connect = JSON.parse(raw.toString()) as { type: string; id: string; token: string; host: string };
    expect(connect).toMatchObject({ type: 'connect', host: lan.address, port: echoPort });
    const streamUrl = `${url.replace(/^ws/, 'http')}/stream/${connect.id}`;

    const wrong = await upgradeRequest(streamUrl, { authorization: `Stream ${'A'.repeat(43)}` });
    expect([wrong.status, JSON.parse(wrong.body).message]).toEqual([
      401,
      'stream: the token does not open this data connection',
    ]);
    const unknown = await upgradeRequest(`${url.replace(/^ws/, 'http')}/stream/${randomUUID()}`, {
      authorization: `Stream ${connect.token}`,
    });
    expect(unknown.status).toBe(404);
    const plain = await fetch(streamUrl);
    expect(plain.status).toBe(426);

    const right = await upgradeRequest(streamUrl, { authorization: `Stream ${connect.token}` });
    expect(right.status).toBe(101);
    const serverSide = await opening;
    right.socket?.write('from the agent');
    const [chunk] = (await once(serverSide, 'data')) as [Buffer];
    expect(chunk.toString()).toBe('from the agent');
    serverSide.write('from the server');
    const [back] = (await once(right.socket as net.Socket, 'data')) as [Buffer];
    expect(back.toString()).toBe('from the server');

    const again = await upgradeRequest(streamUrl, { authorization: `Stream ${connect.token}` });
    expect(again.status, 'the token works once').toBe(404);
    right.socket?.destroy();
    socket.close();
  });

  it('rejects a data connection the agent never opens after the timeout, and pending ones when the tunnel closes', async () => {
    const gateway = await seedGateway('liveness-7', lan.lanNetwork);
    const socket = rawAgent(gateway);
    await once(socket, 'open');
    socket.send(JSON.stringify({ type: 'hello', agentVersion: 'raw', lanNetwork: null, endpoints: [] }));
    await once(socket, 'message');
    const started = Date.now();
    const silent = hub.openDataConnection(gateway.id, { host: lan.address, port: echoPort });
    await expect(silent).rejects.toThrow(
      `the gateway did not open the connection to ${lan.address}:${echoPort} within 0.5 s`,
    );
    await expect(silent).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(450);
    const pending = hub.openDataConnection(gateway.id, { host: lan.address, port: echoPort });
    socket.close();
    await expect(pending).rejects.toMatchObject({ kind: 'closed' });
  });

  it('closes every tunnel on shutdown and marks the gateways OFFLINE', async () => {
    const gateway = await seedGateway('liveness-5', lan.lanNetwork);
    const agent = agentFor(
      { ...gateway, config: { ...gateway.config, tunnelUrl: url } },
      { minBackoffMs: 5000 },
    );
    await agent.whenConnected();
    const close = closeApp;
    closeApp = async () => {};
    await close();
    expect(hub.isOnline(gateway.id)).toBe(false);
    expect((await gatewayRow(gateway.id)).status).toBe('OFFLINE');
    expect((await logsOf(gateway.id)).at(-1)).toBe('INFO: Tunnel disconnected: the server is shutting down');
  });
});
