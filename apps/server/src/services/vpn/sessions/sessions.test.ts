import type { AddressInfo } from 'node:net';
import type { AgentHandle } from '@edgeport/gateway-agent';
import { and, count, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  gatewayLogs,
  gateways,
  resourceJournal,
  roles,
  userRoles,
  users,
  vpnApplicationPasswords,
  vpnConnections,
  vpnSessions,
} from '../../../db/schema.ts';
import {
  connectAgent,
  type Plant,
  seedGateway,
  seedProfile,
  startPlant,
  type TestGateway,
} from '../../../tunnel/test-plant.ts';
import { createDevice } from '../../core/devices/provisioning.ts';
import { CONNECTION_IDLE_MS, SESSION_IDLE_MS, SESSION_MAX_MS, sweep } from './lifecycle.ts';
import { liveSessionsOf } from './live.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let plant: Plant;
const agents: AgentHandle[] = [];
const token: Record<string, string> = {};
let press: TestGateway;
let secure: TestGateway;
let filtered: TestGateway;
let bare: TestGateway;
let profile: { id: string; actions: Record<string, string> };
const TOTP_SECRET = new OTPAuth.Secret({ size: 20 }).base32;

const connections = (org: string, gateway: string) => `/svc/vpn2/api/v1/connections/${org}/${gateway}`;
const execute = (org: string, query: string) => `/svc/vpn2/api/v1/executeAction/${org}?${query}`;

function otpNow(): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(TOTP_SECRET),
    digits: 6,
    period: 30,
  }).generate();
}

function wrongOtp(): string {
  const right = otpNow();
  return right === '000000' ? '111111' : '000000';
}

async function rowCounts() {
  const { db } = server.database;
  const [sessions] = await db.select({ n: count() }).from(vpnSessions);
  const [conns] = await db.select({ n: count() }).from(vpnConnections);
  return { sessions: sessions?.n ?? 0, connections: conns?.n ?? 0 };
}

/** A user of org A with READ devices and a device role reaching `deviceIds` (vpn as given). */
async function deviceRoleUser(email: string, deviceIds: string[], vpn: boolean) {
  const { db } = server.database;
  const user = await userWithRole(server, 'acme', tenants.orgA.id, email, [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ]);
  const [role] = await db
    .insert(roles)
    .values({
      organizationId: tenants.orgA.id,
      name: `devices of ${email}`,
      kind: 'device',
      deviceAccess: { deviceGroupIds: [], deviceIds, vpn },
    })
    .returning();
  if (!role) throw new Error('no role');
  await db.insert(userRoles).values({ userId: user.id, roleId: role.id });
  return (await rptFor(server, 'acme', email, tenants.orgA.resourceId)).rpt;
}

beforeAll(async () => {
  plant = await startPlant();
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  const origin = `http://127.0.0.1:${(server.app.server.address() as AddressInfo).port}`;
  const { db } = server.database;
  const { orgA } = tenants;
  const lan = plant.lanNetwork;
  const web = { name: 'web', address: plant.address, protocol: 'HTTP' as const, port: plant.httpPort };
  const echo = { name: 'echo', address: plant.address, protocol: 'TCP' as const, port: plant.echoPort };
  profile = await seedProfile(db, orgA.id, 'Standard', false, [
    { name: 'Web UI', protocol: 'HTTP', port: plant.httpPort, path: '/login' },
    { name: 'VNC', protocol: 'TCP', port: 5900, clientOs: ['Win'] },
    { name: 'Echo', protocol: 'TCP', port: plant.echoPort, clientOs: ['Lin', 'Mac'] },
  ]);
  await seedProfile(db, orgA.id, 'Unused', false, [{ name: 'Elsewhere', protocol: 'TCP', port: 22 }]);
  const strict = await seedProfile(db, orgA.id, 'Strict', true, [
    { name: 'Strict web', protocol: 'HTTP', port: plant.httpPort },
  ]);
  press = await seedGateway(db, orgA.id, origin, {
    name: 'press',
    lanNetwork: lan,
    profileId: profile.id,
    endpoints: [web, echo],
  });
  secure = await seedGateway(db, orgA.id, origin, {
    name: 'secure',
    lanNetwork: lan,
    profileId: strict.id,
    endpoints: [web, echo],
  });
  filtered = await seedGateway(db, orgA.id, origin, {
    name: 'filtered',
    lanNetwork: lan,
    ipFilter: ['192.0.2.0/24'],
    endpoints: [web],
  });
  bare = await seedGateway(db, orgA.id, origin, { name: 'bare', lanNetwork: lan, endpoints: [web, echo] });
  await seedGateway(db, orgA.id, origin, { name: 'offline', lanNetwork: lan, endpoints: [web] });
  for (const gateway of [press, secure, filtered, bare]) agents.push(await connectAgent(gateway, lan));

  token.admin = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  token.adminB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const other = await createDevice(db, orgA.id, 'other-machine');
  token.tech = await deviceRoleUser('tech@acme-a.test', [press.row.deviceId], true);
  token.otherDevices = await deviceRoleUser('elsewhere@acme-a.test', [other.id], true);
  token.noVpn = await deviceRoleUser('novpn@acme-a.test', [press.row.deviceId], false);
}, 60_000);

