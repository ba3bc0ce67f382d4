import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ForwarderError, startForwarder } from '@edgeport/companion';
import type { AgentHandle } from '@edgeport/gateway-agent';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { caller } from '../../test/support/calls.ts';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { rptFor } from '../../test/support/tokens.ts';
import { remoteOrigin } from '../config.ts';
import { auditLog, vpnSessions } from '../db/schema.ts';
import { liveSessionsOf } from '../services/vpn/sessions/live.ts';
import { onSessionHost } from './browser-access.ts';
import { connectAgent, type Plant, seedGateway, startPlant, type TestGateway } from './test-plant.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let plant: Plant;
/** The portal as the test reaches it (API calls, the companion CLI). */
let origin: string;
let port: number;
let adminToken: string;
let press: TestGateway;
let agent: AgentHandle;

const CLI = path.resolve(import.meta.dirname, '../../../companion/src/cli.ts');

async function openApp(endpoint: string, action = 'default') {
  const answer = await call(
    'GET',
    `/svc/vpn2/api/v1/executeAction/${tenants.orgA.id}?gatewayName=press&endpointName=${endpoint}&actionName=${action}`,
    adminToken,
  );
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { sessionId: string; url?: string; token?: string };
}

async function requestTcp(port: number) {
  const answer = await call('POST', '/svc/vpn2/api/v1/credentials/request', adminToken, {
    domain: tenants.orgA.id,
    gateway: 'press',
    endpoint: 'echo',
    port,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  return answer.json() as { sessionId: string; token: string };
}

/** Every host name reaches the test server, as DNS would (Node resolves no `*.localhost` name). */
function toServer(): net.Socket {
  return net.connect({ host: '127.0.0.1', port });
}

/**
 * A browser's request to `url` (any host name: the portal's, a realm's, a session's), sent to the test server with
 * the URL's host in the Host header. Redirects are not followed.
 */
async function browse(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Response> {
  const method = init.method ?? 'GET';
  const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.request(url, { method, headers: init.headers, createConnection: toServer });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(init.body);
  });
  const chunks: Buffer[] = [];
  for await (const chunk of answer) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (let index = 0; index < answer.rawHeaders.length; index += 2)
    headers.append(answer.rawHeaders[index] ?? '', answer.rawHeaders[index + 1] ?? '');
  const status = answer.statusCode ?? 0;
  const bodyless = method === 'HEAD' || status === 204 || status === 304;
  return new Response(bodyless ? null : Buffer.concat(chunks), { status, headers });
}

/** A WebSocket to `url` (any host name) on the test server. */
function socketTo(url: string, headers: Record<string, string> = {}): WebSocket {
  return new WebSocket(url, { headers, createConnection: toServer });
}

/** Where a session's pages are: `/remote/{session}` on the session's own origin. */
function remoteBase(sessionId: string): string {
  return `${remoteOrigin(server.config, sessionId)}/remote/${sessionId}`;
}

/** A browser session: the ticket redeemed for the cookie. */
async function browserSession(endpoint = 'web') {
  const grant = await openApp(endpoint);
  const first = await browse(String(grant.url));
  expect(first.status).toBe(302);
  const cookie = first.headers.getSetCookie()[0]?.split(';')[0] ?? '';
  return { grant, cookie, base: remoteBase(grant.sessionId) };
}

/** Sends `data` through a local TCP port and reads as many bytes back. */
async function echoThrough(port: number, data: Buffer): Promise<Buffer> {
  const socket = net.connect({ host: '127.0.0.1', port });
  const chunks: Buffer[] = [];
  let received = 0;
  const done = new Promise<void>((resolve, reject) => {
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      received += chunk.length;
      if (received >= data.length) resolve();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve());
  });
  socket.write(data);
  await done;
  socket.end();
  return Buffer.concat(chunks);
}

async function sessionRow(id: string) {
  const [row] = await server.database.db.select().from(vpnSessions).where(eq(vpnSessions.id, id));
  return row;
}

/** Once the session's streams are closed, writes its counted traffic now (instead of within 10 s). */
async function flushed(id: string) {
  const live = liveSessionsOf(server.app.tunnels, server.database.db);
  await until(
    () => live.streams(id),
    (streams) => streams === 0,
  );
  await live.flush(id);
  return sessionRow(id);
}

