import { BlockList, isIP } from 'node:net';
import type { SecurityPolicyRules } from '../../../db/schema.ts';
import { badRequest } from '../../../http/errors.ts';

export const DEFAULT_RULES: SecurityPolicyRules = {
  allowedIpRanges: [],
  requireTotp: false,
  maxSessionMinutes: 0,
};

/**
 * `10.0.0.0/8`, `2001:db8::/32` or a single address (`192.0.2.7`, kept as written). Answers the normalized text, or
 * undefined when it is no address range.
 */
export function normalizeRange(value: string): string | undefined {
  const text = value.trim();
  const [address = '', prefix, extra] = text.split('/');
  if (extra !== undefined) return undefined;
  const family = isIP(address);
  if (family === 0) return undefined;
  if (prefix === undefined) return address;
  if (!/^\d{1,3}$/.test(prefix)) return undefined;
  const bits = Number(prefix);
  if (bits > (family === 4 ? 32 : 128)) return undefined;
  try {
    new BlockList().addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  } catch {
    return undefined;
  }
  return `${address}/${bits}`;
}

/** Checks the rules, naming the offending field; answers them with the ranges normalized and de-duplicated. */
export function validRules(rules: SecurityPolicyRules): SecurityPolicyRules {
  const ranges: string[] = [];
  rules.allowedIpRanges.forEach((range, index) => {
    const normalized = normalizeRange(range);
    if (!normalized) {
      throw badRequest(`rules.allowedIpRanges[${index}]: '${range}' is not an IP address or CIDR range`);
    }
    if (!ranges.includes(normalized)) ranges.push(normalized);
  });
  if (
    !Number.isInteger(rules.maxSessionMinutes) ||
    rules.maxSessionMinutes < 0 ||
    rules.maxSessionMinutes > 1440
  ) {
    throw badRequest('rules.maxSessionMinutes must be a whole number from 0 to 1440');
  }
  return {
    allowedIpRanges: ranges,
    requireTotp: rules.requireTotp,
    maxSessionMinutes: rules.maxSessionMinutes,
  };
}

/** What the security policy groups assigned to a user demand at sign-in, combined. */
export type SignInRules = {
  /** One list per restricting policy: the address must be in a range of every one of them. */
  rangeSets: string[][];
  requireTotp: boolean;
  /** The shortest session any policy allows, in minutes; 0 when none limits it (the realm default). */
  maxSessionMinutes: number;
};

export function combineSignInRules(rules: SecurityPolicyRules[]): SignInRules {
  const limits = rules.map((rule) => rule.maxSessionMinutes).filter((minutes) => minutes > 0);
  return {
    rangeSets: rules.map((rule) => rule.allowedIpRanges).filter((ranges) => ranges.length > 0),
    requireTotp: rules.some((rule) => rule.requireTotp),
    maxSessionMinutes: limits.length > 0 ? Math.min(...limits) : 0,
  };
}

function blockListOf(ranges: string[]): BlockList {
  const list = new BlockList();
  for (const range of ranges) {
    const [address = '', prefix] = range.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, family);
    else list.addSubnet(address, Number(prefix), family);
  }
  return list;
}

/** Whether a sign-in from `address` satisfies every restricting policy (IPv4-mapped IPv6 counts as IPv4). */
export function addressAllowed(rules: SignInRules, address: string): boolean {
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  return rules.rangeSets.every((ranges) => isIP(plain) !== 0 && blockListOf(ranges).check(plain, family));
}
