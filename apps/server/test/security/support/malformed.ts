import fc from 'fast-check';
import type { JsonSchema, Operation, Param } from './openapi.ts';
import { acceptedBy } from './validation.ts';

/*
 * Generators of malformed input for one operation. Each generator is built only where it can produce input the
 * operation's schema rejects (checked with the server's own validator configuration), and the property skips
 * (fc.pre) the rare candidate the validator accepts, so every request sent is malformed by construction.
 */

export type BodyCandidate =
  | { kind: 'json'; label: string; value: unknown; semantic?: boolean }
  | { kind: 'raw'; label: string; text: string }
  | { kind: 'none'; label: string };

type QueryValue = string | string[];
/**
 * `semantic`: the schema accepts it, so only the service can refuse it. `answerable`: a read may also answer it (an
 * empty search result is a fine answer to a NUL in a search text); it must not fail with 5xx.
 */
export type QueryCandidate = {
  label: string;
  query: Record<string, QueryValue>;
  semantic: boolean;
  answerable?: boolean;
};

/** Random malformed input, plus examples tried on every run (one per kind of flaw and the classic nasty values). */
export type Fuzzer<T> = { arbitrary: fc.Arbitrary<T>; examples: T[] };

class Options<T> {
  readonly arbitraries: fc.Arbitrary<T>[] = [];
  readonly examples: T[] = [];

  /** A kind of flaw; without explicit examples, one deterministic sample of it becomes an example. */
  add(arbitrary: fc.Arbitrary<T>, examples?: T[]) {
    this.arbitraries.push(arbitrary);
    this.examples.push(...(examples ?? fc.sample(arbitrary, { numRuns: 1, seed: 1 })));
  }

  build(): Fuzzer<T> | undefined {
    if (this.arbitraries.length === 0) return undefined;
    return { arbitrary: fc.oneof(...this.arbitraries), examples: this.examples };
  }
}

const HUGE = 100_000;

function typeOf(schema: JsonSchema): string | undefined {
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.enum || schema.anyOf || schema.oneOf) return 'choice';
  return undefined;
}

const multiArray = fc.array(fc.jsonValue(), { minLength: 2, maxLength: 4 });
const someObject = fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
const nonNumericText = fc.string({ maxLength: 20 }).filter((s) => s.trim() === '' || Number.isNaN(Number(s)));

/** Values of the wrong JSON type for a schema that survive the server's type coercion. */
function wrongTypeFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  switch (typeOf(schema)) {
    case 'string':
      return fc.oneof(someObject, multiArray);
    case 'integer':
    case 'number':
      return fc.oneof(someObject, multiArray, nonNumericText, fc.constantFrom(1.5, 1e300, -1e300));
    case 'boolean':
      return fc.oneof(
        someObject,
        multiArray,
        fc.string({ maxLength: 10 }).filter((s) => s !== 'true' && s !== 'false'),
        fc.integer({ min: 2 }),
      );
    case 'array':
      return fc.oneof(someObject, fc.constant({}));
    case 'object':
      return fc.oneof(fc.string(), fc.integer(), multiArray, fc.boolean());
    default:
      return fc.oneof(someObject, multiArray, fc.string(), fc.integer(), fc.boolean());
  }
}

function nested(depth: number, asArray: boolean): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < depth; i++) value = asArray ? [value] : { a: value };
  return value;
}

const withProperty = (base: Record<string, unknown>, key: string, value: unknown) => ({
  ...base,
  [key]: value,
});
const withoutProperty = (base: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(base).filter(([k]) => k !== key));

