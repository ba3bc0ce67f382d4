import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../test/support/fixtures.ts';
import { startLogin, TestBrowser } from '../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { rptFor } from '../../test/support/tokens.ts';
import { seedGateway } from '../tunnel/test-plant.ts';

/** The only address the security policy and the gateway's IP filter let in; app.inject comes from 127.0.0.1. */
const ALLOWED = '203.0.113.7';
const WORKER = 'remote-worker@acme-a.test';

type World = { server: TestServer; adminRpt: string; orgId: string };

async function worldOf(trustedProxies: string[]): Promise<World> {
  const server = await startTestServer({ trustedProxies });
  const tenants = await seedTenants(server);
  const call = caller(server);
  const adminRpt = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  const worker = await userWithRole(server, 'acme', tenants.orgA.id, WORKER, [
    { rsname: 'portal', scopes: ['ACCESS'] },
  ]);
  const policies = `/svc/core/api/v1/organizations/${tenants.orgA.id}/securityPolicies`;
  const policy = await call('POST', policies, adminRpt, {
    name: 'Head office only',
    rules: { allowedIpRanges: [ALLOWED], requireTotp: false, maxSessionMinutes: 0 },
  });
  expect(policy.statusCode).toBe(201);
  const assigned = await call(
    'POST',
    `/svc/core/api/v1/organizations/${tenants.orgA.id}/users/${worker.id}/securityPolicies/${policy.json().id}`,
    adminRpt,
  );
  expect(assigned.statusCode).toBeLessThan(300);
  // Offline on purpose: the IP filter is checked before the gateway's state (409 offline = past the filter).
  await seedGateway(server.database.db, tenants.orgA.id, 'http://127.0.0.1:1', {
    name: 'filtered',
    lanNetwork: '192.168.50.0/24',
    ipFilter: [`${ALLOWED}/32`],
    endpoints: [],
  });
  return { server, adminRpt, orgId: tenants.orgA.id };
}

/** The worker signs in, the password step carrying `X-Forwarded-For`; answers the step's response and the code. */
async function signInClaiming(world: World, forwardedFor: string) {
  const browser = new TestBrowser(world.server.app, 'acme');
  const start = await startLogin(browser, 'acme');
  const response = await browser.request(
    'POST',
    start.action,
    { username: WORKER, password: PASSWORD },
    { 'x-forwarded-for': forwardedFor },
  );
  const location = response.headers.location;
  const finished =
    typeof location === 'string'
      ? await browser.follow('GET', location, undefined, start.redirectUri)
      : { location: undefined };
  const code = new URLSearchParams(new URL(finished.location ?? 'http://x/').hash.slice(1)).get('code');
  return { response, code };
}

function connectClaiming(world: World, forwardedFor: string) {
  return world.server.app.inject({
    url: `/svc/vpn2/api/v1/connections/${world.orgId}/filtered/connect`,
    headers: {
      host: 'acme.app.localhost:8080',
      authorization: `Bearer ${world.adminRpt}`,
      'x-forwarded-for': forwardedFor,
    },
  });
}

/** Self-onboarding allows 10 requests a minute per client address; each request claims another address. */
async function onboardingStatuses(world: World) {
  const statuses: number[] = [];
  for (let i = 1; i <= 11; i++) {
    const response = await world.server.app.inject({
      method: 'POST',
      url: '/svc/core/api/v1/organizations/selfOnBoarding',
      headers: { host: 'localhost:8080', 'x-forwarded-for': `198.51.100.${i}` },
      payload: {},
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

describe('a direct client (TRUSTED_PROXIES unset)', () => {
  let world: World;
  beforeAll(async () => {
    world = await worldOf([]);
  }, 60_000);
  afterAll(() => world.server.close());

  it('cannot pass the sign-in IP policy by sending X-Forwarded-For', async () => {
    const { response, code } = await signInClaiming(world, ALLOWED);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain('security policy does not allow signing in from this network');
    expect(code).toBeNull();
  });

  it("cannot pass a gateway's IP filter by sending X-Forwarded-For", async () => {
    const response = await connectClaiming(world, ALLOWED);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toMatch(/^ipFilter: the client address 127\.0\.0\.1 may not use gateway/);
  });

  it('cannot escape the rate limit by sending a new X-Forwarded-For each time', async () => {
    const statuses = await onboardingStatuses(world);
    expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('is seen at its own address', async () => {
    const response = await world.server.app.inject({
      url: '/svc/core/api/v1/organizations/myIp',
      headers: {
        host: 'acme.app.localhost:8080',
        authorization: `Bearer ${world.adminRpt}`,
        'x-forwarded-for': ALLOWED,
      },
    });
    expect(response.json()).toEqual({ ip: '127.0.0.1' });
  });

  it("cannot make the identity server's discovery document name another host", async () => {
    const response = await world.server.app.inject({
      url: '/auth/realms/acme/.well-known/openid-configuration',
      headers: {
        host: 'acme.app.localhost:8080',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-for': ALLOWED,
      },
    });
    expect(response.json().token_endpoint).toBe(
      'http://acme.app.localhost:8080/auth/realms/acme/protocol/openid-connect/token',
    );
  });
});

describe('behind a trusted proxy (TRUSTED_PROXIES=127.0.0.1)', () => {
  let world: World;
  beforeAll(async () => {
    world = await worldOf(['127.0.0.1']);
  }, 60_000);
  afterAll(() => world.server.close());

  it('signs in from the address the proxy forwards, and still refuses other forwarded addresses', async () => {
    const allowed = await signInClaiming(world, ALLOWED);
    expect(allowed.code).toEqual(expect.any(String));
    const refused = await signInClaiming(world, '192.0.2.1');
    expect(refused.response.statusCode).toBe(403);
  });

  it("applies the gateway's IP filter to the forwarded address", async () => {
    const passed = await connectClaiming(world, ALLOWED);
    expect(passed.statusCode).toBe(409);
    expect(passed.json().message).toBe('gateway: filtered is offline');
    const refused = await connectClaiming(world, '192.0.2.1');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/^ipFilter: the client address 192\.0\.2\.1 may not use gateway/);
  });

  it('counts rate limits per forwarded client address', async () => {
    expect(await onboardingStatuses(world)).toEqual(Array(11).fill(400));
  });

  it("gives the identity server the proxy's host and scheme", async () => {
    const response = await world.server.app.inject({
      url: '/auth/realms/acme/.well-known/openid-configuration',
      headers: { host: 'internal:8080', 'x-forwarded-host': 'acme.app.localhost:8080' },
    });
    expect(response.json().token_endpoint).toBe(
      'http://acme.app.localhost:8080/auth/realms/acme/protocol/openid-connect/token',
    );
  });
});

describe('behind a TLS proxy that is not listed (PUBLIC_SCHEME=https, TRUSTED_PROXIES unset)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ publicScheme: 'https', publicPort: 443 });
    await server.app.realms.create('acme', 'ACME');
  });
  afterAll(() => server.close());

  it('still gives the identity server the public https scheme, and the client host', async () => {
    const response = await server.app.inject({
      url: '/auth/realms/acme/.well-known/openid-configuration',
      headers: { host: 'acme.app.localhost', 'x-forwarded-host': 'evil.example' },
    });
    expect(response.json().token_endpoint).toBe(
      'https://acme.app.localhost/auth/realms/acme/protocol/openid-connect/token',
    );
  });
});
