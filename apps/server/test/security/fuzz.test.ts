import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../support/server.ts';
import { KNOWN_ISSUES, withoutKnownIssues } from './known-issues.ts';
import {
  type BodyCandidate,
  type Fuzzer,
  malformedBodies,
  malformedId,
  malformedQueries,
  NASTY_IDS,
  type QueryCandidate,
  queryString,
} from './support/malformed.ts';
import {
  discoverOperations,
  fillPath,
  type Operation,
  querySchema,
  segmentBefore,
} from './support/openapi.ts';
import {
  type Answer,
  bodyFor,
  hasErrorMessage,
  type Placement,
  pathValues,
  queryValues,
  send,
  sent,
} from './support/requests.ts';
import { buildWorld, type World } from './support/setup.ts';
import { changedTables, snapshot } from './support/snapshot.ts';
import { acceptedBy } from './support/validation.ts';
import { kindOfPathParam } from './support/world.ts';

/*
 * Property-based fuzzing of every operation the services publish (discovered from their OpenAPI documents): with
 * the valid RPT of A's administrator and A's own ids everywhere else, malformed bodies, path parameters and query
 * strings must all be refused with a 4xx JSON error carrying a message, and must change nothing in the database.
 */

/** Runs per operation and input part (body, path, query); FUZZ_RUNS raises it for a longer local hunt. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 15);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;

const server = await startTestServer();
const operations = await discoverOperations(server);
let world: World;
let own: Placement;
const seenIssues = new Set<string>();

beforeAll(async () => {
  world = await buildWorld(server, operations);
  own = { orgOf: world.A, objectsOf: world.A, caller: world.A };
});
afterAll(async () => {
  if (process.env.SECURITY_DEBUG === '1')
    console.info(`fuzzing sent ${sent.count} requests for ${operations.length} operations`);
  await server.close();
});

/** Every static path segment: a "malformed id" equal to one would route to another endpoint, not be malformed. */
const STATIC_SEGMENTS = new Set(
  operations.flatMap((op) => op.path.split('/').filter((segment) => segment && !segment.startsWith('{'))),
);

/** Path parameters that are free-form names (any schema-valid text is a valid input), not references. */
function isFreeForm(op: Operation, name: string): boolean {
  if (op.path.includes('/userPreferences/users/') && name !== 'user') return true;
  return kindOfPathParam(op.path, name, segmentBefore(op.path, name)) === undefined;
}

/** `GET .../exists` answers any well-formed name, with `{ exists: false }` for the unknown ones. */
const isExistenceCheck = (op: Operation) => op.method === 'GET' && op.path.endsWith('/exists');

function refusal(answer: Answer): string | undefined {
  if (answer.status < 400 || answer.status >= 500)
    return `answered ${answer.status}: ${answer.body.slice(0, 200)}`;
  if (!hasErrorMessage(answer))
    return `answered ${answer.status} without a JSON message: ${answer.body.slice(0, 200)}`;
  return undefined;
}

