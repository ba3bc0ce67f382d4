import { isIP } from 'node:net';
import { domainToASCII } from 'node:url';

/**
 * The SSRF guard of webhook targets: a URL may be called only when every address its host resolves to is public — no
 * loopback, link-local, cloud-metadata, unspecified, CGNAT, multicast or reserved address and no address of this
 * server's own interfaces, whatever anyone allows. Private addresses (RFC 1918, ULA) open only for the hosts of the
 * server-wide WEBHOOK_ALLOWED_PRIVATE_HOSTS; an organization's allowed webhook hosts only narrow where its webhooks may
 * go (when it lists any, only there), they never open an address.
 *
 * Host names are normalised first: lower case, no trailing dot, IDNA (punycode), IPv4 literals in every notation
 * inet_aton accepts (`2130706433`, `0177.0.0.1`, `0x7f.1`, `127.1`) and IPv6 literals (bracketed, IPv4-mapped).
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };
/** How host names are resolved (dns.lookup with every address by default; tests inject their own). */
export type Resolver = (host: string) => Promise<ResolvedAddress[]>;
/** What the guard asks of the host it runs on: name resolution and its own interface addresses (network.ts). */
export type Network = { resolve: Resolver; ownAddresses: () => readonly string[] };

/** Where webhooks may go, besides the public internet. */
export type WebhookPolicy = {
  /** WEBHOOK_ALLOWED_PRIVATE_HOSTS (`host` or `host:port`): hosts whose private addresses webhooks may reach. */
  privateHosts: readonly string[];
  /** The organization's allowed webhook hosts: when it lists any, its webhooks go to these hosts only. */
  organizationHosts: readonly string[];
};

export type WebhookTarget = {
  url: URL;
  /** The host as normalised (IPv6 without brackets). */
  host: string;
  port: number;
  /** The checked address the request must connect to (never resolve again: DNS rebinding). */
  address: ResolvedAddress;
  /** Every checked address, in resolution order (the connection may fall back to the next one). */
  addresses: ResolvedAddress[];
  /** The host is in WEBHOOK_ALLOWED_PRIVATE_HOSTS: its private addresses may be reached (checked again at connect). */
  privateOpen: boolean;
};

/** `refused`: the guard refuses the target for good (no retries); otherwise it may work later (DNS failure). */
export type TargetCheck =
  | { ok: true; target: WebhookTarget }
  | { ok: false; reason: string; refused: boolean };

const BLOCKED_NAMES = new Set(['metadata', 'metadata.google.internal', 'instance-data']);

/** Parses one IPv4 part as inet_aton does: `0x..` hex, a leading `0` octal, else decimal. */
function ipv4Part(part: string): number | undefined {
  if (part === '') return undefined;
  let value: number;
  if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
  else if (/^0[0-7]*$/.test(part)) value = part.length === 1 ? 0 : Number.parseInt(part.slice(1), 8);
  else if (/^[1-9][0-9]*$/.test(part)) value = Number.parseInt(part, 10);
  else return undefined;
  return Number.isSafeInteger(value) ? value : undefined;
}

/**
 * The IPv4 address an inet_aton-style literal stands for (`127.1`, `0x7f000001`, `017700000001`, `127.0.0.1.`), as
 * dotted decimal; undefined when the text is no IPv4 literal.
 */
export function parseIpv4Literal(text: string): string | undefined {
  const trimmed = text.endsWith('.') ? text.slice(0, -1) : text;
  const parts = trimmed.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const numbers = parts.map(ipv4Part);
  if (numbers.some((n) => n === undefined)) return undefined;
  const values = numbers as number[];
  const last = values[values.length - 1] as number;
  const head = values.slice(0, -1);
  if (head.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (5 - values.length)) return undefined;
  let address = last;
  head.forEach((n, index) => {
    address += n * 256 ** (3 - index);
  });
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join('.');
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map((part) => Number.parseInt(part, 10));
}

