import { isEmail } from '../notifications/rule-form.ts';
import type { Settings, SettingsUpdate } from './api.ts';

export type ChannelSettings = Settings;
export type ChannelSettingsUpdate = SettingsUpdate;

/** What the channel-settings form edits (the webhook secret is separate: it is write-only). */
export type SettingsFormValues = {
  sender: string;
  quietHoursEnabled: boolean;
  quietStart: string;
  quietEnd: string;
  timeZone: string;
  allowedWebhookHosts: string[];
};

export const SETTINGS_LIMITS = { hosts: 50, host: 253, secretMin: 16, secretMax: 200 } as const;

/** The browser's own time zone, the default for new quiet hours. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The IANA time zones the browser knows, with UTC (which some engines leave out) and the chosen one always there. */
export function timeZones(chosen?: string): string[] {
  let zones: string[] = [];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  const all = new Set(['UTC', ...zones]);
  if (chosen) all.add(chosen);
  return [...all].sort((a, b) => (a === 'UTC' ? -1 : b === 'UTC' ? 1 : a.localeCompare(b)));
}

export function settingsToValues(settings: ChannelSettings): SettingsFormValues {
  return {
    sender: settings.sender ?? '',
    quietHoursEnabled: settings.quietHours !== null,
    quietStart: settings.quietHours?.start ?? '22:00',
    quietEnd: settings.quietHours?.end ?? '06:00',
    timeZone: settings.quietHours?.timeZone ?? browserTimeZone(),
    allowedWebhookHosts: [...settings.allowedWebhookHosts],
  };
}

/**
 * An allowed-host entry as the server keeps it: `host` or `host:port` (IPv6 as `[addr]` or `[addr]:port`), lower-cased,
 * international names as punycode, IPv4 literals in any notation as dotted decimal, without a trailing dot. A pasted
 * URL is reduced to its host and explicit port. Undefined when the text is no host.
 */
export function normalizeHost(value: string): string | undefined {
  const text = value.trim().toLowerCase();
  if (!text) return undefined;
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//.exec(text);
  let authority = scheme ? (text.slice(scheme[0].length).split(/[/?#]/)[0] ?? '') : text;
  if (/[/?#@\s\\]/.test(authority) || authority === '') return undefined;
  // A bare IPv6 address ("::1", "fe80::1") has no port: bracket it as a URL needs.
  if (!authority.startsWith('[') && authority.split(':').length > 2) authority = `[${authority}]`;
  const port = /^(?:\[[^\]]*\]|[^:]*):(\d{1,5})$/.exec(authority)?.[1];
  if (authority.includes(':') && !authority.startsWith('[') && port === undefined) return undefined;
  if (/^\[[^\]]*\]:(?!\d{1,5}$)/.test(authority)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${authority}`);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/\.$/, '');
  if (!host || host.length > SETTINGS_LIMITS.host) return undefined;
  if (port === undefined) return host;
  const number = Number(port);
  if (number < 1 || number > 65_535) return undefined;
  return `${host}:${number}`;
}

/** The hosts as they will be stored: normalised, without repeats; the ones that are no host are reported apart. */
export function normalizeHosts(values: readonly string[]): { hosts: string[]; invalid: string[] } {
  const hosts: string[] = [];
  const invalid: string[] = [];
  for (const value of values) {
    const host = normalizeHost(value);
    if (host === undefined) invalid.push(value);
    else if (!hosts.includes(host)) hosts.push(host);
  }
  return { hosts, invalid };
}

const CLOCK = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** "7:05" and "07:05:00" as the contract's HH:MM; undefined when it is no time of day. */
export function normalizeClock(value: string): string | undefined {
  const match = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec(value.trim());
  if (!match) return undefined;
  const clock = `${(match[1] ?? '').padStart(2, '0')}:${match[2]}`;
  return CLOCK.test(clock) ? clock : undefined;
}

export type SecretChange = { kind: 'keep' } | { kind: 'set'; secret: string } | { kind: 'remove' };

export type SettingsProblem =
  | { field: 'sender'; kind: 'invalid' }
  | { field: 'quietStart' | 'quietEnd'; kind: 'invalid' }
  | { field: 'quietEnd'; kind: 'same' }
  | { field: 'timeZone'; kind: 'required' }
  | { field: 'allowedWebhookHosts'; kind: 'invalid'; values: string[] }
  | { field: 'allowedWebhookHosts'; kind: 'tooMany' }
  | { field: 'secret'; kind: 'tooShort' | 'tooLong' };

export function settingsProblems(
  values: SettingsFormValues,
  secret: SecretChange = { kind: 'keep' },
): SettingsProblem[] {
  const problems: SettingsProblem[] = [];
  if (values.sender.trim() && !isEmail(values.sender)) problems.push({ field: 'sender', kind: 'invalid' });
  if (values.quietHoursEnabled) {
    const start = normalizeClock(values.quietStart);
    const end = normalizeClock(values.quietEnd);
    if (!start) problems.push({ field: 'quietStart', kind: 'invalid' });
    if (!end) problems.push({ field: 'quietEnd', kind: 'invalid' });
    if (start && end && start === end) problems.push({ field: 'quietEnd', kind: 'same' });
    if (!values.timeZone.trim()) problems.push({ field: 'timeZone', kind: 'required' });
  }
  const { hosts, invalid } = normalizeHosts(values.allowedWebhookHosts);
  if (invalid.length > 0) problems.push({ field: 'allowedWebhookHosts', kind: 'invalid', values: invalid });
  else if (hosts.length > SETTINGS_LIMITS.hosts)
    problems.push({ field: 'allowedWebhookHosts', kind: 'tooMany' });
  if (secret.kind === 'set') {
    if (secret.secret.length < SETTINGS_LIMITS.secretMin)
      problems.push({ field: 'secret', kind: 'tooShort' });
    else if (secret.secret.length > SETTINGS_LIMITS.secretMax)
      problems.push({ field: 'secret', kind: 'tooLong' });
  }
  return problems;
}

/** The body of PUT /settings: every field of the form, and the secret only when it changes. */
export function valuesToUpdate(
  values: SettingsFormValues,
  secret: SecretChange = { kind: 'keep' },
): ChannelSettingsUpdate {
  const start = normalizeClock(values.quietStart);
  const end = normalizeClock(values.quietEnd);
  return {
    sender: values.sender.trim() ? values.sender.trim().toLowerCase() : null,
    quietHours:
      values.quietHoursEnabled && start && end ? { start, end, timeZone: values.timeZone.trim() } : null,
    allowedWebhookHosts: normalizeHosts(values.allowedWebhookHosts).hosts,
    ...(secret.kind === 'set' ? { webhookSecret: secret.secret } : {}),
    ...(secret.kind === 'remove' ? { webhookSecret: null } : {}),
  };
}

/** A random secret of 32 bytes as base64url (43 characters), for "Generate". */
export function generateSecret(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Why a typed webhook secret cannot be used (the contract takes 16 to 200 characters), or undefined. */
export function secretProblem(secret: string): 'tooShort' | 'tooLong' | undefined {
  if (secret.length < SETTINGS_LIMITS.secretMin) return 'tooShort';
  if (secret.length > SETTINGS_LIMITS.secretMax) return 'tooLong';
  return undefined;
}
