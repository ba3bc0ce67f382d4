import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  emptyEndpointForm,
  endpointCreateBody,
  endpointFormProblems,
  isIPv4Address,
  parsePort,
  portAfterProtocolChange,
} from './endpoint-form.ts';

const valid = { ...emptyEndpointForm('press-gw'), name: 'hmi', address: '10.213.0.1' };

describe('endpoint form', () => {
  it('starts with HTTP on port 80 and the given gateway', () => {
    expect(emptyEndpointForm('gw')).toEqual({
      gateway: 'gw',
      name: '',
      address: '',
      protocol: 'HTTP',
      port: '80',
      description: '',
    });
  });

  it('accepts dotted-quad IPv4 addresses only', () => {
    for (const good of ['10.213.0.1', '192.168.0.254', '0.0.0.0', '255.255.255.255'])
      expect(isIPv4Address(good)).toBe(true);
    for (const bad of [
      '10.213.0',
      '10.213.0.256',
      '010.1.1.1',
      '10.1.1.1.1',
      'fe80::1',
      'plc.local',
      '',
      '1e1.1.1.1',
    ])
      expect(isIPv4Address(bad)).toBe(false);
  });

  it('accepts ports 1..65535 as whole numbers', () => {
    expect(parsePort('1')).toBe(1);
    expect(parsePort(' 65535 ')).toBe(65535);
    for (const bad of ['0', '65536', '-1', '80.5', 'http', '', '123456'])
      expect(parsePort(bad)).toBeUndefined();
  });

  it('names each wrong field', () => {
    expect(endpointFormProblems(valid)).toEqual({});
    expect(
      endpointFormProblems({ ...valid, gateway: '', name: ' ', address: '10.0.0', port: '70000' }),
    ).toEqual({
      gateway: 'gatewayRequired',
      name: 'nameRequired',
      address: 'addressFormat',
      port: 'portRange',
    });
    expect(endpointFormProblems({ ...valid, name: 'a/b', address: '' })).toEqual({
      name: 'nameSlash',
      address: 'addressRequired',
    });
    expect(endpointFormProblems({ ...valid, name: 'x'.repeat(101), description: 'd'.repeat(501) })).toEqual({
      name: 'nameTooLong',
      description: 'descriptionTooLong',
    });
  });

  it('follows the protocol with its default port unless the user typed another', () => {
    expect(portAfterProtocolChange('HTTP', 'HTTPS', '80')).toBe('443');
    expect(portAfterProtocolChange('HTTPS', 'HTTP', '443')).toBe('80');
    expect(portAfterProtocolChange('HTTP', 'TCP', '80')).toBe('');
    expect(portAfterProtocolChange('TCP', 'HTTPS', '')).toBe('443');
    expect(portAfterProtocolChange('HTTP', 'HTTPS', '8080')).toBe('8080');
    expect(portAfterProtocolChange('TCP', 'HTTP', '5900')).toBe('5900');
  });

  it('builds the create body, trimmed, without an empty description', () => {
    expect(
      endpointCreateBody('org-r', { ...valid, name: ' hmi ', port: ' 8080', protocol: 'HTTPS' }),
    ).toEqual({
      domain: 'org-r',
      gateway: 'press-gw',
      name: 'hmi',
      address: '10.213.0.1',
      protocol: 'HTTPS',
      port: 8080,
    });
    expect(endpointCreateBody('org-r', { ...valid, description: ' panel ' }).description).toBe('panel');
  });
});

describe('addressRefusal', () => {
  it('reads the kind of refusal and the LAN from the server message', () => {
    expect(addressRefusal("address: 10.9.0.5 is outside the gateway's LAN 10.213.0.0/24")).toEqual({
      key: 'outsideLan',
      values: { lan: '10.213.0.0/24' },
    });
    expect(
      addressRefusal(
        'address: 169.254.169.254 is in a forbidden range (loopback, link-local, multicast or reserved)',
      ),
    ).toEqual({ key: 'forbidden', values: {} });
    expect(addressRefusal('address: the gateway has no LAN network yet; set lanNetwork first')).toEqual({
      key: 'noLan',
      values: {},
    });
    expect(
      addressRefusal('address: 10.213.0.255 is the network or broadcast address of 10.213.0.0/24'),
    ).toEqual({
      key: 'networkOrBroadcast',
      values: { lan: '10.213.0.0/24' },
    });
    expect(addressRefusal("address: '1.2.3' is not an IPv4 address")).toEqual({ key: 'format', values: {} });
  });

  it('keeps the server words of an unknown address refusal and ignores other messages', () => {
    expect(addressRefusal('body/address must NOT have more than 15 characters')).toEqual({
      key: 'other',
      values: { detail: 'must NOT have more than 15 characters' },
    });
    expect(addressRefusal("name: an endpoint named 'hmi' exists on this gateway")).toBeUndefined();
    expect(addressRefusal(undefined)).toBeUndefined();
  });
});
