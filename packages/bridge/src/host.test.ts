import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHostConnection, type HostConnectionOptions } from './host.ts';
import { envelope, PAGE_IDS, PROTOCOL, PROTOCOL_VERSION } from './protocol.ts';
import { FakeWindow, flush, link, type WindowRef } from './test-windows.ts';

const HOST = 'http://demo.app.localhost:8080';
const APP = 'http://apps.localhost:8080';
const EVIL = 'http://evil.localhost:8080';

type World = {
  host: FakeWindow;
  app: FakeWindow;
  /** The app's frame as the host sees it (`iframe.contentWindow`). */
  appRef: WindowRef;
  /** The host as the app sees it (`window.parent`). */
  hostRef: WindowRef;
};

function world(): World {
  const host = new FakeWindow(HOST);
  const app = new FakeWindow(APP);
  const { aToB: appRef, bToA: hostRef } = link(host, app);
  return { host, app, appRef, hostRef };
}

function options(w: World, extra: Partial<HostConnectionOptions> = {}): HostConnectionOptions {
  return {
    jwt: 'jwt-1',
    username: 'ada@demo.local',
    organizationId: 'org-1',
    organizationResourceId: 'demo',
    host: HOST,
    domain: 'localhost',
    hostWindow: w.host,
    appWindow: w.appRef,
    appOrigin: APP,
    theme: { colorScheme: 'dark', primaryColor: '#0b7285' },
    defaultStandardTime: 'Europe/Amsterdam',
    brandName: 'Edgeport Demo',
    ...extra,
  };
}

/** Posts an app message from `via` (a window of the app as the host sees it) and lets it arrive. */
async function fromApp(via: WindowRef, message: Record<string, unknown>) {
  via.postMessage({ protocol: PROTOCOL, version: PROTOCOL_VERSION, payload: {}, ...message }, HOST);
  await flush();
}

function messagesTo(w: World) {
  return w.app.received.map((event) => event.data as { type: string; id?: string; payload: unknown });
}

async function connected(w: World, extra: Partial<HostConnectionOptions> = {}) {
  const connection = createHostConnection(options(w, extra));
  await fromApp(w.hostRef, { type: 'init', id: 'init-1' });
  return connection;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createHostConnection validation (spec 5, 8)', () => {
  const cases: [keyof HostConnectionOptions, string][] = [
    ['jwt', 'JWT is required'],
    ['username', 'Username is required'],
    ['organizationId', 'OrganizationId is required'],
    ['organizationResourceId', 'OrganizationResourceId is required'],
    ['host', 'EdgeportHost is required'],
    ['domain', 'EdgeportDomain is required'],
    ['hostWindow', 'EdgeportHostWindow is required'],
    ['appWindow', 'App window is required'],
    ['appOrigin', 'App origin is required'],
  ];
  for (const [field, message] of cases) {
    it(`says '${message}' without ${field}`, () => {
      const w = world();
      expect(() => createHostConnection({ ...options(w), [field]: undefined })).toThrow(message);
      expect(() => createHostConnection({ ...options(w), [field]: '' })).toThrow(message);
      expect(w.host.listenerCount).toBe(0);
    });
  }

  it('checks the fields in the order of spec 5 (the first missing one is named)', () => {
    expect(() => createHostConnection({} as HostConnectionOptions)).toThrow(/^JWT is required$/);
    const w = world();
    expect(() => createHostConnection({ ...options(w), username: '', host: '' })).toThrow(
      /^Username is required$/,
    );
  });

  it('names the product in the host messages', () => {
    const w = world();
    const product = { productName: 'Acme' };
    expect(() => createHostConnection({ ...options(w, product), host: '' })).toThrow(
      /^AcmeHost is required$/,
    );
    expect(() => createHostConnection({ ...options(w, product), domain: '' })).toThrow(
      /^AcmeDomain is required$/,
    );
    expect(() =>
      createHostConnection({ ...options(w, product), hostWindow: undefined as unknown as FakeWindow }),
    ).toThrow(/^AcmeHostWindow is required$/);
  });

  it("refuses '*' and anything that is not an origin as the app origin", () => {
    const w = world();
    for (const appOrigin of ['*', 'apps.localhost', 'javascript:alert(1)', `${APP}/path`])
      expect(() => createHostConnection(options(w, { appOrigin }))).toThrow('App origin is not valid');
  });
});

