import { describe, expect, it } from 'vitest';
import {
  clientAllowed,
  endpointAddressProblem,
  ipFilterEntryProblem,
  networkSize,
  parseLanNetwork,
} from './network.ts';

describe('LAN networks', () => {
  it('normalises a CIDR to its network address and counts usable hosts', () => {
    const lan = parseLanNetwork('192.168.10.77/24');
    expect(lan).toEqual({ network: '192.168.10.0', prefix: 24, cidr: '192.168.10.0/24' });
    expect(lan && networkSize(lan)).toBe(254);
    expect(parseLanNetwork('10.1.2.3/30')?.cidr).toBe('10.1.2.0/30');
  });

  it('refuses what is not a plant LAN', () => {
    for (const bad of [
      '192.168.10.0',
      '192.168.010.0/24',
      '127.0.0.0/8',
      '169.254.0.0/16',
      '10.0.0.0/31',
      'x/24',
    ])
      expect(parseLanNetwork(bad), bad).toBeUndefined();
  });
});

describe('endpoint addresses', () => {
  const lan = parseLanNetwork('192.168.10.0/24');

  it('accepts a host inside the LAN', () => {
    expect(endpointAddressProblem('192.168.10.20', lan)).toBeUndefined();
  });

  it('refuses addresses outside the LAN, its network and broadcast, and forbidden ranges', () => {
    expect(endpointAddressProblem('192.168.11.20', lan)).toMatch(/outside/);
    expect(endpointAddressProblem('192.168.10.0', lan)).toMatch(/network or broadcast/);
    expect(endpointAddressProblem('192.168.10.255', lan)).toMatch(/network or broadcast/);
    expect(endpointAddressProblem('127.0.0.1', lan)).toMatch(/forbidden/);
    expect(endpointAddressProblem('169.254.169.254', lan)).toMatch(/forbidden/);
    expect(endpointAddressProblem('0x7f.1', lan)).toMatch(/not an IPv4/);
    expect(endpointAddressProblem('192.168.10.20', undefined)).toMatch(/no LAN/);
  });
});

describe('client IP filter', () => {
  it('allows everyone without a filter, and only matching clients with one', () => {
    expect(clientAllowed('203.0.113.9', [])).toBe(true);
    expect(clientAllowed('203.0.113.9', ['203.0.113.0/24'])).toBe(true);
    expect(clientAllowed('::ffff:203.0.113.9', ['203.0.113.0/24'])).toBe(true);
    expect(clientAllowed('198.51.100.1', ['203.0.113.0/24', '2001:db8::/32'])).toBe(false);
    expect(clientAllowed('2001:db8::5', ['2001:db8::/32'])).toBe(true);
  });

  it('names filter entries that are not CIDRs', () => {
    expect(ipFilterEntryProblem('10.0.0.0/8')).toBeUndefined();
    expect(ipFilterEntryProblem('2001:db8::/129')).toMatch(/prefix/);
    expect(ipFilterEntryProblem('ten/8')).toMatch(/not an IP/);
  });
});
