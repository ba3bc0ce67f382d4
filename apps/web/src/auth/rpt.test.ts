import { describe, expect, it, vi } from 'vitest';
import {
  EXCHANGE_ERROR,
  PERMISSION_TOKEN_REFRESH_MARGIN_MS,
  PermissionTokens,
  permissionsOf,
  STANDARD_TOKEN_ERROR,
  UMA_TICKET_GRANT,
} from './rpt.ts';

const ENDPOINT = 'http://demo.app.localhost/auth/realms/demo/protocol/openid-connect/token';
const DEMO = { permission: 'demo', organizationId: 'org-demo' };
const PLANT = { permission: 'plant', organizationId: 'org-plant' };

function base64url(value: unknown): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
}

function fakeRpt(payload: Record<string, unknown>): string {
  return `${base64url({ alg: 'RS256', typ: 'JWT' })}.${base64url(payload)}.signature`;
}

type Call = { url: string; headers: Headers; body: URLSearchParams };

function setup(options: { expiresIn?: number; fail?: boolean } = {}) {
  let clock = 1_000_000;
  const calls: Call[] = [];
  let fail = options.fail ?? false;
  const fetchFake: typeof fetch = async (input, init) => {
    const body = new URLSearchParams(String(init?.body));
    calls.push({ url: String(input), headers: new Headers(init?.headers), body });
    if (fail) return new Response(JSON.stringify({ error: 'access_denied' }), { status: 403 });
    return Response.json({
      access_token: `rpt-${calls.length}-${body.get('permission')}`,
      expires_in: options.expiresIn ?? 300,
      token_type: 'Bearer',
    });
  };
  const accessToken = vi.fn(async () => 'login-token');
  const tokens = new PermissionTokens({
    tokenEndpoint: ENDPOINT,
    accessToken,
    fetch: fetchFake,
    now: () => clock,
  });
  return {
    tokens,
    calls,
    accessToken,
    advance: (ms: number) => {
      clock += ms;
    },
    now: () => clock,
    setFailing: (value: boolean) => {
      fail = value;
    },
  };
}

