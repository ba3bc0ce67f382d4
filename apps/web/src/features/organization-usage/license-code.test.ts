import { describe, expect, it } from 'vitest';
import { isLicenseCode, normalizeCode } from './license-code.ts';

describe('licence codes', () => {
  it('ignores case and spaces as typed or pasted', () => {
    expect(normalizeCode('  lic-7kqm-3xrt-w9hc ')).toBe('LIC-7KQM-3XRT-W9HC');
    expect(normalizeCode('LIC-7KQM- 3XRT-W9HC')).toBe('LIC-7KQM-3XRT-W9HC');
    expect(normalizeCode('   ')).toBe('');
  });

  it('knows what can be a licence code', () => {
    expect(isLicenseCode('LIC-7KQM-3XRT-W9HC')).toBe(true);
    expect(isLicenseCode(normalizeCode(' lic-7kqm-3xrt-w9hc'))).toBe(true);
    expect(isLicenseCode('LIC-7KQM-3XRT')).toBe(false);
    expect(isLicenseCode('LIC-0KQM-3XRT-W9HC')).toBe(false);
    expect(isLicenseCode('EP-7KQM-3XRT-W9HC')).toBe(false);
  });
});
