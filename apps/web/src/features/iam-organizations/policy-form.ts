import type { PolicyInput, SecurityPolicy } from './api.ts';

/** What the policy editor edits: the ranges as text, one per line. */
export type PolicyFormValues = {
  name: string;
  description: string;
  parentId: string;
  allowedIpRanges: string;
  requireTotp: boolean;
  maxSessionMinutes: number;
};

export const MAX_SESSION_MINUTES = 1440;

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

function isIpv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || text.includes(':::')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  const last = groups.at(-1) ?? '';
  const embeddedV4 = last.includes('.');
  if (embeddedV4 && !IPV4.test(last)) return false;
  const hexGroups = embeddedV4 ? groups.slice(0, -1) : groups;
  if (!hexGroups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return false;
  const width = hexGroups.length + (embeddedV4 ? 2 : 0);
  return halves.length === 2 ? width < 8 : width === 8;
}

/** `10.0.0.0/8`, `2001:db8::/32` or a single address, as the server accepts them. */
export function isAddressRange(value: string): boolean {
  const [address = '', prefix, extra] = value.trim().split('/');
  if (extra !== undefined) return false;
  const v4 = IPV4.test(address);
  if (!v4 && !isIpv6(address)) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (v4 ? 32 : 128);
}

/** The non-empty lines of the ranges field. */
export function rangeLines(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
}

/** The lines that are no address range (for the field's error). */
export function invalidRanges(text: string): string[] {
  return rangeLines(text).filter((line) => !isAddressRange(line));
}

export function emptyPolicyForm(): PolicyFormValues {
  return {
    name: '',
    description: '',
    parentId: '',
    allowedIpRanges: '',
    requireTotp: false,
    maxSessionMinutes: 0,
  };
}

export function policyFormOf(policy: SecurityPolicy): PolicyFormValues {
  return {
    name: policy.name,
    description: policy.description,
    parentId: policy.parentId ?? '',
    allowedIpRanges: policy.rules.allowedIpRanges.join('\n'),
    requireTotp: policy.rules.requireTotp,
    maxSessionMinutes: policy.rules.maxSessionMinutes,
  };
}

export function policyInputOf(values: PolicyFormValues): PolicyInput {
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    parentId: values.parentId || null,
    rules: {
      allowedIpRanges: [...new Set(rangeLines(values.allowedIpRanges))],
      requireTotp: values.requireTotp,
      maxSessionMinutes: Math.round(Number(values.maxSessionMinutes) || 0),
    },
  };
}