/** Whether a generator produces something the schema rejects in at least some of a few samples. */
function canReject<T>(arbitrary: fc.Arbitrary<T>, rejected: (value: T) => boolean): boolean {
  return fc.sample(arbitrary, { numRuns: 12, seed: 42 }).some(rejected);
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Malformed bodies: wrong types, missing required fields, unknown fields, huge strings, deep nesting, non-JSON. */
export function malformedBodies(op: Operation, base: unknown): Fuzzer<BodyCandidate> | undefined {
  const options = new Options<BodyCandidate>();
  const nonJson = fc
    .oneof(
      fc.constantFrom(
        '',
        '{',
        '{"a":',
        "{'name':'x'}",
        'undefined',
        'NaN',
        '[1,2',
        '{"a":1}}',
        'nul',
        '\u0000',
      ),
      fc.string({ maxLength: 30 }),
    )
    .filter((text) => !isJson(text))
    .map((text): BodyCandidate => ({ kind: 'raw', label: 'non-JSON text', text }));
  if (op.method !== 'GET')
    options.add(
      nonJson,
      ['', '{"a":', '\u0000'].map((text): BodyCandidate => ({ kind: 'raw', label: 'non-JSON text', text })),
    );
  const schema = op.body;
  if (schema) {
    const rejects = (value: unknown) => !acceptedBy(schema, value);
    const json =
      (label: string) =>
      (value: unknown): BodyCandidate => ({ kind: 'json', label, value });
    const topLevel = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      multiArray,
      someObject,
    );
    if (canReject(topLevel, rejects)) options.add(topLevel.map(json('wrong type of the whole body')));
    if (op.bodyRequired && rejects(undefined)) options.add(fc.constant({ kind: 'none', label: 'no body' }));
    const record =
      base && typeof base === 'object' && !Array.isArray(base)
        ? (base as Record<string, unknown>)
        : undefined;
    const properties = Object.entries(schema.properties ?? {});
    if (record && properties.length > 0) {
      for (const [key, child] of properties) {
        const wrong = wrongTypeFor(child).map((value) => withProperty(record, key, value));
        if (canReject(wrong, rejects)) options.add(wrong.map(json(`wrong type of '${key}'`)));
        const huge = fc
          .constantFrom('x', '\u00e9', '<', "'", '\u0000')
          .map((unit) => withProperty(record, key, unit.repeat(HUGE)));
        if (typeOf(child) === 'string' && canReject(huge, rejects))
          options.add(huge.map(json(`100k-character '${key}'`)), [
            json(`100k-character '${key}'`)(withProperty(record, key, 'x'.repeat(HUGE))),
          ]);
        // PostgreSQL text cannot hold U+0000: schema-valid, but no service can store or compare it.
        if (typeOf(child) === 'string' && typeof record[key] === 'string') {
          const text = record[key];
          options.add(
            fc.constantFrom('\u0000', 'a\u0000', '\u0000\u0000x').map(
              (nul): BodyCandidate => ({
                kind: 'json',
                label: `NUL character in '${key}'`,
                value: withProperty(record, key, `${text.slice(0, 3)}${nul}`),
                semantic: true,
              }),
            ),
          );
        }
        const deep = fc
          .tuple(fc.integer({ min: 64, max: 1000 }), fc.boolean())
          .map(([depth, asArray]) => withProperty(record, key, nested(depth, asArray)));
        if (canReject(deep, rejects)) options.add(deep.map(json(`deeply nested '${key}'`)));
      }
      const missing = (schema.required ?? []).filter((key) => rejects(withoutProperty(record, key)));
      if (missing.length > 0)
        options.add(
          fc
            .constantFrom(...missing)
            .map((key) => json(`missing required '${key}'`)(withoutProperty(record, key))),
        );
      if (schema.additionalProperties === false) {
        const known = new Set(properties.map(([key]) => key));
        options.add(
          fc
            .tuple(
              fc
                .string({ minLength: 1, maxLength: 20 })
                .filter((key) => !known.has(key) && key !== '__proto__'),
              fc.jsonValue({ maxDepth: 2 }),
            )
            .map(([key, value]) => json(`unknown property '${key}'`)(withProperty(record, key, value))),
        );
      }
    }
    if (typeOf(schema) === 'array') {
      const items = fc.array(fc.oneof(fc.string(), fc.integer(), multiArray), { minLength: 1, maxLength: 3 });
      if (canReject(items, rejects)) options.add(items.map(json('array of wrong items')));
    }
  }
  return options.build();
}

/** Identifiers every path parameter is tried with on every run. */
export const NASTY_IDS = [
  '\u0000',
  'a\u0000b',
  "' OR 1=1 --",
  '../',
  '..%2F..%2F',
  '%00',
  'x'.repeat(81),
  'z'.repeat(5000),
  '00000000-0000-4000-8000-000000000000',
];

/** Strings that should never identify anything: random text, traversal, NUL, SQL, very long, random uuids. */
export const malformedId: fc.Arbitrary<string> = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ minLength: 1, maxLength: 40, unit: 'binary-ascii' }),
  fc.constantFrom(
    '../',
    '../../etc/passwd',
    '..%2F..%2F',
    '%00',
    '\u0000',
    'a\u0000b',
    "' OR 1=1 --",
    "1'; DROP TABLE users; --",
    '" OR ""="',
    'null',
    'undefined',
    '-1',
    '0',
    '{}',
    '[]',
    ' ',
    '%',
    '\u202e\u0000',
    '😀',
    'x'.repeat(81),
    'y'.repeat(300),
    'z'.repeat(5000),
  ),
  fc.uuid(),
);

/** The classic bad values for a query parameter's type, tried on every run. */
function nastyQueryValues(param: Param): string[] {
  const schema = param.schema;
  const type = typeOf(schema);
  const out: string[] = [];
  if (type === 'integer' || type === 'number') {
    out.push('1e999', 'Infinity', '-1e999', '1.5', 'abc');
    if (schema.maximum !== undefined) out.push(String(schema.maximum + 1));
    if (schema.minimum !== undefined) out.push(String(schema.minimum - 1));
  } else if (type === 'boolean') out.push('maybe');
  else if (schema.maxLength !== undefined) out.push('q'.repeat(schema.maxLength + 1));
  if (schema.format || schema.enum || schema.anyOf || schema.pattern) out.push('not valid!');
  return out;
}

