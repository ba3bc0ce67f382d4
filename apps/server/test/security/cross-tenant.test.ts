import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userWithRole } from '../support/fixtures.ts';
import { startTestServer } from '../support/server.ts';
import { EXEMPT } from './exemptions.ts';
import { KNOWN_ISSUES, withoutKnownIssues } from './known-issues.ts';
import { discoverOperations, type Operation, segmentBefore } from './support/openapi.ts';
import {
  type Answer,
  type BuiltRequest,
  buildRequest,
  foreignReferences,
  leakedMarkers,
  type Placement,
  send,
} from './support/requests.ts';
import { buildWorld, EVERYTHING_BUT_INHERIT, REALM, requestRpt, type World } from './support/setup.ts';
import { changedTables, snapshot } from './support/snapshot.ts';
import { kindOfName, kindOfPathParam, type Tenant } from './support/world.ts';

/*
 * Cross-tenant matrix: every operation the services publish in their OpenAPI documents (so endpoints added later
 * are covered without edits) is called by an administrator of one organization with the ids of another, and must
 * refuse (403/404) without changing anything or answering with the other organization's data.
 */

const server = await startTestServer();
const operations = await discoverOperations(server);
let world: World;
const seenIssues = new Set<string>();

beforeAll(async () => {
  world = await buildWorld(server, operations);
});
afterAll(() => server.close());

/** The organization in the path (`{org}`) or, for the services that take it so, in the query (`?organization=`). */
const hasOrgParam = (op: Operation) =>
  op.pathParams.some((p) => kindOfPathParam(op.path, p.name, segmentBefore(op.path, p.name)) === 'org') ||
  op.queryParams.some((p) => p.required && kindOfName(p.name, op.path) === 'org');
const hasUnknownParam = (op: Operation) =>
  op.pathParams.some((p) => kindOfPathParam(op.path, p.name, segmentBefore(op.path, p.name)) === undefined);

type Case = {
  name: string;
  token: () => string;
  placement: () => Placement;
  /** Strict: exactly 403 or 404. Otherwise a refusal (400/403/404) or a 2xx that leaks nothing and changes nothing. */
  strict: boolean;
  foreign: () => Tenant;
};

/** The requests an operation is tried with: another tenant's organization and ids, and the own organization with another tenant's ids. */
function casesFor(op: Operation): Case[] {
  const cases: Case[] = [];
  if (hasOrgParam(op)) {
    cases.push(
      {
        name: "A's admin with B's organization and B's ids",
        token: () => world.rpt.A,
        placement: () => ({ orgOf: world.B, objectsOf: world.B, caller: world.A }),
        strict: true,
        foreign: () => world.B,
      },
      {
        name: "A's admin with B's organization by resourceId",
        token: () => world.rpt.A,
        placement: () => ({ orgOf: world.B, objectsOf: world.B, caller: world.A, orgBy: 'resourceId' }),
        strict: true,
        foreign: () => world.B,
      },
      {
        name: "A1's admin (sub-organization) with parent A's organization and ids",
        token: () => world.rpt.A1,
        placement: () => ({ orgOf: world.A, objectsOf: world.A, caller: world.A1 }),
        strict: true,
        foreign: () => world.A,
      },
      {
        name: "C's admin (self-onboarded, same realm) with A's organization and A's ids",
        token: () => world.rpt.C,
        placement: () => ({ orgOf: world.A, objectsOf: world.A, caller: world.C }),
        strict: true,
        foreign: () => world.A,
      },
    );
    if (hasUnknownParam(op))
      cases.push({
        name: "A's admin with B's organization and random ids for unknown parameters",
        token: () => world.rpt.A,
        placement: () => ({ orgOf: world.B, objectsOf: world.B, caller: world.A, unknownAsRandom: true }),
        strict: true,
        foreign: () => world.B,
      });
  }
  cases.push(
    {
      name: "A's admin in A with B's object ids",
      token: () => world.rpt.A,
      placement: () => ({ orgOf: world.A, objectsOf: world.B, caller: world.A, mixLists: true }),
      strict: false,
      foreign: () => world.B,
    },
    {
      name: "A1's admin in A1 with parent A's object ids",
      token: () => world.rpt.A1,
      placement: () => ({ orgOf: world.A1, objectsOf: world.A, caller: world.A1, mixLists: true }),
      strict: false,
      foreign: () => world.A,
    },
    {
      name: "C's admin (self-onboarded) in C with A's object ids",
      token: () => world.rpt.C,
      placement: () => ({ orgOf: world.C, objectsOf: world.A, caller: world.C, mixLists: true }),
      strict: false,
      foreign: () => world.A,
    },
  );
  return cases;
}

