import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';

export type VpnAppsSubject = 'application' | 'profile' | 'shortcut';

/**
 * A failed application, profile or shortcut call in the user's words: 409 a name in use (for shortcuts: too many),
 * 404 gone (or something it names gone), 403 not allowed, 400 refused input.
 */
export function vpnAppsFailure(t: TFunction, subject: VpnAppsSubject, error: unknown): string {
  if (hasStatus(error, 409)) return t(`vpnApplications.errors.taken.${subject}`);
  if (hasStatus(error, 404)) return t(`vpnApplications.errors.gone.${subject}`);
  if (hasStatus(error, 403)) return t('vpnApplications.errors.forbidden');
  if (hasStatus(error, 400)) return t('vpnApplications.errors.invalid');
  return describeError(t, error);
}

/** The gateways a refusal to delete a profile names ("… used by the gateways 'press-1', 'press-2'"). */
export function gatewaysNamed(serverMessage: string | undefined): string[] {
  const list = /used by the gateways? (.*)$/i.exec(serverMessage ?? '')?.[1] ?? '';
  return [...list.matchAll(/'([^']*)'/g)].map((match) => match[1] ?? '').filter(Boolean);
}

/** Why a profile was not deleted: still assigned to gateways (409, naming them), or as every failure. */
export function profileDeleteFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 409)) {
    const gateways = gatewaysNamed(isHttpError(error) ? error.serverMessage : undefined);
    if (gateways.length > 0)
      return t('vpnApplications.errors.profileInUse', { gateways: gateways.join(', ') });
  }
  return vpnAppsFailure(t, 'profile', error);
}
