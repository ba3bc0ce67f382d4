import { license } from '@edgeport/contract/values';

const ACTIVATION_KEY = new RegExp(license.ACTIVATION_KEY_PATTERN);

/** An activation key as typed or pasted: spaces dropped, upper case (keys look like EP-7KQM-3XRT-W9HC). */
export function normalizeActivationKey(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

/** Whether a normalized key can be an activation key at all (the contract's pattern; the server answers 400 else). */
export function isActivationKey(key: string): boolean {
  return ACTIVATION_KEY.test(key);
}

const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(\\.${OCTET}){3}`;
const CIDR = new RegExp(`^${IPV4}/(3[0-2]|[12]?\\d)$`);

/**
 * Whether a LAN network looks like an IPv4 CIDR (192.168.10.0/24). Only the form is checked here: the server
 * decides the rest (host bits, forbidden ranges) and says what it refused.
 */
export function looksLikeCidr(value: string): boolean {
  return CIDR.test(value.trim());
}

/** The IP filter as typed one entry a line (or separated by commas): trimmed, without blanks or repeats. */
export function parseIpFilter(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,]+/)
        .map((entry) => entry.trim())
        .filter((entry) => entry.length > 0),
    ),
  ];
}

/** A one-time password is six digits. */
export function isOtp(value: string): boolean {
  return /^[0-9]{6}$/.test(value);
}

/** The file name of a `content-disposition: attachment; filename="..."` header, or undefined. */
export function fileNameOf(contentDisposition: string | null | undefined): string | undefined {
  if (!contentDisposition) return undefined;
  const encoded = /filename\*\s*=\s*(?:UTF-8'')?([^;]+)/i.exec(contentDisposition)?.[1];
  if (encoded) {
    try {
      return safeFileName(decodeURIComponent(encoded.trim().replace(/^"|"$/g, '')));
    } catch {
      // A broken encoding: fall back to the plain name.
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/i.exec(contentDisposition);
  const name = plain?.[2] ?? plain?.[1]?.trim();
  return name ? safeFileName(name) : undefined;
}

/** No directories in a downloaded file's name. */
function safeFileName(name: string): string | undefined {
  const base = name.split(/[\\/]/).pop()?.trim();
  return base ? base : undefined;
}