/** Whether the operation names another tenant's data at all (its organization, or ids of its objects). */
function isMatrixOperation(op: Operation): boolean {
  if (op.pathParams.length > 0 || hasOrgParam(op)) return true;
  const request = buildRequest(op, { orgOf: world.A, objectsOf: world.B, caller: world.A });
  return foreignReferences(request, world.B).length > 0;
}

function judge(testCase: Case, request: BuiltRequest, answer: Answer): string[] {
  const problems: string[] = [];
  const where = `${testCase.name}: ${request.method} ${request.url}${
    request.payload === undefined ? '' : ` ${JSON.stringify(request.payload).slice(0, 300)}`
  }`;
  const refused = testCase.strict ? [403, 404] : [400, 403, 404];
  const ok = answer.status >= 200 && answer.status < 300;
  if (!refused.includes(answer.status) && (testCase.strict || !ok))
    problems.push(
      `${where} -> ${answer.status} (expected ${refused.join('/')}): ${answer.body.slice(0, 300)}`,
    );
  // An answer affirming another tenant's object ("authorized": true, "exists": true) grants or reveals across tenants.
  if (!testCase.strict && ok && /"(authorized|exists)"\s*:\s*true/.test(answer.body))
    problems.push(
      `${where} -> ${answer.status} affirms the other tenant's object: ${answer.body.slice(0, 300)}`,
    );
  const leaked = leakedMarkers(answer, testCase.foreign(), request.sentText);
  if (leaked.length > 0)
    problems.push(`${where} -> ${answer.status} answered with the other tenant's ${leaked.join(', ')}`);
  return problems;
}

