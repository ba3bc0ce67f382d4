/**
 * Remote access end to end with real processes in network namespaces (see netns.ts): a plant runs nginx, OpenSSH's
 * sshd and the gateway agent; the office, which cannot reach the plant, runs Chromium, the companion CLI and `ssh`;
 * the portal server runs in the root namespace between them. Needs root, iproute2, nginx, openssh-server and
 * openssh-client and Debian's Chromium (scripts/test.sh installs them).
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, roles, userRoles, users, vpnSessions } from '../../src/db/schema.ts';
import { newTotpSecret, totpFor } from '../../src/identity/accounts.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { freePort } from '../support/server-process.ts';
import { rptFor } from '../support/tokens.ts';
import {
  createLab,
  type Lab,
  type LabProcess,
  officeChromium,
  type PlantSsh,
  type PlantWeb,
  startNginx,
  startSshd,
  tcpConnects,
} from './netns.ts';

const REALM = 'netns';
const BASE = '/svc/vpn2/api/v1';
const GATEWAY = 'Plant gateway';
const PASSWORD = 'correct horse battery';
const REPO = path.join(import.meta.dirname, '../../../..');
const AGENT_CLI = path.join(REPO, 'apps/gateway-agent/src/cli.ts');
const COMPANION_CLI = path.join(REPO, 'apps/companion/src/cli.ts');
const EVERYTHING = ['READ', 'CREATE', 'UPDATE', 'DELETE', 'ACCESS'];
/** The agent's log line of a successful registration (not "disconnected"). */
const CONNECTED = /(?:^|\s)connected as gateway\b/;

type Answer = { status: number; body: Record<string, unknown> };
type Grant = { sessionId: string; url?: string; token?: string; command?: string };

let lab: Lab;
let web: PlantWeb;
let ssh: PlantSsh;
let server: TestServer;
let port: number;
let origin: string;
let domain: string;
let agent: LabProcess;
let browser: Browser;
/** The browser session of the first page test, which the gateway reset later ends. */
let firstBrowserSession = '';
/** The companion's session of the ssh test, which the gateway reset later ends too. */
let tcpSession = '';
const tokens: Record<'admin' | 'outsider' | 'guesser', string> = { admin: '', outsider: '', guesser: '' };
const totpSecrets: Record<'admin' | 'guesser', string> = { admin: '', guesser: '' };

/** Calls the API from a page the office's Chromium holds on the portal origin, as the portal's own pages do. */
async function officeApi(page: Page, token: string, method: string, url: string, body?: unknown) {
  return page.evaluate(
    async ({ method, url, token, body }) => {
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: Record<string, unknown> = {};
      try {
        parsed = JSON.parse(text) as Record<string, unknown>;
      } catch {
        parsed = { text };
      }
      return { status: response.status, body: parsed };
    },
    { method, url: `${BASE}${url}`, token, body },
  ) as Promise<Answer>;
}

