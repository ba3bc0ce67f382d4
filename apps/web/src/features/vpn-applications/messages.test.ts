import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../shared/http/errors.ts';
import { gatewaysNamed, profileDeleteFailure, vpnAppsFailure } from './messages.ts';

const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;
const status = (code: number, serverMessage = 'raw server text') =>
  new HttpError('status', { status: code, serverMessage });

describe('vpn application messages', () => {
  it('says what went wrong per status, never with the server text', () => {
    expect(vpnAppsFailure(t, 'application', status(409))).toBe('vpnApplications.errors.taken.application');
    expect(vpnAppsFailure(t, 'shortcut', status(404))).toBe('vpnApplications.errors.gone.shortcut');
    expect(vpnAppsFailure(t, 'profile', status(403))).toBe('vpnApplications.errors.forbidden');
    expect(vpnAppsFailure(t, 'profile', status(400))).toBe('vpnApplications.errors.invalid');
    expect(vpnAppsFailure(t, 'profile', status(500))).not.toContain('raw server text');
  });

  it('names the gateways that still use a profile', () => {
    expect(gatewaysNamed("the application profile is used by the gateways 'press-1', 'press 2'")).toEqual([
      'press-1',
      'press 2',
    ]);
    expect(gatewaysNamed(undefined)).toEqual([]);
    expect(
      profileDeleteFailure(t, status(409, "the application profile is used by the gateways 'press-1'")),
    ).toBe('vpnApplications.errors.profileInUse {"gateways":"press-1"}');
    expect(profileDeleteFailure(t, status(409, 'something else'))).toBe(
      'vpnApplications.errors.taken.profile',
    );
  });
});
