import Keycloak from 'keycloak-js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertRealmExists, keepTokenFresh, tokenEndpoint, UnknownRealmError } from './keycloak.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const TOKEN_URL = 'http://acme.app.localhost/auth/realms/acme/protocol/openid-connect/token';
/** A whole second, so token times in seconds and the clock line up. */
const T0 = Date.UTC(2026, 0, 5, 9, 0, 0);

function base64Url(value: object): string {
  return btoa(JSON.stringify(value)).replace(/=+$/, '').replaceAll('+', '-').replaceAll('/', '_');
}

/** An unsigned JWT: keycloak-js only decodes its tokens. */
function jwt(claims: object): string {
  return `${base64Url({ alg: 'none' })}.${base64Url(claims)}.`;
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/**
 * The identity server's refresh grant: each answer is a new access token issued now that lives `lifetime` seconds.
 * Fails with `failWith` (a status) while that is set.
 */
function tokenEndpointFake(lifetime: number) {
  const state = { failWith: undefined as number | undefined, refreshedAt: [] as number[], issued: 0 };
  const fetchFake = vi.fn(async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    expect(String(input)).toBe(TOKEN_URL);
    expect(new URLSearchParams(String(init?.body)).get('grant_type')).toBe('refresh_token');
    state.refreshedAt.push(Date.now() - T0);
    if (state.failWith !== undefined) return new Response('{}', { status: state.failWith });
    state.issued += 1;
    const iat = nowSeconds();
    return Response.json({
      access_token: jwt({ sub: 'u1', iat, exp: iat + lifetime, n: state.issued }),
      refresh_token: jwt({ typ: 'Refresh', iat, exp: iat + 1800 }),
    });
  });
  return { state, fetchFake };
}

/**
 * The real keycloak-js, in the state `init()` leaves it in after a sign-in (which needs a browser): an access token
 * issued now that lives `lifetime` seconds, a refresh token, no clock skew and the realm's token endpoint.
 */
function signedInKeycloak(lifetime: number): Keycloak {
  const keycloak = new Keycloak({
    url: 'http://acme.app.localhost/auth',
    realm: 'acme',
    clientId: 'web-portal',
  });
  const iat = nowSeconds();
  keycloak.token = jwt({ sub: 'u1', iat, exp: iat + lifetime, n: 0 });
  keycloak.tokenParsed = { sub: 'u1', iat, exp: iat + lifetime };
  keycloak.refreshToken = jwt({ typ: 'Refresh', iat, exp: iat + 1800 });
  keycloak.authenticated = true;
  keycloak.timeSkew = 0;
  keycloak.clientId = 'web-portal';
  // `endpoints` is set by init() from the discovery document; keycloak-js's types do not declare it.
  Object.assign(keycloak, { endpoints: { token: () => TOKEN_URL } });
  return keycloak;
}

/** The number in the access token keycloak-js holds (0 = the one from sign-in, then one per refresh grant). */
function tokenNumber(keycloak: Keycloak): unknown {
  const payload = keycloak.token?.split('.')[1];
  if (payload === undefined) return undefined;
  const claims: unknown = JSON.parse(atob(payload.replaceAll('-', '+').replaceAll('_', '/')));
  return typeof claims === 'object' && claims !== null && 'n' in claims ? claims.n : undefined;
}

const realSetTimeout = globalThis.setTimeout;

function fakeClock(): void {
  vi.useFakeTimers({
    now: T0,
    toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
  });
}

/** Runs the fake clock, then lets the refresh grants the checks started finish (a real turn of the event loop). */
async function runFor(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await new Promise((resolve) => realSetTimeout(resolve, 0));
}