afterAll(async () => {
  await Promise.all(agents.map((agent) => agent.close()));
  await server?.close();
  await plant?.close();
});

describe('jsonActions', () => {
  it('lists endpoints × the profile applications that fit the client system, or each endpoint’s own service', async () => {
    const org = tenants.orgA.resourceId;
    const linux = await call('GET', `${connections(org, 'press')}/jsonActions?clientOs=Linux`, token.admin);
    expect(linux.statusCode).toBe(200);
    const body = linux.json();
    expect(body).toMatchObject({ gateway: 'press', status: 'ONLINE', otpRequired: false, connected: false });
    expect(
      body.items.map((item: { endpoint: string; action: string }) => `${item.endpoint}:${item.action}`),
    ).toEqual(['echo:Echo', 'echo:Web UI', 'web:Echo', 'web:Web UI']);
    expect(body.items.find((item: { action: string }) => item.action === 'Web UI')).toMatchObject({
      protocol: 'HTTP',
      kind: 'BROWSER',
      actionId: profile.actions['Web UI'],
    });
    const windows = (
      await call('GET', `${connections(org, 'press')}/jsonActions?clientOs=Win`, token.admin)
    ).json();
    expect(new Set(windows.items.map((item: { action: string }) => item.action))).toEqual(
      new Set(['VNC', 'Web UI']),
    );
    const all = (await call('GET', `${connections(org, 'press')}/jsonActions`, token.admin)).json();
    expect(all.items).toHaveLength(6);

    const plain = (
      await call('GET', `${connections(org, 'bare')}/jsonActions?clientOs=Mac`, token.admin)
    ).json();
    expect(plain.items).toEqual([
      expect.objectContaining({
        endpoint: 'echo',
        action: 'default',
        actionId: null,
        protocol: 'TCP',
        kind: 'TCP',
      }),
      expect.objectContaining({ endpoint: 'web', action: 'default', protocol: 'HTTP', kind: 'BROWSER' }),
    ]);
    const strict = (await call('GET', `${connections(org, 'secure')}/jsonActions`, token.admin)).json();
    expect(strict.otpRequired).toBe(true);
    const down = (await call('GET', `${connections(org, 'offline')}/jsonActions`, token.admin)).json();
    expect(down.status).toBe('OFFLINE');
  });

  it('refuses unknown gateways, bad client systems and users without VPN permission', async () => {
    const org = tenants.orgA.resourceId;
    const unknown = await call('GET', `${connections(org, 'nope')}/jsonActions`, token.admin);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("gateway 'nope' not found");
    expect(
      (await call('GET', `${connections(org, 'press')}/jsonActions?clientOs=BeOS`, token.admin)).statusCode,
    ).toBe(400);
    expect(
      (await call('GET', `${connections(org, 'press')}/jsonActions`, token.otherDevices)).statusCode,
    ).toBe(403);
    expect((await call('GET', `${connections(org, 'press')}/jsonActions`, token.tech)).statusCode).toBe(200);
  });
});

