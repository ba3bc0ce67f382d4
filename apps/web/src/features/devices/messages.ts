import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus } from '../../shared/http/errors.ts';

export type DeviceAction = 'save' | 'bulk' | 'group' | 'members';

/**
 * A failed device or device-group call in the user's words (the server's text is never shown, spec 8): 409 a label,
 * alias or group name in use; 404 gone; 403 not allowed; 400 refused input.
 */
export function deviceFailure(t: TFunction, action: DeviceAction, error: unknown): string {
  if (hasStatus(error, 409))
    return t(action === 'group' ? 'devices.errors.groupNameTaken' : 'devices.errors.taken');
  if (hasStatus(error, 404)) return t(action === 'bulk' ? 'devices.errors.someGone' : 'devices.errors.gone');
  if (hasStatus(error, 403)) return t('devices.errors.forbidden');
  if (hasStatus(error, 400)) return t('devices.errors.invalid');
  return describeError(t, error);
}

/** Both coordinates or none: the message key of what is wrong, or undefined. */
export function positionProblem(latitude: string, longitude: string): string | undefined {
  const hasLatitude = latitude.trim() !== '';
  const hasLongitude = longitude.trim() !== '';
  if (hasLatitude !== hasLongitude) return 'devices.validation.bothCoordinates';
  if (!hasLatitude) return undefined;
  const lat = Number(latitude);
  const lng = Number(longitude);
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) return 'devices.validation.latitude';
  if (!Number.isFinite(lng) || lng < -180 || lng > 180) return 'devices.validation.longitude';
  return undefined;
}
