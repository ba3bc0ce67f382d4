import { describe, expect, it } from 'vitest';
import {
  addressRefusal,
  checkWebhookTarget,
  normalizeAllowedHost,
  normalizeHost,
  parseIpv4Literal,
  type Resolver,
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
});

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
    ['ftp://hooks.example.com/hook', 'http or https'],
    ['file:///etc/passwd', 'http or https'],
    ['http://user:pass@hooks.example.com/hook', 'credentials'],
    ['not a url', 'not a valid URL'],
  ])('refuses %s (%s)', async (url, reason) => {
    const check = await checkWebhookTarget(url, [], dns);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.reason).toContain(reason);
      expect(check.refused).toBe(true);
    }
  });

  it('accepts public targets and names the address to connect to', async () => {
    const check = await checkWebhookTarget('https://Hooks.Example.com/x?y=1', [], dns);
    expect(check).toMatchObject({
      ok: true,
      target: { host: 'hooks.example.com', port: 443, address: { address: '93.184.215.14', family: 4 } },
    });
    const v6 = await checkWebhookTarget('http://v6.example.com:8080/', [], dns);
    expect(v6).toMatchObject({ ok: true, target: { port: 8080, address: { family: 6 } } });
    const idn = await checkWebhookTarget('https://bücher.example/hook', [], dns);
    expect(idn).toMatchObject({ ok: true, target: { host: 'xn--bcher-kva.example' } });
  });

  it('lets an allowed host through, by host or host:port only', async () => {
    expect((await checkWebhookTarget('http://receiver.test:8080/h', ['receiver.test'], dns)).ok).toBe(true);
    expect((await checkWebhookTarget('http://receiver.test:8080/h', ['RECEIVER.test:8080'], dns)).ok).toBe(
      true,
    );
    const otherPort = await checkWebhookTarget('http://receiver.test:9090/h', ['receiver.test:8080'], dns);
    expect(otherPort.ok).toBe(false);
    // An allowed literal in another notation is the same host.
    expect((await checkWebhookTarget('http://0x7f.0.0.1:5000/h', ['127.0.0.1:5000'], dns)).ok).toBe(true);
    expect((await checkWebhookTarget('http://[::1]:5000/h', ['[0:0::1]'], dns)).ok).toBe(true);
    // Every checked address is kept, for the connection to fall back on.
    expect(await checkWebhookTarget('http://localhost:3000/h', ['localhost:3000'], dns)).toMatchObject({
      ok: true,
      target: { addresses: [{ address: '::1' }, { address: '127.0.0.1' }] },
    });
    // Allowing one name does not allow another name resolving to the same address.
    expect((await checkWebhookTarget('http://127.0.0.1:8080/h', ['receiver.test'], dns)).ok).toBe(false);
  });

  it('treats a host that does not resolve as a failure that may heal (not a refusal)', async () => {
    const check = await checkWebhookTarget('https://nowhere.example/hook', [], dns);
    expect(check).toMatchObject({ ok: false, refused: false });
    expect(await webhookUrlRefusal('https://nowhere.example/hook', [], dns)).toBeUndefined();
  });

  it('gives the reason when saving a refused URL', async () => {
    expect(await webhookUrlRefusal('http://0x7f.1/x', [], dns)).toContain('loopback');
    expect(await webhookUrlRefusal('https://hooks.example.com/x', [], dns)).toBeUndefined();
  });
});
