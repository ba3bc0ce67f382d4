import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  assertRealmExists,
  keepTokenFresh,
  TOKEN_CHECK_INTERVAL_MS,
  TOKEN_MIN_VALIDITY_SECONDS,
  tokenEndpoint,
  UnknownRealmError,
} from './keycloak.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('login token upkeep', () => {
  it('checks every 60 s and asks for at least 70 s of validity; failures are only logged', async () => {
    vi.useFakeTimers();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const updateToken = vi.fn(async (_minValidity?: number) => true);
    const stop = keepTokenFresh({ updateToken });
    vi.advanceTimersByTime(TOKEN_CHECK_INTERVAL_MS - 1);
    expect(updateToken).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(updateToken).toHaveBeenCalledWith(TOKEN_MIN_VALIDITY_SECONDS);
    updateToken.mockRejectedValueOnce(new Error('refresh failed'));
    vi.advanceTimersByTime(TOKEN_CHECK_INTERVAL_MS);
    await vi.waitFor(() => expect(warn).toHaveBeenCalled());
    stop();
    vi.advanceTimersByTime(TOKEN_CHECK_INTERVAL_MS * 3);
    expect(updateToken).toHaveBeenCalledTimes(2);
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