describe('connect and disconnect', () => {
  it('opens a connection once, reuses it, reports it and ends it with its sessions', async () => {
    const org = tenants.orgA.id;
    const first = await call(
      'GET',
      `${connections(org, 'press')}/connect?clientOs=Linux&onlyGateway=false`,
      token.tech,
    );
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      gateway: 'press',
      endpoint: null,
      status: 'CONNECTED',
      otpVerified: false,
    });
    const again = await call('GET', `${connections(org, 'press')}/connect`, token.tech);
    expect(again.json().id).toBe(first.json().id);
    const jsonActions = (await call('GET', `${connections(org, 'press')}/jsonActions`, token.tech)).json();
    expect(jsonActions.connected).toBe(true);

    const endpoint = await call('GET', `${connections(org, 'press')}/endpoints/web/connect`, token.tech);
    expect(endpoint.json()).toMatchObject({ endpoint: 'web', status: 'CONNECTED' });
    expect(endpoint.json().id).not.toBe(first.json().id);

    const grant = await call(
      'GET',
      execute(org, 'gatewayName=press&endpointName=web&actionName=Web%20UI'),
      token.tech,
    );
    expect(grant.statusCode).toBe(200);
    const [session] = await server.database.db
      .select()
      .from(vpnSessions)
      .where(eq(vpnSessions.id, grant.json().sessionId));
    expect(session?.connectionId, 'a session runs under the endpoint’s connection').toBe(endpoint.json().id);

    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'vpn.connect'), eq(auditLog.resourceId, first.json().id)));
    expect(audit[0]?.detail).toMatchObject({ gateway: 'press', clientIp: '127.0.0.1', clientOs: 'Linux' });

    const off = await call('GET', `${connections(org, 'press')}/disconnect?onlyGateway=false`, token.tech);
    expect(off.statusCode).toBe(200);
    expect(
      off
        .json()
        .connections.map((c: { endpoint: string | null }) => c.endpoint)
        .sort(),
    ).toEqual([null, 'web'].sort());
    expect(off.json().connections.every((c: { status: string }) => c.status === 'DISCONNECTED')).toBe(true);
    expect(off.json().sessionsEnded).toBe(1);
    const [ended] = await server.database.db
      .select()
      .from(vpnSessions)
      .where(eq(vpnSessions.id, grant.json().sessionId));
    expect(ended).toMatchObject({ endReason: 'disconnect' });
    expect(ended?.endedAt).toBeInstanceOf(Date);
    const repeat = await call('GET', `${connections(org, 'press')}/disconnect`, token.tech);
    expect(repeat.json()).toEqual({ gateway: 'press', connections: [], sessionsEnded: 0 });
  });

  it('ends one endpoint’s connection and its sessions only', async () => {
    const org = tenants.orgA.id;
    await call('GET', `${connections(org, 'bare')}/connect`, token.admin);
    const web = await call(
      'GET',
      execute(org, 'gatewayName=bare&endpointName=web&actionName=default'),
      token.admin,
    );
    const echo = await call(
      'GET',
      execute(org, 'gatewayName=bare&endpointName=echo&actionName=default'),
      token.admin,
    );
    const off = await call('GET', `${connections(org, 'bare')}/endpoints/web/disconnect`, token.admin);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ connections: [], sessionsEnded: 1 });
    const rows = await server.database.db.select().from(vpnSessions);
    expect(rows.find((row) => row.id === web.json().sessionId)?.endedAt).toBeInstanceOf(Date);
    expect(rows.find((row) => row.id === echo.json().sessionId)?.endedAt).toBeNull();
    await call('GET', `${connections(org, 'bare')}/disconnect`, token.admin);
  });

  it('refuses an offline gateway (409), unknown names (404) and a client outside the IP filter (403)', async () => {
    const org = tenants.orgA.id;
    const down = await call('GET', `${connections(org, 'offline')}/connect`, token.admin);
    expect(down.statusCode).toBe(409);
    expect(down.json().message).toBe('gateway: offline is offline');
    const before = await rowCounts();
    expect((await call('GET', `${connections(org, 'ghost')}/connect`, token.admin)).statusCode).toBe(404);
    const noEndpoint = await call('GET', `${connections(org, 'press')}/endpoints/ghost/connect`, token.admin);
    expect(noEndpoint.statusCode).toBe(404);
    expect(noEndpoint.json().message).toBe("endpoint 'ghost' not found on gateway 'press'");
    const filteredOut = await call('GET', `${connections(org, 'filtered')}/connect`, token.admin);
    expect(filteredOut.statusCode).toBe(403);
    expect(filteredOut.json().message).toMatch(
      /^ipFilter: the client address 127\.0\.0\.1 may not use gateway/,
    );
    const filteredAction = await call(
      'GET',
      execute(org, 'gatewayName=filtered&endpointName=web&actionName=default'),
      token.admin,
    );
    expect(filteredAction.statusCode).toBe(403);
    expect(await rowCounts()).toEqual(before);
  });

  it('gives users without VPN permission on the gateway 403 everywhere, and opens nothing', async () => {
    const org = tenants.orgA.id;
    const before = await rowCounts();
    for (const who of [token.otherDevices, token.noVpn]) {
      const attempts = [
        await call('GET', `${connections(org, 'press')}/connect`, who),
        await call('GET', `${connections(org, 'press')}/endpoints/web/connect`, who),
        await call('GET', execute(org, 'gatewayName=press&endpointName=web&actionName=Web%20UI'), who),
        await call(
          'GET',
          `/svc/vpn2/api/v1/executeAction?gatewayName=press&endpointName=web&actionName=default`,
          who,
        ),
        await call('POST', '/svc/vpn2/api/v1/credentials/request', who, {
          domain: org,
          gateway: 'press',
          endpoint: 'echo',
          port: plant.echoPort,
        }),
      ];
      for (const attempt of attempts) {
        expect(attempt.statusCode).toBe(403);
        expect(attempt.json().message).toBe("vpn: remote access to gateway 'press' is not granted");
      }
    }
    expect(await rowCounts()).toEqual(before);
  });
});

