import { afterEach, describe, expect, it, vi } from 'vitest';
import { type AppConnection, type ConnectOptions, connect } from './app.ts';
import {
  type BridgeContext,
  BridgeError,
  CHANGE_EVENTS,
  envelope,
  PAGE_IDS,
  PROTOCOL,
  PROTOCOL_VERSION,
} from './protocol.ts';
import { FakeWindow, flush, link, type WindowRef } from './test-windows.ts';

const HOST = 'http://demo.app.localhost:8080';
const APP = 'http://apps.localhost:8080';
const EVIL = 'http://evil.localhost:8080';

const CONTEXT: BridgeContext = {
  jwt: 'jwt-1',
  username: 'ada@demo.local',
  organizationId: 'org-1',
  organizationResourceId: 'demo',
  host: HOST,
  domain: 'localhost',
  theme: { colorScheme: 'light' },
  defaultStandardTime: 'UTC',
  brandName: 'Edgeport',
};

type World = { host: FakeWindow; app: FakeWindow; appRef: WindowRef; hostRef: WindowRef };

function world(): World {
  const host = new FakeWindow(HOST);
  const app = new FakeWindow(APP);
  const { aToB: appRef, bToA: hostRef } = link(host, app);
  return { host, app, appRef, hostRef };
}

function start(w: World, extra: ConnectOptions = {}) {
  return connect({ hostWindow: w.hostRef, selfWindow: w.app, ...extra });
}

/** What the app has posted to the host (as the host received it). */
function sentToHost(w: World) {
  return w.host.received.map(
    (event) => event.data as { type: string; id?: string; payload: Record<string, unknown> },
  );
}

/** A scripted host: answers init with the context. */
async function answerInit(w: World, via: WindowRef = w.appRef, context: BridgeContext = CONTEXT) {
  await flush();
  const init = sentToHost(w).find((message) => message.type === 'init');
  via.postMessage(envelope({ type: 'context', id: init?.id ?? '', payload: context }), APP);
  await flush();
}

async function connected(w: World, extra: ConnectOptions = {}): Promise<AppConnection> {
  const pending = start(w, extra);
  await answerInit(w);
  return pending;
}

afterEach(() => {
  vi.useRealTimers();
});

/** The message of the error a mocked outcome handler was called with. */
function errorOf(outcome: { mock: { calls: unknown[][] } }): string | undefined {
  const [error] = outcome.mock.calls[0] ?? [];
  return error instanceof Error ? error.message : undefined;
}

