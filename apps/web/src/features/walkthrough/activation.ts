import type { TFunction } from 'i18next';
import { describeError } from '../../shared/http/describe.ts';
import { hasStatus, isHttpError } from '../../shared/http/errors.ts';
import type { Activation, DeviceLicense } from './api.ts';

/** The walkthrough's steps, in order (spec 2 /walkthrough: key -> licence -> device and preset -> credentials). */
export const STEPS = ['key', 'licence', 'device', 'credentials'] as const;
export type Step = (typeof STEPS)[number];

/** A key as people type it: spaces around and inside do not matter, letters are upper case. */
export function normalizeKey(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** Why a looked-up licence cannot be activated, or undefined when it can. */
export function licenceProblem(licence: Pick<DeviceLicense, 'status'>): 'used' | 'expired' | undefined {
  if (licence.status === 'ACTIVE') return 'used';
  if (licence.status === 'EXPIRED') return 'expired';
  return undefined;
}

/** A failed key lookup in the user's words: the server's text is never shown (spec 8). */
export function keyFailure(t: TFunction, error: unknown): string {
  if (hasStatus(error, 404)) return t('walkthrough.errors.keyUnknown');
  if (hasStatus(error, 403)) return t('walkthrough.errors.forbidden');
  if (hasStatus(error, 400)) return t('walkthrough.errors.keyInvalid');
  return describeError(t, error);
}

/** Which field a refused activation is about, and the message; 409 on the label is shown on the label field. */
export function activationFailure(
  t: TFunction,
  error: unknown,
): { field: 'label' | 'preset' | undefined; message: string } {
  // The server's text is only read to tell the refusals apart (it names the field), never shown.
  const serverMessage = isHttpError(error) ? (error.serverMessage ?? '') : '';
  if (hasStatus(error, 409)) {
    if (serverMessage.startsWith('label'))
      return { field: 'label', message: t('walkthrough.errors.labelTaken') };
    if (serverMessage.includes('expired'))
      return { field: undefined, message: t('walkthrough.errors.keyExpired') };
    if (serverMessage.includes('VPN')) return { field: undefined, message: t('walkthrough.errors.keyKind') };
    return { field: undefined, message: t('walkthrough.errors.keyUsed') };
  }
  if (hasStatus(error, 404)) {
    if (serverMessage.includes('presetId'))
      return { field: 'preset', message: t('walkthrough.errors.presetGone') };
    return { field: undefined, message: t('walkthrough.errors.keyUnknown') };
  }
  if (hasStatus(error, 403)) return { field: undefined, message: t('walkthrough.errors.forbidden') };
  if (hasStatus(error, 400)) return { field: undefined, message: t('walkthrough.errors.invalid') };
  return { field: undefined, message: describeError(t, error) };
}

/** A label as a file-name part: letters, digits, dot, dash and underscore; anything else becomes a dash. */
export function fileSafe(label: string): string {
  const safe = label
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\w.-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return safe || 'device';
}

/**
 * The edge configuration file of an activation: the server's edge configuration with the MQTT password added (the
 * device needs it and it is shown only now), named `edgeport-{label}.json`.
 */
export function edgeConfigurationFile(activation: Activation): { name: string; content: string } {
  const { edgeConfiguration, credentials, device } = activation;
  const file = {
    ...edgeConfiguration,
    mqtt: { ...edgeConfiguration.mqtt, password: credentials.password },
  };
  return { name: `edgeport-${fileSafe(device.label)}.json`, content: `${JSON.stringify(file, null, 2)}\n` };
}
