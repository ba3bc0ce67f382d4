import { describe, expect, it } from 'vitest';
import { checkedLookup, hostAddresses } from './network.ts';
import {
  addressRefusal,
  allowedHostRefusal,
  checkWebhookTarget,
  type Network,
  normalizeAllowedHost,
  normalizeHost,
  parseIpv4Literal,
  type Resolver,
  type WebhookPolicy,
  webhookUrlRefusal,
} from './ssrf.ts';

/** A DNS of its own: names map to fixed addresses; anything else is ENOTFOUND. */
function fakeDns(table: Record<string, string[]>): Resolver {
  return async (host) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const dns = fakeDns({
  'hooks.example.com': ['93.184.215.14'],
  'v6.example.com': ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.example.com': ['93.184.215.14', '127.0.0.1'],
  'internal.example.com': ['10.1.2.3'],
  'mapped.example.com': ['::ffff:169.254.169.254'],
  'xn--bcher-kva.example': ['93.184.215.15'],
  'receiver.test': ['127.0.0.1'],
  localhost: ['::1', '127.0.0.1'],
  'own.example.com': ['203.0.113.9'],
  'ula.example.com': ['fd12:3456::7'],
});

/** A host whose interfaces have the loopback addresses, a public-looking 203.0.113.9 and a ULA fd00::2. */
const OWN = ['127.0.0.1', '::1', '203.0.113.9', 'fd00::2', 'fe80::fc:ff:fe00:1'];
const net: Network = { resolve: dns, ownAddresses: () => OWN };
const policy = (overrides: Partial<WebhookPolicy> = {}): WebhookPolicy => ({
  privateHosts: [],
  organizationHosts: [],
  ...overrides,
});
const check = (url: string, overrides: Partial<WebhookPolicy> = {}) =>
  checkWebhookTarget(url, policy(overrides), net);

describe('IPv4 literals in every notation', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['2130706433', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['017700000001', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['127.0.1', '127.0.0.1'],
    ['10.0.0.1.', '10.0.0.1'],
    ['0', '0.0.0.0'],
    ['169.254.43518', '169.254.169.254'],
  ])('%s is %s', (text, address) => {
    expect(parseIpv4Literal(text)).toBe(address);
  });

  it.each(['256.0.0.1', '1.2.3.4.5', '4294967296', '08.0.0.1', 'example.com', '1e2', '', '1..2'])(
    '%s is no IPv4 literal',
    (text) => {
      expect(parseIpv4Literal(text)).toBeUndefined();
    },
  );
});

describe('address classes', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.255', 'carrier-grade NAT'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
  ])('%s is refused as %s', (address, label) => {
    expect(addressRefusal(address)).toContain(label);
  });

  it.each([
    '93.184.215.14',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '2002:0808:0808::',
  ])('%s is public', (address) => {
    expect(addressRefusal(address)).toBeUndefined();
  });
});