describe('login token upkeep (spec 4/9: check every 60 s, refresh when under 70 s remain)', () => {
  it('keeps a token with 100 s left at the 60 s check and refreshes it once at the check that finds under 70 s', async () => {
    fakeClock();
    const { state, fetchFake } = tokenEndpointFake(160);
    vi.stubGlobal('fetch', fetchFake);
    const keycloak = signedInKeycloak(160);
    const updateToken = vi.spyOn(keycloak, 'updateToken');
    const stop = keepTokenFresh(keycloak);

    await runFor(59_999);
    expect(updateToken).not.toHaveBeenCalled();
    // 60 s: 100 s left, nothing to do.
    await runFor(1);
    expect(updateToken).toHaveBeenCalledTimes(1);
    expect(fetchFake).not.toHaveBeenCalled();
    expect(tokenNumber(keycloak)).toBe(0);
    // 120 s: 40 s left, refreshed once.
    await runFor(60_000);
    expect(updateToken).toHaveBeenCalledTimes(2);
    expect(state.refreshedAt).toEqual([120_000]);
    expect(tokenNumber(keycloak)).toBe(1);
    // The new token (issued at 120 s, 160 s to live) has 100 s left at 180 s and 40 s at 240 s.
    await runFor(60_000);
    expect(state.refreshedAt).toEqual([120_000]);
    await runFor(60_000);
    expect(state.refreshedAt).toEqual([120_000, 240_000]);
    expect(tokenNumber(keycloak)).toBe(2);

    stop();
    await runFor(600_000);
    expect(updateToken).toHaveBeenCalledTimes(4);
    expect(state.refreshedAt).toHaveLength(2);
  });

  it('refreshes a token with 69 s left, not one with 70 s', async () => {
    fakeClock();
    const { state, fetchFake } = tokenEndpointFake(300);
    vi.stubGlobal('fetch', fetchFake);
    // At the first check (60 s) the first token has 70 s left (not under 70), the second 69 s.
    const keep = signedInKeycloak(130);
    const renew = signedInKeycloak(129);
    const stops = [keepTokenFresh(keep), keepTokenFresh(renew)];
    await runFor(60_000);
    expect(state.refreshedAt).toEqual([60_000]);
    expect(tokenNumber(keep)).toBe(0);
    expect(tokenNumber(renew)).toBe(1);
    for (const stop of stops) stop();
  });

  it('only logs a failed refresh: the token is kept and the next check tries again', async () => {
    fakeClock();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { state, fetchFake } = tokenEndpointFake(160);
    vi.stubGlobal('fetch', fetchFake);
    const keycloak = signedInKeycloak(100);
    const stop = keepTokenFresh(keycloak);

    state.failWith = 503;
    // 60 s: 40 s left, the refresh fails.
    await runFor(60_000);
    expect(state.refreshedAt).toEqual([60_000]);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('token refresh failed');
    expect(keycloak.authenticated).toBe(true);
    expect(tokenNumber(keycloak)).toBe(0);

    state.failWith = undefined;
    await runFor(60_000);
    expect(state.refreshedAt).toEqual([60_000, 120_000]);
    expect(tokenNumber(keycloak)).toBe(1);
    expect(warn).toHaveBeenCalledTimes(1);
    stop();
  });
});

describe('realm check', () => {
  it("asks the realm's discovery document and names a realm that does not exist", async () => {
    const urls: string[] = [];
    const fetchFake =
      (status: number): typeof fetch =>
      async (input) => {
        urls.push(String(input));
        return new Response('{}', { status });
      };
    await expect(assertRealmExists('http://x/auth', 'demo', fetchFake(200))).resolves.toBeUndefined();
    expect(urls).toEqual(['http://x/auth/realms/demo/.well-known/openid-configuration']);
    await expect(assertRealmExists('http://x/auth', 'nope', fetchFake(404))).rejects.toBeInstanceOf(
      UnknownRealmError,
    );
    await expect(assertRealmExists('http://x/auth', 'demo', fetchFake(502))).rejects.toThrow('502');
  });

  it("builds Keycloak's token endpoint", () => {
    expect(tokenEndpoint('http://acme.app.localhost/auth', 'acme')).toBe(
      'http://acme.app.localhost/auth/realms/acme/protocol/openid-connect/token',
    );
  });
});
