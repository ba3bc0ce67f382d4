/**
 * Which addresses a gateway may be asked to reach: IPv4 hosts inside its plant LAN, never loopback, link-local
 * (cloud metadata), multicast, reserved or broadcast addresses. The server checks endpoints with it and the agent
 * checks every stream it is asked to open, so a compromised server still cannot turn an agent into a scanner of
 * anything but its LAN.
 */
import { BlockList, isIP, isIPv4 } from 'node:net';

export type LanNetwork = { network: string; prefix: number; cidr: string };

const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4');
FORBIDDEN.addSubnet('127.0.0.0', 8, 'ipv4');
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN.addSubnet('224.0.0.0', 4, 'ipv4');
FORBIDDEN.addSubnet('240.0.0.0', 4, 'ipv4');

function toInt(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
}

function toAddress(value: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** Whether `text` is a dotted-quad IPv4 address without leading zeros (no octal or short forms). */
export function isPlainIPv4(text: string): boolean {
  return isIPv4(text) && text.split('.').every((part) => part === String(Number(part)));
}

/** The LAN of a CIDR such as `192.168.10.0/24`, normalised to its network address; undefined when not one. */
export function parseLanNetwork(cidr: string): LanNetwork | undefined {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(cidr.trim());
  if (!match?.[1] || !match[2]) return undefined;
  const prefix = Number(match[2]);
  if (!isPlainIPv4(match[1]) || prefix < 8 || prefix > 30) return undefined;
  const size = 2 ** (32 - prefix);
  const network = toAddress(Math.floor(toInt(match[1]) / size) * size);
  if (FORBIDDEN.check(network, 'ipv4')) return undefined;
  return { network, prefix, cidr: `${network}/${prefix}` };
}

/** Usable host addresses of a LAN (network and broadcast excluded). */
export function networkSize(lan: LanNetwork): number {
  return 2 ** (32 - lan.prefix) - 2;
}

/** Why `address` may not be an endpoint of `lan`, or undefined when it may. */
export function endpointAddressProblem(address: string, lan: LanNetwork | undefined): string | undefined {
  if (!isPlainIPv4(address)) return `'${address}' is not an IPv4 address`;
  if (FORBIDDEN.check(address, 'ipv4') || address === '255.255.255.255')
    return `${address} is in a forbidden range (loopback, link-local, multicast or reserved)`;
  if (!lan) return 'the gateway has no LAN network yet; set lanNetwork first';
  const size = 2 ** (32 - lan.prefix);
  const offset = toInt(address) - toInt(lan.network);
  if (offset < 0 || offset >= size) return `${address} is outside the gateway's LAN ${lan.cidr}`;
  if (offset === 0 || offset === size - 1)
    return `${address} is the network or broadcast address of ${lan.cidr}`;
  return undefined;
}

/** Whether a client at `ip` may open sessions under an IP filter of CIDRs (IPv4 or IPv6); an empty filter allows all. */
export function clientAllowed(ip: string, ipFilter: readonly string[]): boolean {
  if (ipFilter.length === 0) return true;
  const allowed = new BlockList();
  for (const entry of ipFilter) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    const prefix = bits === undefined ? (family === 'ipv6' ? 128 : 32) : Number(bits);
    if (isIP(address) === 0 || !Number.isInteger(prefix)) continue;
    allowed.addSubnet(address, prefix, family);
  }
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  const client = mapped ?? ip;
  return isIP(client) !== 0 && allowed.check(client, isIP(client) === 6 ? 'ipv6' : 'ipv4');
}

/** Why an IP filter entry is not a CIDR (or single address), or undefined when it is one. */
export function ipFilterEntryProblem(entry: string): string | undefined {
  const [address = '', bits, extra] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || extra !== undefined) return `'${entry}' is not an IP address or CIDR`;
  if (bits === undefined) return undefined;
  const prefix = Number(bits);
  const max = version === 6 ? 128 : 32;
  if (!/^\d{1,3}$/.test(bits) || prefix > max) return `'${entry}' has a prefix outside 0..${max}`;
  return undefined;
}