describe('host normalisation', () => {
  it.each([
    ['Hooks.Example.COM', 'hooks.example.com'],
    ['hooks.example.com.', 'hooks.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['0x7f.1', '127.0.0.1'],
    ['[::FFFF:127.0.0.1]', '::ffff:7f00:1'],
    ['[0:0:0:0:0:0:0:1]', '::1'],
  ])('%s -> %s', (raw, normalized) => {
    expect(normalizeHost(raw)).toBe(normalized);
  });

  it.each(['', 'exa mple.com', 'a/b', 'foo.123', '[zz::1]'])('%s is no host', (raw) => {
    expect(normalizeHost(raw)).toBeUndefined();
  });

  it.each([
    ['Receiver.Test', 'receiver.test'],
    ['receiver.test:8080', 'receiver.test:8080'],
    ['2130706433:80', '127.0.0.1:80'],
    ['[::1]:9000', '[::1]:9000'],
    ['::1', '[::1]'],
    ['BÜCHER.example', 'xn--bcher-kva.example'],
  ])('allow-list entry %s -> %s', (entry, normalized) => {
    expect(normalizeAllowedHost(entry)).toBe(normalized);
  });

  it.each([
    'http://receiver.test',
    'receiver.test/path',
    'user@receiver.test',
    'host:0',
    'host:99999',
    'a b',
  ])('allow-list entry %s is refused', (entry) => {
    expect(normalizeAllowedHost(entry)).toBeUndefined();
  });
});

describe('webhook targets', () => {
  it.each([
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://2130706433/hook', 'loopback'],
    ['http://0177.0.0.1/hook', 'loopback'],
    ['http://0x7f.1/hook', 'loopback'],
    ['http://127.1:8080/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://[::ffff:7f00:1]/hook', 'loopback'],
    ['http://169.254.169.254/latest/meta-data', 'metadata'],
    ['http://[fd00:ec2::254]/latest', 'metadata'],
    ['http://metadata.google.internal/computeMetadata/v1', 'metadata'],
    ['http://METADATA.google.internal./computeMetadata/v1', 'metadata'],
    ['http://localhost:3000/hook', 'loopback'],
    ['http://api.localhost/hook', 'loopback'],
    ['http://10.0.0.5/hook', 'private'],
    ['http://192.168.0.10/hook', 'private'],
    ['http://100.64.1.1/hook', 'carrier-grade NAT'],
    ['http://0.0.0.0:8080/hook', 'this network'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://internal.example.com/hook', 'resolves to 10.1.2.3'],
    ['http://rebind.example.com/hook', 'resolves to 127.0.0.1'],
    ['http://mapped.example.com/hook', 'metadata'],
    ['http://203.0.113.9:8080/hook', 'an address of this server'],
    ['http://[::ffff:203.0.113.9]/hook', 'an address of this server'],
    ['http://own.example.com/hook', 'an address of this server'],
    ['ftp://hooks.example.com/hook', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['http://user:pass@hooks.example.com/hook', 'credentials'],
    ['not a url', 'not a valid URL'],
  ])('refuses %s (%s)', async (url, reason) => {
    const checked = await check(url);
    expect(checked.ok).toBe(false);
    if (!checked.ok) {
      expect(checked.reason).toContain(reason);
      expect(checked.refused).toBe(true);
    }
  });

  it('accepts public targets and names the address to connect to', async () => {
    expect(await check('https://Hooks.Example.com/x?y=1')).toMatchObject({
      ok: true,
      target: { host: 'hooks.example.com', port: 443, address: { address: '93.184.215.14', family: 4 } },
    });
    const v6 = await check('http://v6.example.com:8080/');
    expect(v6).toMatchObject({ ok: true, target: { port: 8080, address: { family: 6 } } });
    const idn = await check('https://bücher.example/hook');
    expect(idn).toMatchObject({ ok: true, target: { host: 'xn--bcher-kva.example' } });
  });

  it("opens no address by an organization's allowed hosts: they only narrow where webhooks go", async () => {
    for (const [url, listed] of [
      ['http://127.0.0.1:18081/h', '127.0.0.1:18081'],
      ['http://0x7f.0.0.1:5000/h', '127.0.0.1:5000'],
      ['http://[::1]:5000/h', '[0:0::1]'],
      ['http://localhost:3000/h', 'localhost:3000'],
      ['http://receiver.test:8080/h', 'receiver.test'],
      ['http://10.0.0.5/h', '10.0.0.5'],
      ['http://169.254.169.254/latest', '169.254.169.254'],
      ['http://203.0.113.9/h', '203.0.113.9'],
    ] as const) {
      expect((await check(url, { organizationHosts: [listed] })).ok, url).toBe(false);
    }
    const narrowed = { organizationHosts: ['hooks.example.com', 'v6.example.com:8080'] };
    expect((await check('https://hooks.example.com/x', narrowed)).ok).toBe(true);
    expect((await check('http://v6.example.com:8080/', narrowed)).ok).toBe(true);
    const otherPort = await check('http://v6.example.com:9090/', narrowed);
    expect(otherPort).toMatchObject({ ok: false, refused: true });
    const otherHost = await check('https://xn--bcher-kva.example/', narrowed);
    expect(otherHost.ok || otherHost.reason).toContain("not one of the organization's allowed webhook hosts");
  });

  it('opens private addresses only for the hosts of WEBHOOK_ALLOWED_PRIVATE_HOSTS, never loopback or the like', async () => {
    const privateHosts = ['internal.example.com', '10.0.0.5:8080', 'ula.example.com'];
    expect(await check('http://internal.example.com/hook', { privateHosts })).toMatchObject({
      ok: true,
      target: { address: { address: '10.1.2.3' }, privateOpen: true },
    });
    expect((await check('http://10.0.0.5:8080/hook', { privateHosts })).ok).toBe(true);
    expect((await check('http://ula.example.com/hook', { privateHosts })).ok).toBe(true);
    expect((await check('http://10.0.0.5:9090/hook', { privateHosts })).ok).toBe(false);
    expect((await check('http://10.0.0.6/hook', { privateHosts })).ok).toBe(false);
    // An organization list narrows the server's opening too.
    const narrowed = { privateHosts, organizationHosts: ['hooks.example.com'] };
    expect((await check('http://internal.example.com/hook', narrowed)).ok).toBe(false);
    const never = [
      '127.0.0.1',
      'localhost',
      'receiver.test',
      'rebind.example.com',
      '169.254.169.254',
      'mapped.example.com',
      '[fe80::1]',
      '[fd00:ec2::254]',
      '0.0.0.0',
      '203.0.113.9',
      '[fd00::2]',
    ];
    for (const host of never) {
      const url = `http://${host}/hook`;
      const refused = await check(url, { privateHosts: never });
      expect(refused, url).toMatchObject({ ok: false, refused: true });
      if (!refused.ok) expect(refused.reason, url).not.toContain('WEBHOOK_ALLOWED_PRIVATE_HOSTS');
    }
  });

  it("refuses the addresses of this host's own interfaces", async () => {
    const own = hostAddresses().find((address) => !address.startsWith('127.') && address !== '::1');
    if (!own) return; // a host with loopback only: the dummy interface addresses above stand for it
    const network: Network = { resolve: dns, ownAddresses: hostAddresses };
    const url = `http://${own.includes(':') ? `[${own.split('%')[0]}]` : own}:8080/hook`;
    const refused = await checkWebhookTarget(url, policy({ privateHosts: [own] }), network);
    expect(refused).toMatchObject({ ok: false, refused: true });
  });

  it('treats a host that does not resolve as a failure that may heal (not a refusal)', async () => {
    expect(await check('https://nowhere.example/hook')).toMatchObject({ ok: false, refused: false });
    expect(await webhookUrlRefusal('https://nowhere.example/hook', policy(), net)).toBeUndefined();
  });

  it('gives the reason when saving a refused URL', async () => {
    expect(await webhookUrlRefusal('http://0x7f.1/x', policy(), net)).toContain('loopback');
    expect(await webhookUrlRefusal('https://hooks.example.com/x', policy(), net)).toBeUndefined();
  });
});

describe("entries of an organization's allowed webhook hosts", () => {
  it.each([
    ['127.0.0.1:18081', 'loopback'],
    ['[::1]', 'loopback'],
    ['localhost:3000', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['metadata.google.internal', 'metadata'],
    ['[fe80::1]', 'link-local'],
    ['0.0.0.0', 'this network'],
    ['203.0.113.9:443', 'an address of this server'],
    ['10.0.0.5', 'WEBHOOK_ALLOWED_PRIVATE_HOSTS'],
  ])('refuses %s (%s)', (entry, reason) => {
    expect(allowedHostRefusal(entry, [], OWN)).toContain(reason);
  });

  it('accepts names, public addresses, and private ones the server opened', () => {
    expect(allowedHostRefusal('hooks.example.com:8443', [], OWN)).toBeUndefined();
    expect(allowedHostRefusal('93.184.215.14', [], OWN)).toBeUndefined();
    expect(allowedHostRefusal('10.0.0.5', ['10.0.0.5:8080'], OWN)).toBeUndefined();
    expect(allowedHostRefusal('[fd12::1]:80', ['[fd12::1]'], OWN)).toBeUndefined();
    expect(allowedHostRefusal('127.0.0.1', ['127.0.0.1'], OWN)).toContain('loopback');
  });
});

describe('the connection', () => {
  const lookup = (addresses: string[], privateOpen: boolean, all: boolean) =>
    new Promise<unknown>((resolve) => {
      const target = {
        url: new URL('http://hooks.example.com/'),
        host: 'hooks.example.com',
        port: 80,
        address: { address: addresses[0] ?? '', family: 4 as const },
        addresses: addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }) as const),
        privateOpen,
      };
      checkedLookup(target)('hooks.example.com', { all }, (error, address) =>
        resolve(error ? (error as NodeJS.ErrnoException).code : address),
      );
    });

  it('hands the socket only checked addresses, checked again at connect time', async () => {
    expect(await lookup(['93.184.215.14', '2606:4700::1111'], false, true)).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:4700::1111', family: 6 },
    ]);
    expect(await lookup(['93.184.215.14'], false, false)).toBe('93.184.215.14');
    expect(await lookup(['127.0.0.1'], true, false)).toBe('EREFUSED');
    expect(await lookup(['10.0.0.5'], false, true)).toBe('EREFUSED');
    expect(await lookup(['10.0.0.5'], true, false)).toBe('10.0.0.5');
    const own = hostAddresses().find((address) => !address.startsWith('127.') && address !== '::1');
    if (own) expect(await lookup([own.split('%')[0] ?? own], true, false)).toBe('EREFUSED');
  });
});
