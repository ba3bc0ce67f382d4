import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveClient } from './live-client.ts';

type Handler = (event: { data?: unknown }) => void;

/** A WebSocket stand-in: records what the client sends and lets the test play the server. */
class FakeSocket {
  static OPEN = 1;
  static created: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  private readonly handlers = new Map<string, Handler[]>();
  readonly url: string;

  constructor(url: string) {
    this.url = url;
    FakeSocket.created.push(this);
  }
  addEventListener(type: string, handler: Handler) {
    this.handlers.set(type, [...(this.handlers.get(type) ?? []), handler]);
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
    this.emit('close', {});
  }
  open() {
    this.readyState = FakeSocket.OPEN;
    this.emit('open', {});
  }
  receive(message: unknown) {
    this.emit('message', { data: JSON.stringify(message) });
  }
  private emit(type: string, event: { data?: unknown }) {
    for (const handler of this.handlers.get(type) ?? []) handler(event);
  }
}

const alarm = { id: 'a1', severity: 'MAJOR', name: 'Hot' };

describe('LiveClient alarm listeners', () => {
  beforeEach(() => {
    FakeSocket.created = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('opens the connection for an organization-level listener and hands it every alarm message', async () => {
    const client = new LiveClient('ws://host/svc/live', 'org-1', async () => 'token-1');
    const received: unknown[] = [];
    const stop = client.onAlarm((message) => received.push(message));
    const socket = FakeSocket.created[0];
    if (!socket) throw new Error('no connection opened');
    socket.open();
    await vi.waitFor(() =>
      expect(socket.sent).toEqual([{ type: 'auth', token: 'token-1', organization: 'org-1' }]),
    );
    socket.receive({ type: 'ready', organizationId: 'org-1' });
    expect(client.state).toBe('open');
    // No device subscription is asked for an alarm listener.
    expect(socket.sent).toHaveLength(1);
    socket.receive({ type: 'alarm', event: 'RAISED', alarm });
    socket.receive({ type: 'values', deviceId: 'd1', ts: 1, values: { '/x': 1 } });
    expect(received).toEqual([{ type: 'alarm', event: 'RAISED', alarm }]);
    stop();
    socket.receive({ type: 'alarm', event: 'ACKNOWLEDGED', alarm });
    expect(received).toHaveLength(1);
    client.close();
  });

  it('reconnects after a break while an alarm listener remains, and not once it is gone', async () => {
    const client = new LiveClient('ws://host/svc/live', 'org-1', async () => 'token-1');
    const stop = client.onAlarm(() => {});
    FakeSocket.created[0]?.close();
    await vi.advanceTimersByTimeAsync(1000);
    expect(FakeSocket.created).toHaveLength(2);
    stop();
    FakeSocket.created[1]?.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(FakeSocket.created).toHaveLength(2);
    client.close();
  });
});

describe('LiveClient re-authentication', () => {
  beforeEach(() => {
    FakeSocket.created = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('sends the refreshed permission token over the open socket, and nothing while the token is unchanged', async () => {
    let token = 'token-1';
    const client = new LiveClient('ws://host/svc/live', 'org-1', async () => token);
    client.onAlarm(() => {});
    const socket = FakeSocket.created[0];
    if (!socket) throw new Error('no connection opened');
    socket.open();
    await vi.advanceTimersByTimeAsync(0);
    socket.receive({ type: 'ready', organizationId: 'org-1' });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.sent).toEqual([{ type: 'auth', token: 'token-1', organization: 'org-1' }]);

    token = 'token-2';
    await vi.advanceTimersByTimeAsync(30_000);
    expect(socket.sent).toEqual([
      { type: 'auth', token: 'token-1', organization: 'org-1' },
      { type: 'auth', token: 'token-2', organization: 'org-1' },
    ]);
    expect(FakeSocket.created).toHaveLength(1);
    client.close();
  });
});