describe('connect', () => {
  it('sends the initialise request and resolves with the context', async () => {
    const w = world();
    const connection = await connected(w);
    expect(sentToHost(w)).toEqual([
      { protocol: PROTOCOL, version: PROTOCOL_VERSION, type: 'init', id: expect.any(String), payload: {} },
    ]);
    expect(connection.context).toEqual(CONTEXT);
    expect(connection.hostOrigin).toBe(HOST);
  });

  it("rejects with 'Create timeout reached' after 5000 ms without an answer", async () => {
    vi.useFakeTimers();
    const w = world();
    const pending = start(w);
    const outcome = vi.fn();
    pending.then(outcome, outcome);
    await vi.advanceTimersByTimeAsync(4999);
    expect(outcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toHaveBeenCalledWith(new BridgeError('Create timeout reached'));
    expect(errorOf(outcome)).toBe('Create timeout reached');
    expect(w.app.listenerCount).toBe(0);
  });

  it('sends init only to the given host origins, and accepts answers only from them', async () => {
    vi.useFakeTimers();
    const w = world();
    const pending = start(w, { hostOrigin: 'http://other.localhost:8080' });
    const outcome = vi.fn();
    pending.then(outcome, outcome);
    await flush();
    expect(w.hostRef.posted.map((post) => [post.targetOrigin, post.delivered])).toEqual([
      ['http://other.localhost:8080', false],
    ]);
    // A context from HOST (not in the list) is not accepted even with the right id.
    w.appRef.postMessage(envelope({ type: 'context', id: 'guess', payload: CONTEXT }), APP);
    await vi.advanceTimersByTimeAsync(5000);
    expect(errorOf(outcome)).toBe('Create timeout reached');

    const ok = world();
    const accepted = start(ok, { hostOrigin: [HOST] });
    await answerInit(ok);
    expect((await accepted).hostOrigin).toBe(HOST);
  });

  it('rejects at once when there is no window at all (outside a browser)', async () => {
    await expect(connect()).rejects.toThrow('Create timeout reached');
  });
});

describe('security of the app side', () => {
  it('ignores a context from a window that is not its host (a third-origin frame)', async () => {
    vi.useFakeTimers();
    const w = world();
    const evil = new FakeWindow(EVIL);
    const { bToA: evilToApp } = link(w.app, evil);
    const pending = start(w);
    const outcome = vi.fn();
    pending.then(outcome, outcome);
    await flush();
    const init = sentToHost(w)[0];
    evilToApp.postMessage(envelope({ type: 'context', id: init?.id ?? '', payload: CONTEXT }), '*');
    await vi.advanceTimersByTimeAsync(5000);
    expect(errorOf(outcome)).toBe('Create timeout reached');
  });

  it('ignores a context answering another init id', async () => {
    vi.useFakeTimers();
    const w = world();
    const outcome = vi.fn();
    start(w).then(outcome, outcome);
    w.appRef.postMessage(envelope({ type: 'context', id: 'not-mine', payload: CONTEXT }), APP);
    await vi.advanceTimersByTimeAsync(5000);
    expect(errorOf(outcome)).toBe('Create timeout reached');
  });

  it('pins the host origin: later messages from the host window with another origin are ignored', async () => {
    const w = world();
    const connection = await connected(w);
    const jwt = vi.fn();
    connection.subscribe('jwt', jwt);
    // The parent navigated to evil.localhost (same window, other origin) and posts a change.
    const evilHost = new FakeWindow(EVIL);
    const { aToB: evilToApp } = link(evilHost, w.app);
    evilToApp.back = w.hostRef;
    evilToApp.postMessage(envelope({ type: 'change', payload: { event: 'jwt', value: 'forged' } }), '*');
    await flush();
    expect(jwt).not.toHaveBeenCalled();
    expect(connection.context.jwt).toBe('jwt-1');
  });

  it('posts every request only to the pinned host origin', async () => {
    const w = world();
    const connection = await connected(w, { preferenceTimeoutMs: 50 });
    connection.navigate('home');
    connection.reportHref(`${APP}/#/x`);
    connection.getUserPreference('k').catch(() => {});
    connection.setUserPreference('k', 'v').catch(() => {});
    expect(w.hostRef.posted.slice(1).map((post) => post.targetOrigin)).toEqual([HOST, HOST, HOST, HOST]);
    connection.close();
  });

  it('ignores unknown types and foreign envelopes', async () => {
    const w = world();
    const connection = await connected(w);
    const callback = vi.fn();
    for (const event of CHANGE_EVENTS) connection.subscribe(event, callback);
    w.appRef.postMessage(
      { protocol: PROTOCOL, version: 2, type: 'change', payload: { event: 'jwt', value: 'x' } },
      APP,
    );
    w.appRef.postMessage(
      { protocol: 'x', version: 1, type: 'change', payload: { event: 'jwt', value: 'x' } },
      APP,
    );
    w.appRef.postMessage(
      envelope({ type: 'change', payload: { event: 'password', value: 'x' } } as never),
      APP,
    );
    w.appRef.postMessage({ protocol: PROTOCOL, version: 1, type: 'shutdown', payload: {} }, APP);
    await flush();
    expect(callback).not.toHaveBeenCalled();
  });
});

describe('subscribe (spec 5, 8)', () => {
  it("says 'Event name is required', 'Event name is not valid', 'Callback is required'", async () => {
    const connection = await connected(world());
    const subscribe = connection.subscribe as (event: unknown, callback: unknown) => unknown;
    expect(() => subscribe(undefined, () => {})).toThrow(/^Event name is required$/);
    expect(() => subscribe('', () => {})).toThrow(/^Event name is required$/);
    expect(() => subscribe('password', () => {})).toThrow(/^Event name is not valid$/);
    expect(() => subscribe(42, () => {})).toThrow(/^Event name is not valid$/);
    expect(() => subscribe('jwt', undefined)).toThrow(/^Callback is required$/);
    expect(() => subscribe('jwt', 'callback')).toThrow(/^Callback is required$/);
  });

  it('delivers every change event and keeps the context current', async () => {
    const w = world();
    const connection = await connected(w);
    const seen: [string, unknown][] = [];
    for (const event of CHANGE_EVENTS) connection.subscribe(event, (value) => seen.push([event, value]));
    const changes: [string, unknown][] = [
      ['user', 'otto@demo.local'],
      ['organizationId', 'org-2'],
      ['organizationResourceId', 'demo-plant'],
      ['jwt', 'jwt-2'],
      ['theme', { colorScheme: 'dark' }],
      ['brandName', 'Acme'],
      ['href', `${APP}/#/page-2`],
    ];
    for (const [event, value] of changes)
      w.appRef.postMessage(envelope({ type: 'change', payload: { event, value } } as never), APP);
    await flush();
    expect(seen).toEqual(changes);
    expect(connection.context).toEqual({
      ...CONTEXT,
      username: 'otto@demo.local',
      organizationId: 'org-2',
      organizationResourceId: 'demo-plant',
      jwt: 'jwt-2',
      theme: { colorScheme: 'dark' },
      brandName: 'Acme',
    });
  });

  it('stops calling after unsubscribe', async () => {
    const w = world();
    const connection = await connected(w);
    const callback = vi.fn();
    const unsubscribe = connection.subscribe('jwt', callback);
    unsubscribe();
    w.appRef.postMessage(envelope({ type: 'change', payload: { event: 'jwt', value: 'jwt-2' } }), APP);
    await flush();
    expect(callback).not.toHaveBeenCalled();
  });
});

describe('navigate and address changes (app to host)', () => {
  it("asks the host to navigate; 'Path is required' without a page", async () => {
    const w = world();
    const connection = await connected(w);
    for (const page of PAGE_IDS) connection.navigate(page);
    await flush();
    expect(sentToHost(w).slice(1)).toEqual(
      PAGE_IDS.map((page) => envelope({ type: 'navigate', payload: { page } })),
    );
    const navigate = connection.navigate as (page: unknown) => void;
    expect(() => navigate('')).toThrow(/^Path is required$/);
    expect(() => navigate(undefined)).toThrow(/^Path is required$/);
  });

  it('reports its own address with the type of change', async () => {
    const w = world();
    const connection = await connected(w);
    connection.reportHref(`${APP}/#/one`);
    connection.reportHref(`${APP}/#/two`, 'replace');
    await flush();
    expect(sentToHost(w).slice(1)).toEqual([
      envelope({ type: 'href', payload: { href: `${APP}/#/one`, type: 'push' } }),
      envelope({ type: 'href', payload: { href: `${APP}/#/two`, type: 'replace' } }),
    ]);
    expect(() => connection.reportHref('')).toThrow('Href is required');
  });
});

describe('user preferences', () => {
  it('gets and sets through the host', async () => {
    const w = world();
    const connection = await connected(w);
    const got = connection.getUserPreference('color');
    const set = connection.setUserPreference('size', 'XL');
    await flush();
    const [get, put] = sentToHost(w).slice(1);
    expect(get).toEqual(envelope({ type: 'preference.get', id: get?.id ?? '', payload: { key: 'color' } }));
    expect(put).toEqual(
      envelope({ type: 'preference.set', id: put?.id ?? '', payload: { key: 'size', value: 'XL' } }),
    );
    w.appRef.postMessage(
      envelope({ type: 'preference', id: put?.id ?? '', payload: { key: 'size', value: 'XL' } }),
      APP,
    );
    w.appRef.postMessage(
      envelope({ type: 'preference', id: get?.id ?? '', payload: { key: 'color', value: 'blue' } }),
      APP,
    );
    await expect(got).resolves.toBe('blue');
    await expect(set).resolves.toBeUndefined();
  });

  it('resolves null for an unset preference and rejects with the host error', async () => {
    const w = world();
    const connection = await connected(w);
    const unset = connection.getUserPreference('none');
    const failed = connection.setUserPreference('bad key', 'x');
    await flush();
    const [get, put] = sentToHost(w).slice(1);
    w.appRef.postMessage(
      envelope({ type: 'preference', id: get?.id ?? '', payload: { key: 'none', value: null } }),
      APP,
    );
    w.appRef.postMessage(
      envelope({
        type: 'preference',
        id: put?.id ?? '',
        payload: { key: 'bad key', error: 'prop must match pattern' },
      }),
      APP,
    );
    await expect(unset).resolves.toBeNull();
    await expect(failed).rejects.toThrow('prop must match pattern');
  });

  it("rejects with 'Timeout reached waiting for user preference {key} response' after 10000 ms", async () => {
    vi.useFakeTimers();
    const w = world();
    const pending = start(w);
    await answerInit(w);
    const connection = await pending;
    const outcome = vi.fn();
    connection.getUserPreference('color').then(outcome, outcome);
    const setOutcome = vi.fn();
    connection.setUserPreference('size', 'XL').then(setOutcome, setOutcome);
    await vi.advanceTimersByTimeAsync(9999);
    expect(outcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(errorOf(outcome)).toBe('Timeout reached waiting for user preference color response');
    expect(errorOf(setOutcome)).toBe('Timeout reached waiting for user preference size response');
  });

  it('ignores an answer from a third-origin frame (the request still times out)', async () => {
    vi.useFakeTimers();
    const w = world();
    const pending = start(w);
    await answerInit(w);
    const connection = await pending;
    const evil = new FakeWindow(EVIL);
    const { bToA: evilToApp } = link(w.app, evil);
    const outcome = vi.fn();
    connection.getUserPreference('color').then(outcome, outcome);
    await flush();
    const request = sentToHost(w).at(-1);
    evilToApp.postMessage(
      envelope({ type: 'preference', id: request?.id ?? '', payload: { key: 'color', value: 'evil' } }),
      '*',
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(errorOf(outcome)).toBe('Timeout reached waiting for user preference color response');
  });

  it('needs a key (and a string value to set); close rejects what is pending', async () => {
    const connection = await connected(world());
    await expect(connection.getUserPreference('')).rejects.toThrow('Key is required');
    await expect(connection.setUserPreference('k', undefined as unknown as string)).rejects.toThrow(
      'Value is required',
    );
    const pending = connection.getUserPreference('color');
    connection.close();
    await expect(pending).rejects.toThrow('Connection closed');
  });
});
