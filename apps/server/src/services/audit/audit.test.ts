import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { decodePayload, rptFor } from '../../../test/support/tokens.ts';
import { auditLog } from '../../db/schema.ts';
import type { Principal } from '../../http/principal.ts';
import { createOrganization } from '../core/organizations/provisioning.ts';
import { csvCell, csvRow } from './csv.ts';
import { EXPORT_BATCH, exportEntries, recordAudit } from './service.ts';
import { insertAuditRecord } from './store.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;

const base = (org: string) => `/svc/audit/api/v1/organizations/${org}`;

type EntryBody = {
  items: Array<{
    id: number;
    at: string;
    actorEmail: string;
    action: string;
    resourceType: string;
    resourceId: string | null;
    resourceName: string;
    detail: Record<string, unknown>;
  }>;
  total: number;
  page: number;
  pageSize: number;
};

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const orgA = tenants.orgA.id;
  const at = (iso: string) => new Date(iso);
  const rows = [
    {
      action: 'roles.create',
      resourceType: 'roles',
      resourceName: 'Operator',
      actorEmail: 'alice@acme.test',
      at: '2024-01-01T10:00:00Z',
    },
    {
      action: 'roles.update',
      resourceType: 'roles',
      resourceName: 'Operator',
      actorEmail: 'alice@acme.test',
      at: '2024-01-02T10:00:00Z',
    },
    {
      action: 'roles.delete',
      resourceType: 'roles',
      resourceName: 'Viewer',
      actorEmail: 'bob@acme.test',
      at: '2024-01-03T10:00:00Z',
    },
    {
      action: 'users.create',
      resourceType: 'users',
      resourceName: 'carol@acme.test',
      actorEmail: 'bob@acme.test',
      at: '2024-01-04T10:00:00Z',
      resourceId: '11111111-1111-4111-8111-111111111111',
    },
    {
      action: 'usergroups.update',
      resourceType: 'usergroups',
      resourceName: '=HYPERLINK("http://evil")',
      actorEmail: 'bob@acme.test',
      at: '2024-01-05T10:00:00Z',
      detail: { note: 'a "quoted", multi\nline value' },
    },
    {
      action: 'roles.update',
      resourceType: 'roles',
      resourceName: '100%_sure',
      actorEmail: 'dave@acme.test',
      at: '2024-01-06T10:00:00Z',
    },
  ];
  for (const row of rows) {
    await insertAuditRecord(db, {
      realm: 'acme',
      organizationId: orgA,
      actorId: tenants.adminA.id,
      actorEmail: row.actorEmail,
      action: row.action,
      resourceType: row.resourceType,
      resourceId: row.resourceId ?? null,
      resourceName: row.resourceName,
      detail: row.detail ?? {},
      at: at(row.at),
    });
  }
  // Organization B's own log, which A must never see.
  await insertAuditRecord(db, {
    realm: 'acme',
    organizationId: tenants.orgB.id,
    actorId: tenants.adminB.id,
    actorEmail: tenants.adminB.email,
    action: 'devices.delete',
    resourceType: 'devices',
    resourceName: 'secret device of B',
    at: at('2024-01-03T12:00:00Z'),
  });
  // A's sub-organization has its own log too.
  await insertAuditRecord(db, {
    realm: 'acme',
    organizationId: tenants.orgA1.id,
    actorEmail: 'alice@acme.test',
    action: 'roles.update',
    resourceType: 'roles',
    resourceName: 'A1 role',
    at: at('2024-01-03T13:00:00Z'),
  });
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
});
afterAll(() => server.close());

async function entries(query: string, token = rptA, org = tenants.orgA.id) {
  const response = await call('GET', `${base(org)}/entries${query}`, token);
  return { status: response.statusCode, body: response.json() as EntryBody };
}

describe('recordAudit', () => {
  it('stores the actor from the principal and defaults the optional fields', async () => {
    const principal: Principal = {
      realm: 'acme',
      userId: tenants.adminB.id,
      token: { email: 'recorder@acme.test' },
      organizationId: tenants.orgB.id,
    };
    await recordAudit(server.database.db, principal, {
      organizationId: tenants.orgB.id,
      action: 'portal.test',
      resourceType: 'portal',
    });
    const [row] = await server.database.db.select().from(auditLog).where(eq(auditLog.action, 'portal.test'));
    expect(row).toMatchObject({
      realm: 'acme',
      organizationId: tenants.orgB.id,
      actorId: tenants.adminB.id,
      actorEmail: 'recorder@acme.test',
      resourceId: null,
      resourceName: '',
      detail: {},
    });
  });
});