function wrongQueryValues(param: Param): fc.Arbitrary<string> {
  const schema = param.schema;
  const fixed: string[] = [
    '',
    ' ',
    'abc',
    '1.5',
    '-1',
    'NaN',
    '1e999',
    '0x10',
    '{}',
    '[]',
    "' OR 1=1 --",
    '\u0000',
  ];
  if (schema.maxLength !== undefined) fixed.push('q'.repeat(schema.maxLength + 1));
  if (schema.minimum !== undefined) fixed.push(String(schema.minimum - 1), String(schema.minimum - 1000));
  if (schema.maximum !== undefined) fixed.push(String(schema.maximum + 1), String(schema.maximum * 1000 + 7));
  fixed.push('99999999999999999999999');
  return fc.oneof(fc.constantFrom(...fixed), fc.string({ maxLength: 30 }));
}

/** Names a list's items are known by, which a sort parameter may legitimately name. */
function itemFields(okSchema: JsonSchema | undefined): Set<string> {
  const fields = new Set<string>();
  const visit = (schema: JsonSchema | undefined, depth: number) => {
    if (!schema || depth > 3) return;
    for (const [key, child] of Object.entries(schema.properties ?? {})) {
      fields.add(key.toLowerCase());
      visit(child, depth + 1);
    }
    visit(schema.items, depth + 1);
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])])
      visit(branch, depth + 1);
  };
  visit(okSchema, 0);
  for (const common of ['name', 'email', 'createdat', 'updatedat', 'id', 'at', 'label', 'date'])
    fields.add(common);
  return fields;
}

/**
 * Malformed query strings: wrong types, out-of-range numbers, repeated parameters, missing required ones, and an
 * unknown sort field (schema-valid text, so the service itself must refuse it: `semantic`).
 */
export function malformedQueries(
  op: Operation,
  base: Record<string, string>,
  schema: JsonSchema,
): Fuzzer<QueryCandidate> | undefined {
  if (op.queryParams.length === 0) return undefined;
  const rejects = (query: Record<string, QueryValue>) => !acceptedBy(schema, query);
  const options = new Options<QueryCandidate>();
  for (const param of op.queryParams) {
    const bad = (query: Record<string, QueryValue>): QueryCandidate => ({
      label: `bad '${param.name}'`,
      query,
      semantic: false,
    });
    const wrong = wrongQueryValues(param).map((value) => ({ ...base, [param.name]: value }));
    if (canReject(wrong, rejects))
      options.add(
        wrong.map(bad),
        nastyQueryValues(param).map((value) => bad({ ...base, [param.name]: value })),
      );
    const repeated = fc
      .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }))
      .map(([a, b]) => ({ ...base, [param.name]: [base[param.name] ?? a, b] }));
    if (canReject(repeated, rejects))
      options.add(repeated.map((query) => ({ label: `repeated '${param.name}'`, query, semantic: false })));
    if (typeOf(param.schema) === 'string' && !param.schema.format && !param.schema.enum) {
      const nul = fc.constantFrom('\u0000', 'a\u0000b').map((value) => ({
        label: `NUL character in '${param.name}'`,
        query: { ...base, [param.name]: value },
        semantic: true,
        answerable: op.method === 'GET',
      }));
      if (
        !canReject(
          nul.map((candidate) => candidate.query),
          rejects,
        )
      )
        options.add(nul);
    }
    if (param.required) {
      const { [param.name]: _dropped, ...rest } = base;
      if (rejects(rest))
        options.add(fc.constant({ label: `missing required '${param.name}'`, query: rest, semantic: false }));
    }
  }
  const sort = op.queryParams.find((p) => p.name === 'sort');
  if (sort && !sort.schema.enum && !sort.schema.anyOf && !sort.schema.oneOf) {
    const known = itemFields(op.okSchema);
    const pattern = sort.schema.pattern ? new RegExp(sort.schema.pattern) : /^[A-Za-z]+$/;
    const unknownSort = (field: string): QueryCandidate => ({
      label: `unknown sort field '${field}'`,
      query: { ...base, sort: field },
      semantic: true,
    });
    // Names every JavaScript object has: a column map looked up without an own-property check "knows" them.
    const inherited = ['bogus', 'constructor', 'valueOf', 'toString', 'hasOwnProperty', 'isPrototypeOf'];
    options.add(
      fc
        .stringMatching(/^[A-Za-z]{1,20}$/)
        .filter((field) => !known.has(field.toLowerCase()) && pattern.test(field))
        .map(unknownSort),
      inherited.filter((field) => pattern.test(field) && !known.has(field.toLowerCase())).map(unknownSort),
    );
  }
  return options.build();
}

export function queryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, item);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