describe('discovery and coverage', () => {
  it('discovers the operations of the core, audit and theme services from their OpenAPI documents', () => {
    expect(operations.length).toBeGreaterThan(20);
    const keys = operations.map((op) => op.key);
    expect(keys).toContain('GET /svc/core/api/v1/organizations/{org}');
    expect(keys).toContain('PUT /svc/theme/{org}/theme');
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('puts every operation either into the matrix or into the exemption table with a reason', () => {
    const uncovered = operations
      .filter((op) => !(op.key in EXEMPT) && !isMatrixOperation(op))
      .map((op) => op.key);
    expect(
      uncovered,
      'operations naming no organization or object: add them to EXEMPT in exemptions.ts with a reason, or give them a path parameter',
    ).toEqual([]);
    for (const reason of Object.values(EXEMPT)) expect(reason.length).toBeGreaterThan(10);
  });

  it('keeps no exemption for an operation that does not exist', () => {
    const keys = new Set(operations.map((op) => op.key));
    expect(Object.keys(EXEMPT).filter((key) => !keys.has(key))).toEqual([]);
  });
});

describe('organization hierarchy', () => {
  it("gives a sub-organization's administrator no permissions in the parent organization", async () => {
    const asked = await requestRpt(server, world.A1.admin.email, world.A.org.resourceId);
    if (asked.status === 200) expect(asked.permissions).toEqual([]);
    else expect(asked.status).toBe(403);
    const read = await send(
      server,
      { method: 'GET', url: `/svc/core/api/v1/organizations/${world.A.org.id}` },
      world.rpt.A1,
    );
    expect([403, 404]).toContain(read.status);
    const before = await snapshot(server.database.db);
    const write = await send(
      server,
      { method: 'PUT', url: `/svc/core/api/v1/organizations/${world.A.org.id}`, payload: { name: 'taken' } },
      world.rpt.A1,
    );
    expect([403, 404]).toContain(write.status);
    expect(changedTables(before, await snapshot(server.database.db))).toEqual([]);
  });

  it('lets a parent administrator whose role carries INHERIT into the sub-organization', async () => {
    const asked = await requestRpt(server, world.A.admin.email, world.A1.org.resourceId);
    expect(asked.status).toBe(200);
    expect(asked.permissions.length).toBeGreaterThan(0);
    const read = await send(
      server,
      { method: 'GET', url: `/svc/core/api/v1/organizations/${world.A1.org.id}` },
      asked.rpt,
    );
    expect(read.status).toBe(200);
    expect((read.json as { id?: string }).id).toBe(world.A1.org.id);
  });

  it('gives a parent user whose role lacks INHERIT no permissions in the sub-organization', async () => {
    const user = await userWithRole(
      server,
      REALM,
      world.A.org.id,
      'no-inherit@acme-a.test',
      EVERYTHING_BUT_INHERIT,
    );
    const child = await requestRpt(server, user.email, world.A1.org.resourceId);
    if (child.status === 200) expect(child.permissions).toEqual([]);
    else expect(child.status).toBe(403);
    const own = await requestRpt(server, user.email, world.A.org.resourceId);
    expect(own.status).toBe(200);
    const read = await send(
      server,
      { method: 'GET', url: `/svc/core/api/v1/organizations/${world.A1.org.id}` },
      own.rpt,
    );
    expect([403, 404]).toContain(read.status);
  });
});

/** Who reads the exempt operations: their token, their own organizations, and the tenant whose data must not show. */
type Viewer = {
  name: string;
  caller: () => Tenant;
  token: () => string;
  orgs: () => string[];
  foreign: () => Tenant;
};
const VIEWERS: Viewer[] = [
  {
    name: "A's admin",
    caller: () => world.A,
    token: () => world.rpt.A,
    orgs: () => [world.A.org.id, world.A1.org.id],
    foreign: () => world.B,
  },
  {
    name: "C's admin (self-onboarded)",
    caller: () => world.C,
    token: () => world.rpt.C,
    orgs: () => [world.C.org.id],
    foreign: () => world.A,
  },
];

/**
 * Public data of the organization that owns the realm (A), which every tenant of the realm sees: the realm's theme
 * is the owner's brand (sign-in page, e-mails).
 */
const REALM_OWNER_PUBLIC: Record<string, (owner: Tenant) => string[]> = {
  'GET /svc/theme/theme': (owner) => [owner.brandName],
};

/** What the caller's own data must look like, for the exempt operations where that can be said exactly. */
const OWN_DATA: Record<string, (json: unknown, viewer: Viewer) => void> = {
  'GET /svc/core/api/v1/organizations/mine': (json, viewer) =>
    expect((json as Array<{ id: string }>).map((org) => org.id).sort()).toEqual(viewer.orgs().sort()),
  'GET /svc/core/api/v1/users/mine': (json, viewer) =>
    expect((json as { id?: string }).id).toBe(viewer.caller().admin.id),
  'GET /svc/core/api/v1/account': (json, viewer) =>
    expect((json as { id?: string }).id).toBe(viewer.caller().admin.id),
  'GET /svc/core/api/v1/organizations/users': (json, viewer) => {
    const items = (json as { items?: Array<{ organization?: { id?: string } }> }).items ?? [];
    for (const item of items) expect(viewer.orgs()).toContain(item.organization?.id);
  },
};

describe("exempt operations answer with the caller's own data only", () => {
  const exemptGets = operations.filter((op) => op.key in EXEMPT && op.method === 'GET');
  for (const op of exemptGets) {
    it(op.key, async () => {
      for (const viewer of VIEWERS) {
        const caller = viewer.caller();
        const foreign = viewer.foreign();
        const request = buildRequest(op, { orgOf: caller, objectsOf: caller, caller });
        // A search parameter is pointed at the other tenant's member, to catch searches that cross tenants.
        const search = op.queryParams.find((p) => p.name === 'search' || p.name === 'q');
        const target = new URL(request.url, 'http://localhost');
        if (search) target.searchParams.set(search.name, foreign.user.email);
        const url = `${target.pathname}${target.search}`;
        const sent = `${request.sentText} ${foreign.user.email}`;
        const before = await snapshot(server.database.db);
        const answer = await send(server, { ...request, url }, viewer.token());
        expect(answer.status, `${viewer.name}: ${answer.body}`).toBeLessThan(500);
        const realmWide = foreign === world.A ? (REALM_OWNER_PUBLIC[op.key]?.(foreign) ?? []) : [];
        expect(
          leakedMarkers(answer, foreign, sent).filter((marker) => !realmWide.includes(marker)),
          viewer.name,
        ).toEqual([]);
        if (answer.status === 200) OWN_DATA[op.key]?.(answer.json, viewer);
        expect(changedTables(before, await snapshot(server.database.db)), viewer.name).toEqual([]);
      }
    });
  }
});

/** SECURITY_DEBUG=1 prints every matrix request with its answer. */
const debug = process.env.SECURITY_DEBUG === '1';

describe('cross-tenant matrix', () => {
  const matrix = operations.filter((op) => !(op.key in EXEMPT));
  for (const op of matrix) {
    it(op.key, async () => {
      const problems: string[] = [];
      const tried: string[] = [];
      // One snapshot before and one after the operation's requests: a change is attributed to the operation, and
      // the list of what was tried (with statuses) shows which request made it.
      const before = await snapshot(server.database.db);
      for (const testCase of casesFor(op)) {
        const request = buildRequest(op, testCase.placement());
        if (!testCase.strict && foreignReferences(request, testCase.foreign()).length === 0) continue;
        const answer = await send(server, request, testCase.token());
        problems.push(...judge(testCase, request, answer));
        tried.push(`${testCase.name}: ${request.method} ${request.url} -> ${answer.status}`);
        if (debug) console.info(`${tried.at(-1)} ${answer.body.slice(0, 160)}`);
      }
      const changed = changedTables(before, await snapshot(server.database.db));
      if (changed.length > 0)
        problems.push(`changed tables ${changed.join(', ')} after:\n  ${tried.join('\n  ')}`);
      expect(tried.length, `${op.key} was tried with no foreign id at all`).toBeGreaterThan(0);
      expect(withoutKnownIssues(problems, seenIssues)).toEqual([]);
    });
  }
});

describe('known issues (known-issues.ts)', () => {
  it('every one listed for this file still reproduces (a fixed one must be deleted from the list)', () => {
    const listed = KNOWN_ISSUES.filter((candidate) => candidate.file === 'cross-tenant').map(
      (issue) => issue.id,
    );
    expect(listed.filter((id) => !seenIssues.has(id))).toEqual([]);
  });
});

/**
 * Changes the positive control cannot make with the caller's own objects, for reasons of state, each with its reason.
 * (Reads are never listed: they must all succeed.)
 */
const STATE_REFUSALS: Record<string, string> = {
  'POST /svc/core/api/v1/organizations/{org}/move':
    "the only import token the caller holds leads to the caller's own organization",
  'POST /svc/core/api/v1/organizations/{org}/devices/{id}/move':
    "the only import token the caller holds leads to the device's own organization",
  'GET /svc/vpn2/api/v1/connections/{org}/{gateway}/connect':
    'no gateway agent runs in the harness: connecting to an offline gateway is refused (409)',
  'GET /svc/vpn2/api/v1/executeAction':
    'no gateway agent runs in the harness: opening an application on an offline gateway is refused (409)',
  'GET /svc/vpn2/api/v1/executeAction/{domain}':
    'no gateway agent runs in the harness: opening an application on an offline gateway is refused (409)',
  'GET /svc/vpn2/api/v1/connections/{org}/{gateway}/endpoints/{endpoint}/connect':
    'no gateway agent runs in the harness: connecting to an offline gateway is refused (409)',
};

describe("positive control: the same requests with the caller's own ids", () => {
  // Proves the harness builds requests the services accept, so a refusal above is the tenant check at work.
  // Reads must succeed; changes may be refused for reasons of state (409), never for a malformed request (400).
  // Reads first, then creations, then changes, then deletions: nested objects before their parents, people last.
  const order = (op: Operation) => {
    const rank = { GET: 0, POST: 1, PATCH: 2, PUT: 2, DELETE: 3 }[op.method];
    const depth = op.path.split('/').length;
    const late = /\/(users|organizations)\/\{[^}]+\}$/.test(op.path) ? 1 : 0;
    return rank * 10_000 + late * 1000 + (op.method === 'DELETE' ? 100 - depth : 0);
  };
  const matrix = operations.filter((op) => !(op.key in EXEMPT)).sort((a, b) => order(a) - order(b));
  it('is accepted for every operation of the matrix', async () => {
    const problems: string[] = [];
    for (const op of matrix) {
      const request = buildRequest(op, { orgOf: world.A, objectsOf: world.A, caller: world.A });
      const answer = await send(server, request, world.rpt.A);
      if (debug)
        console.info(
          `control ${request.method} ${request.url} -> ${answer.status} ${answer.body.slice(0, 160)}`,
        );
      const accepted = answer.status >= 200 && answer.status < 300;
      const excused = op.key in STATE_REFUSALS && answer.status < 500;
      if (!accepted && !excused && (op.method === 'GET' || answer.status === 400 || answer.status >= 500))
        problems.push(
          `${op.key}: ${request.method} ${request.url} -> ${answer.status} ${answer.body.slice(0, 200)}`,
        );
    }
    expect(problems).toEqual([]);
  });

  it('lists no state refusal for an operation that does not exist', () => {
    const keys = new Set(operations.map((op) => op.key));
    expect(Object.keys(STATE_REFUSALS).filter((key) => !keys.has(key))).toEqual([]);
  });
});
