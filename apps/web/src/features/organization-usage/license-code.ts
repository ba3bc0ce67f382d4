import { licenseProducts } from '@edgeport/contract/values';

/** A licence code as typed or pasted: surrounding spaces dropped, upper case (codes look like LIC-7KQM-3XRT-W9HC). */
export function normalizeCode(input: string): string {
  return input.trim().replace(/\s+/g, '').toUpperCase();
}

/** Licence codes look like LIC-7KQM-3XRT-W9HC (the contract's pattern: no 0/O, 1/I/L, U). */
const LICENSE_CODE = new RegExp(licenseProducts.LICENSE_CODE_PATTERN);

/** Whether a normalized code can be a licence code at all (the server answers 400 for one that cannot). */
export function isLicenseCode(code: string): boolean {
  return LICENSE_CODE.test(code);
}
