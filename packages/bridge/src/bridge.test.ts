import { describe, expect, it, vi } from 'vitest';
import { connect } from './app.ts';
import { createHostConnection } from './host.ts';
import { FakeWindow, flush, link } from './test-windows.ts';

const HOST = 'http://demo.app.localhost:8080';
const APP = 'http://apps.localhost:8080';

/** Both sides of the SDK talking to each other through fake windows: every message type, both directions. */
describe('host and app together', () => {
  it('connects, changes, navigates, reports addresses and serves preferences', async () => {
    const host = new FakeWindow(HOST);
    const app = new FakeWindow(APP);
    const { aToB: appRef, bToA: hostRef } = link(host, app);
    const values = new Map<string, string>();
    const onNavigate = vi.fn();
    const onHref = vi.fn();
    const hostConnection = createHostConnection({
      jwt: 'jwt-1',
      username: 'ada@demo.local',
      organizationId: 'org-1',
      organizationResourceId: 'demo',
      host: HOST,
      domain: 'localhost',
      hostWindow: host,
      appWindow: appRef,
      appOrigin: APP,
      theme: { colorScheme: 'light' },
      defaultStandardTime: 'UTC',
      brandName: 'Edgeport',
      onNavigate,
      onHref,
      preferences: {
        get: async (key) => values.get(key) ?? null,
        set: async (key, value) => {
          values.set(key, value);
        },
      },
    });

    const connection = await connect({ hostWindow: hostRef, selfWindow: app });
    expect(connection.context).toMatchObject({
      jwt: 'jwt-1',
      username: 'ada@demo.local',
      brandName: 'Edgeport',
    });
    expect(hostConnection.connected).toBe(true);

    const jwt = vi.fn();
    const href = vi.fn();
    connection.subscribe('jwt', jwt);
    connection.subscribe('href', href);
    hostConnection.update({ jwt: 'jwt-2' });
    hostConnection.setFrameHref(`${APP}/#/two`);
    await flush();
    expect(jwt).toHaveBeenCalledWith('jwt-2');
    expect(href).toHaveBeenCalledWith(`${APP}/#/two`);
    expect(connection.context.jwt).toBe('jwt-2');

    connection.navigate('device-manage');
    connection.reportHref(`${APP}/#/three`, 'push');
    await flush();
    expect(onNavigate).toHaveBeenCalledWith('device-manage');
    expect(onHref).toHaveBeenCalledWith({ href: `${APP}/#/three`, type: 'push' });

    await connection.setUserPreference('color', 'blue');
    expect(values.get('color')).toBe('blue');
    await expect(connection.getUserPreference('color')).resolves.toBe('blue');
    await expect(connection.getUserPreference('size')).resolves.toBeNull();

    connection.close();
    hostConnection.destroy();
    expect(host.listenerCount + app.listenerCount).toBe(0);
  });
});
