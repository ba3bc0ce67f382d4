import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coreClient, quickCoreClient, themeClient } from './clients.ts';
import { HttpError } from './errors.ts';

/** The clients' paths are absolute in the browser's page; here they need an origin. */
const baseUrl = 'http://acme.app.localhost';

/**
 * The browser's `AbortSignal.timeout`, on the fake clock: Node's own one runs on a timer vitest cannot fake, and the
 * behaviour under test is which time-out each client asks for.
 */
function timeoutOnFakeClock(ms: number): AbortSignal {
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('signal timed out', 'TimeoutError')), ms);
  return controller.signal;
}

/** A server that never answers: the call ends only when its signal aborts, as the browser's fetch does. */
async function hangingFetch(request: Request): Promise<Response> {
  return new Promise<Response>((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason));
  });
}

/** Follows a pending call: whether it has ended, and with what error. */
function watch(pending: Promise<unknown>) {
  const state: { ended: boolean; error: unknown } = { ended: false, error: undefined };
  pending.then(
    () => {
      state.ended = true;
    },
    (error: unknown) => {
      state.ended = true;
      state.error = error;
    },
  );
  return state;
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(AbortSignal, 'timeout').mockImplementation(timeoutOnFakeClock);
  vi.stubGlobal('fetch', vi.fn(hangingFetch));
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('service clients time out as spec 9 says', () => {
  it('gives a core call 90 s before it fails with a time-out', async () => {
    const call = watch(coreClient.GET('/svc/core/api/v1/instance', { baseUrl }));
    await vi.advanceTimersByTimeAsync(89_999);
    expect(call.ended).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.ended).toBe(true);
    expect(call.error).toBeInstanceOf(HttpError);
    expect(call.error).toMatchObject({ kind: 'timeout', timeoutMs: 90_000 });
  });

  it('gives other calls 30 s: the login-info lookup of core, and the theme service', async () => {
    const loginInfo = watch(
      quickCoreClient.GET('/svc/core/api/v1/organizations/loginInfo', {
        baseUrl,
        params: { query: { hostname: 'acme.app.localhost' } },
      }),
    );
    const theme = watch(themeClient.GET('/svc/theme/theme', { baseUrl }));
    await vi.advanceTimersByTimeAsync(29_999);
    expect([loginInfo.ended, theme.ended]).toEqual([false, false]);
    await vi.advanceTimersByTimeAsync(1);
    for (const call of [loginInfo, theme]) {
      expect(call.ended).toBe(true);
      expect(call.error).toMatchObject({ kind: 'timeout', timeoutMs: 30_000 });
    }
  });
});
