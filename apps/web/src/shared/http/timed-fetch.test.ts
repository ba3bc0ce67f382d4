import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import { describeError } from './describe.ts';
import { HttpError, isSecurityFailure } from './errors.ts';
import { CORE_TIMEOUT_MS, DEFAULT_TIMEOUT_MS, timedFetch } from './timed-fetch.ts';

const URL = 'http://portal.test/svc/core/api/v1/x';

/** A fetch that answers only when the request is aborted (then rejects like the browser). */
const hanging = (request: Request) =>
  new Promise<Response>((_resolve, reject) => {
    request.signal.addEventListener('abort', () => reject(request.signal.reason));
  });

beforeAll(async () => {
  await i18next.init({ lng: 'en-US', resources: { 'en-US': { translation: en } } });
});

describe('HTTP client wrapper (spec 8/9)', () => {
  it('has the time-outs of spec 9', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(30_000);
    expect(CORE_TIMEOUT_MS).toBe(90_000);
  });

  it('passes successful answers through', async () => {
    const fetch = timedFetch(1_000, async () => Response.json({ ok: true }));
    const response = await fetch(new Request(URL));
    expect(await response.json()).toEqual({ ok: true });
  });

  it('turns a failed status into an error naming it, keeping the server message aside', async () => {
    const fetch = timedFetch(1_000, async () =>
      Response.json({ statusCode: 409, error: 'Conflict', message: 'email: exists' }, { status: 409 }),
    );
    const error = await fetch(new Request(URL)).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      kind: 'status',
      status: 409,
      serverMessage: 'email: exists',
      message: 'Request failed with status code 409',
    });
  });

  it('turns an unreachable server into a network error', async () => {
    const fetch = timedFetch(1_000, async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(fetch(new Request(URL))).rejects.toMatchObject({
      kind: 'network',
      message: 'Network Error',
    });
  });

  it('times out', async () => {
    const fetch = timedFetch(20, hanging);
    await expect(fetch(new Request(URL))).rejects.toMatchObject({
      kind: 'timeout',
      message: 'timeout of 20ms exceeded',
    });
  });

  it('reports an abort by the caller as such', async () => {
    const controller = new AbortController();
    const pending = timedFetch(1_000, hanging)(new Request(URL, { signal: controller.signal }));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted', message: 'Request aborted' });
  });

  it('words every failure for the user', () => {
    const t = i18next.t;
    expect(describeError(t, new HttpError('network'))).toMatch(/^Network Error/);
    expect(describeError(t, new HttpError('timeout', { timeoutMs: 90_000 }))).toContain('90 seconds');
    expect(describeError(t, new HttpError('aborted'))).toBe('The request was aborted before it finished.');
    expect(describeError(t, new HttpError('status', { status: 502 }))).toBe(
      'The request failed with status code 502.',
    );
    expect(describeError(t, new Error('boom'))).toBe('Something unexpected went wrong: boom');
  });

  it('treats 401 and 403 as security failures', () => {
    expect(isSecurityFailure(new HttpError('status', { status: 401 }))).toBe(true);
    expect(isSecurityFailure(new HttpError('status', { status: 403 }))).toBe(true);
    expect(isSecurityFailure(new HttpError('status', { status: 404 }))).toBe(false);
    expect(isSecurityFailure(new HttpError('network'))).toBe(false);
  });
});
