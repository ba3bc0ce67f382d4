/**
 * A test plant for remote-access tests (not used by the server): machines on the test LAN address (an HTTP server
 * with a login redirect, a cookie, HTML with root-relative links and a WebSocket echo; a TCP echo server) and
 * gateways of an organization with their agents connected to a listening test server.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { vpn } from '@edgeport/contract';
import { type AgentHandle, startAgent } from '@edgeport/gateway-agent';
import { eq } from 'drizzle-orm';
import { WebSocketServer } from 'ws';
import { ensureTestLan } from '../../test/support/test-lan.ts';
import type { Db } from '../db/index.ts';
import { gateways, vpnActionProfiles, vpnActions, vpnEndpoints } from '../db/schema.ts';
import { createDevice } from '../services/core/devices/provisioning.ts';
import type { GatewayRow } from '../services/vpn/gateways/lookup.ts';
import { createGatewayForDevice } from '../services/vpn/gateways/provisioning.ts';

export type Plant = {
  address: string;
  lanNetwork: string;
  httpPort: number;
  /** The same web machine over HTTPS with a self-signed certificate. */
  httpsPort: number;
  echoPort: number;
  /** Requests the HTTP machine saw: method, path, headers. */
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
};

const LOGIN_PAGE =
  '<!doctype html><html><head><link rel="stylesheet" href="/style.css"></head><body>' +
  '<a href="/dashboard">Dashboard</a><img src=\'/logo.png\'><a href="https://vendor.example.com/">Vendor</a>' +
  '<form action="/login" method="post"><input name="user"></form></body></html>';

/** A self-signed certificate, as plant devices have. */
async function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'edgeport-plant-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    await promisify(execFile)('openssl', [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=plant-device',
    ]);
    return { key: await readFile(key), cert: await readFile(cert) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The machines of the plant, on the test LAN address. */
export async function startPlant(): Promise<Plant> {
  const lan = await ensureTestLan();
  const seen: Plant['seen'] = [];
  const handler: http.RequestListener = (request, response) => {
    seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers });
    const url = new URL(request.url ?? '/', 'http://machine');
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      if (url.pathname === '/') {
        response.writeHead(302, {
          location: '/login',
          'set-cookie': [
            `machine_sid=s${randomBytes(4).toString('hex')}; Path=/; Domain=${lan.address}; HttpOnly`,
          ],
        });
        response.end();
      } else if (url.pathname === '/absolute') {
        response.writeHead(303, { location: `http://${request.headers.host}/login?from=absolute` });
        response.end();
      } else if (url.pathname === '/login' || url.pathname === '/gzip') {
        const page = Buffer.from(LOGIN_PAGE);
        const gzip =
          url.pathname === '/gzip' || /gzip/.test(String(request.headers['accept-encoding'] ?? ''));
        response.writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          ...(gzip ? { 'content-encoding': 'gzip' } : {}),
          'x-frame-options': 'SAMEORIGIN',
        });
        response.end(gzip ? zlib.gzipSync(page) : page);
      } else if (url.pathname === '/echo') {
        response.writeHead(200, {
          'content-type': request.headers['content-type'] ?? 'application/octet-stream',
          'x-seen-method': request.method ?? '',
          'x-seen-host': request.headers.host ?? '',
          'x-seen-cookie': request.headers.cookie ?? '',
          'x-seen-authorization': request.headers.authorization ?? '',
        });
        response.end(body);
      } else if (url.pathname === '/big') {
        const size = Number(url.searchParams.get('size') ?? 1024);
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
        response.end(Buffer.alloc(size, 7));
      } else {
        response.writeHead(404, { 'content-type': 'text/plain' });
        response.end('no such page');
      }
    });
  };
  const web = http.createServer(handler);
  const secureWeb = https.createServer(await selfSignedCertificate(), handler);
  const socketServers = [web, secureWeb].map((server) => {
    const sockets = new WebSocketServer({ server, path: '/ws' });
    sockets.on('connection', (socket) => {
      socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
    });
    return sockets;
  });
  for (const server of [web, secureWeb]) {
    server.listen(0, lan.address);
    await once(server, 'listening');
  }

  const echo = net.createServer({ allowHalfOpen: true }, (socket) => {
    socket.on('error', () => {});
    socket.pipe(socket);
  });
  echo.listen(0, lan.address);
  await once(echo, 'listening');

  return {
    ...lan,
    httpPort: (web.address() as net.AddressInfo).port,
    httpsPort: (secureWeb.address() as net.AddressInfo).port,
    echoPort: (echo.address() as net.AddressInfo).port,
    seen,
    async close() {
      for (const sockets of socketServers) {
        for (const client of sockets.clients) client.terminate();
        sockets.close();
      }
      for (const server of [web, secureWeb]) {
        server.closeAllConnections();
        server.close();
      }
      echo.close();
    },
  };
}