describe('one-time passwords', () => {
  it('asks for TOTP set-up, refuses a missing or wrong code, and connects with the right one', async () => {
    const org = tenants.orgA.id;
    const { db } = server.database;
    const before = await rowCounts();
    const notSetUp = await call('GET', `${connections(org, 'secure')}/connect?otp=123456`, token.admin);
    expect(notSetUp.statusCode).toBe(403);
    expect(notSetUp.json().message).toBe('otp: set up two-factor sign-in first');
    await db.update(users).set({ totpSecret: TOTP_SECRET }).where(eq(users.id, tenants.adminA.id));

    const missing = await call('GET', `${connections(org, 'secure')}/connect`, token.admin);
    expect(missing.statusCode).toBe(403);
    expect(missing.json().message).toMatch(/^otp: /);
    const wrong = await call('GET', `${connections(org, 'secure')}/connect?otp=${wrongOtp()}`, token.admin);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('otp: the one-time password is not valid');
    const malformed = await call('GET', `${connections(org, 'secure')}/connect?otp=12ab56`, token.admin);
    expect(malformed.statusCode).toBe(400);
    const sessionFirst = await call(
      'GET',
      execute(org, 'gatewayName=secure&endpointName=web&actionName=Strict%20web'),
      token.admin,
    );
    expect(sessionFirst.statusCode).toBe(403);
    expect(sessionFirst.json().message).toBe('otp: connect with a one-time password first');
    const tcpWrong = await call('POST', '/svc/vpn2/api/v1/credentials/request', token.admin, {
      domain: org,
      gateway: 'secure',
      endpoint: 'echo',
      port: plant.echoPort,
      otp: wrongOtp(),
    });
    expect(tcpWrong.statusCode).toBe(403);
    expect(await rowCounts()).toEqual(before);

    const check = await call('GET', `${connections(org, 'secure')}/checkotp?otp=${otpNow()}`, token.admin);
    expect(check.json()).toEqual({ valid: true });
    expect(
      (await call('GET', `${connections(org, 'secure')}/checkotp?otp=${wrongOtp()}`, token.admin)).json(),
    ).toEqual({
      valid: false,
    });
    expect(await rowCounts(), 'checkotp changes nothing').toEqual(before);

    const right = await call('GET', `${connections(org, 'secure')}/connect?otp=${otpNow()}`, token.admin);
    expect(right.statusCode).toBe(200);
    expect(right.json()).toMatchObject({ otpVerified: true, status: 'CONNECTED' });
    const opened = await call(
      'GET',
      execute(org, 'gatewayName=secure&endpointName=web&actionName=Strict%20web'),
      token.admin,
    );
    expect(opened.statusCode).toBe(200);
    expect(opened.json().kind).toBe('BROWSER');
    await call('GET', `${connections(org, 'secure')}/disconnect`, token.admin);

    const onTheFly = await call('POST', '/svc/vpn2/api/v1/credentials/request', token.admin, {
      domain: org,
      gateway: 'secure',
      endpoint: 'echo',
      port: plant.echoPort,
      otp: otpNow(),
    });
    expect(onTheFly.statusCode).toBe(200);
    const open = await db
      .select()
      .from(vpnConnections)
      .where(and(eq(vpnConnections.gatewayId, secure.row.id), eq(vpnConnections.otpVerified, true)));
    expect(open.filter((row) => row.endedAt === null)).toHaveLength(1);
    await call('GET', `${connections(org, 'secure')}/disconnect`, token.admin);
  });
});