async function officePage(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${origin}/healthz`);
  return { context, page };
}

function currentOtp(secret: string, email: string): string {
  return totpFor({ email }, 'edgeport', secret).generate();
}

async function connect(page: Page, token: string, otp: string): Promise<Answer> {
  return officeApi(
    page,
    token,
    'GET',
    `/connections/${domain}/${encodeURIComponent(GATEWAY)}/connect?onlyGateway=false&otp=${otp}`,
  );
}

function executeAction(page: Page, token: string) {
  const query = new URLSearchParams({
    gatewayName: GATEWAY,
    endpointName: 'HMI',
    actionName: 'Web',
    clientOs: 'Lin',
  });
  return officeApi(page, token, 'GET', `/executeAction/${domain}?${query}`);
}

/**
 * Opens a browser-access session as the administrator and shows its page in a fresh office browser context. The
 * session answers on its own host name, `{session}.remote.localhost:8080` (the test server's public origin), which the
 * office's Chromium resolves to the server's address there (`--host-resolver-rules`).
 */
async function openPlantPage(): Promise<{ context: BrowserContext; page: Page; grant: Grant; base: string }> {
  const { context, page } = await officePage();
  const answer = await executeAction(page, tokens.admin);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  const grant = answer.body as Grant;
  const url = new URL(grant.url ?? '');
  expect(url.hostname).toBe(`${grant.sessionId}.remote.localhost`);
  expect(url.pathname).toMatch(new RegExp(`^/remote/${grant.sessionId}/`));
  await page.goto(url.href);
  return { context, page, grant, base: `${url.origin}/remote/${grant.sessionId}` };
}

beforeAll(async () => {
  lab = await createLab();
  [web, ssh] = await Promise.all([startNginx(lab), startSshd(lab)]);

  port = await freePort();
  server = await startTestServer({ testFixtures: true });
  // Every address of the root namespace: the office reaches it at one veth address, the plant at the other.
  await server.app.listen({ host: '0.0.0.0', port });
  origin = `http://${lab.officeServerAddress}:${port}`;

  const permissions = EVERYTHING.flatMap((scope) =>
    ['devices', 'portal'].map((rsname) => ({ rsname, scopes: [scope] })),
  );
  const seeded = await server.app.inject({
    method: 'POST',
    url: '/test-support/tenants',
    payload: {
      realm: REALM,
      organizations: [{ key: 'plant', name: 'Plant operator', vpnEnabled: true }],
      users: [
        {
          key: 'admin',
          email: 'admin@netns.test',
          password: PASSWORD,
          memberships: [{ org: 'plant', permissions }],
        },
        {
          key: 'outsider',
          email: 'outsider@netns.test',
          password: PASSWORD,
          memberships: [{ org: 'plant', permissions }],
        },
        {
          key: 'guesser',
          email: 'guesser@netns.test',
          password: PASSWORD,
          memberships: [{ org: 'plant', permissions }],
        },
      ],
      devices: [{ org: 'plant', label: 'Other machine' }],
      gateways: [
        {
          org: 'plant',
          name: GATEWAY,
          lanNetwork: lab.lanNetwork,
          profile: { name: 'Plant with OTP', otpRequired: true },
          endpoints: [
            { name: 'HMI', address: lab.lanAddress, protocol: 'HTTP', port: 80 },
            { name: 'Shell', address: lab.lanAddress, protocol: 'TCP', port: 22 },
          ],
          actions: [
            { name: 'Web', protocol: 'HTTP', port: 80, path: '/' },
            { name: 'SSH', protocol: 'TCP', port: 22 },
          ],
        },
      ],
    },
  });
  expect(seeded.statusCode, seeded.body).toBe(201);
  const tenant = seeded.json() as {
    organizations: Record<string, { id: string; resourceId: string }>;
    users: Record<string, { id: string; email: string }>;
    devices: Record<string, string>;
    gateways: Record<string, { name: string; id: string; deviceId: string; activationKey: string }>;
  };
  const org = tenant.organizations.plant;
  const gateway = tenant.gateways[GATEWAY];
  const other = tenant.devices['Other machine'];
  if (!org || !gateway || !other)
    throw new Error(`fixture answer lacks what the test seeded: ${seeded.body}`);
  domain = org.resourceId;

  // The outsider's device role reaches another device only (with VPN), not the gateway's.
  const { db } = server.database;
  const [deviceRole] = await db
    .insert(roles)
    .values({
      organizationId: org.id,
      name: 'Other machine only',
      kind: 'device',
      deviceAccess: { deviceIds: [other], deviceGroupIds: [], vpn: true },
    })
    .returning();
  const outsider = tenant.users.outsider;
  if (!deviceRole || !outsider) throw new Error('device role not created');
  await db.insert(userRoles).values({ userId: outsider.id, roleId: deviceRole.id });

  for (const key of ['admin', 'outsider', 'guesser'] as const) {
    tokens[key] = (await rptFor(server, REALM, `${key}@netns.test`, domain)).rpt;
  }
  // Two-factor sign-in set up after the tokens were issued (the test's password login has no OTP step).
  for (const key of ['admin', 'guesser'] as const) {
    totpSecrets[key] = newTotpSecret();
    await db
      .update(users)
      .set({ totpSecret: totpSecrets[key] })
      .where(eq(users.email, `${key}@netns.test`));
  }

  // The edge configuration file, as the administrator downloads it, with the server address the plant reaches.
  const file = await server.app.inject({
    method: 'POST',
    url: `${BASE}/gateways/${domain}/${encodeURIComponent(GATEWAY)}/edge-config-file`,
    headers: { host: `${REALM}.app.localhost:8080`, authorization: `Bearer ${tokens.admin}` },
    payload: { activationKey: gateway.activationKey },
  });
  expect(file.statusCode, file.body).toBe(200);
  const config = file.json() as { tunnelUrl: string; server: string };
  expect(new URL(config.tunnelUrl).pathname).toBe('/tunnel');
  const configFile = path.join(lab.dir, 'edge-config.json');
  await writeFile(
    configFile,
    JSON.stringify({
      ...config,
      server: `http://${lab.plantServerAddress}:${port}`,
      tunnelUrl: `ws://${lab.plantServerAddress}:${port}/tunnel`,
    }),
  );
  agent = lab.spawnIn(lab.plant, process.execPath, [AGENT_CLI, '--config', configFile]);
  await agent.waitFor(CONNECTED);

  browser = await chromium.launch({
    executablePath: await officeChromium(lab),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      `--host-resolver-rules=MAP *.remote.localhost ${lab.officeServerAddress}:${port}`,
    ],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close().catch(() => undefined);
  await agent?.stop();
  await server?.close();
  await lab?.close();
});