async function until<T>(read: () => Promise<T> | T, ok: (value: T) => boolean, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  plant = await startPlant();
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  press = await seedGateway(server.database.db, tenants.orgA.id, origin, {
    name: 'press',
    lanNetwork: plant.lanNetwork,
    endpoints: [
      { name: 'web', address: plant.address, protocol: 'HTTP', port: plant.httpPort },
      { name: 'tls', address: plant.address, protocol: 'HTTPS', port: plant.httpsPort },
      { name: 'echo', address: plant.address, protocol: 'TCP', port: plant.echoPort },
    ],
  });
  agent = await connectAgent(press, plant.lanNetwork);
  adminToken = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
}, 60_000);

afterAll(async () => {
  await agent?.close();
  await server?.close();
  await plant?.close();
});

describe('browser access', () => {
  it('trades the one-time ticket for an HttpOnly cookie, once, and needs the cookie afterwards', async () => {
    const grant = await openApp('web');
    const url = String(grant.url);
    expect(url, "the session's own origin").toMatch(
      new RegExp(
        `^http://${grant.sessionId}\\.remote\\.localhost:8080/remote/${grant.sessionId}/\\?edgeport_ticket=`,
      ),
    );
    const base = remoteBase(grant.sessionId);
    const noCookie = await browse(`${base}/login`);
    expect(noCookie.status).toBe(403);
    const seenBefore = plant.seen.length;

    const first = await browse(url);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(`/remote/${grant.sessionId}/`);
    const [cookie] = first.headers.getSetCookie();
    expect(cookie).toMatch(
      new RegExp(
        `^edgeport_remote=[A-Za-z0-9_-]{43}; Path=/remote/${grant.sessionId}/; HttpOnly; SameSite=Lax`,
      ),
    );
    expect((await browse(url)).status, 'the ticket works once').toBe(403);
    expect(plant.seen.length, 'nothing reached the machine').toBe(seenBefore);

    const pair = cookie?.split(';')[0] ?? '';
    const wrong = await browse(`${base}/login`, { headers: { cookie: 'edgeport_remote=forged' } });
    expect(wrong.status).toBe(403);
    const page = await browse(`${base}/login`, { headers: { cookie: pair } });
    expect(page.status).toBe(200);
    const other = await openApp('web');
    const elsewhere = await browse(`${remoteBase(other.sessionId)}/login`, { headers: { cookie: pair } });
    expect(elsewhere.status, "one session's cookie does not open another").toBe(403);
    const stale = await openApp('web');
    await server.database.db
      .update(vpnSessions)
      .set({ ticketExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(vpnSessions.id, stale.sessionId));
    expect((await browse(String(stale.url))).status, 'an expired ticket').toBe(403);
  });

  it('rewrites redirects, cookies and root-relative links to stay under /remote/{session}', async () => {
    const { base, grant, cookie } = await browserSession();
    const root = await browse(`${base}/`, { headers: { cookie } });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe(`/remote/${grant.sessionId}/login`);
    const [machineCookie] = root.headers.getSetCookie();
    expect(machineCookie).toMatch(
      new RegExp(`^machine_sid=s[0-9a-f]{8}; Path=/remote/${grant.sessionId}/; HttpOnly$`),
    );

    const absolute = await browse(`${base}/absolute`, { headers: { cookie } });
    expect(absolute.status).toBe(303);
    expect(absolute.headers.get('location')).toBe(`/remote/${grant.sessionId}/login?from=absolute`);

    for (const page of ['login', 'gzip']) {
      const answer = await browse(`${base}/${page}`, {
        headers: { cookie, accept: 'text/html', 'accept-encoding': 'gzip' },
      });
      expect(answer.status).toBe(200);
      const html = await answer.text();
      const prefix = `/remote/${grant.sessionId}`;
      expect(html).toContain(`href="${prefix}/style.css"`);
      expect(html).toContain(`href="${prefix}/dashboard"`);
      expect(html).toContain(`src='${prefix}/logo.png'`);
      expect(html).toContain(`action="${prefix}/login"`);
      expect(html).toContain('href="https://vendor.example.com/"');
      expect(answer.headers.get('content-encoding')).toBeNull();
      expect(answer.headers.get('x-frame-options'), "the machine's own headers").toBe('SAMEORIGIN');
      expect(answer.headers.get('content-security-policy'), "none of the portal's").toBeNull();
    }
    const asked = plant.seen.filter((entry) => entry.url === '/login').at(-1);
    expect(asked?.headers['accept-encoding'], 'HTML is asked for unencoded').toBe('identity');
  });

  it('passes bodies and methods through, without the portal’s cookie or token, for the machine’s own host', async () => {
    const { base, cookie } = await browserSession();
    const body = randomBytes(300_000);
    const posted = await browse(`${base}/echo?x=1`, {
      method: 'POST',
      headers: {
        cookie: `${cookie}; machine_sid=abc`,
        authorization: `Bearer ${adminToken}`,
        'content-type': 'application/octet-stream',
      },
      body,
    });
    expect(posted.status).toBe(200);
    expect(Buffer.from(await posted.arrayBuffer()).equals(body)).toBe(true);
    expect(posted.headers.get('x-seen-cookie')).toBe('machine_sid=abc');
    expect(posted.headers.get('x-seen-authorization')).toBe('');
    expect(posted.headers.get('x-seen-host')).toBe(`${plant.address}:${plant.httpPort}`);

    const json = await browse(`${base}/echo`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json', authorization: 'Basic dXNlcjpwdw==' },
      body: '{"setpoint":42}',
    });
    expect(await json.text()).toBe('{"setpoint":42}');
    expect(json.headers.get('x-seen-method')).toBe('PUT');
    expect(json.headers.get('x-seen-authorization'), "the machine's own login passes").toBe(
      'Basic dXNlcjpwdw==',
    );
    const form = await browse(`${base}/echo`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'user=op&pw=1',
    });
    expect(await form.text()).toBe('user=op&pw=1');
    const missing = await browse(`${base}/nothing-here`, { headers: { cookie } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('no such page');
  });

  it('passes WebSockets through (text and binary), only with the cookie', async () => {
    const { grant, cookie } = await browserSession();
    const url = `${remoteBase(grant.sessionId).replace('http', 'ws')}/ws`;
    const refused = socketTo(url);
    const status = await new Promise<number>((resolve) => {
      refused.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      refused.on('open', () => resolve(101));
    });
    expect(status).toBe(403);

    const socket = socketTo(url, { cookie });
    await once(socket, 'open');
    const replies: { data: Buffer; binary: boolean }[] = [];
    socket.on('message', (data: Buffer, binary: boolean) => replies.push({ data, binary }));
    socket.send('hello machine');
    const blob = randomBytes(100_000);
    socket.send(blob);
    await until(
      () => replies.length,
      (n) => n === 2,
    );
    expect(replies[0]).toEqual({ data: Buffer.from('hello machine'), binary: false });
    expect(replies[1]?.binary).toBe(true);
    expect(replies[1]?.data.equals(blob)).toBe(true);
    socket.close();
    await once(socket, 'close');
  });

  it('reaches an HTTPS machine with a self-signed certificate (pages and WebSockets)', async () => {
    const { base, grant, cookie } = await browserSession('tls');
    const page = await browse(`${base}/login`, { headers: { cookie, accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`href="/remote/${grant.sessionId}/dashboard"`);
    const absolute = await browse(`${base}/absolute`, { headers: { cookie } });
    expect(absolute.headers.get('location'), 'https://{address} is the machine itself').toBe(
      `/remote/${grant.sessionId}/login?from=absolute`,
    );
    const socket = socketTo(`${base.replace('http', 'ws')}/ws`, { cookie });
    await once(socket, 'open');
    socket.send('over tls');
    const [reply] = await once(socket, 'message');
    expect(String(reply)).toBe('over tls');
    socket.close();
    await once(socket, 'close');
    const row = await flushed(grant.sessionId);
    expect(row?.bytesIn).toBeGreaterThan(0);
  });

  it('counts the traffic of a session and writes it when its streams end', async () => {
    const { base, grant, cookie } = await browserSession();
    const answer = await browse(`${base}/big?size=200000`, { headers: { cookie } });
    expect((await answer.arrayBuffer()).byteLength).toBe(200_000);
    const row = await flushed(grant.sessionId);
    expect(row?.bytesIn).toBeGreaterThan(200_000);
    expect(row?.bytesOut).toBeGreaterThan(0);
  });
});

describe("a session's own origin", () => {
  it('is {session}.remote.{BASE_DOMAIN}: any port, any letter case, nothing else', () => {
    const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
    const { config } = server;
    expect(onSessionHost(config, id, `${id}.remote.localhost:8080`)).toBe(true);
    expect(onSessionHost(config, id, `${id}.remote.localhost`)).toBe(true);
    expect(onSessionHost(config, id, `${id.toUpperCase()}.REMOTE.Localhost:443`)).toBe(true);
    for (const host of [
      'localhost:8080',
      '127.0.0.1:8080',
      'acme.app.localhost:8080',
      `${id}.remote.localhost.evil.example`,
      `x${id}.remote.localhost`,
      `${id}.remote.localhost.`,
      `a.${id}.remote.localhost`,
      `${id.replace('0f8', '1f8')}.remote.localhost`,
      undefined,
    ])
      expect(onSessionHost(config, id, host), String(host)).toBe(false);
    expect(onSessionHost(config, 'not-a-session', 'not-a-session.remote.localhost')).toBe(false);
  });

  it("answers 404 on the portal's, a realm's or another session's host, and nothing reaches the machine", async () => {
    const grant = await openApp('web');
    const other = await openApp('web');
    const ticketPath = String(grant.url).replace(/^https?:\/\/[^/]+/, '');
    const path = `/remote/${grant.sessionId}`;
    const wrongHosts = [
      origin,
      'http://localhost:8080',
      'http://acme.app.localhost:8080',
      'http://apps.localhost:8080',
      remoteOrigin(server.config, other.sessionId),
    ];
    const seenBefore = plant.seen.length;
    for (const host of wrongHosts) {
      const answer = await browse(`${host}${ticketPath}`);
      expect(answer.status, `the ticket at ${host}`).toBe(404);
      expect(answer.headers.get('set-cookie')).toBeNull();
    }
    const first = await browse(String(grant.url));
    expect(first.status, 'the ticket was not spent on the wrong hosts').toBe(302);
    const cookie = first.headers.getSetCookie()[0] ?? '';
    expect(cookie, 'a host-only cookie').not.toMatch(/domain=/i);
    const pair = cookie.split(';')[0] ?? '';

    for (const host of wrongHosts) {
      for (const [method, target] of [
        ['GET', `${path}/login`],
        ['POST', `${path}/echo`],
        ['GET', path],
      ] as const) {
        const answer = await browse(`${host}${target}`, {
          method,
          headers: { cookie: pair, accept: 'text/html' },
          ...(method === 'POST' ? { body: 'user=op' } : {}),
        });
        expect(answer.status, `${method} ${host}${target}`).toBe(404);
        expect(((await answer.json()) as { message: string }).message).toBe(
          'remote access: no such session at this address',
        );
      }
      const socket = socketTo(`${host.replace('http', 'ws')}${path}/ws`, { cookie: pair });
      const status = await new Promise<number>((resolve) => {
        socket.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        socket.on('open', () => resolve(101));
        socket.on('error', () => resolve(-1));
      });
      socket.terminate();
      expect(status, `WebSocket at ${host}`).toBe(404);
    }
    expect(plant.seen.length, 'the machine saw no request').toBe(seenBefore);
    const row = await flushed(grant.sessionId);
    expect(row, 'no byte went through the tunnel').toMatchObject({ bytesIn: 0, bytesOut: 0 });

    const page = await browse(`${remoteBase(grant.sessionId)}/login`, { headers: { cookie: pair } });
    expect(page.status, 'at its own host the session works').toBe(200);
    expect(plant.seen.length).toBe(seenBefore + 1);
  });

  it('serves nothing but /remote/ on a session host: not the portal, its services or the identity server', async () => {
    const grant = await openApp('web');
    const sessionOrigin = remoteOrigin(server.config, grant.sessionId);
    for (const target of [
      '/',
      '/index.html',
      '/svc/core/docs/json',
      '/auth/realms/acme/.well-known/openid-configuration',
    ]) {
      const answer = await browse(`${sessionOrigin}${target}`);
      expect(answer.status, target).toBe(404);
      expect(((await answer.json()) as { message: string }).message).toBe(
        'remote access: only /remote/ is served on a session host',
      );
    }
    expect((await browse(`${origin}/svc/core/docs/json`)).status, 'the portal host still serves it').toBe(
      200,
    );
  });
});

describe('TCP forwarding', () => {
  it('carries 1 MiB through startForwarder intact, and counts it', async () => {
    const grant = await requestTcp(plant.echoPort);
    const lines: string[] = [];
    const forwarder = await startForwarder({
      server: origin,
      token: grant.token,
      localPort: 0,
      log: (line) => lines.push(line),
    });
    try {
      const payload = randomBytes(1024 * 1024);
      const back = await echoThrough(forwarder.port, payload);
      expect(back.equals(payload)).toBe(true);
      const second = await echoThrough(forwarder.port, Buffer.from('again'));
      expect(second.toString()).toBe('again');
    } finally {
      await forwarder.close();
    }
    const row = await flushed(grant.sessionId);
    expect(row?.bytesOut).toBe(1024 * 1024 + 5);
    expect(row?.bytesIn).toBe(1024 * 1024 + 5);
    expect(lines.some((line) => line.includes(`opened to ${plant.address}:${plant.echoPort}`))).toBe(true);
  });

  it('passes a half-close: a client that stops sending still gets the whole answer', async () => {
    const grant = await requestTcp(plant.echoPort);
    const forwarder = await startForwarder({ server: origin, token: grant.token, localPort: 0 });
    try {
      const payload = randomBytes(256 * 1024);
      const client = net.connect({ host: '127.0.0.1', port: forwarder.port, allowHalfOpen: true });
      await once(client, 'connect');
      client.end(payload);
      const chunks: Buffer[] = [];
      for await (const chunk of client) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(payload), 'the echo after our FIN').toBe(true);
    } finally {
      await forwarder.close();
    }
  });

  it('refuses a wrong or ended token with a clear reason, and an unreachable port at connect time', async () => {
    const grant = await requestTcp(plant.echoPort);
    const forged = `${grant.sessionId}.${'A'.repeat(43)}`;
    await expect(startForwarder({ server: origin, token: forged, localPort: 0 })).rejects.toThrow(
      new ForwarderError('the server refused the token (403): session: the token does not open this session'),
    );
    await expect(startForwarder({ server: origin, token: 'nonsense', localPort: 0 })).rejects.toThrow(
      'the token is not an Edgeport session token',
    );
    const noHeader = await fetch(`${origin}/tunnel/tcp/${grant.sessionId}`);
    expect(noHeader.status).toBe(401);
    const check = await fetch(`${origin}/tunnel/tcp/${grant.sessionId}`, {
      headers: { authorization: `Session ${grant.token}` },
    });
    expect(await check.json()).toMatchObject({
      sessionId: grant.sessionId,
      gateway: 'press',
      endpoint: 'echo',
      online: true,
    });

    const closed = net.createServer();
    closed.listen(0, plant.address);
    await once(closed, 'listening');
    const deadPort = (closed.address() as AddressInfo).port;
    closed.close();
    const dead = await requestTcp(deadPort);
    const lines: string[] = [];
    const forwarder = await startForwarder({
      server: origin,
      token: dead.token,
      localPort: 0,
      log: (l) => lines.push(l),
    });
    const back = await echoThrough(forwarder.port, Buffer.from('anyone?'));
    expect(back.length).toBe(0);
    await forwarder.close();
    expect(lines.some((line) => line.includes('refused: the machine cannot be reached (502)'))).toBe(true);
  });

  it('runs as the edgeport CLI: listens, forwards, and stops on Ctrl-C', async () => {
    const grant = await requestTcp(plant.echoPort);
    const child = spawn(
      process.execPath,
      [CLI, 'connect', '--server', origin, '--token', grant.token, '--local-port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const listening = await until(
      () => /listening on 127\.0\.0\.1:(\d+)/.exec(output),
      (match) => match !== null,
      20_000,
    );
    const port = Number(listening?.[1]);
    expect(port).toBeGreaterThan(0);
    const payload = randomBytes(256 * 1024);
    expect((await echoThrough(port, payload)).equals(payload)).toBe(true);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(output).toContain('stopped');

    const refused = spawn(
      process.execPath,
      [
        CLI,
        'connect',
        '--server',
        origin,
        '--token',
        `${grant.sessionId}.${'B'.repeat(43)}`,
        '--local-port',
        '0',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let errors = '';
    refused.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const [refusedCode] = await once(refused, 'exit');
    expect(refusedCode).toBe(1);
    expect(errors).toBe(
      'error: the server refused the token (403): session: the token does not open this session\n',
    );
  }, 60_000);

  it('serves the companion CLI as one file that runs on its own', async () => {
    const answer = await fetch(`${origin}/downloads/edgeport.mjs`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="edgeport.mjs"');
    const dir = await mkdtemp(path.join(tmpdir(), 'edgeport-cli-'));
    const file = path.join(dir, 'edgeport.mjs');
    await writeFile(file, Buffer.from(await answer.arrayBuffer()));
    const child = spawn(process.execPath, [file, '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const [code] = await once(child, 'exit');
    expect(code).toBe(0);
    expect(output).toContain('usage: edgeport connect --server');
  }, 60_000);
});

describe('disconnect', () => {
  it('ends the sessions: open streams break, later requests through /remote fail, the end is audited', async () => {
    const { base, grant, cookie } = await browserSession();
    expect((await browse(`${base}/login`, { headers: { cookie } })).status).toBe(200);
    const socket = socketTo(`${base.replace('http', 'ws')}/ws`, { cookie });
    await once(socket, 'open');
    const tcp = await requestTcp(plant.echoPort);
    const forwarder = await startForwarder({ server: origin, token: tcp.token, localPort: 0 });
    const local = net.connect({ host: '127.0.0.1', port: forwarder.port });
    local.write('ping');
    await once(local, 'data');

    const off = await call(
      'GET',
      `/svc/vpn2/api/v1/connections/${tenants.orgA.id}/press/disconnect`,
      adminToken,
    );
    expect(off.statusCode).toBe(200);
    expect(off.json().sessionsEnded).toBeGreaterThanOrEqual(2);
    await once(socket, 'close');
    await once(local, 'close');
    const after = await browse(`${base}/login`, { headers: { cookie } });
    expect(after.status).toBe(403);
    expect(((await after.json()) as { message: string }).message).toMatch(
      /^session: the session has ended \(disconnect\)/,
    );
    const refused = await fetch(`${origin}/tunnel/tcp/${tcp.sessionId}`, {
      headers: { authorization: `Session ${tcp.token}` },
    });
    expect(refused.status).toBe(403);
    await forwarder.close();

    const [ended] = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, tcp.sessionId));
    const records = await server.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.resourceId, grant.sessionId));
    expect(records.map((record) => record.action).sort()).toEqual(['vpn.session.end', 'vpn.session.start']);
    expect(ended).toBeDefined();
    const row = await sessionRow(tcp.sessionId);
    expect(row?.bytesOut).toBe(4);
  });
});

describe('a gateway that goes offline', () => {
  it('answers 409 to browser access and the companion CLI says so', async () => {
    const { base, cookie } = await browserSession();
    const tcp = await requestTcp(plant.echoPort);
    await agent.close();
    await until(
      () => server.app.tunnels.isOnline(press.row.id),
      (online) => !online,
    );
    const page = await browse(`${base}/login`, { headers: { cookie } });
    expect(page.status).toBe(409);
    expect(((await page.json()) as { message: string }).message).toBe('gateway: press is offline');
    const lines: string[] = [];
    const forwarder = await startForwarder({
      server: origin,
      token: tcp.token,
      localPort: 0,
      log: (line) => lines.push(line),
    });
    expect(lines).toContain('warning: gateway press is offline; connections fail until its agent is back');
    expect((await echoThrough(forwarder.port, Buffer.from('hello?'))).length).toBe(0);
    await until(
      () => lines.length,
      (n) => n >= 2,
    );
    await forwarder.close();
    expect(lines[1]).toMatch(/refused: the gateway is not available \(409\): gateway: press is offline$/);
  });
});