describe('GET entries', () => {
  it('lists only the organization own records, newest first', async () => {
    const { status, body } = await entries('');
    expect(status).toBe(200);
    expect(body.total).toBe(6);
    expect(body.items.map((item) => item.at)).toEqual([
      '2024-01-06T10:00:00.000Z',
      '2024-01-05T10:00:00.000Z',
      '2024-01-04T10:00:00.000Z',
      '2024-01-03T10:00:00.000Z',
      '2024-01-02T10:00:00.000Z',
      '2024-01-01T10:00:00.000Z',
    ]);
    expect(body.items.some((item) => item.resourceName === 'secret device of B')).toBe(false);
    expect(body.items.some((item) => item.resourceName === 'A1 role')).toBe(false);
    expect(body.items[1]?.detail).toEqual({ note: 'a "quoted", multi\nline value' });
  });

  it('pages with a total', async () => {
    const first = await entries('?pageSize=4&page=0');
    const second = await entries('?pageSize=4&page=1');
    expect(first.body).toMatchObject({ total: 6, page: 0, pageSize: 4 });
    expect(first.body.items).toHaveLength(4);
    expect(second.body.items).toHaveLength(2);
    const ids = [...first.body.items, ...second.body.items].map((item) => item.id);
    expect(new Set(ids).size).toBe(6);
  });

  it('filters by who, what (exact and prefix), resource type and id, search and time range', async () => {
    const names = async (query: string) => {
      const { status, body } = await entries(query);
      expect(status).toBe(200);
      return body.items.map((item) => `${item.action}:${item.resourceName}`);
    };
    expect(await names('?who=ALICE')).toEqual(['roles.update:Operator', 'roles.create:Operator']);
    expect(await names('?what=roles.update')).toEqual(['roles.update:100%_sure', 'roles.update:Operator']);
    expect(await names('?what=roles.')).toHaveLength(4);
    // Without the dot it is an exact action: nothing is called just "roles".
    expect(await names('?what=roles')).toEqual([]);
    expect(await names('?resourceType=users')).toEqual(['users.create:carol@acme.test']);
    expect(await names('?resourceId=11111111-1111-4111-8111-111111111111')).toEqual([
      'users.create:carol@acme.test',
    ]);
    expect(await names('?search=operator')).toEqual(['roles.update:Operator', 'roles.create:Operator']);
    // LIKE wildcards in the search are literal.
    expect(await names('?search=%25_')).toEqual(['roles.update:100%_sure']);
    expect(await names('?who=%25')).toEqual([]);
    expect(
      await names(
        `?from=${encodeURIComponent('2024-01-02T10:00:00Z')}&to=${encodeURIComponent('2024-01-04T10:00:00Z')}`,
      ),
    ).toEqual(['users.create:carol@acme.test', 'roles.delete:Viewer', 'roles.update:Operator']);
    expect(await names('?who=bob&what=roles.')).toEqual(['roles.delete:Viewer']);
  });

  it('sorts by the allowed columns', async () => {
    const { body } = await entries('?sort=actorEmail&order=asc');
    expect(body.items.map((item) => item.actorEmail)).toEqual([
      'alice@acme.test',
      'alice@acme.test',
      'bob@acme.test',
      'bob@acme.test',
      'bob@acme.test',
      'dave@acme.test',
    ]);
    const oldest = await entries('?sort=at&order=asc&pageSize=1');
    expect(oldest.body.items[0]?.action).toBe('roles.create');
    const byAction = await entries('?sort=action&order=desc&pageSize=1');
    expect(byAction.body.items[0]?.action).toBe('users.create');
  });

  it('answers 400 for bad dates, a reversed range, unknown sort columns and oversized pages', async () => {
    expect((await entries('?from=yesterday')).status).toBe(400);
    expect((await entries('?to=2024-13-01T00:00:00Z')).status).toBe(400);
    const reversed = await entries(
      `?from=${encodeURIComponent('2024-02-01T00:00:00Z')}&to=${encodeURIComponent('2024-01-01T00:00:00Z')}`,
    );
    expect(reversed.status).toBe(400);
    expect(JSON.stringify(reversed.body)).toContain('from');
    expect((await entries('?sort=detail')).status).toBe(400);
    expect((await entries('?sort=at&order=sideways')).status).toBe(400);
    expect((await entries('?pageSize=501')).status).toBe(400);
    expect((await entries('?unknown=1')).status).toBe(400);
  });

  it('needs a token', async () => {
    const response = await call('GET', `${base(tenants.orgA.id)}/entries`);
    expect(response.statusCode).toBe(401);
  });
});

