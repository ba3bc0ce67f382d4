import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type FetchCall, fakeFetch } from '../../test-support/fake-fetch.ts';

const ORIGINAL = '/svc/vpn/login';
const NEW = '/svc/vpn/api/login';

const server = fakeFetch();
let legacyLogin: (username: string, accessToken: string) => Promise<boolean>;

beforeAll(async () => {
  ({ legacyLogin } = await import('./legacy-session.ts'));
});
afterAll(() => vi.unstubAllGlobals());
beforeEach(() => {
  server.calls.length = 0;
});

/** The fake server answers each login path with its own status; `network` fails the call itself. */
function answers(byPath: Record<string, number | 'network'>) {
  server.answer((call: FetchCall) => {
    const status = byPath[call.path] ?? 404;
    if (status === 'network') throw new TypeError('fetch failed');
    return status === 200
      ? Response.json({ success: true, expiresAt: '2030-01-01T00:00:00.000Z' })
      : new Response(null, { status });
  });
}

const loginPaths = () => server.calls.map((call) => `${call.method} ${call.path}`);

describe('the legacy remote-access login (spec 7)', () => {
  it('posts the form (username, access token as password, ajax=true) to the original and the new path', async () => {
    answers({ [ORIGINAL]: 200, [NEW]: 200 });
    await expect(legacyLogin('ada@example.com/acme', 'access-token')).resolves.toBe(true);
    expect(loginPaths()).toEqual([`POST ${ORIGINAL}`, `POST ${NEW}`]);
    for (const call of server.calls) {
      expect(call.headers.get('content-type')).toBe('application/x-www-form-urlencoded');
      expect(Object.fromEntries(new URLSearchParams(call.body))).toEqual({
        username: 'ada@example.com/acme',
        password: 'access-token',
        ajax: 'true',
      });
    }
  });

  it('tries the new path when the original one refuses or fails, and signs in there', async () => {
    for (const failure of [401, 403, 404, 500, 'network'] as const) {
      server.calls.length = 0;
      answers({ [ORIGINAL]: failure, [NEW]: 200 });
      await expect(legacyLogin('ada@example.com/acme', 'access-token')).resolves.toBe(true);
      expect(loginPaths()).toEqual([`POST ${ORIGINAL}`, `POST ${NEW}`]);
    }
  });

  it('accepts a 302 as signed in', async () => {
    answers({ [ORIGINAL]: 302, [NEW]: 401 });
    await expect(legacyLogin('ada@example.com/acme', 'access-token')).resolves.toBe(true);
    expect(loginPaths()).toEqual([`POST ${ORIGINAL}`, `POST ${NEW}`]);
  });

  it('ignores the failures of both paths: no error, not signed in', async () => {
    answers({ [ORIGINAL]: 'network', [NEW]: 401 });
    await expect(legacyLogin('ada@example.com/acme', 'access-token')).resolves.toBe(false);
    expect(loginPaths()).toEqual([`POST ${ORIGINAL}`, `POST ${NEW}`]);
  });
});