describe('executeAction and credentials', () => {
  it('answers a browser session with a one-time link, and a TCP session with a token and command', async () => {
    const org = tenants.orgA.resourceId;
    const browser = await call(
      'GET',
      execute(org, 'gatewayName=press&endpointName=web&actionName=Web%20UI&clientOs=Linux'),
      token.admin,
    );
    expect(browser.statusCode).toBe(200);
    const grant = browser.json();
    expect(grant).toMatchObject({ kind: 'BROWSER', gateway: 'press', endpoint: 'web', port: plant.httpPort });
    expect(grant.url, "absolute, on the session's own origin").toMatch(
      new RegExp(
        `^http://${grant.sessionId}\\.remote\\.localhost:8080/remote/${grant.sessionId}/login\\?edgeport_ticket=[A-Za-z0-9_-]{43}$`,
      ),
    );
    expect(grant.token).toBeUndefined();
    const [row] = await server.database.db
      .select()
      .from(vpnSessions)
      .where(eq(vpnSessions.id, grant.sessionId));
    expect(row).toMatchObject({
      kind: 'BROWSER',
      protocol: 'HTTP',
      targetAddress: plant.address,
      clientIp: '127.0.0.1',
    });
    expect(row?.ticketHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(grant.url.split('=')[1]);

    const tcp = await call(
      'GET',
      `/svc/vpn2/api/v1/executeAction?gatewayName=press&endpointName=echo&actionName=Echo`,
      token.admin,
    );
    expect(tcp.statusCode, 'without a domain: the token’s organization').toBe(200);
    const tcpGrant = tcp.json();
    expect(tcpGrant).toMatchObject({ kind: 'TCP', port: plant.echoPort });
    expect(tcpGrant.token).toMatch(new RegExp(`^${tcpGrant.sessionId}\\.[A-Za-z0-9_-]{43}$`));
    expect(tcpGrant.command).toBe(
      `edgeport connect --server http://localhost:8080 --token ${tcpGrant.token} --local-port ${plant.echoPort}`,
    );
    const ssh = await call('POST', '/svc/vpn2/api/v1/credentials/request', token.admin, {
      domain: org,
      gateway: 'press',
      endpoint: 'web',
      port: 22,
    });
    expect(ssh.statusCode).toBe(200);
    expect(ssh.json()).toMatchObject({ kind: 'TCP', port: 22 });
    expect(ssh.json().command).toMatch(/--local-port 10022$/);

    const started = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'vpn.session.start'), eq(auditLog.resourceId, grant.sessionId)));
    expect(started[0]?.detail).toMatchObject({
      gateway: 'press',
      endpoint: 'web',
      application: 'Web UI',
      kind: 'BROWSER',
    });
    const logs = await server.database.db
      .select()
      .from(gatewayLogs)
      .where(eq(gatewayLogs.gatewayId, press.row.id));
    expect(logs.some((line) => line.message === `session started: ${tenants.adminA.email}`)).toBe(true);
    await call('GET', `${connections(org, 'press')}/disconnect`, token.admin);
  });

  it('names what is missing: gateway, endpoint, application, or an application outside the profile', async () => {
    const org = tenants.orgA.id;
    const cases: [string, string][] = [
      ['gatewayName=nope&endpointName=web&actionName=Web%20UI', "gateway 'nope' not found"],
      [
        'gatewayName=press&endpointName=nope&actionName=Web%20UI',
        "endpoint 'nope' not found on gateway 'press'",
      ],
      ['gatewayName=press&endpointName=web&actionName=Nope', "application 'Nope' not found"],
      [
        'gatewayName=press&endpointName=web&actionName=Elsewhere',
        "application 'Elsewhere' is not offered on gateway 'press' (not in its profile)",
      ],
      [
        'gatewayName=bare&endpointName=web&actionName=Web%20UI',
        "application 'Web UI' is not offered on gateway 'bare' (not in its profile)",
      ],
    ];
    for (const [query, message] of cases) {
      const answer = await call('GET', execute(org, query), token.admin);
      expect(answer.statusCode, query).toBe(404);
      expect(answer.json().message).toBe(message);
    }
    const unknownDomain = await call(
      'GET',
      execute('no-such-org', 'gatewayName=press&endpointName=web&actionName=default'),
      token.admin,
    );
    expect(unknownDomain.statusCode).toBe(404);
    const offlineAnswer = await call(
      'GET',
      execute(org, 'gatewayName=offline&endpointName=web&actionName=default'),
      token.admin,
    );
    expect(offlineAnswer.statusCode).toBe(409);
  });

  it('stores an application password encrypted and hands it back to its owner only', async () => {
    const org = tenants.orgA.id;
    const { db } = server.database;
    const actionId = profile.actions.VNC as string;
    const stored = await call('POST', '/svc/vpn2/api/v1/setApplicationPassword', token.tech, {
      domain: org,
      actionId,
      password: 'vnc-secret-42',
    });
    expect(stored.statusCode).toBe(204);
    const [row] = await db
      .select()
      .from(vpnApplicationPasswords)
      .where(eq(vpnApplicationPasswords.actionId, actionId));
    expect(row?.secret).toMatch(/^[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(row?.secret).not.toContain('vnc-secret-42');
    const mine = await call(
      'GET',
      execute(org, 'gatewayName=press&endpointName=web&actionName=VNC'),
      token.tech,
    );
    expect(mine.json().applicationPassword).toBe('vnc-secret-42');
    const theirs = await call(
      'GET',
      execute(org, 'gatewayName=press&endpointName=web&actionName=VNC'),
      token.admin,
    );
    expect(theirs.json().applicationPassword).toBeUndefined();
    const replaced = await call('POST', '/svc/vpn2/api/v1/setApplicationPassword', token.tech, {
      domain: org,
      actionId,
      password: 'changed',
    });
    expect(replaced.statusCode).toBe(204);
    const again = await call(
      'GET',
      execute(org, 'gatewayName=press&endpointName=web&actionName=VNC'),
      token.tech,
    );
    expect(again.json().applicationPassword).toBe('changed');
    const audit = await db.select().from(auditLog).where(eq(auditLog.action, 'vpn.applicationPassword.set'));
    expect(audit).toHaveLength(2);
    expect(JSON.stringify(audit)).not.toContain('changed');
    const unknown = await call('POST', '/svc/vpn2/api/v1/setApplicationPassword', token.tech, {
      domain: org,
      actionId: '00000000-0000-4000-8000-000000000000',
      password: 'x',
    });
    expect(unknown.statusCode).toBe(404);
    await call('GET', `${connections(org, 'press')}/disconnect`, token.tech);
    await call('GET', `${connections(org, 'press')}/disconnect`, token.admin);
  });
});