describe('GET facets', () => {
  it('lists the distinct actions and resource types of the organization only', async () => {
    const response = await call('GET', `${base(tenants.orgA.id)}/facets`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      actions: ['roles.create', 'roles.delete', 'roles.update', 'usergroups.update', 'users.create'],
      resourceTypes: ['roles', 'usergroups', 'users'],
    });
    const facetsB = (await call('GET', `${base(tenants.orgB.id)}/facets`, rptB)).json();
    expect(facetsB.actions).toContain('devices.delete');
    expect(facetsB.actions).not.toContain('roles.create');
  });
});

describe('GET entries.csv', () => {
  it('exports every matching row as RFC 4180 CSV with formula cells defused', async () => {
    const response = await call('GET', `${base(tenants.orgA.id)}/entries.csv?what=usergroups.`, rptA);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="audit-${tenants.orgA.resourceId}-${today}.csv"`,
    );
    const text = response.body.replace(/^\uFEFF/, '');
    const lines = text.split('\r\n');
    expect(lines[0]).toBe('at,actorEmail,actorId,action,resourceType,resourceId,resourceName,detail');
    expect(lines[1]).toBe(
      `2024-01-05T10:00:00.000Z,bob@acme.test,${tenants.adminA.id},usergroups.update,usergroups,,` +
        `"'=HYPERLINK(""http://evil"")","{""note"":""a \\""quoted\\"", multi\\nline value""}"`,
    );
    expect(lines.slice(2)).toEqual(['']);
  });

  it('applies the filters and the order of the list, and never includes another organization', async () => {
    const response = await call('GET', `${base(tenants.orgA.id)}/entries.csv?sort=at&order=asc`, rptA);
    const rows = response.body.trim().split('\r\n').slice(1);
    expect(rows).toHaveLength(6);
    expect(rows[0]).toContain('roles.create');
    expect(response.body).not.toContain('secret device of B');
    const bob = await call('GET', `${base(tenants.orgA.id)}/entries.csv?who=bob&search=viewer`, rptA);
    expect(bob.body.trim().split('\r\n')).toHaveLength(2);
  });

  it('refuses bad filters with 400 before any CSV is sent', async () => {
    const response = await call(
      'GET',
      `${base(tenants.orgA.id)}/entries.csv?from=${encodeURIComponent('2024-02-01T00:00:00Z')}&to=${encodeURIComponent('2024-01-01T00:00:00Z')}`,
      rptA,
    );
    expect(response.statusCode).toBe(400);
    expect(response.headers['content-type']).toContain('application/json');
  });
});

describe('large exports', () => {
  it('reads in batches, keeps the order without repeats and stops at the cap', async () => {
    const { db } = server.database;
    const big = await createOrganization(db, { realm: 'acme', name: 'Big', resourceId: 'acme-big' });
    const auditor = await userWithRole(server, 'acme', big.id, 'big-auditor@acme.test', [
      { rsname: 'audit', scopes: ['ACCESS'] },
    ]);
    const rows = EXPORT_BATCH * 2 + 345;
    const start = Date.parse('2023-06-01T00:00:00Z');
    await db.insert(auditLog).values(
      Array.from({ length: rows }, (_, index) => ({
        realm: 'acme',
        organizationId: big.id,
        actorEmail: 'bulk@acme.test',
        action: 'devices.update',
        resourceType: 'devices',
        resourceName: `device ${index}`,
        at: new Date(start + index * 1000),
      })),
    );
    const { rpt } = await rptFor(server, 'acme', auditor.email, big.resourceId);
    const response = await call('GET', `${base(big.id)}/entries.csv?sort=at&order=asc`, rpt);
    const lines = response.body.trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(rows);
    expect(lines.map((line) => line.split(',')[6])).toEqual(
      Array.from({ length: rows }, (_, index) => `device ${index}`),
    );

    const principal: Principal = {
      realm: 'acme',
      userId: auditor.id,
      token: decodePayload(rpt),
      organizationId: big.id,
    };
    const capped = await exportEntries(db, principal, big.id, {}, { limit: EXPORT_BATCH + 10 });
    let text = '';
    for await (const chunk of capped.body) text += String(chunk);
    const cappedLines = text.trim().split('\r\n').slice(1);
    expect(cappedLines).toHaveLength(EXPORT_BATCH + 10);
    // Newest first by default.
    expect(cappedLines[0]?.split(',')[6]).toBe(`device ${rows - 1}`);
  });
});

describe('csv cells', () => {
  it('quotes separators, quotes and line breaks and defuses formula starts', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell(null)).toBe('');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}1+1`).replace(/^"/, '')).toMatch(/^'/);
    }
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvRow(['a', 'b'])).toBe('a,b\r\n');
  });
});