export type TestGateway = { row: GatewayRow; config: vpn.EdgeConfigFile; endpoints: Record<string, string> };

/**
 * A gateway of the organization (device, gateway row, agent credentials) with endpoints on the plant LAN; the
 * edge configuration points at the listening test server `origin`.
 */
export async function seedGateway(
  db: Db,
  organizationId: string,
  origin: string,
  spec: {
    name: string;
    lanNetwork: string;
    profileId?: string | null;
    ipFilter?: string[];
    endpoints: { name: string; address: string; protocol: 'HTTP' | 'HTTPS' | 'TCP'; port: number }[];
  },
): Promise<TestGateway> {
  const device = await createDevice(db, organizationId, spec.name);
  const created = await createGatewayForDevice(db, organizationId, device, {
    lanNetwork: spec.lanNetwork,
    profileId: spec.profileId ?? null,
    ipFilter: spec.ipFilter ?? [],
  });
  const secret = randomBytes(32).toString('base64url');
  const [row] = await db
    .update(gateways)
    .set({ agentSecretHash: createHash('sha256').update(secret).digest('hex') })
    .where(eq(gateways.id, created.id))
    .returning();
  if (!row) throw new Error('no gateway');
  const endpoints: Record<string, string> = {};
  for (const endpoint of spec.endpoints) {
    const [inserted] = await db
      .insert(vpnEndpoints)
      .values({ ...endpoint, organizationId, gatewayId: row.id })
      .returning();
    if (inserted) endpoints[endpoint.name] = inserted.id;
  }
  const config: vpn.EdgeConfigFile = {
    version: 1,
    server: origin,
    tunnelUrl: `${origin.replace(/^http/, 'ws')}/tunnel`,
    gatewayId: row.id,
    secret,
    name: row.name,
    domain: organizationId,
    lanNetwork: spec.lanNetwork,
    issuedAt: new Date().toISOString(),
  };
  return { row, config, endpoints };
}

/** The gateway's agent, connected. */
export async function connectAgent(gateway: TestGateway, lanNetwork: string): Promise<AgentHandle> {
  const agent = startAgent({ config: gateway.config, lanNetwork, minBackoffMs: 50, maxBackoffMs: 200 });
  await agent.whenConnected();
  return agent;
}

/** An application profile with applications. */
export async function seedProfile(
  db: Db,
  organizationId: string,
  name: string,
  otpRequired: boolean,
  actions: {
    name: string;
    protocol: 'HTTP' | 'HTTPS' | 'TCP';
    port: number;
    path?: string;
    clientOs?: string[];
  }[],
) {
  const [profile] = await db
    .insert(vpnActionProfiles)
    .values({ organizationId, name, otpRequired })
    .returning();
  if (!profile) throw new Error('no profile');
  const ids: Record<string, string> = {};
  for (const action of actions) {
    const [row] = await db
      .insert(vpnActions)
      .values({ organizationId, profileId: profile.id, ...action })
      .returning();
    if (row) ids[action.name] = row.id;
  }
  return { id: profile.id, actions: ids };
}
