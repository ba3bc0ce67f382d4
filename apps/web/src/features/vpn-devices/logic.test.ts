import type { TFunction } from 'i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { detectClientOs } from './client-os.ts';
import { KEEP_ALIVE_GRACE_MS, KEEP_ALIVE_MS, LegacyKeepAlive } from './keep-alive.ts';
import { failureLine, fromLocalInput, toLocalInput, vpnFailure } from './messages.ts';
import { serverClockOffset } from './server-clock.ts';
import { changesOf, settingsOf } from './settings-form.ts';
import {
  fileNameOf,
  isActivationKey,
  isOtp,
  looksLikeCidr,
  normalizeActivationKey,
  parseIpFilter,
} from './validation.ts';

describe('detectClientOs', () => {
  it('names Windows, Mac and Linux as the remote-access calls do', () => {
    expect(
      detectClientOs({ userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64)', platform: 'Win32' }),
    ).toBe('Win');
    expect(
      detectClientOs({ userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0)', platform: 'MacIntel' }),
    ).toBe('Mac');
    expect(detectClientOs({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64)', platform: 'Linux x86_64' })).toBe(
      'Linux',
    );
    expect(detectClientOs({ userAgentData: { platform: 'Windows' } })).toBe('Win');
  });

  it('leaves phones and unknown systems empty (they are not among the remote-access values)', () => {
    expect(detectClientOs({ userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8)' })).toBe('');
    expect(detectClientOs({ userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X)' })).toBe('');
    expect(detectClientOs({ userAgent: 'Mozilla/5.0 (PlayStation)' })).toBe('');
  });
});

describe('serverClockOffset', () => {
  it('is the server time minus the local time when the answer arrived', () => {
    const local = Date.parse('2025-03-01T10:00:00Z');
    expect(serverClockOffset('Sat, 01 Mar 2025 10:05:00 GMT', local)).toBe(5 * 60_000);
    expect(serverClockOffset('Sat, 01 Mar 2025 09:59:00 GMT', local)).toBe(-60_000);
  });

  it('ignores a missing or unreadable header and the header’s sub-second rounding', () => {
    const local = Date.parse('2025-03-01T10:00:00.700Z');
    expect(serverClockOffset(null, local)).toBe(0);
    expect(serverClockOffset('not a date', local)).toBe(0);
    expect(serverClockOffset('Sat, 01 Mar 2025 10:00:00 GMT', local)).toBe(0);
  });
});

describe('validation', () => {
  it('accepts activation keys of the contract’s pattern only', () => {
    expect(isActivationKey(normalizeActivationKey(' ep-7kqm-3xrt-w9hc '))).toBe(true);
    expect(isActivationKey('EP-7KQM-3XRT')).toBe(false);
    expect(isActivationKey('EP-0000-3XRT-W9HC')).toBe(false);
    expect(isActivationKey('LIC-7KQM-3XRT-W9HC')).toBe(false);
  });

  it('checks the form of a LAN network', () => {
    expect(looksLikeCidr('192.168.10.0/24')).toBe(true);
    expect(looksLikeCidr(' 10.213.0.0/24 ')).toBe(true);
    expect(looksLikeCidr('192.168.10.0')).toBe(false);
    expect(looksLikeCidr('192.168.300.0/24')).toBe(false);
    expect(looksLikeCidr('192.168.1.0/33')).toBe(false);
  });

  it('reads an IP filter typed a line or comma apart', () => {
    expect(parseIpFilter('10.0.0.0/8\n 192.168.1.5 , 10.0.0.0/8\n\n')).toEqual(['10.0.0.0/8', '192.168.1.5']);
    expect(parseIpFilter('  ')).toEqual([]);
  });

  it('wants six digits for a one-time password', () => {
    expect(isOtp('123456')).toBe(true);
    expect(isOtp('12345')).toBe(false);
    expect(isOtp('12345a')).toBe(false);
  });

  it('reads the file name of a content-disposition header without directories', () => {
    expect(fileNameOf('attachment; filename="edgeport-gateway-press 1.json"')).toBe(
      'edgeport-gateway-press 1.json',
    );
    expect(fileNameOf('attachment; filename=plain.json')).toBe('plain.json');
    expect(fileNameOf("attachment; filename*=UTF-8''caf%C3%A9.json")).toBe('café.json');
    expect(fileNameOf('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(fileNameOf('attachment')).toBeUndefined();
    expect(fileNameOf(null)).toBeUndefined();
  });
});

describe('LegacyKeepAlive', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function keepAlive() {
    const login = vi.fn(async (_identity: string) => undefined);
    const ping = vi.fn(async () => undefined);
    return { login, ping, session: new LegacyKeepAlive({ login, ping }) };
  }

  it('signs in once, pings every 180 s while a screen is open and stops after the last one closes', () => {
    const { login, ping, session } = keepAlive();
    const release = session.acquire('ada@example.com/acme');
    expect(login).toHaveBeenCalledExactlyOnceWith('ada@example.com/acme');
    expect(KEEP_ALIVE_MS).toBe(180_000);
    vi.advanceTimersByTime(KEEP_ALIVE_MS - 1);
    expect(ping).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ping).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(KEEP_ALIVE_MS);
    expect(ping).toHaveBeenCalledTimes(2);

    release();
    vi.advanceTimersByTime(KEEP_ALIVE_GRACE_MS);
    expect(session.active).toBe(false);
    vi.advanceTimersByTime(KEEP_ALIVE_MS * 3);
    expect(ping).toHaveBeenCalledTimes(2);
    expect(login).toHaveBeenCalledTimes(1);
  });

  it('keeps one session across a change from one VPN screen to another', () => {
    const { login, session } = keepAlive();
    const first = session.acquire('ada@example.com/acme');
    first();
    const second = session.acquire('ada@example.com/acme');
    vi.advanceTimersByTime(KEEP_ALIVE_GRACE_MS * 2);
    expect(session.active).toBe(true);
    expect(login).toHaveBeenCalledTimes(1);
    second();
    second();
    vi.advanceTimersByTime(KEEP_ALIVE_GRACE_MS);
    expect(session.active).toBe(false);
  });

  it('signs in again for another organization and ignores failures', async () => {
    const login = vi.fn(async (_identity: string) => {
      throw new Error('refused');
    });
    const ping = vi.fn(async () => {
      throw new Error('gone');
    });
    const session = new LegacyKeepAlive({ login, ping });
    const release = session.acquire('ada@example.com/acme');
    session.acquire('ada@example.com/beta');
    expect(login.mock.calls.map(([identity]) => identity)).toEqual([
      'ada@example.com/acme',
      'ada@example.com/beta',
    ]);
    await vi.advanceTimersByTimeAsync(KEEP_ALIVE_MS);
    expect(ping).toHaveBeenCalledTimes(1);
    // The refused ping signed in again.
    expect(login).toHaveBeenCalledTimes(3);
    release();
    expect(session.active).toBe(true);
  });
});

describe('changesOf', () => {
  const before = settingsOf({
    description: 'Press',
    lanNetwork: '10.0.0.0/24',
    profileId: null,
    ipFilter: ['192.168.1.0/24'],
  });

  it('sends only what changed; an emptied LAN is null', () => {
    expect(changesOf(before, { ...before }, true)).toEqual({});
    expect(changesOf(before, { ...before, description: 'Press 2', lanNetwork: ' ' }, true)).toEqual({
      description: 'Press 2',
      lanNetwork: null,
    });
    expect(changesOf(before, { ...before, profileId: 'p-1', lanNetwork: ' 10.1.0.0/24 ' }, true)).toEqual({
      profileId: 'p-1',
      lanNetwork: '10.1.0.0/24',
    });
  });

  it('sends the IP filter only when the ipFilter flag shows it, and only when its entries change', () => {
    const edited = { ...before, ipFilter: '192.168.1.0/24\n10.9.0.0/16' };
    expect(changesOf(before, edited, false)).toEqual({});
    expect(changesOf(before, edited, true)).toEqual({ ipFilter: ['192.168.1.0/24', '10.9.0.0/16'] });
    expect(changesOf(before, { ...before, ipFilter: ' 192.168.1.0/24 \n' }, true)).toEqual({});
  });
});

describe('vpnFailure', () => {
  const t = ((key: string) => key) as unknown as TFunction;

  it('names a wrong one-time password and keeps the server’s words beside it', () => {
    const error = new HttpError('status', {
      status: 403,
      serverMessage: 'otp: the one-time password is not valid',
    });
    expect(vpnFailure(t, error)).toEqual({
      message: 'vpnDevices.errors.otp',
      detail: 'otp: the one-time password is not valid',
    });
    expect(failureLine(vpnFailure(t, error))).toBe(
      'vpnDevices.errors.otp (otp: the one-time password is not valid)',
    );
  });

  it('tells refused input, missing rights, unknown names and an offline tunnel apart', () => {
    const of = (status: number, serverMessage?: string) =>
      vpnFailure(t, new HttpError('status', { status, serverMessage }));
    expect(of(400, 'address: outside the LAN').message).toBe('vpnDevices.errors.invalid');
    expect(of(403, 'VPN is not enabled for this organization').message).toBe('vpnDevices.errors.vpnOff');
    expect(of(403).message).toBe('vpnDevices.errors.forbidden');
    expect(of(404, "gateway 'x' not found")).toEqual({
      message: 'vpnDevices.errors.gone',
      detail: "gateway 'x' not found",
    });
    expect(of(503).message).toBe('vpnDevices.errors.offline');
    expect(of(500, 'boom').detail).toBeUndefined();
  });
});

describe('datetime-local inputs', () => {
  it('round-trip an instant to the minute, in local time', () => {
    const at = new Date(2025, 2, 1, 9, 5).getTime();
    expect(toLocalInput(at)).toBe('2025-03-01T09:05');
    expect(fromLocalInput('2025-03-01T09:05')).toBe(at);
    expect(toLocalInput(undefined)).toBe('');
    expect(fromLocalInput('')).toBeUndefined();
  });
});