describe('permission token exchange', () => {
  it("sends Keycloak's UMA request with the login token as bearer and the organization scope", async () => {
    const { tokens, calls, now } = setup();
    const token = await tokens.get(DEMO);
    expect(calls).toHaveLength(1);
    const [call] = calls;
    expect(call?.url).toBe(ENDPOINT);
    expect(call?.headers.get('authorization')).toBe('Bearer login-token');
    expect(call?.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(call?.body ?? [])).toEqual({
      grant_type: UMA_TICKET_GRANT,
      audience: 'platform',
      permission: 'demo',
      scope: 'org:org-demo app:*',
    });
    expect(token).toEqual({
      token: 'rpt-1-demo',
      permission: 'demo',
      scope: 'org:org-demo app:*',
      expiresAt: now() + 300_000,
    });
  });

  it('reuses the token while valid and for the same permission', async () => {
    const { tokens, calls, advance } = setup();
    const first = await tokens.get(DEMO);
    advance(300_000 - PERMISSION_TOKEN_REFRESH_MARGIN_MS - 1);
    const again = await tokens.get(DEMO);
    expect(again).toBe(first);
    expect(tokens.current).toBe(first);
    expect(calls).toHaveLength(1);
  });

  it('shares one exchange between concurrent requests for the same permission', async () => {
    const { tokens, calls } = setup();
    const [a, b] = await Promise.all([tokens.get(DEMO), tokens.get(DEMO)]);
    expect(a).toBe(b);
    expect(calls).toHaveLength(1);
  });

  it('drops the token when the permission changes', async () => {
    const { tokens, calls } = setup();
    await tokens.get(DEMO);
    const plant = await tokens.get(PLANT);
    expect(plant.token).toBe('rpt-2-plant');
    expect(plant.scope).toBe('org:org-plant app:*');
    const demoAgain = await tokens.get(DEMO);
    expect(demoAgain.token).toBe('rpt-3-demo');
    expect(calls).toHaveLength(3);
  });

  it('exchanges again when under 30 s remain', async () => {
    const { tokens, calls, advance } = setup();
    await tokens.get(DEMO);
    advance(300_000 - PERMISSION_TOKEN_REFRESH_MARGIN_MS + 1);
    expect(tokens.current).toBeUndefined();
    const renewed = await tokens.get(DEMO);
    expect(renewed.token).toBe('rpt-2-demo');
    expect(calls).toHaveLength(2);
  });

  it('never reuses a token that lives less than the margin', async () => {
    const { tokens, calls } = setup({ expiresIn: 20 });
    await tokens.get(DEMO);
    await tokens.get(DEMO);
    expect(calls).toHaveLength(2);
  });

  it('can be forced to refresh', async () => {
    const { tokens, calls } = setup();
    const first = await tokens.get(DEMO);
    const forced = await tokens.get(DEMO, { forceRefresh: true });
    expect(forced.token).not.toBe(first.token);
    expect(tokens.current).toBe(forced);
    expect(calls).toHaveLength(2);
  });

  it('clears the token and rethrows on a failed exchange', async () => {
    const { tokens, setFailing } = setup();
    await tokens.get(DEMO);
    setFailing(true);
    const failure = tokens.get(DEMO, { forceRefresh: true });
    await expect(failure).rejects.toThrow(EXCHANGE_ERROR);
    await expect(failure).rejects.toHaveProperty('cause.message', 'token endpoint answered 403');
    expect(tokens.current).toBeUndefined();
    setFailing(false);
    expect((await tokens.get(DEMO)).token).toBe('rpt-3-demo');
  });

  it('treats an answer without a token as a failed exchange', async () => {
    const tokens = new PermissionTokens({
      tokenEndpoint: ENDPOINT,
      accessToken: async () => 'login-token',
      fetch: async () => Response.json({ token_type: 'Bearer' }),
    });
    await expect(tokens.get(DEMO)).rejects.toThrow(EXCHANGE_ERROR);
  });

  it('clears the token and rethrows when the login token cannot be had', async () => {
    const { tokens, accessToken, calls } = setup();
    await tokens.get(DEMO);
    accessToken.mockRejectedValueOnce(new Error('Not authenticated'));
    await expect(tokens.get(DEMO, { forceRefresh: true })).rejects.toThrow(STANDARD_TOKEN_ERROR);
    expect(tokens.current).toBeUndefined();
    expect(calls).toHaveLength(1);
  });

  it('keeps the newer token when an older exchange answers late', async () => {
    let release: (() => void) | undefined;
    let count = 0;
    const tokens = new PermissionTokens({
      tokenEndpoint: ENDPOINT,
      accessToken: async () => 'login-token',
      fetch: async (_input, init) => {
        count += 1;
        const permission = new URLSearchParams(String(init?.body)).get('permission');
        if (count === 1) await new Promise<void>((resolve) => (release = resolve));
        return Response.json({ access_token: `rpt-${permission}`, expires_in: 300 });
      },
    });
    const slow = tokens.get(DEMO);
    await vi.waitFor(() => expect(release).toBeDefined());
    const plant = await tokens.get(PLANT);
    release?.();
    await slow;
    expect(tokens.current).toBe(plant);
  });
});

describe('permissions of a permission token', () => {
  it('reads authorization.permissions', () => {
    const token = fakeRpt({
      scope: 'org:1 app:*',
      authorization: {
        permissions: [
          { rsname: 'portal', scopes: ['ACCESS'], resource_id: 'demo' },
          { rsname: 'devices', scopes: ['READ', 'UPDATE'], resource_id: 'demo' },
          { rsname: 'unknown-thing', scopes: ['READ'] },
        ],
      },
    });
    expect(permissionsOf(token)).toEqual([
      { rsname: 'portal', scopes: ['ACCESS'], resource_id: 'demo' },
      { rsname: 'devices', scopes: ['READ', 'UPDATE'], resource_id: 'demo' },
    ]);
  });

  it('gives nothing for a token without permissions or one that cannot be decoded', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(permissionsOf(fakeRpt({ scope: 'org:1 app:*' }))).toEqual([]);
    expect(permissionsOf('not-a-jwt')).toEqual([]);
    expect(warn).toHaveBeenCalledWith('cannot decode jwt token');
    warn.mockRestore();
  });
});