describe('the end of a session', () => {
  it('writes the audit record and the VPN minutes when a session ends', async () => {
    const org = tenants.orgA.id;
    const { db } = server.database;
    const grant = (
      await call('GET', execute(org, 'gatewayName=bare&endpointName=echo&actionName=default'), token.tech)
    ).json();
    expect(grant.sessionId, 'the tech user may not open bare').toBeUndefined();
    const opened = (
      await call('GET', execute(org, 'gatewayName=press&endpointName=echo&actionName=Echo'), token.tech)
    ).json();
    await call('GET', `${connections(org, 'press')}/disconnect`, token.tech);
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'vpn.session.end'), eq(auditLog.resourceId, opened.sessionId)));
    expect(audit).toMatchObject({ actorEmail: 'tech@acme-a.test', organizationId: tenants.orgA.id });
    expect(audit?.detail).toMatchObject({
      who: 'tech@acme-a.test',
      gateway: 'press',
      endpoint: 'echo',
      clientIp: '127.0.0.1',
      kind: 'TCP',
      bytesIn: 0,
      bytesOut: 0,
      minutes: 1,
      reason: 'disconnect',
    });
    expect(typeof (audit?.detail as { seconds?: unknown } | undefined)?.seconds).toBe('number');
    const journal = await db
      .select()
      .from(resourceJournal)
      .where(
        and(eq(resourceJournal.subjectId, opened.sessionId), eq(resourceJournal.resourceType, 'vpnMinutes')),
      );
    expect(journal).toEqual([
      expect.objectContaining({ delta: 1, reason: 'vpn.session', organizationId: tenants.orgA.id }),
    ]);
  });

  it('sweeps sessions idle 30 minutes or older than 12 hours, then their idle connections', async () => {
    const org = tenants.orgA.id;
    const { db } = server.database;
    const live = liveSessionsOf(server.app.tunnels, db);
    const idle = (
      await call('GET', execute(org, 'gatewayName=press&endpointName=web&actionName=Web%20UI'), token.admin)
    ).json();
    const busy = (
      await call('GET', execute(org, 'gatewayName=press&endpointName=echo&actionName=Echo'), token.admin)
    ).json();
    const now = Date.now();
    await db
      .update(vpnSessions)
      .set({ lastActivityAt: new Date(now - SESSION_IDLE_MS - 1000) })
      .where(eq(vpnSessions.id, idle.sessionId));
    expect(await sweep(db, live, new Date(now))).toEqual({ sessions: 1, connections: 0 });
    const [idleRow] = await db.select().from(vpnSessions).where(eq(vpnSessions.id, idle.sessionId));
    expect(idleRow?.endReason).toBe('idle');
    // Twelve hours later the other session is too old, and its connection idle afterwards.
    await db
      .update(vpnSessions)
      .set({ lastActivityAt: new Date(now + SESSION_MAX_MS) })
      .where(eq(vpnSessions.id, busy.sessionId));
    expect(await sweep(db, live, new Date(now + SESSION_MAX_MS + 1000))).toMatchObject({ sessions: 1 });
    const [busyRow] = await db.select().from(vpnSessions).where(eq(vpnSessions.id, busy.sessionId));
    expect(busyRow?.endReason).toBe('expired');
    const later = new Date(now + SESSION_MAX_MS + CONNECTION_IDLE_MS + 60_000);
    expect((await sweep(db, live, later)).connections).toBeGreaterThanOrEqual(1);
    const open = await db
      .select()
      .from(vpnConnections)
      .where(and(eq(vpnConnections.gatewayId, press.row.id), eq(vpnConnections.userId, tenants.adminA.id)));
    expect(open.every((row) => row.endedAt !== null)).toBe(true);
  });
});