describe('permissions and tenant boundaries', () => {
  it('refuses a member without ACCESS on audit (403)', async () => {
    const viewer = await userWithRole(server, 'acme', tenants.orgA.id, 'roles-reader@acme.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
      { rsname: 'roles', scopes: ['READ'] },
      { rsname: 'audit', scopes: ['READ'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', viewer.email, tenants.orgA.resourceId);
    for (const path of ['entries', 'entries.csv', 'facets']) {
      const response = await call('GET', `${base(tenants.orgA.id)}/${path}`, rpt);
      expect(response.statusCode).toBe(403);
    }
  });

  it('lets a member holding only ACCESS on audit read the log', async () => {
    const auditor = await userWithRole(server, 'acme', tenants.orgA.id, 'auditor@acme.test', [
      { rsname: 'audit', scopes: ['ACCESS'] },
    ]);
    const { rpt } = await rptFor(server, 'acme', auditor.email, tenants.orgA.resourceId);
    const { status, body } = await entries('', rpt);
    expect(status).toBe(200);
    expect(body.total).toBe(6);
  });

  it("refuses B's administrator in A (403) and shows B only B's records", async () => {
    for (const path of ['entries', 'entries.csv', 'facets']) {
      const response = await call('GET', `${base(tenants.orgA.id)}/${path}`, rptB);
      expect(response.statusCode).toBe(403);
      expect(response.body).not.toContain('Operator');
    }
    const byResourceId = await call('GET', `${base(tenants.orgA.resourceId)}/entries`, rptB);
    expect(byResourceId.statusCode).toBe(403);
    const own = await entries('', rptB, tenants.orgB.id);
    expect(own.status).toBe(200);
    expect(own.body.items.map((item) => item.resourceName)).not.toContain('Operator');
    expect(own.body.items.map((item) => item.resourceName)).toContain('secret device of B');
    const ownCsv = await call('GET', `${base(tenants.orgB.id)}/entries.csv`, rptB);
    expect(ownCsv.body).not.toContain('alice@acme.test');
  });

  it("refuses A's token for the sub-organization A1 and answers 404 for unknown organizations", async () => {
    expect((await entries('', rptA, tenants.orgA1.id)).status).toBe(403);
    expect((await entries('', rptA, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await entries('', rptA, 'no-such-org')).status).toBe(404);
  });
});

describe('audited changes', () => {
  it('records an organization rename with the new name and what changed', async () => {
    const rename = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgB.id}`, rptB, {
      name: 'Org B renamed',
    });
    expect(rename.statusCode).toBe(200);
    const { body } = await entries('?what=organizations.update', rptB, tenants.orgB.id);
    expect(body.items).toHaveLength(1);
    expect(body.items[0]).toMatchObject({
      actorEmail: tenants.adminB.email,
      resourceType: 'organizations',
      resourceId: tenants.orgB.id,
      resourceName: 'Org B renamed',
      detail: { changes: { name: 'Org B renamed' }, before: { name: 'Org B' } },
    });
    // A refused rename is not recorded.
    const refused = await call('PUT', `/svc/core/api/v1/organizations/${tenants.orgB.id}`, rptA, {
      name: 'taken over',
    });
    expect(refused.statusCode).toBe(403);
    const after = await entries('?what=organizations.update', rptB, tenants.orgB.id);
    expect(after.body.total).toBe(1);
  });
});

describe('OpenAPI', () => {
  it('publishes the audit routes at /svc/audit/docs/json', async () => {
    const doc = (await server.app.inject('/svc/audit/docs/json')).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/svc/audit/api/v1/organizations/{org}/entries',
        '/svc/audit/api/v1/organizations/{org}/entries.csv',
        '/svc/audit/api/v1/organizations/{org}/facets',
      ]),
    );
  });
});
