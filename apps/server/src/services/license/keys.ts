import { randomInt } from 'node:crypto';
import { licenseProducts } from '@edgeport/contract';

/** Letters and digits nobody confuses when reading a key aloud or off a label: no 0/O, 1/I/L, U. */
export const KEY_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new activation key `EP-XXXX-XXXX-XXXX` (12 characters of 30: about 59 bits, crypto random). */
export function generateActivationKey(): string {
  const groups: string[] = [];
  for (let group = 0; group < 3; group += 1) {
    let text = '';
    for (let index = 0; index < 4; index += 1) text += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
    groups.push(text);
  }
  return `EP-${groups.join('-')}`;
}

/** A key as people type it: spaces around and lower case do not matter. */
export function normalizeActivationKey(key: string): string {
  return key.trim().toUpperCase();
}

/** The key with every letter and digit but the last 4 replaced by `*` (separators kept): `**-****-****-W9HC`. */
export function maskActivationKey(key: string): string {
  const visibleFrom = key.length - 4;
  return [...key].map((char, index) => (index >= visibleFrom || char === '-' ? char : '*')).join('');
}

/** A new licence code `LIC-XXXX-XXXX-XXXX` from the activation keys' alphabet (crypto random). */
export function generateLicenseCode(): string {
  return `LIC${generateActivationKey().slice(2)}`;
}

/** Licence codes as issued: LIC and three groups of four from `KEY_ALPHABET` (the contract's pattern). */
export const LICENSE_CODE = new RegExp(licenseProducts.LICENSE_CODE_PATTERN);

/** A licence code as people type it (spaces around and case do not matter), or undefined when it cannot be one. */
export function normalizeLicenseCode(code: string): string | undefined {
  const normalized = code.trim().toUpperCase();
  return LICENSE_CODE.test(normalized) ? normalized : undefined;
}