function describeBody(candidate: BodyCandidate): string {
  if (candidate.kind === 'none') return candidate.label;
  const text = candidate.kind === 'raw' ? candidate.text : JSON.stringify(candidate.value);
  return `${candidate.label}: ${text.length > 200 ? `${text.slice(0, 200)}… (${text.length} chars)` : text}`;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Every example on its own (so one flaw does not hide the next: each is reported), then RUNS random candidates
 * through fast-check (stopping and shrinking at the first failure). A failure a known issue explains is recorded
 * and passed over, so the random search goes on looking for unknown ones.
 */
async function runProperty<T>(
  name: string,
  fuzzer: Fuzzer<T>,
  predicate: (value: T) => Promise<void>,
): Promise<string[]> {
  const problems: string[] = [];
  const tolerant = async (value: T) => {
    try {
      await predicate(value);
    } catch (error) {
      if (fc.PreconditionFailure.isFailure(error)) throw error;
      const message = `${name}: ${messageOf(error)}`;
      if (withoutKnownIssues([message], seenIssues).length > 0) throw error;
    }
  };
  for (const example of fuzzer.examples) {
    try {
      await tolerant(example);
    } catch (error) {
      if (!fc.PreconditionFailure.isFailure(error)) problems.push(`${name}: ${messageOf(error)}`);
    }
  }
  const details = await fc.check(fc.asyncProperty(fuzzer.arbitrary, tolerant), {
    numRuns: RUNS,
    ...(SEED === undefined ? {} : { seed: SEED }),
  });
  if (details.failed && details.counterexample === null)
    problems.push(
      `${name}: harness could not generate malformed input — ${fc.defaultReportMessage(details)}`,
    );
  else if (details.failed)
    problems.push(
      `${name}: ${messageOf(details.errorInstance)} (seed ${details.seed}, path ${details.counterexamplePath})`,
    );
  return problems;
}

async function fuzzBodies(op: Operation): Promise<string[]> {
  const params = pathValues(op, own);
  const url = `${fillPath(op.path, params)}${queryString(queryValues(op, own))}`;
  const fuzzer = malformedBodies(op, bodyFor(op, own));
  if (!fuzzer) return [];
  return runProperty('body', fuzzer, async (candidate) => {
    if (candidate.kind === 'json' && !candidate.semantic)
      fc.pre(op.body === undefined || !acceptedBy(op.body, candidate.value));
    const answer = await send(
      server,
      candidate.kind === 'raw'
        ? { method: op.method, url, rawBody: candidate.text }
        : { method: op.method, url, payload: candidate.kind === 'json' ? candidate.value : undefined },
      world.rpt.A,
    );
    const problem = refusal(answer);
    if (problem) throw new Error(`${op.method} ${url} with ${describeBody(candidate)} ${problem}`);
  });
}

async function fuzzPath(op: Operation): Promise<string[]> {
  if (op.pathParams.length === 0) return [];
  const valid = pathValues(op, own);
  const query = queryString(queryValues(op, own));
  const payload = bodyFor(op, own);
  const names = op.pathParams.map((p) => p.name);
  const fuzzer: Fuzzer<[string, string]> = {
    arbitrary: fc.tuple(fc.constantFrom(...names), malformedId),
    examples: names.flatMap((name) => NASTY_IDS.map((value): [string, string] => [name, value])),
  };
  return runProperty('path', fuzzer, async ([name, value]) => {
    fc.pre(value !== '.' && value !== '..' && !STATIC_SEGMENTS.has(value) && value !== valid[name]);
    const schema = op.pathParams.find((p) => p.name === name)?.schema ?? {};
    const schemaValid = acceptedBy(schema, value);
    if (isFreeForm(op, name)) fc.pre(!schemaValid);
    const url = `${fillPath(op.path, { ...valid, [name]: value })}${query}`;
    const answer = await send(server, { method: op.method, url, payload }, world.rpt.A);
    if (schemaValid && isExistenceCheck(op) && answer.status === 200) {
      if ((answer.json as { exists?: unknown }).exists !== false)
        throw new Error(`${op.method} ${url} claims a malformed {${name}} exists: ${answer.body}`);
      return;
    }
    const problem = refusal(answer);
    if (problem)
      throw new Error(`${op.method} ${url} ({${name}} = ${JSON.stringify(value.slice(0, 80))}) ${problem}`);
  });
}

async function fuzzQuery(op: Operation): Promise<string[]> {
  const schema = querySchema(op);
  const fuzzer = malformedQueries(op, queryValues(op, own), schema);
  if (!fuzzer) return [];
  const path = fillPath(op.path, pathValues(op, own));
  const payload = bodyFor(op, own);
  return runProperty('query', fuzzer, async (candidate: QueryCandidate) => {
    if (!candidate.semantic) fc.pre(!acceptedBy(schema, candidate.query));
    const url = `${path}${queryString(candidate.query)}`;
    const answer = await send(server, { method: op.method, url, payload }, world.rpt.A);
    if (candidate.answerable && answer.status >= 200 && answer.status < 300) return;
    const problem = refusal(answer);
    if (problem) throw new Error(`${op.method} ${url} (${candidate.label}) ${problem}`);
  });
}

describe('malformed input is refused with a 4xx message and changes nothing', () => {
  it('has operations to fuzz', () => {
    expect(operations.length).toBeGreaterThan(20);
  });

  for (const op of operations) {
    it(op.key, async () => {
      const before = await snapshot(server.database.db);
      const problems = [...(await fuzzBodies(op)), ...(await fuzzPath(op)), ...(await fuzzQuery(op))];
      const changed = changedTables(before, await snapshot(server.database.db));
      if (changed.length > 0) problems.push(`malformed input changed tables: ${changed.join(', ')}`);
      expect(withoutKnownIssues(problems, seenIssues)).toEqual([]);
    });
  }
});

describe('known issues (known-issues.ts)', () => {
  it('every one listed for this file still reproduces (a fixed one must be deleted from the list)', () => {
    const listed = KNOWN_ISSUES.filter((candidate) => candidate.file === 'fuzz').map((issue) => issue.id);
    expect(listed.filter((id) => !seenIssues.has(id))).toEqual([]);
  });
});