describe('remote access between network namespaces', () => {
  it('the office reaches the portal but not the plant', async () => {
    expect(await tcpConnects(lab, lab.office, lab.officeServerAddress, port)).toBe(true);
    expect(await tcpConnects(lab, lab.office, lab.lanAddress, 80)).toBe(false);
    expect(await tcpConnects(lab, lab.office, lab.lanAddress, 22)).toBe(false);
    expect(await tcpConnects(lab, lab.office, lab.plantUplinkAddress, 80)).toBe(false);
    // The plant's machines are up (from inside the plant).
    expect(await tcpConnects(lab, lab.plant, lab.lanAddress, 80)).toBe(true);
  });

  it("a browser in the office shows the plant's page, follows its redirect and keeps its cookie", async () => {
    const { context, page: apiPage } = await officePage();
    const connected = await connect(apiPage, tokens.admin, currentOtp(totpSecrets.admin, 'admin@netns.test'));
    expect(connected.status, JSON.stringify(connected.body)).toBe(200);
    await context.close();

    const before = await web.requestCount();
    const { context: session, page, base, grant } = await openPlantPage();
    firstBrowserSession = grant.sessionId;
    await expect.poll(() => page.locator('#marker').textContent()).toBe(web.marker);
    // The ticket was traded for the session cookie: the address no longer carries it.
    expect(page.url()).not.toContain('edgeport_ticket');
    expect(page.url()).toBe(`${base}/`);
    expect(await web.requestCount()).toBeGreaterThan(before);

    // nginx answers /go with an absolute redirect to its own address: the browser stays inside the session.
    await page.goto(`${base}/go`);
    await expect.poll(() => page.locator('#landing').textContent()).toBe(web.landingMarker);
    expect(page.url()).toBe(`${base}/landing.html`);

    await page.goto(`${base}/set-cookie`);
    await expect.poll(() => page.locator('#cookie-set').textContent()).toBe('cookie set');
    await page.goto(`${base}/show-cookie`);
    await expect.poll(() => page.locator('#cookie').textContent()).toContain(`plant_session=${web.marker}`);
    await session.close();
  });

  it('the companion CLI in the office carries an ssh session to the plant', async () => {
    const { context, page } = await officePage();
    const answer = await officeApi(page, tokens.admin, 'POST', '/credentials/request', {
      domain,
      gateway: GATEWAY,
      endpoint: 'Shell',
      port: 22,
    });
    await context.close();
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const grant = answer.body as Grant;
    expect(grant.token).toMatch(new RegExp(`^${grant.sessionId}\\.`));

    const localPort = 2222;
    const companion = lab.spawnIn(lab.office, process.execPath, [
      COMPANION_CLI,
      'connect',
      '--server',
      origin,
      '--token',
      grant.token ?? '',
      '--local-port',
      String(localPort),
    ]);
    try {
      await companion.waitFor(/listening on 127\.0\.0\.1:2222/);
      const result = await lab.execIn(lab.office, 'ssh', [
        '-F',
        '/dev/null',
        '-p',
        String(localPort),
        '-i',
        ssh.identityFile,
        '-o',
        'StrictHostKeyChecking=no',
        '-o',
        'UserKnownHostsFile=/dev/null',
        '-o',
        'BatchMode=yes',
        `${ssh.user}@127.0.0.1`,
        'echo',
        'through-the-tunnel',
      ]);
      expect(result.stdout, result.stderr).toBe('through-the-tunnel\n');
      expect(result.code).toBe(0);
    } finally {
      await companion.stop();
    }
    tcpSession = grant.sessionId;
  });

  it("a user whose device role does not reach the gateway's device gets 403 and nothing reaches nginx", async () => {
    const before = await web.requestCount();
    const { context, page } = await officePage();
    // Refused for the permission itself (the same general rights as the administrator; only the device role differs).
    const action = await executeAction(page, tokens.outsider);
    expect(action.status).toBe(403);
    expect(String(action.body.message)).toContain('is not granted');
    const tcp = await officeApi(page, tokens.outsider, 'POST', '/credentials/request', {
      domain,
      gateway: GATEWAY,
      endpoint: 'HMI',
      port: 80,
    });
    expect(tcp.status).toBe(403);
    expect(String(tcp.body.message)).toContain('is not granted');
    await context.close();
    expect(await web.requestCount()).toBe(before);
  });

  it('a wrong one-time password gets 403 and nothing reaches nginx', async () => {
    const before = await web.requestCount();
    const { context, page } = await officePage();
    const right = currentOtp(totpSecrets.guesser, 'guesser@netns.test');
    const wrong = String((Number(right) + 500_000) % 1_000_000).padStart(6, '0');
    const connected = await connect(page, tokens.guesser, wrong);
    expect(connected.status).toBe(403);
    expect(String(connected.body.message)).toContain('otp: the one-time password is not valid');
    // Without a connection whose OTP was verified, no session opens.
    const action = await executeAction(page, tokens.guesser);
    expect(action.status).toBe(403);
    expect(String(action.body.message)).toContain('otp');
    const tcp = await officeApi(page, tokens.guesser, 'POST', '/credentials/request', {
      domain,
      gateway: GATEWAY,
      endpoint: 'HMI',
      port: 80,
      otp: wrong,
    });
    expect(tcp.status).toBe(403);
    expect(String(tcp.body.message)).toContain('otp');
    expect(await web.requestCount()).toBe(before);

    // The control: the same user with the right one-time password is let in.
    const granted = await connect(page, tokens.guesser, right);
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect((await executeAction(page, tokens.guesser)).status).toBe(200);
    await context.close();
  });

  it('a session address without its ticket or cookie shows nothing of the plant', async () => {
    const { context, grant, base } = await openPlantPage();
    await context.close();
    const before = await web.requestCount();
    const stranger = await browser.newContext();
    const page = await stranger.newPage();
    const response = await page.goto(`${base}/`);
    expect(response?.status()).toBeGreaterThanOrEqual(400);
    expect(await page.content()).not.toContain(web.marker);
    // On the portal's own host name the session does not answer at all.
    const onPortal = await page.goto(`${origin}/remote/${grant.sessionId}/`);
    expect(onPortal?.status()).toBe(404);
    // The ticket was good once: the address the administrator opened does not open the session again.
    const replayed = await page.goto(grant.url ?? '');
    expect(replayed?.status()).toBeGreaterThanOrEqual(400);
    expect(await page.content()).not.toContain(web.marker);
    await stranger.close();
    expect(await web.requestCount()).toBe(before);
  });

  it('after a reset from the portal the agent reconnects and a new session works', async () => {
    const connectedBefore = agent.count(CONNECTED);
    const reset = await server.app.inject({
      method: 'GET',
      url: `${BASE}/gateways/${encodeURIComponent(GATEWAY)}/${domain}/resetVpnConnection`,
      headers: { host: `${REALM}.app.localhost:8080`, authorization: `Bearer ${tokens.admin}` },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toMatchObject({ reset: true });
    await agent.waitFor(CONNECTED, 15_000, connectedBefore + 1);
    // The reset ended the sessions through the gateway, each audited with who, where from and how much.
    await expect
      .poll(async () => {
        const [ended] = await server.database.db
          .select({ detail: auditLog.detail, actor: auditLog.actorEmail })
          .from(auditLog)
          .where(and(eq(auditLog.action, 'vpn.session.end'), eq(auditLog.resourceId, firstBrowserSession)));
        return ended && { actor: ended.actor, clientIp: ended.detail.clientIp };
      })
      .toEqual({ actor: 'admin@netns.test', clientIp: lab.officeAddress });
    const [ssh] = await server.database.db.select().from(vpnSessions).where(eq(vpnSessions.id, tcpSession));
    expect(ssh?.endedAt).not.toBeNull();
    expect(ssh?.clientIp).toBe(lab.officeAddress);
    expect(ssh?.bytesIn).toBeGreaterThan(0);
    expect(ssh?.bytesOut).toBeGreaterThan(0);
    const { context, page } = await openPlantPage();
    await expect.poll(() => page.locator('#marker').textContent()).toBe(web.marker);
    await context.close();
  });

  it('after its TCP connection is killed in the plant the agent reconnects and a new session works', async () => {
    const connectedBefore = agent.count(CONNECTED);
    // ss -K destroys the agent's socket to the server (as a NAT timeout or a firewall reset would).
    const killed = await lab.execIn(lab.plant, 'ss', [
      '-K',
      'dst',
      lab.plantServerAddress,
      'dport',
      '=',
      `:${port}`,
    ]);
    expect(killed.code, killed.stderr).toBe(0);
    await agent.waitFor(CONNECTED, 15_000, connectedBefore + 1);
    const { context, page } = await openPlantPage();
    await expect.poll(() => page.locator('#marker').textContent()).toBe(web.marker);
    await context.close();
  });
});