/** The 16 bytes of an IPv6 address (with an embedded dotted IPv4 tail allowed); undefined when it is none. */
export function ipv6Bytes(text: string): number[] | undefined {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = address.indexOf('%');
  if (zone >= 0) address = address.slice(0, zone);
  if (isIP(address) !== 6) return undefined;
  let tail: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (dotted?.[1]) {
    tail = ipv4Bytes(dotted[1]);
    address = `${address.slice(0, -dotted[1].length)}0:0`;
  }
  const [left = '', right] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groups(left);
  const rest = right === undefined ? [] : groups(right);
  const zeros = right === undefined ? 0 : 8 - head.length - rest.length;
  const all = [...head, ...Array.from({ length: zeros }, () => '0'), ...rest];
  if (all.length !== 8) return undefined;
  const bytes = all.flatMap((group) => {
    const value = Number.parseInt(group, 16);
    return [value >> 8, value & 0xff];
  });
  if (tail.length === 4) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inPrefix(bytes: number[], prefix: number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

/** `private` (RFC 1918, ULA) opens for the hosts of WEBHOOK_ALLOWED_PRIVATE_HOSTS; `never` opens for nobody. */
type Reach = 'private' | 'never';
type Range = { prefix: number[]; bits: number; label: string; reach: Reach };
const v4 = (cidr: string, label: string, reach: Reach = 'never'): Range => {
  const [base = '', bits = '32'] = cidr.split('/');
  return { prefix: ipv4Bytes(base), bits: Number(bits), label, reach };
};
const v6 = (cidr: string, label: string, reach: Reach = 'never'): Range => {
  const [base = '', bits = '128'] = cidr.split('/');
  return { prefix: ipv6Bytes(base) ?? [], bits: Number(bits), label, reach };
};

// Most specific first: the metadata address is named before the link-local range it lies in.
const IPV4_BLOCKED: Range[] = [
  v4('169.254.169.254/32', 'a cloud metadata address'),
  v4('0.0.0.0/8', 'a "this network" address (0.0.0.0/8)'),
  v4('10.0.0.0/8', 'a private address (10.0.0.0/8)', 'private'),
  v4('100.64.0.0/10', 'a carrier-grade NAT address (100.64.0.0/10)'),
  v4('127.0.0.0/8', 'a loopback address (127.0.0.0/8)'),
  v4('169.254.0.0/16', 'a link-local address (169.254.0.0/16)'),
  v4('172.16.0.0/12', 'a private address (172.16.0.0/12)', 'private'),
  v4('192.0.0.0/24', 'an IETF protocol address (192.0.0.0/24)'),
  v4('192.168.0.0/16', 'a private address (192.168.0.0/16)', 'private'),
  v4('198.18.0.0/15', 'a benchmarking address (198.18.0.0/15)'),
  v4('224.0.0.0/4', 'a multicast address (224.0.0.0/4)'),
  v4('240.0.0.0/4', 'a reserved address (240.0.0.0/4)'),
];

const IPV6_BLOCKED: Range[] = [
  v6('fd00:ec2::254/128', 'a cloud metadata address'),
  v6('::/128', 'the unspecified address (::)'),
  v6('::1/128', 'a loopback address (::1)'),
  v6('fc00::/7', 'a private address (fc00::/7)', 'private'),
  v6('fe80::/10', 'a link-local address (fe80::/10)'),
  v6('fec0::/10', 'a site-local address (fec0::/10)'),
  v6('ff00::/8', 'a multicast address (ff00::/8)'),
  v6('100::/64', 'a discard address (100::/64)'),
];

/** IPv6 prefixes that carry an IPv4 address in their last 32 bits, checked as that IPv4 address. */
const IPV4_EMBEDDING: Range[] = [
  v6('::ffff:0:0/96', 'IPv4-mapped'),
  v6('::/96', 'IPv4-compatible'),
  v6('64:ff9b::/96', 'NAT64'),
  v6('64:ff9b:1::/48', 'NAT64'),
];

/** The IPv4 address an IPv6 address carries (6to4, IPv4-mapped, -compatible, NAT64), as dotted decimal. */
function embeddedIpv4(bytes: number[]): string | undefined {
  // 6to4 (2002::/16) carries the IPv4 address in bytes 2..5.
  if (inPrefix(bytes, [0x20, 0x02], 16)) return bytes.slice(2, 6).join('.');
  if (IPV4_EMBEDDING.some((range) => inPrefix(bytes, range.prefix, range.bits)))
    return bytes.slice(12, 16).join('.');
  return undefined;
}

export type AddressClass = { label: string; reach: Reach };

function ipv4Class(address: string): AddressClass | undefined {
  const bytes = ipv4Bytes(address);
  return IPV4_BLOCKED.find((range) => inPrefix(bytes, range.prefix, range.bits));
}

/** The special class of an address (why it is not public), or undefined for a public address. */
export function addressClass(address: string): AddressClass | undefined {
  const family = isIP(address);
  if (family === 4) return ipv4Class(address);
  const bytes = ipv6Bytes(address);
  if (!bytes) return { label: 'not an IP address', reach: 'never' };
  const named = IPV6_BLOCKED.find((range) => inPrefix(bytes, range.prefix, range.bits));
  if (named) return named;
  const embedded = embeddedIpv4(bytes);
  return embedded ? ipv4Class(embedded) : undefined;
}

/** Why an address is not public (its class), or undefined for a public address. */
export function addressRefusal(address: string): string | undefined {
  return addressClass(address)?.label;
}

/** The forms an address is compared in: its bytes, and the IPv4 address an IPv6 address carries. */
function addressKeys(address: string): string[] {
  if (isIP(address) === 4) return [`4/${address}`];
  const bytes = ipv6Bytes(address);
  if (!bytes) return [];
  const embedded = embeddedIpv4(bytes);
  return embedded ? [`6/${bytes.join('.')}`, `4/${embedded}`] : [`6/${bytes.join('.')}`];
}

/** The address is one of this server's own (in any notation): a webhook there would call the server itself. */
export function isOwnAddress(address: string, own: readonly string[]): boolean {
  const ownKeys = new Set(own.flatMap(addressKeys));
  return addressKeys(address).some((key) => ownKeys.has(key));
}

/**
 * Why a webhook must not connect to this address, or undefined when it may: never to a special address other than a
 * private one, to a private one only for a host the server opened (`privateOpen`), never to the server's own.
 */
export function addressVerdict(
  address: string,
  privateOpen: boolean,
  own: readonly string[],
): string | undefined {
  const special = addressClass(address);
  if (special?.reach === 'never') return `${special.label}, which webhooks never reach`;
  if (special && !privateOpen)
    return `${special.label}; only the server-wide setting WEBHOOK_ALLOWED_PRIVATE_HOSTS can open it`;
  if (isOwnAddress(address, own)) return 'an address of this server, which webhooks never reach';
  return undefined;
}

/** An IPv6 address in its compressed canonical text (what the WHATWG URL parser writes, without brackets). */
function canonicalIpv6(address: string): string {
  return new URL(`http://[${address}]/`).hostname.slice(1, -1);
}

/**
 * The normalised form of a host: lower case, trailing dot dropped, IDNA to punycode, IPv4 literals as dotted decimal,
 * IPv6 literals compressed without brackets. Undefined when it is no valid host name.
 */
export function normalizeHost(raw: string): string | undefined {
  let host = raw.trim().toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  if (host === '') return undefined;
  if (host.includes(':')) {
    if (isIP(host) !== 6 && !ipv6Bytes(host)) return undefined;
    return canonicalIpv6(host.split('%')[0] ?? host);
  }
  const ipv4 = parseIpv4Literal(host);
  if (ipv4) return ipv4;
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (/[\s#%/:<>?@[\\\]^|*,;'"`]/.test(host)) return undefined;
  const ascii = domainToASCII(host);
  if (!ascii || ascii.length > 253) return undefined;
  if (!/^[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(ascii)) return undefined;
  // A name whose last label is a number would be read as an IPv4 literal by URL parsers: it is no host name.
  if (/(^|\.)(\d+|0x[0-9a-f]*)$/.test(ascii)) return undefined;
  return ascii;
}

/**
 * An allow-list entry normalised: `host` or `host:port` (IPv6 as `[addr]` or `[addr]:port`). Undefined when it is
 * neither (a URL with a scheme, path or credentials is no entry).
 */
export function normalizeAllowedHost(entry: string): string | undefined {
  const text = entry.trim();
  if (text === '' || /[/?#@\s\\]/.test(text)) return undefined;
  let host = text;
  let port: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  if (bracketed) {
    host = bracketed[1] ?? '';
    port = bracketed[2];
  } else if (text.split(':').length === 2) {
    [host = '', port] = text.split(':');
  } else if (text.includes(':')) {
    host = text; // a bare IPv6 address
  }
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65_535))
    return undefined;
  const normalized = normalizeHost(host);
  if (!normalized) return undefined;
  const shown = normalized.includes(':') ? `[${normalized}]` : normalized;
  return port === undefined ? shown : `${shown}:${Number(port)}`;
}

function isListed(host: string, port: number | undefined, list: readonly string[]): boolean {
  const shown = host.includes(':') ? `[${host}]` : host;
  const entries = list.map((entry) => normalizeAllowedHost(entry)).filter(Boolean);
  // Without a port (an allow-list entry asking about its own host), any entry of the host counts.
  if (port === undefined) return entries.some((entry) => entry === shown || entry?.startsWith(`${shown}:`));
  return entries.includes(shown) || entries.includes(`${shown}:${port}`);
}

export type ParsedWebhookUrl = { url: URL; host: string; port: number };

/** The URL with its normalised host and effective port, or why it cannot be a webhook target. */
export function parseWebhookUrl(raw: string): ParsedWebhookUrl | { reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { reason: 'is not a valid URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { reason: 'must use http or https' };
  if (url.username || url.password) return { reason: 'must not carry credentials' };
  const host = normalizeHost(url.hostname);
  if (!host) return { reason: `has an invalid host '${url.hostname}'` };
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return { url, host, port };
}

/** Why the host name itself is refused before any resolution (metadata and local names). */
function nameRefusal(host: string): string | undefined {
  if (host === 'localhost' || host.endsWith('.localhost'))
    return 'a loopback host name, which webhooks never reach';
  if (BLOCKED_NAMES.has(host)) return 'a cloud metadata host, which webhooks never reach';
  return undefined;
}

const refusal = (reason: string) => ({ ok: false as const, reason, refused: true });

async function resolveTarget(
  host: string,
  resolve: Resolver,
): Promise<{ addresses: ResolvedAddress[] } | { ok: false; reason: string; refused: false }> {
  const literal = isIP(host);
  if (literal) return { addresses: [{ address: host, family: literal === 6 ? 6 : 4 }] };
  try {
    const addresses = await resolve(host);
    if (addresses.length > 0) return { addresses };
    return { ok: false, reason: `the webhook host '${host}' has no address`, refused: false };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return {
      ok: false,
      reason: `the webhook host '${host}' could not be resolved${typeof code === 'string' ? ` (${code})` : ''}`,
      refused: false,
    };
  }
}

/**
 * Checks a webhook URL against the guard, resolving its host: the addresses the request must connect to (every one
 * checked), or the reason it is refused.
 */
export async function checkWebhookTarget(
  raw: string,
  policy: WebhookPolicy,
  network: Network,
): Promise<TargetCheck> {
  const parsed = parseWebhookUrl(raw);
  if ('reason' in parsed) return refusal(`the webhook URL ${parsed.reason}`);
  const { url, host, port } = parsed;
  const byName = nameRefusal(host);
  if (byName) return refusal(`the webhook host '${host}' is ${byName}`);
  if (policy.organizationHosts.length > 0 && !isListed(host, port, policy.organizationHosts))
    return refusal(
      `the webhook host '${host}' (port ${port}) is not one of the organization's allowed webhook hosts`,
    );
  const resolved = await resolveTarget(host, network.resolve);
  if ('ok' in resolved) return resolved;
  const { addresses } = resolved;
  const privateOpen = isListed(host, port, policy.privateHosts);
  const own = network.ownAddresses();
  for (const candidate of addresses) {
    const verdict = addressVerdict(candidate.address, privateOpen, own);
    if (verdict) {
      const via = isIP(host) ? '' : ` (resolves to ${candidate.address})`;
      return refusal(`the webhook host '${host}'${via} is ${verdict}`);
    }
  }
  const [address] = addresses as [ResolvedAddress, ...ResolvedAddress[]];
  return { ok: true, target: { url, host, port, address, addresses, privateOpen } };
}

/**
 * Why an entry of an organization's allowed webhook hosts (normalised) could never be reached — a refused name, or a
 * literal address webhooks never reach from this server — or undefined for any other host.
 */
export function allowedHostRefusal(
  entry: string,
  privateHosts: readonly string[],
  own: readonly string[],
): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(entry);
  const host = bracketed ? (bracketed[1] ?? '') : (entry.split(':')[0] ?? '');
  const byName = nameRefusal(host);
  if (byName) return byName;
  if (!isIP(host)) return undefined;
  return addressVerdict(host, isListed(host, undefined, privateHosts), own);
}

/** Special-use names that never resolve in public DNS (RFC 2606, 6761): not looked up when a rule is saved. */
const NEVER_PUBLIC = /\.(test|example|invalid)$/;

/**
 * The static part of the guard, for saving a rule: the URL is well formed and its host is no refused literal or name.
 * Host names are resolved too, when that answers in time; a name that does not resolve now (or a special-use name
 * such as `*.test`) is left to the check at delivery time.
 */
export async function webhookUrlRefusal(
  raw: string,
  policy: WebhookPolicy,
  network: Network,
  timeoutMs = 2000,
): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((done) => {
    timer = setTimeout(() => done('timeout'), timeoutMs);
    timer.unref();
  });
  try {
    const resolve: Resolver = (host) =>
      NEVER_PUBLIC.test(host)
        ? Promise.reject(Object.assign(new Error(`${host} is a special-use name`), { code: 'ENOTFOUND' }))
        : network.resolve(host);
    const check = await Promise.race([checkWebhookTarget(raw, policy, { ...network, resolve }), timeout]);
    if (check === 'timeout' || check.ok || !check.refused) return undefined;
    return check.reason;
  } finally {
    clearTimeout(timer);
  }
}
