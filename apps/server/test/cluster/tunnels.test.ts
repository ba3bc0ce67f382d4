import { once } from 'node:events';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { startForwarder } from '@edgeport/companion';
import { type AgentHandle, startAgent } from '@edgeport/gateway-agent';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { remoteOrigin } from '../../src/config.ts';
import { gatewayLeases } from '../../src/db/schema.ts';
import { seedGateway } from '../../src/services/vpn/fixtures.ts';
import { type Plant, startPlant } from '../../src/tunnel/test-plant.ts';
import { caller } from '../support/calls.ts';
import { seedTenants } from '../support/fixtures.ts';
import { startAnotherInstance, startTestServer, type TestServer } from '../support/server.ts';
import { rptFor } from '../support/tokens.ts';

// Remote access on two instances on one PostgreSQL, both listening on real ports, behind a stand-in for the
// operator's load balancer: the agent's tunnel goes to the "primary" instance, the agent's data connections
// alternate between the live instances (no stickiness), as a round-robin balancer would send them.

async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A TCP load balancer: WebSocket tunnels to `primary`, data connections round robin over `live`. */
async function startBalancer(state: { primary: number; live: number[] }) {
  let turn = 0;
  const balancer = net.createServer({ allowHalfOpen: true }, (client) => {
    client.on('error', () => {});
    client.once('data', (first: Buffer) => {
      const data = first.toString('latin1').startsWith('GET /tunnel/stream/');
      const port = data ? (state.live[turn++ % state.live.length] ?? state.primary) : state.primary;
      const upstream = net.connect({ host: '127.0.0.1', port, allowHalfOpen: true });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  });
  balancer.listen(0, '127.0.0.1');
  await once(balancer, 'listening');
  return { port: (balancer.address() as AddressInfo).port, close: () => balancer.close() };
}

async function until<T>(
  read: () => Promise<T> | T,
  ok: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ok(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.runIf(process.env.TEST_DATABASE_URL)('remote access across two instances', () => {
  let plant: Plant;
  /** B: the instance the users reach. A: the one the agent's tunnel reaches first. */
  let b: TestServer;
  let a: TestServer;
  let aOpen = true;
  let portA = 0;
  let portB = 0;
  const lb = { primary: 0, live: [] as number[] };
  let balancer: Awaited<ReturnType<typeof startBalancer>>;
  let orgId = '';
  let orgResource = '';
  let gatewayId = '';
  let activationKey = '';
  let adminToken = '';
  const agents: AgentHandle[] = [];

  const api = (server: TestServer) => caller(server);

  /** An edge configuration file issued through `server`, pointing the agent at the load balancer. */
  async function edgeConfig(server: TestServer) {
    const answer = await api(server)(
      'POST',
      `/svc/vpn2/api/v1/gateways/${orgId}/press/edge-config-file`,
      adminToken,
      { activationKey },
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const file = answer.json();
    return {
      ...file,
      server: `http://127.0.0.1:${balancer.port}`,
      tunnelUrl: `ws://127.0.0.1:${balancer.port}/tunnel`,
    };
  }

  async function connectAgent(server: TestServer) {
    const agent = startAgent({
      config: await edgeConfig(server),
      lanNetwork: plant.lanNetwork,
      minBackoffMs: 50,
      maxBackoffMs: 200,
    });
    agents.push(agent);
    await agent.whenConnected();
    return agent;
  }

  async function statusThrough(server: TestServer): Promise<string> {
    const answer = await api(server)('GET', `/svc/vpn2/api/v1/gateways/${orgId}/press`, adminToken);
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json().status;
  }

  /** A browser's request to `url` (a session's host) sent to the instance on `port`. */
  async function browse(port: number, url: string, headers: Record<string, string> = {}) {
    const answer = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const request = http.request(url, {
        headers,
        createConnection: () => net.connect({ host: '127.0.0.1', port }),
      });
      request.on('response', resolve);
      request.on('error', reject);
      request.end();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    return {
      status: answer.statusCode ?? 0,
      headers: answer.headers,
      body: Buffer.concat(chunks).toString(),
    };
  }

  /** A browser session opened through `server`: the ticket redeemed for the cookie there. */
  async function browserSession(server: TestServer, port: number) {
    const grant = await api(server)(
      'GET',
      `/svc/vpn2/api/v1/executeAction/${orgId}?gatewayName=press&endpointName=web&actionName=default`,
      adminToken,
    );
    if (grant.statusCode !== 200)
      return { status: grant.statusCode, message: grant.json().message as string };
    const { sessionId, url } = grant.json() as { sessionId: string; url: string };
    const first = await browse(port, url);
    expect(first.status).toBe(302);
    const cookie = String(first.headers['set-cookie']?.[0] ?? '').split(';')[0] ?? '';
    const base = `${remoteOrigin(b.config, sessionId)}/remote/${sessionId}`;
    return { status: 200, message: '', sessionId, cookie, base };
  }

  beforeAll(async () => {
    plant = await startPlant();
    [portA, portB] = [await freePort(), await freePort()];
    b = await startTestServer({ internalUrl: `http://127.0.0.1:${portB}` });
    a = await startAnotherInstance(b, { internalUrl: `http://127.0.0.1:${portA}` });
    await b.app.listen({ port: portB, host: '127.0.0.1' });
    await a.app.listen({ port: portA, host: '127.0.0.1' });
    lb.primary = portA;
    lb.live = [portA, portB];
    balancer = await startBalancer(lb);
    const tenants = await seedTenants(b, 'acme');
    orgId = tenants.orgA.id;
    orgResource = tenants.orgA.resourceId;
    adminToken = (await rptFor(b, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
    const seeded = await seedGateway(b.database.db, orgId, {
      name: 'press',
      lanNetwork: plant.lanNetwork,
      endpoints: [
        { name: 'web', address: plant.address, protocol: 'HTTP', port: plant.httpPort },
        { name: 'echo', address: plant.address, protocol: 'TCP', port: plant.echoPort },
      ],
    });
    gatewayId = seeded.id;
    activationKey = seeded.activationKey;
    await connectAgent(a);
  }, 60_000);

  afterAll(async () => {
    for (const agent of agents) await agent.close();
    balancer?.close();
    if (aOpen) await a?.close();
    await b?.close();
    await plant?.close();
  }, 60_000);

  it('leases the tunnel to A; the status through B is the lease: ONLINE, then OFFLINE once it expires', async () => {
    expect([a.app.tunnels.isOnline(gatewayId), b.app.tunnels.isOnline(gatewayId)]).toEqual([true, false]);
    const [lease] = await b.database.db
      .select()
      .from(gatewayLeases)
      .where(eq(gatewayLeases.gatewayId, gatewayId));
    expect(lease?.instanceId).toBe(a.app.membership?.self.instanceId);
    expect(await statusThrough(b)).toBe('ONLINE');
    const online = await api(b)('GET', `/svc/vpn2/api/v1/gateways/${orgId}?status=ONLINE`, adminToken);
    expect(online.json().total).toBe(1);

    // A's instance "dies" without a word: its lease runs out and every instance says OFFLINE.
    const expired = new Date(Date.now() - 1000);
    await b.database.db
      .update(gatewayLeases)
      .set({ expiresAt: expired })
      .where(eq(gatewayLeases.gatewayId, gatewayId));
    expect(await statusThrough(b)).toBe('OFFLINE');
    expect(await statusThrough(a)).toBe('OFFLINE');
    const refused = await browserSession(b, portB);
    expect([refused.status, refused.message]).toEqual([409, 'gateway: press is offline']);
    await b.database.db
      .update(gatewayLeases)
      .set({ expiresAt: new Date(Date.now() + 60_000) })
      .where(eq(gatewayLeases.gatewayId, gatewayId));
    expect(await statusThrough(b)).toBe('ONLINE');
  });

  it("opens a browser session through B to the plant's web page and WebSocket through A's tunnel", async () => {
    const session = await browserSession(b, portB);
    expect(session.status, session.message).toBe(200);
    const seen = plant.seen.length;
    const page = await browse(portB, `${session.base}/login`, { cookie: session.cookie ?? '' });
    expect(page.status).toBe(200);
    expect(page.body).toContain(`href="/remote/${session.sessionId}/dashboard"`);
    expect(plant.seen.length).toBe(seen + 1);

    const socket = new WebSocket(`${String(session.base).replace(/^http/, 'ws')}/ws`, {
      headers: { cookie: session.cookie ?? '' },
      createConnection: () => net.connect({ host: '127.0.0.1', port: portB }),
    });
    await once(socket, 'open');
    socket.send('through B and A');
    const [echoed] = await once(socket, 'message');
    expect(String(echoed)).toBe('through B and A');
    socket.close();
  });

  it('ending a session through B breaks its stream running on A at once', async () => {
    const session = await browserSession(b, portB);
    expect(session.status, session.message).toBe(200);
    const socket = new WebSocket(`${String(session.base).replace(/^http/, 'ws')}/ws`, {
      headers: { cookie: session.cookie ?? '' },
      createConnection: () => net.connect({ host: '127.0.0.1', port: portA }),
    });
    await once(socket, 'open');
    socket.send('through A');
    expect(String((await once(socket, 'message'))[0])).toBe('through A');
    const closed = once(socket, 'close');
    const ended = await api(b)('GET', `/svc/vpn2/api/v1/connections/${orgId}/press/disconnect`, adminToken);
    expect(ended.statusCode, ended.body).toBe(200);
    const startedAt = Date.now();
    await Promise.race([
      closed,
      new Promise((_, reject) => setTimeout(() => reject(new Error('the stream on A is still open')), 2_000)),
    ]);
    expect(Date.now() - startedAt).toBeLessThan(2_000);
  });

  it('forwards TCP sessions through B, whichever instance the agent’s data connections reach', async () => {
    const grant = await api(b)('POST', '/svc/vpn2/api/v1/credentials/request', adminToken, {
      domain: orgId,
      gateway: 'press',
      endpoint: 'echo',
      port: plant.echoPort,
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const forwarder = await startForwarder({
      server: `http://127.0.0.1:${portB}`,
      token: grant.json().token,
      localPort: 0,
    });
    try {
      for (let index = 0; index < 4; index += 1) {
        const socket = net.connect({ host: '127.0.0.1', port: forwarder.port });
        socket.end(`echo ${index}`);
        const chunks: Buffer[] = [];
        for await (const chunk of socket) chunks.push(chunk as Buffer);
        expect(Buffer.concat(chunks).toString()).toBe(`echo ${index}`);
      }
    } finally {
      await forwarder.close();
    }
  });

  it('refuses a stream asked of A without a valid instance signature', async () => {
    const ask = async (authorization: string) => {
      const target = `host=${plant.address}&port=${plant.echoPort}&kind=stream`;
      const socket = net.connect({ host: '127.0.0.1', port: portA });
      socket.write(
        `GET /internal/tunnel/${gatewayId}?${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n` +
          `Connection: Upgrade\r\nUpgrade: edgeport-internal\r\nAuthorization: ${authorization}\r\n\r\n`,
      );
      const chunks: Buffer[] = [];
      for await (const chunk of socket) chunks.push(chunk as Buffer);
      const answer = Buffer.concat(chunks).toString('latin1');
      return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
    };
    expect(await ask('Instance 1.x')).toBe(401);
    expect(await ask(`Instance ${Date.now()}.${'A'.repeat(43)}`)).toBe(401);
    const forwarder = a.app.tunnels.forwarder;
    if (!forwarder) throw new Error('A forwards nothing');
    // Signed for another target: refused too.
    const other = forwarder.auth.sign(['tunnel-stream', gatewayId, 'stream', plant.address, '22']);
    expect(await ask(other)).toBe(401);
  });

  it('a reset through B drops the tunnel on A; the agent comes back', async () => {
    const agent = agents[0];
    const reset = await api(b)(
      'GET',
      `/svc/vpn2/api/v1/gateways/press/${orgResource}/resetVpnConnection`,
      adminToken,
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ reset: true });
    await until(
      () => a.app.tunnels.isOnline(gatewayId),
      (online) => !online,
      5_000,
    );
    await agent?.whenConnected();
    expect(
      await until(
        () => a.app.tunnels.isOnline(gatewayId),
        (online) => online,
      ),
    ).toBe(true);
  });

  it('a new agent secret issued through B closes the old agent’s tunnel on A', async () => {
    const old = agents[0];
    await edgeConfig(b);
    await until(
      () => a.app.tunnels.isOnline(gatewayId),
      (online) => !online,
    );
    expect(a.app.tunnels.isOnline(gatewayId)).toBe(false);
    expect(
      await until(
        () => statusThrough(b),
        (status) => status === 'OFFLINE',
      ),
    ).toBe('OFFLINE');
    await old?.close();
    await connectAgent(b);
    expect(a.app.tunnels.isOnline(gatewayId)).toBe(true);
  });

  it('when A goes, the agent reconnects through the balancer to B and sessions open again', async () => {
    lb.primary = portB;
    lb.live = [portB];
    await a.close();
    aOpen = false;
    expect(
      await until(
        () => b.app.tunnels.isOnline(gatewayId),
        (online) => online,
      ),
    ).toBe(true);
    expect(await statusThrough(b)).toBe('ONLINE');
    const session = await browserSession(b, portB);
    expect(session.status, session.message).toBe(200);
    const page = await browse(portB, `${session.base ?? ''}/login`, { cookie: session.cookie ?? '' });
    expect(page.status).toBe(200);
  });
});