describe('initialise request and context reply', () => {
  it('answers init with the whole context, posted only to the app origin', async () => {
    const w = world();
    const onConnect = vi.fn();
    const connection = createHostConnection(options(w, { onConnect }));
    expect(connection.connected).toBe(false);
    await fromApp(w.hostRef, { type: 'init', id: 'init-1' });
    expect(messagesTo(w)).toEqual([
      {
        protocol: PROTOCOL,
        version: PROTOCOL_VERSION,
        type: 'context',
        id: 'init-1',
        payload: {
          jwt: 'jwt-1',
          username: 'ada@demo.local',
          organizationId: 'org-1',
          organizationResourceId: 'demo',
          host: HOST,
          domain: 'localhost',
          theme: { colorScheme: 'dark', primaryColor: '#0b7285' },
          defaultStandardTime: 'Europe/Amsterdam',
          brandName: 'Edgeport Demo',
        },
      },
    ]);
    expect(w.appRef.posted.map((post) => post.targetOrigin)).toEqual([APP]);
    expect(connection.connected).toBe(true);
    expect(onConnect).toHaveBeenCalledTimes(1);
  });

  it('answers a reloaded app again, with the values current by then', async () => {
    const w = world();
    const connection = await connected(w);
    connection.update({ jwt: 'jwt-2' });
    await fromApp(w.hostRef, { type: 'init', id: 'init-2' });
    const context = messagesTo(w).at(-1);
    expect(context).toMatchObject({ type: 'context', id: 'init-2', payload: { jwt: 'jwt-2' } });
  });

  it('ignores an init without an id', async () => {
    const w = world();
    createHostConnection(options(w));
    await fromApp(w.hostRef, { type: 'init' });
    expect(messagesTo(w)).toEqual([]);
  });
});

describe('change messages (host to app)', () => {
  it('sends one change per changed value: user, organization id, resource id, jwt, theme, brand name', async () => {
    const w = world();
    const connection = await connected(w);
    connection.update({
      user: 'otto@demo.local',
      organizationId: 'org-2',
      organizationResourceId: 'demo-plant',
      jwt: 'jwt-2',
      theme: { colorScheme: 'light' },
      brandName: 'Acme',
    });
    await flush();
    expect(messagesTo(w).slice(1)).toEqual(
      [
        ['user', 'otto@demo.local'],
        ['organizationId', 'org-2'],
        ['organizationResourceId', 'demo-plant'],
        ['jwt', 'jwt-2'],
        ['theme', { colorScheme: 'light' }],
        ['brandName', 'Acme'],
      ].map(([event, value]) => envelope({ type: 'change', payload: { event, value } } as never)),
    );
    expect(connection.context).toMatchObject({
      username: 'otto@demo.local',
      organizationId: 'org-2',
      organizationResourceId: 'demo-plant',
      jwt: 'jwt-2',
      brandName: 'Acme',
    });
    expect(w.appRef.posted.every((post) => post.targetOrigin === APP)).toBe(true);
  });

  it('sends the jwt on every token refresh, and nothing for an unchanged value', async () => {
    const w = world();
    const connection = await connected(w);
    connection.update({ jwt: 'jwt-1', brandName: 'Edgeport Demo' });
    connection.update({ jwt: 'jwt-2' });
    connection.update({ jwt: 'jwt-3' });
    await flush();
    expect(
      messagesTo(w)
        .slice(1)
        .map((message) => message.payload),
    ).toEqual([
      { event: 'jwt', value: 'jwt-2' },
      { event: 'jwt', value: 'jwt-3' },
    ]);
  });

  it('sends the frame address (href) of the app origin only', async () => {
    const w = world();
    const connection = await connected(w);
    connection.setFrameHref(`${APP}/samples/bridge-app/#/page-2`);
    connection.setFrameHref(`${EVIL}/phish`);
    await flush();
    expect(
      messagesTo(w)
        .slice(1)
        .map((message) => message.payload),
    ).toEqual([{ event: 'href', value: `${APP}/samples/bridge-app/#/page-2` }]);
  });

  it('sends no change before the app initialised, but the next context carries it', async () => {
    const w = world();
    const connection = createHostConnection(options(w));
    connection.update({ jwt: 'jwt-2' });
    connection.setFrameHref(`${APP}/x`);
    await flush();
    expect(w.appRef.posted).toEqual([]);
    await fromApp(w.hostRef, { type: 'init', id: 'i' });
    expect(messagesTo(w)).toEqual([
      expect.objectContaining({ type: 'context', payload: expect.objectContaining({ jwt: 'jwt-2' }) }),
    ]);
  });
});