describe('a gateway reset', () => {
  it("ends the gateway's open sessions (end time, reason, audit) and only those", async () => {
    const org = tenants.orgA.id;
    const { db } = server.database;
    const browser = (
      await call('GET', execute(org, 'gatewayName=press&endpointName=web&actionName=default'), token.admin)
    ).json();
    const tcp = (
      await call('GET', execute(org, 'gatewayName=press&endpointName=echo&actionName=default'), token.admin)
    ).json();
    const elsewhere = (
      await call('GET', execute(org, 'gatewayName=bare&endpointName=echo&actionName=default'), token.admin)
    ).json();
    const reset = await call(
      'GET',
      `/svc/vpn2/api/v1/gateways/press/${tenants.orgA.resourceId}/resetVpnConnection`,
      token.admin,
    );
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ gateway: 'press', reset: true });
    for (const id of [browser.sessionId, tcp.sessionId]) {
      const [row] = await db.select().from(vpnSessions).where(eq(vpnSessions.id, id));
      expect(row?.endedAt, id).toBeInstanceOf(Date);
      expect(row?.endReason).toBe('gateway reset');
      const ended = await db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, 'vpn.session.end'), eq(auditLog.resourceId, id)));
      expect(ended[0]?.detail).toMatchObject({ gateway: 'press', reason: 'gateway reset' });
    }
    const [untouched] = await db.select().from(vpnSessions).where(eq(vpnSessions.id, elsewhere.sessionId));
    expect(untouched?.endedAt, "another gateway's session stays open").toBeNull();
    const [audited] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'gateways.reset'), eq(auditLog.resourceId, press.row.id)));
    expect(audited?.detail).toMatchObject({ tunnelDropped: true });
    expect((audited?.detail as { sessionsEnded?: number } | undefined)?.sessionsEnded).toBeGreaterThanOrEqual(
      2,
    );
    // The agent reconnects by itself; later tests use the gateway.
    const deadline = Date.now() + 10_000;
    while (!server.app.tunnels.isOnline(press.row.id) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 25));
    expect(server.app.tunnels.isOnline(press.row.id)).toBe(true);
  });
});

