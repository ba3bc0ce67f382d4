import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { isHttpError } from '../../shared/http/errors.ts';

/**
 * A failed remote-access call: the portal's sentence, and beside it the server's explanation where the server names
 * what it refused (a wrong one-time password, an address outside the LAN, an unknown gateway, an offline tunnel).
 */
export type VpnFailure = { message: string; detail: string | undefined };

const EXPLAINED = new Set([400, 403, 404, 409, 502, 503, 504]);

export function vpnFailure(t: TFunction, error: unknown): VpnFailure {
  if (!isHttpError(error) || error.kind !== 'status' || error.status === undefined) {
    return { message: describeError(t, error), detail: undefined };
  }
  const server = error.serverMessage?.trim() ?? '';
  const detail = EXPLAINED.has(error.status) && server ? server : undefined;
  switch (error.status) {
    case 400:
      return { message: t('vpnDevices.errors.invalid'), detail };
    case 403:
      if (server.startsWith('otp')) return { message: t('vpnDevices.errors.otp'), detail };
      if (/VPN is not enabled/i.test(server)) return { message: t('vpnDevices.errors.vpnOff'), detail };
      return { message: t('vpnDevices.errors.forbidden'), detail };
    case 404:
      return { message: t('vpnDevices.errors.gone'), detail };
    case 409:
      return { message: t('vpnDevices.errors.conflict'), detail };
    case 502:
    case 503:
    case 504:
      return { message: t('vpnDevices.errors.offline'), detail };
    default:
      return { message: describeError(t, error), detail };
  }
}

/** Both texts in one line (for notifications). */
export function failureLine(failure: VpnFailure): string {
  return failure.detail ? `${failure.message} (${failure.detail})` : failure.message;
}

/** `YYYY-MM-DDTHH:mm` of a datetime-local input, in local time; '' for none. */
export function toLocalInput(epochMs: number | undefined): string {
  if (epochMs === undefined) return '';
  const date = new Date(epochMs);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The instant a datetime-local input names (local time), or undefined when empty or unreadable. */
export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined;
  const at = new Date(value).getTime();
  return Number.isNaN(at) ? undefined : at;
}