describe('navigation requests (app to host)', () => {
  it('passes on every page identifier of spec 2', async () => {
    const w = world();
    const onNavigate = vi.fn();
    await connected(w, { onNavigate });
    for (const page of PAGE_IDS) await fromApp(w.hostRef, { type: 'navigate', payload: { page } });
    expect(onNavigate.mock.calls.map(([page]) => page)).toEqual([...PAGE_IDS]);
  });

  it('ignores anything else', async () => {
    const w = world();
    const onNavigate = vi.fn();
    await connected(w, { onNavigate });
    for (const page of ['', 'admin', '/devices', 'https://evil.example', 42, null, ['home']])
      await fromApp(w.hostRef, { type: 'navigate', payload: { page } });
    await fromApp(w.hostRef, { type: 'navigate', payload: 'home' });
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('ignores requests of an app that has not initialised', async () => {
    const w = world();
    const onNavigate = vi.fn();
    createHostConnection(options(w, { onNavigate }));
    await fromApp(w.hostRef, { type: 'navigate', payload: { page: 'home' } });
    expect(onNavigate).not.toHaveBeenCalled();
  });
});

describe('address changes (app to host)', () => {
  it('reports the href and its type', async () => {
    const w = world();
    const onHref = vi.fn();
    await connected(w, { onHref });
    await fromApp(w.hostRef, { type: 'href', payload: { href: `${APP}/a#/one`, type: 'push' } });
    await fromApp(w.hostRef, { type: 'href', payload: { href: `${APP}/a#/two`, type: 'replace' } });
    expect(onHref.mock.calls).toEqual([
      [{ href: `${APP}/a#/one`, type: 'push' }],
      [{ href: `${APP}/a#/two`, type: 'replace' }],
    ]);
  });

  it('ignores addresses outside the app origin', async () => {
    const w = world();
    const onHref = vi.fn();
    await connected(w, { onHref });
    for (const href of [`${EVIL}/x`, 'javascript:alert(1)', 'data:text/html,x', '/relative', 7])
      await fromApp(w.hostRef, { type: 'href', payload: { href, type: 'push' } });
    expect(onHref).not.toHaveBeenCalled();
  });
});

describe('user preference requests', () => {
  function store() {
    const values = new Map<string, string>([['color', 'blue']]);
    return {
      values,
      get: vi.fn(async (key: string) => values.get(key) ?? null),
      set: vi.fn(async (key: string, value: string) => {
        if (key === 'broken') throw new Error('body/value1 must NOT have more than 4000 characters');
        values.set(key, value);
      }),
    };
  }

  it('answers get with the stored value (null when unset)', async () => {
    const w = world();
    const preferences = store();
    await connected(w, { preferences });
    await fromApp(w.hostRef, { type: 'preference.get', id: 'p1', payload: { key: 'color' } });
    await fromApp(w.hostRef, { type: 'preference.get', id: 'p2', payload: { key: 'size' } });
    expect(messagesTo(w).slice(1)).toEqual([
      envelope({ type: 'preference', id: 'p1', payload: { key: 'color', value: 'blue' } }),
      envelope({ type: 'preference', id: 'p2', payload: { key: 'size', value: null } }),
    ]);
  });

  it('stores set requests and answers with the value', async () => {
    const w = world();
    const preferences = store();
    await connected(w, { preferences });
    await fromApp(w.hostRef, { type: 'preference.set', id: 'p3', payload: { key: 'size', value: 'XL' } });
    expect(preferences.values.get('size')).toBe('XL');
    expect(messagesTo(w).at(-1)).toEqual(
      envelope({ type: 'preference', id: 'p3', payload: { key: 'size', value: 'XL' } }),
    );
  });

  it('answers with the error when the store fails', async () => {
    const w = world();
    await connected(w, { preferences: store() });
    await fromApp(w.hostRef, { type: 'preference.set', id: 'p4', payload: { key: 'broken', value: 'x' } });
    expect(messagesTo(w).at(-1)).toEqual(
      envelope({
        type: 'preference',
        id: 'p4',
        payload: { key: 'broken', error: 'body/value1 must NOT have more than 4000 characters' },
      }),
    );
  });

  it('ignores malformed requests, and all of them without a store', async () => {
    const w = world();
    const preferences = store();
    await connected(w, { preferences });
    await fromApp(w.hostRef, { type: 'preference.get', payload: { key: 'color' } });
    await fromApp(w.hostRef, { type: 'preference.get', id: 'x', payload: { key: '' } });
    await fromApp(w.hostRef, { type: 'preference.set', id: 'y', payload: { key: 'a', value: 3 } });
    expect(preferences.get).not.toHaveBeenCalled();
    expect(preferences.set).not.toHaveBeenCalled();
    const bare = world();
    await connected(bare);
    await fromApp(bare.hostRef, { type: 'preference.get', id: 'z', payload: { key: 'color' } });
    expect(messagesTo(bare).map((message) => message.type)).toEqual(['context']);
  });
});

describe('security: origin, window, envelope', () => {
  it('ignores a frame of a third origin posting the same messages', async () => {
    const w = world();
    const evil = new FakeWindow(EVIL);
    const { bToA: evilToHost } = link(w.host, evil);
    const onNavigate = vi.fn();
    const onHref = vi.fn();
    const preferences = { get: vi.fn(async () => 'secret'), set: vi.fn(async () => {}) };
    createHostConnection(options(w, { onNavigate, onHref, preferences }));
    await fromApp(evilToHost, { type: 'init', id: 'evil-init' });
    await fromApp(evilToHost, { type: 'navigate', payload: { page: 'home' } });
    await fromApp(evilToHost, { type: 'preference.get', id: 'e', payload: { key: 'color' } });
    expect(evil.received).toEqual([]);
    expect(w.app.received).toEqual([]);
    expect(onNavigate).not.toHaveBeenCalled();
    expect(preferences.get).not.toHaveBeenCalled();
  });

  it('ignores a window of the app origin that is not the app frame, even once the app is connected', async () => {
    const w = world();
    const other = new FakeWindow(APP);
    const { bToA: otherToHost } = link(w.host, other);
    const onNavigate = vi.fn();
    await connected(w, { onNavigate });
    await fromApp(otherToHost, { type: 'init', id: 'other' });
    await fromApp(otherToHost, { type: 'navigate', payload: { page: 'home' } });
    expect(other.received).toEqual([]);
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('ignores the app frame once it shows another origin (and never posts the jwt there)', async () => {
    const w = world();
    const onNavigate = vi.fn();
    const connection = await connected(w, { onNavigate });
    // The frame navigated to evil.localhost: same window, other origin.
    const navigated = new FakeWindow(EVIL);
    const { aToB: frameNow, bToA: frameToHost } = link(w.host, navigated);
    frameToHost.back = w.appRef;
    await fromApp(frameToHost, { type: 'navigate', payload: { page: 'home' } });
    expect(onNavigate).not.toHaveBeenCalled();
    connection.update({ jwt: 'jwt-2' });
    expect(w.appRef.posted.at(-1)?.targetOrigin).toBe(APP);
    expect(frameNow.posted).toEqual([]);
  });

  it('ignores unknown types, other protocols and other versions', async () => {
    const w = world();
    const onNavigate = vi.fn();
    createHostConnection(options(w, { onNavigate }));
    w.hostRef.postMessage({ protocol: 'other', version: 1, type: 'init', id: 'a', payload: {} }, HOST);
    w.hostRef.postMessage({ protocol: PROTOCOL, version: 2, type: 'init', id: 'b', payload: {} }, HOST);
    w.hostRef.postMessage({ protocol: PROTOCOL, version: 1, type: 'init', id: 'c' }, HOST);
    w.hostRef.postMessage('init', HOST);
    w.hostRef.postMessage(null, HOST);
    await flush();
    expect(w.app.received).toEqual([]);
    await fromApp(w.hostRef, { type: 'init', id: 'd' });
    await fromApp(w.hostRef, { type: 'reboot', payload: { page: 'home' } });
    await fromApp(w.hostRef, { type: 'context', id: 'x', payload: { jwt: 'forged' } });
    expect(messagesTo(w).map((message) => message.type)).toEqual(['context']);
    expect(onNavigate).not.toHaveBeenCalled();
  });

  it('stops listening when destroyed', async () => {
    const w = world();
    const connection = await connected(w);
    connection.destroy();
    expect(w.host.listenerCount).toBe(0);
    connection.update({ jwt: 'jwt-9' });
    await fromApp(w.hostRef, { type: 'init', id: 'again' });
    expect(messagesTo(w).length).toBe(1);
  });
});