describe('a gateway whose tunnel is down', () => {
  it('has its open sessions ended by the sweeper', async () => {
    const org = tenants.orgA.id;
    const { db } = server.database;
    const grant = (
      await call('GET', execute(org, 'gatewayName=bare&endpointName=echo&actionName=default'), token.admin)
    ).json();
    expect(grant.kind).toBe('TCP');
    const agent = agents[3] as AgentHandle;
    await agent.close();
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const [row] = await db
        .select({ status: gateways.status })
        .from(gateways)
        .where(eq(gateways.id, bare.row.id));
      if (row?.status === 'OFFLINE') break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await sweep(db, liveSessionsOf(server.app.tunnels, db));
    const [row] = await db.select().from(vpnSessions).where(eq(vpnSessions.id, grant.sessionId));
    expect(row?.endReason).toBe('gateway offline');
  });
});

describe('another organization', () => {
  it("answers 403/404 to another organization's administrator on every route and changes nothing", async () => {
    const orgs = [tenants.orgA.id, tenants.orgA.resourceId];
    const before = await rowCounts();
    for (const org of orgs) {
      const attempts = [
        await call('GET', `${connections(org, 'press')}/jsonActions`, token.adminB),
        await call('GET', `${connections(org, 'press')}/connect`, token.adminB),
        await call('GET', `${connections(org, 'press')}/endpoints/web/connect`, token.adminB),
        await call('GET', `${connections(org, 'press')}/disconnect`, token.adminB),
        await call('GET', `${connections(org, 'press')}/endpoints/web/disconnect`, token.adminB),
        await call('GET', `${connections(org, 'press')}/checkotp?otp=123456`, token.adminB),
        await call(
          'GET',
          execute(org, 'gatewayName=press&endpointName=web&actionName=default'),
          token.adminB,
        ),
        await call('POST', '/svc/vpn2/api/v1/credentials/request', token.adminB, {
          domain: org,
          gateway: 'press',
          endpoint: 'echo',
          port: 22,
        }),
        await call('POST', '/svc/vpn2/api/v1/setApplicationPassword', token.adminB, {
          domain: org,
          actionId: profile.actions.VNC,
          password: 'x',
        }),
      ];
      for (const attempt of attempts) expect([403, 404]).toContain(attempt.statusCode);
    }
    // B's own organization has no such gateway (and VPN on B is not about A's names).
    const own = await call(
      'GET',
      `/svc/vpn2/api/v1/executeAction?gatewayName=press&endpointName=web&actionName=default`,
      token.adminB,
    );
    expect([403, 404]).toContain(own.statusCode);
    expect(await rowCounts()).toEqual(before);
    const passwords = await server.database.db.select().from(vpnApplicationPasswords);
    expect(passwords.every((row) => row.organizationId === tenants.orgA.id)).toBe(true);
  });
});
