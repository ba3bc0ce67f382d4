import { describe, expect, it } from 'vitest';
import type { Settings } from './api.ts';
import {
  generateSecret,
  normalizeClock,
  normalizeHost,
  normalizeHosts,
  secretProblem,
  settingsProblems,
  settingsToValues,
  timeZones,
  valuesToUpdate,
} from './settings-form.ts';

const STORED: Settings = {
  sender: 'alarms@plant.example',
  webhookSecretSet: true,
  quietHours: { start: '22:00', end: '06:00', timeZone: 'Europe/Berlin' },
  allowedWebhookHosts: ['127.0.0.1', 'hooks.internal:8080'],
};

describe('channel settings form ↔ API body', () => {
  it('shows the stored settings and sends them back unchanged, leaving the secret alone', () => {
    const values = settingsToValues(STORED);
    expect(values).toEqual({
      sender: 'alarms@plant.example',
      quietHoursEnabled: true,
      quietStart: '22:00',
      quietEnd: '06:00',
      timeZone: 'Europe/Berlin',
      allowedWebhookHosts: ['127.0.0.1', 'hooks.internal:8080'],
    });
    const update = valuesToUpdate(values);
    expect(update).toEqual({
      sender: 'alarms@plant.example',
      quietHours: { start: '22:00', end: '06:00', timeZone: 'Europe/Berlin' },
      allowedWebhookHosts: ['127.0.0.1', 'hooks.internal:8080'],
    });
    expect(update).not.toHaveProperty('webhookSecret');
  });

  it('sends an empty sender and switched-off quiet hours as null', () => {
    const values = { ...settingsToValues(STORED), sender: '  ', quietHoursEnabled: false };
    expect(valuesToUpdate(values)).toMatchObject({ sender: null, quietHours: null });
  });

  it('sets or removes the secret only when asked', () => {
    const values = settingsToValues(STORED);
    expect(valuesToUpdate(values, { kind: 'set', secret: 's'.repeat(20) }).webhookSecret).toBe(
      's'.repeat(20),
    );
    expect(valuesToUpdate(values, { kind: 'remove' }).webhookSecret).toBeNull();
    expect(secretProblem('short')).toBe('tooShort');
    expect(secretProblem('x'.repeat(201))).toBe('tooLong');
    expect(secretProblem('x'.repeat(16))).toBeUndefined();
    const secret = generateSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(generateSecret()).not.toBe(secret);
  });

  it('starts new quiet hours at night in the browser time zone', () => {
    const values = settingsToValues({ ...STORED, quietHours: null });
    expect(values.quietHoursEnabled).toBe(false);
    expect(values.quietStart).toBe('22:00');
    expect(values.timeZone.length).toBeGreaterThan(0);
  });
});

describe('allowed webhook hosts, as the server keeps them', () => {
  it('keeps host or host:port, lower-cased, international names as punycode', () => {
    expect(normalizeHost(' Hooks.Example.COM. ')).toBe('hooks.example.com');
    expect(normalizeHost('hooks.internal:8080')).toBe('hooks.internal:8080');
    expect(normalizeHost('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHost('127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeHost('0x7f.1')).toBe('127.0.0.1');
  });

  it('brackets IPv6 addresses and keeps their port', () => {
    expect(normalizeHost('::1')).toBe('[::1]');
    expect(normalizeHost('[::1]:9000')).toBe('[::1]:9000');
    expect(normalizeHost('[FE80::1]')).toBe('[fe80::1]');
  });

  it('reduces a pasted URL to its host and explicit port', () => {
    expect(normalizeHost('http://127.0.0.1:18999/hook')).toBe('127.0.0.1:18999');
    expect(normalizeHost('https://hooks.example.com/a?b')).toBe('hooks.example.com');
  });

  it('refuses what is no host', () => {
    expect(normalizeHost('')).toBeUndefined();
    expect(normalizeHost('user@host')).toBeUndefined();
    expect(normalizeHost('host/path')).toBeUndefined();
    expect(normalizeHost('host:99999')).toBeUndefined();
    expect(normalizeHost('host:0')).toBeUndefined();
    expect(normalizeHost('two words')).toBeUndefined();
    expect(normalizeHosts(['a.example', 'A.example', 'bad host'])).toEqual({
      hosts: ['a.example'],
      invalid: ['bad host'],
    });
  });
});

describe('channel settings validation', () => {
  const valid = settingsToValues(STORED);
  it('accepts the stored settings', () => {
    expect(settingsProblems(valid)).toEqual([]);
  });

  it('names what it refuses', () => {
    expect(settingsProblems({ ...valid, sender: 'not-an-address' })).toEqual([
      { field: 'sender', kind: 'invalid' },
    ]);
    expect(settingsProblems({ ...valid, quietStart: '25:00' })).toEqual([
      { field: 'quietStart', kind: 'invalid' },
    ]);
    expect(settingsProblems({ ...valid, quietEnd: '22:00' })).toEqual([{ field: 'quietEnd', kind: 'same' }]);
    expect(settingsProblems({ ...valid, timeZone: ' ' })).toEqual([{ field: 'timeZone', kind: 'required' }]);
    expect(settingsProblems({ ...valid, quietHoursEnabled: false, quietStart: 'x' })).toEqual([]);
    expect(settingsProblems({ ...valid, allowedWebhookHosts: ['ok.example', 'no way'] })).toEqual([
      { field: 'allowedWebhookHosts', kind: 'invalid', values: ['no way'] },
    ]);
    expect(settingsProblems(valid, { kind: 'set', secret: 'short' })).toEqual([
      { field: 'secret', kind: 'tooShort' },
    ]);
  });

  it('reads times of day as HH:MM', () => {
    expect(normalizeClock('7:05')).toBe('07:05');
    expect(normalizeClock('07:05:00')).toBe('07:05');
    expect(normalizeClock('24:00')).toBeUndefined();
    expect(normalizeClock('noon')).toBeUndefined();
  });

  it('offers every IANA time zone, UTC first, and keeps a stored one the browser does not know', () => {
    const zones = timeZones('Mars/Olympus_Mons');
    expect(zones[0]).toBe('UTC');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('Mars/Olympus_Mons');
    expect(new Set(zones).size).toBe(zones.length);
  });
});
