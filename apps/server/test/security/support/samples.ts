import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { JsonSchema } from './openapi.ts';
import { acceptedBy } from './validation.ts';

/** What the example generator asks the test world for. */
export type SampleContext = {
  /** The value for an id-like leaf (by property name and schema); undefined when the name names no known kind. */
  id(name: string, schema: JsonSchema): string | undefined;
  /** A string unique within the run, for names that must not collide. */
  unique(): string;
};

function merge(parts: JsonSchema[]): JsonSchema {
  const out: JsonSchema = {};
  for (const part of parts) {
    Object.assign(out, { ...part, properties: { ...out.properties, ...part.properties } });
    out.required = [...new Set([...(out.required ?? []), ...(part.required ?? [])])];
  }
  return out;
}

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null') ?? schema.type[0];
  return schema.type;
}

/** Names whose string value follows a known shape, tried before generic text. */
function candidatesFor(name: string, ctx: SampleContext): string[] {
  const n = name.toLowerCase();
  const u = ctx.unique();
  const out: string[] = [];
  if (n.includes('email') || n === 'username' || n === 'user') out.push(`sec-${u}@example.test`);
  if (n.includes('password') || n.includes('secret')) out.push(`S3cure-passw0rd-${u}`);
  if (n.includes('color') || n.includes('colour')) out.push('#336699');
  if (n.includes('url') || n.includes('uri') || n.includes('link') || n.includes('logo'))
    out.push('https://example.test/sec.png');
  if (n.includes('locale') || n.includes('lang')) out.push('en-US', 'en');
  if (n.includes('path')) out.push('/sec/path');
  if (n === 'formula') out.push('value * 2');
  if (n.includes('range') || n.includes('cidr') || n === 'ip') out.push('10.0.0.0/8', '10.1.2.3');
  // Remote access: an endpoint address inside every tenant's gateway LAN (world.ts VPN_LAN), a LAN, a filter entry.
  if (n === 'address') out.push('192.168.50.77');
  if (n === 'lannetwork') out.push('192.168.50.0/24');
  if (n === 'ipfilter') out.push('10.0.0.0/8');
  if (n === 'rsname' || n.includes('resourcetype') || n === 'resource') out.push('devices');
  if (n.includes('scope') || n.includes('action')) out.push('READ');
  if (n === 'kind') out.push('general');
  // Webhooks never reach the server's own or loopback names: an allowed webhook host is a public one.
  if (n.includes('webhook')) out.push('hooks.example.test');
  if (n.includes('host')) out.push('acme.app.localhost');
  if (n.includes('service')) out.push('portal');
  if (n.includes('timezone')) out.push('Europe/Berlin');
  if (n.includes('scheme')) out.push('auto');
  out.push(`sec-${n || 'value'}-${u}`, `sec${u}`, 'sec', 'a', '1');
  return out;
}

function fitLength(value: string, schema: JsonSchema): string {
  let out = value;
  if (schema.maxLength !== undefined && out.length > schema.maxLength) out = out.slice(0, schema.maxLength);
  if (schema.minLength !== undefined && out.length < schema.minLength)
    out = out + 'x'.repeat(schema.minLength - out.length);
  return out;
}

function sampleString(schema: JsonSchema, name: string, ctx: SampleContext): string {
  const asId = ctx.id(name, schema);
  if (asId !== undefined && acceptedBy(schema, asId)) return asId;
  switch (schema.format) {
    case 'uuid':
      return randomUUID();
    case 'email':
      return `sec-${ctx.unique()}@example.test`;
    case 'date-time': {
      // Ranges need from/since before to: the start an hour back, everything else a week ahead.
      const start = ['from', 'since'].includes(name.toLowerCase());
      return new Date(Date.now() + (start ? -3600 : 7 * 24 * 3600) * 1000).toISOString();
    }
    case 'date':
      return new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString().slice(0, 10);
    case 'uri':
    case 'url':
      return 'https://example.test/sec';
    case 'ipv4':
      return '10.1.2.3';
    case 'ipv6':
      return '::1';
    case 'hostname':
      return 'example.test';
  }
  if (typeof schema.default === 'string' && acceptedBy(schema, schema.default)) return schema.default;
  for (const candidate of candidatesFor(name, ctx)) {
    const fitted = fitLength(candidate, schema);
    if (acceptedBy(schema, fitted)) return fitted;
  }
  if (schema.pattern) {
    const generated = fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { numRuns: 50, seed: 7 });
    const fitting = generated.find((value) => acceptedBy(schema, value));
    if (fitting !== undefined) return fitting;
  }
  return fitLength(`sec${ctx.unique()}`, schema);
}

function sampleNumber(schema: JsonSchema, integer: boolean): number {
  if (typeof schema.default === 'number') return schema.default;
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const high =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : low + 100);
  const preferred = low <= 1 && 1 <= high ? 1 : low;
  return integer ? Math.ceil(preferred) : preferred;
}

/**
 * A plausible value for a JSON schema: every property (required and optional) filled, ids from the test world by
 * property name, one element per array. Callers check the result against the schema (acceptedBy).
 */
export function sample(schema: JsonSchema, ctx: SampleContext, name = '', depth = 0): unknown {
  if (depth > 12) return undefined;
  if (schema.allOf) return sample(merge(schema.allOf), ctx, name, depth + 1);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum && schema.enum.length > 0) return schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const branch = branches.find((b) => typeOf(b) !== 'null') ?? branches[0] ?? {};
    return sample(branch, ctx, name, depth + 1);
  }
  const type = typeOf(schema) ?? (schema.properties ? 'object' : undefined);
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, child] of Object.entries(schema.properties ?? {})) {
        const value = sample(child, ctx, key, depth + 1);
        if (value !== undefined) out[key] = value;
      }
      return out;
    }
    case 'array': {
      const items = schema.items ?? {};
      const count = Math.min(Math.max(schema.minItems ?? 0, 1), schema.maxItems ?? 1);
      if (items.enum && schema.uniqueItems) return items.enum.slice(0, count);
      const out: unknown[] = [];
      for (let i = 0; i < count; i++) out.push(sample(items, ctx, name, depth + 1));
      return out;
    }
    case 'string':
      return sampleString(schema, name, ctx);
    case 'integer':
      return sampleNumber(schema, true);
    case 'number':
      return sampleNumber(schema, false);
    case 'boolean':
      return typeof schema.default === 'boolean' ? schema.default : false;
    case 'null':
      return null;
    default:
      return {};
  }
}
