import { emptyDocument } from '@edgeport/dashboard-schema';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, dashboardShares, dashboards, dashboardVersions } from '../../../db/schema.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
const token: Record<string, string> = {};
const user: Record<string, string> = {};

const API = '/svc/dashboard/api/v1';

type Dashboard = {
  id: string;
  kind: string;
  name: string;
  ownerId: string | null;
  ownerName: string | null;
  currentVersion: number;
  readers: string[];
  editors: string[];
  access: string;
};

const READ = { rsname: 'dashboards', scopes: ['READ'] };
const CREATE = { rsname: 'dashboards', scopes: ['READ', 'CREATE'] };

/** A valid two-page dashboard with a slot, bound values, a group and a navigate button. */
function twoPages(title = 'Main') {
  return {
    schemaVersion: 2,
    rootPageId: 'p1',
    slots: [{ name: 'line', label: 'Line' }],
    variables: [],
    pages: [
      {
        id: 'p1',
        title,
        widgets: [
          { id: 'g1', type: 'group', layout: { x: 0, y: 0, w: 12, h: 8 }, options: {} },
          {
            id: 'v1',
            type: 'value',
            parentId: 'g1',
            layout: { x: 0, y: 0, w: 6, h: 4 },
            binding: { slot: 'line', path: '/line/speed' },
            options: { unit: 'rpm' },
          },
          {
            id: 'b1',
            type: 'button',
            layout: { x: 12, y: 0, w: 6, h: 2 },
            action: { kind: 'navigate', pageId: 'p2' },
            options: { label: 'Next' },
          },
        ],
      },
      { id: 'p2', title: 'Second', widgets: [] },
    ],
  };
}

async function create(collection: string, who: string, body: Record<string, unknown>) {
  const response = await call('POST', `${API}/${collection}`, token[who], body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Dashboard;
}

async function storedRow(id: string) {
  const [row] = await server.database.db.select().from(dashboards).where(eq(dashboards.id, id));
  return row;
}

async function auditActions(id: string) {
  const rows = await server.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(and(eq(auditLog.resourceType, 'dashboards'), eq(auditLog.resourceId, id)));
  return rows.map((row) => row.action);
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { orgA, orgB } = tenants;
  const people: [string, typeof READ][] = [
    ['alice', CREATE],
    ['bob', READ],
    ['carol', READ],
    ['dave', READ],
  ];
  for (const [name, permission] of people) {
    const created = await userWithRole(server, 'acme', orgA.id, `${name}@acme-a.test`, [
      { rsname: 'portal', scopes: ['ACCESS'] },
      permission,
    ]);
    user[name] = created.id;
    token[name] = (await rptFor(server, 'acme', created.email, orgA.resourceId)).rpt;
  }
  user.adminA = tenants.adminA.id;
  user.adminB = tenants.adminB.id;
  token.adminA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  token.adminB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
});
afterAll(() => server.close());

describe.each(['dashboards', 'flows', 'widgets'])('the %s collection', (collection) => {
  const kind = collection.slice(0, -1);

  it('creates with an empty first version, lists, gets, patches and deletes', async () => {
    const created = await create(collection, 'alice', { name: `  Alpha ${kind} `, description: 'first' });
    expect(created).toMatchObject({
      kind,
      name: `Alpha ${kind}`,
      ownerId: user.alice,
      ownerName: 'alice@acme-a.test',
      currentVersion: 1,
      readers: [],
      editors: [],
      access: 'owner',
    });
    const version = await call('GET', `${API}/${collection}/${created.id}/versions/1`, token.alice);
    expect(version.statusCode).toBe(200);
    expect(version.json().document).toEqual(emptyDocument(kind as 'dashboard'));
    const second = await create(collection, 'alice', { name: `Beta ${kind}` });

    const list = await call('GET', `${API}/${collection}?sort=name&order=desc`, token.alice);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ total: 2, page: 0, pageSize: 50 });
    expect(list.json().items.map((item: Dashboard) => item.name)).toEqual([`Beta ${kind}`, `Alpha ${kind}`]);
    const searched = await call('GET', `${API}/${collection}?search=alp`, token.alice);
    expect(searched.json().items.map((item: Dashboard) => item.id)).toEqual([created.id]);
    const byUpdate = await call(
      'GET',
      `${API}/${collection}?sort=updatedAt&order=desc&pageSize=1`,
      token.alice,
    );
    expect(byUpdate.json()).toMatchObject({ total: 2, pageSize: 1, items: [{ id: second.id }] });
    expect((await call('GET', `${API}/${collection}?sort=secret`, token.alice)).statusCode).toBe(400);

    const patched = await call('PATCH', `${API}/${collection}`, token.alice, {
      id: created.id,
      name: 'Renamed',
      description: 'changed',
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Renamed', description: 'changed' });
    expect((await call('GET', `${API}/${collection}/${created.id}`, token.alice)).json().name).toBe(
      'Renamed',
    );
    const blank = await call('PATCH', `${API}/${collection}`, token.alice, { id: created.id, name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toContain('body/name');

    // Another kind's collection does not see it.
    const other = collection === 'flows' ? 'widgets' : 'flows';
    expect((await call('GET', `${API}/${other}/${created.id}`, token.alice)).statusCode).toBe(404);

    expect((await call('DELETE', `${API}/${collection}/${second.id}`, token.alice)).statusCode).toBe(204);
    expect((await call('GET', `${API}/${collection}/${second.id}`, token.alice)).statusCode).toBe(404);
    expect(await storedRow(second.id)).toBeUndefined();
    expect(await auditActions(created.id)).toEqual(
      expect.arrayContaining(['dashboards.create', 'dashboards.update']),
    );
    expect(await auditActions(second.id)).toContain('dashboards.delete');
  });

  it('refuses creation without CREATE on dashboards, and unknown ids answer 404', async () => {
    const refused = await call('POST', `${API}/${collection}`, token.bob, { name: 'Nope' });
    expect(refused.statusCode).toBe(403);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await call('GET', `${API}/${collection}/${unknown}`, token.alice)).statusCode).toBe(404);
    expect((await call('DELETE', `${API}/${collection}/${unknown}`, token.alice)).statusCode).toBe(404);
    expect((await call('GET', `${API}/${collection}/not-a-uuid`, token.alice)).statusCode).toBe(400);
  });
});

describe('documents', () => {
  it('stores a valid document and refuses bad ones naming the field', async () => {
    const good = await create('dashboards', 'alice', { name: 'Two pages', document: twoPages() });
    const version = (await call('GET', `${API}/dashboards/${good.id}/versions/1`, token.alice)).json();
    expect(version.document.pages).toHaveLength(2);

    const badWidth = JSON.parse(JSON.stringify(twoPages()).replace('"w":6', '"w":99'));
    const wide = await call('POST', `${API}/dashboards`, token.alice, { name: 'Bad', document: badWidth });
    expect(wide.statusCode).toBe(400);
    expect(wide.json().message).toContain('body/document/pages/0/widgets/1/layout/w');

    const badSlot = twoPages();
    badSlot.slots = [];
    const slot = await call('POST', `${API}/dashboards`, token.alice, { name: 'Bad', document: badSlot });
    expect(slot.statusCode).toBe(400);
    expect(slot.json().message).toContain("body/document/pages/0/widgets/1/binding/slot 'line'");

    const flow = await call('POST', `${API}/flows`, token.alice, {
      name: 'Bad flow',
      document: { schemaVersion: 1, entries: [{ id: 'a' }] },
    });
    expect(flow.statusCode).toBe(400);
    expect(flow.json().message).toContain('body/document/entries/0');

    // A dashboard document is no flow.
    const wrongKind = await call('POST', `${API}/flows`, token.alice, { name: 'Bad', document: twoPages() });
    expect(wrongKind.statusCode).toBe(400);
    const saved = await call('POST', `${API}/dashboards/${good.id}/versions`, token.alice, {
      document: { schemaVersion: 7 },
    });
    expect(saved.statusCode).toBe(400);
    expect(saved.json().message).toContain('body/document/schemaVersion');
    expect((await storedRow(good.id))?.currentVersion).toBe(1);
  });

  it('stores script in text fields as plain data (rendering keeps it inert)', async () => {
    const document = twoPages('<script>alert(1)</script>');
    const created = await create('dashboards', 'alice', { name: '<img src=x onerror=alert(1)>', document });
    const version = (await call('GET', `${API}/dashboards/${created.id}/versions/1`, token.alice)).json();
    expect(version.document.pages[0].title).toBe('<script>alert(1)</script>');
    expect(created.name).toBe('<img src=x onerror=alert(1)>');
  });

  it('migrates a stored version 1 document when it is read', async () => {
    const created = await create('dashboards', 'alice', { name: 'Legacy' });
    await server.database.db.insert(dashboardVersions).values({
      dashboardId: created.id,
      version: 2,
      document: {
        schemaVersion: 1,
        devices: ['pump'],
        pages: [
          {
            name: 'Old page',
            widgets: [
              { id: 'w1', kind: 'label', x: 1, y: 0, w: 3, h: 2, path: '/flow', props: { unit: 'l/s' } },
              { id: 'w2', kind: 'gauge', x: 4, y: 0, w: 4, h: 4, path: '/p', props: { min: 0, max: 10 } },
            ],
          },
        ],
      },
      createdBy: user.alice,
    });
    const read = await call('GET', `${API}/dashboards/${created.id}/versions/2`, token.alice);
    expect(read.statusCode).toBe(200);
    const document = read.json().document;
    expect(document).toMatchObject({
      schemaVersion: 2,
      rootPageId: 'page-1',
      slots: [{ name: 'pump', label: 'pump' }],
      pages: [
        {
          id: 'page-1',
          title: 'Old page',
          widgets: [
            {
              id: 'w1',
              type: 'value',
              layout: { x: 2, y: 0, w: 6, h: 2 },
              binding: { slot: 'pump', path: '/flow' },
              options: { unit: 'l/s' },
            },
            { id: 'w2', type: 'gauge', options: { min: 0, max: 10 } },
          ],
        },
      ],
    });
    // Deriving from it stores the migrated document.
    const derived = await call('POST', `${API}/dashboards/${created.id}/versions/2/versions/3`, token.alice);
    expect(derived.statusCode).toBe(201);
    const [row] = await server.database.db
      .select()
      .from(dashboardVersions)
      .where(and(eq(dashboardVersions.dashboardId, created.id), eq(dashboardVersions.version, 3)));
    expect(row?.document.schemaVersion).toBe(2);
  });
});

describe('versions', () => {
  it('saves, lists newest first, derives, makes current and refuses deleting the current one', async () => {
    const created = await create('dashboards', 'alice', { name: 'Versioned', document: twoPages() });
    const saved = await call('POST', `${API}/dashboards/${created.id}/versions`, token.alice, {
      document: twoPages('Saved'),
      comment: 'second',
    });
    expect(saved.statusCode).toBe(201);
    expect(saved.json()).toMatchObject({ version: 2, current: true, derivedFrom: null, comment: 'second' });
    expect(saved.json().document.pages[0].title).toBe('Saved');
    const draft = await call('POST', `${API}/dashboards/${created.id}/versions`, token.alice, {
      document: twoPages('Draft'),
      current: false,
    });
    expect(draft.json()).toMatchObject({ version: 3, current: false });
    expect((await storedRow(created.id))?.currentVersion).toBe(2);

    // Derive: v2 must be exactly the next free number.
    const taken = await call('POST', `${API}/dashboards/${created.id}/versions/1/versions/3`, token.alice);
    expect(taken.statusCode).toBe(409);
    expect(taken.json().message).toContain('4');
    const gap = await call('POST', `${API}/dashboards/${created.id}/versions/1/versions/9`, token.alice);
    expect(gap.statusCode).toBe(409);
    const missing = await call('POST', `${API}/dashboards/${created.id}/versions/8/versions/4`, token.alice);
    expect(missing.statusCode).toBe(404);
    const derived = await call('POST', `${API}/dashboards/${created.id}/versions/1/versions/4`, token.alice);
    expect(derived.statusCode).toBe(201);
    expect(derived.json()).toMatchObject({ version: 4, current: false, derivedFrom: 1 });
    expect(derived.json().document.pages[0].title).toBe('Main');

    const list = await call('GET', `${API}/dashboards/${created.id}/versions`, token.alice);
    expect(list.json().map((v: { version: number }) => v.version)).toEqual([4, 3, 2, 1]);
    expect(
      list
        .json()
        .filter((v: { current: boolean }) => v.current)
        .map((v: { version: number }) => v.version),
    ).toEqual([2]);
    expect(list.json()[0]).not.toHaveProperty('document');
    expect(list.json()[0].createdByName).toBe('alice@acme-a.test');

    const current = await call('POST', `${API}/dashboards/${created.id}/versions/4/current`, token.alice);
    expect(current.statusCode).toBe(200);
    expect(current.json().currentVersion).toBe(4);
    const refused = await call('DELETE', `${API}/dashboards/${created.id}/versions/4`, token.alice);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('current version');
    expect((await call('DELETE', `${API}/dashboards/${created.id}/versions/2`, token.alice)).statusCode).toBe(
      204,
    );
    expect((await call('GET', `${API}/dashboards/${created.id}/versions/2`, token.alice)).statusCode).toBe(
      404,
    );
    expect((await call('DELETE', `${API}/dashboards/${created.id}/versions/2`, token.alice)).statusCode).toBe(
      404,
    );
    expect(
      (await call('POST', `${API}/dashboards/${created.id}/versions/2/current`, token.alice)).statusCode,
    ).toBe(404);
    // After a deletion the next number is still the highest + 1.
    const next = await call('POST', `${API}/dashboards/${created.id}/versions`, token.alice, {
      document: twoPages(),
    });
    expect(next.json().version).toBe(5);
    expect(await auditActions(created.id)).toEqual(
      expect.arrayContaining([
        'dashboards.version.create',
        'dashboards.version.derive',
        'dashboards.version.current',
        'dashboards.version.delete',
      ]),
    );
  });
});

describe('sharing', () => {
  let shared: Dashboard;

  beforeAll(async () => {
    shared = await create('dashboards', 'alice', { name: 'Shared', document: twoPages() });
  });

  it('hides a dashboard from members it is not shared with', async () => {
    expect((await call('GET', `${API}/dashboards/${shared.id}`, token.bob)).statusCode).toBe(404);
    const list = (await call('GET', `${API}/dashboards`, token.bob)).json();
    expect(list.items.map((item: Dashboard) => item.id)).not.toContain(shared.id);
    // Administrators (UPDATE on dashboards) act as owners.
    const admin = await call('GET', `${API}/dashboards/${shared.id}`, token.adminA);
    expect(admin.json().access).toBe('owner');
  });

  it('lets a reader view only and an editor edit; only the owner shares', async () => {
    const asReader = await call('POST', `${API}/dashboards/${shared.id}/readers/${user.bob}`, token.alice);
    expect(asReader.statusCode).toBe(200);
    expect(asReader.json()).toMatchObject({ readers: [user.bob], editors: [] });
    const asEditor = await call('POST', `${API}/dashboards/${shared.id}/editors/${user.carol}`, token.alice);
    expect(asEditor.json()).toMatchObject({ readers: [user.bob], editors: [user.carol] });

    const bobSees = await call('GET', `${API}/dashboards/${shared.id}`, token.bob);
    expect(bobSees.json().access).toBe('r');
    expect((await call('GET', `${API}/dashboards/${shared.id}/versions/1`, token.bob)).statusCode).toBe(200);
    const bobPatch = await call('PATCH', `${API}/dashboards`, token.bob, { id: shared.id, name: 'Mine now' });
    expect(bobPatch.statusCode).toBe(403);
    const bobSave = await call('POST', `${API}/dashboards/${shared.id}/versions`, token.bob, {
      document: twoPages(),
    });
    expect(bobSave.statusCode).toBe(403);
    expect(
      (await call('POST', `${API}/dashboards/${shared.id}/versions/1/versions/2`, token.bob)).statusCode,
    ).toBe(403);

    expect((await call('GET', `${API}/dashboards/${shared.id}`, token.carol)).json().access).toBe('r/w');
    const carolPatch = await call('PATCH', `${API}/dashboards`, token.carol, {
      id: shared.id,
      name: 'Shared 2',
    });
    expect(carolPatch.statusCode).toBe(200);
    const carolSave = await call('POST', `${API}/dashboards/${shared.id}/versions`, token.carol, {
      document: twoPages('By Carol'),
    });
    expect(carolSave.statusCode).toBe(201);
    expect(carolSave.json().createdBy).toBe(user.carol);
    // Editors do not share, delete or pick the current version.
    expect(
      (await call('POST', `${API}/dashboards/${shared.id}/readers/${user.dave}`, token.carol)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${API}/dashboards/${shared.id}`, token.carol)).statusCode).toBe(403);
    expect(
      (await call('POST', `${API}/dashboards/${shared.id}/versions/1/current`, token.carol)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `${API}/dashboards/${shared.id}/versions/1`, token.carol)).statusCode).toBe(
      403,
    );
    expect((await call('GET', `${API}/dashboards/${shared.id}`, token.dave)).statusCode).toBe(404);
  });

  it('keeps a user in one list, and unsharing removes from both', async () => {
    const promoted = await call('POST', `${API}/dashboards/${shared.id}/editors/${user.bob}`, token.alice);
    expect(promoted.json()).toMatchObject({
      readers: [],
      editors: expect.arrayContaining([user.bob, user.carol]),
    });
    // DELETE on the readers list removes an editor too.
    const removed = await call('DELETE', `${API}/dashboards/${shared.id}/readers/${user.bob}`, token.alice);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toMatchObject({ readers: [], editors: [user.carol] });
    expect((await call('GET', `${API}/dashboards/${shared.id}`, token.bob)).statusCode).toBe(404);
    const rows = await server.database.db
      .select()
      .from(dashboardShares)
      .where(eq(dashboardShares.dashboardId, shared.id));
    expect(rows.map((row) => [row.userId, row.level])).toEqual([[user.carol, 'r/w']]);
  });

  it('shares with a list: levels given, the list level by default, no level removes', async () => {
    const listed = await call('POST', `${API}/dashboards/${shared.id}/readers`, token.alice, {
      users: [{ user: user.bob }, { user: user.dave, level: 'r/w' }, { user: user.carol }],
    });
    expect(listed.statusCode, listed.body).toBe(200);
    // bob: no level → removed from both (he had none); dave: r/w; carol: no level → removed.
    expect(listed.json()).toMatchObject({ readers: [], editors: [user.dave] });
    const again = await call('POST', `${API}/dashboards/${shared.id}/editors`, token.alice, {
      users: [
        { user: user.bob, level: 'r' },
        { user: user.carol, level: 'r/w' },
      ],
    });
    expect(again.json().readers).toEqual([user.bob]);
    expect(again.json().editors.sort()).toEqual([user.carol, user.dave].sort());
    const unshared = await call('DELETE', `${API}/dashboards/${shared.id}/editors`, token.alice, {
      users: [user.bob, user.dave],
    });
    expect(unshared.json()).toMatchObject({ readers: [], editors: [user.carol] });
    const twice = await call('POST', `${API}/dashboards/${shared.id}/readers`, token.alice, {
      users: [
        { user: user.bob, level: 'r' },
        { user: user.bob, level: 'r/w' },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().message).toContain('body/users/1/user');
  });

  it('refuses non-members and the owner, naming the field, and changes nothing', async () => {
    const outsider = await call('POST', `${API}/dashboards/${shared.id}/readers/${user.adminB}`, token.alice);
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().message).toContain('params/user');
    const inList = await call('POST', `${API}/dashboards/${shared.id}/editors`, token.alice, {
      users: [
        { user: user.bob, level: 'r' },
        { user: user.adminB, level: 'r' },
      ],
    });
    expect(inList.statusCode).toBe(400);
    expect(inList.json().message).toContain('body/users/1/user');
    const owner = await call('POST', `${API}/dashboards/${shared.id}/readers/${user.alice}`, token.alice);
    expect(owner.statusCode).toBe(400);
    const now = (await call('GET', `${API}/dashboards/${shared.id}`, token.alice)).json();
    expect(now).toMatchObject({ readers: [], editors: [user.carol] });
    expect(await auditActions(shared.id)).toEqual(
      expect.arrayContaining(['dashboards.share', 'dashboards.unshare']),
    );
  });

  it('lists mine and sharedWithMe', async () => {
    const carolShared = (await call('GET', `${API}/dashboards/sharedWithMe`, token.carol)).json();
    expect(carolShared.items.map((item: Dashboard) => item.id)).toEqual([shared.id]);
    expect(carolShared.items[0].access).toBe('r/w');
    expect((await call('GET', `${API}/dashboards/mine`, token.carol)).json().total).toBe(0);
    const aliceMine = (await call('GET', `${API}/dashboards/mine?search=shared`, token.alice)).json();
    expect(aliceMine.items.map((item: Dashboard) => item.id)).toEqual([shared.id]);
    expect((await call('GET', `${API}/dashboards/sharedWithMe`, token.alice)).json().total).toBe(0);
    const carolAll = (await call('GET', `${API}/dashboards`, token.carol)).json();
    expect(carolAll.items.map((item: Dashboard) => item.id)).toEqual([shared.id]);
    // Admins list every dashboard of the organization.
    const admin = (await call('GET', `${API}/dashboards?pageSize=1000`, token.adminA)).json();
    const aliceOwn = (await call('GET', `${API}/dashboards/mine?pageSize=1000`, token.alice)).json();
    expect(admin.total).toBe(aliceOwn.total);
  });
});

describe('other tenants', () => {
  it("answers another organization's admin 404 and changes nothing", async () => {
    const target = await create('dashboards', 'alice', { name: 'Secret A', document: twoPages() });
    // Org B has no IoT: the whole service is closed to it.
    expect((await call('GET', `${API}/dashboards`, token.adminB)).statusCode).toBe(403);
    const before = await storedRow(target.id);
    const attempts: ['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?][] = [
      ['GET', `${API}/dashboards/${target.id}`],
      ['PATCH', `${API}/dashboards`, { id: target.id, name: 'pwned' }],
      ['DELETE', `${API}/dashboards/${target.id}`],
      ['POST', `${API}/dashboards/${target.id}/versions`, { document: twoPages() }],
      ['POST', `${API}/dashboards/${target.id}/readers/${user.adminB}`],
      ['POST', `${API}/dashboards/${target.id}/versions/1/versions/2`],
    ];
    for (const [method, url, body] of attempts) {
      const answer = await call(method, url, token.adminB, body);
      expect([403, 404], `${method} ${url}`).toContain(answer.statusCode);
    }
    expect(await storedRow(target.id)).toEqual(before);
    const versions = await server.database.db
      .select()
      .from(dashboardVersions)
      .where(eq(dashboardVersions.dashboardId, target.id));
    expect(versions).toHaveLength(1);
  });

  it('refuses an organization without IoT even to its administrator', async () => {
    const created = await call('POST', `${API}/dashboards`, token.adminB, { name: 'B board' });
    expect(created.statusCode).toBe(403);
    expect((await call('GET', `${API}/flows/mine`, token.adminB)).statusCode).toBe(403);
  });

  it('needs an organization token', async () => {
    expect((await call('GET', `${API}/dashboards`)).statusCode).toBe(401);
  });
});

describe('edge cases', () => {
  it('answers 404 for unsharing someone who is neither reader nor editor, and for huge version numbers', async () => {
    const created = await create('dashboards', 'alice', { name: 'Edges' });
    const before = await auditActions(created.id);
    const unshared = await call('DELETE', `${API}/dashboards/${created.id}/readers/${user.bob}`, token.alice);
    expect(unshared.statusCode).toBe(404);
    expect(await auditActions(created.id)).toEqual(before);
    const list = await call('DELETE', `${API}/dashboards/${created.id}/readers`, token.alice, {
      users: [user.bob],
    });
    expect(list.statusCode).toBe(200);
    expect(await auditActions(created.id)).toEqual(before);
    expect(
      (await call('GET', `${API}/dashboards/${created.id}/versions/99999999999`, token.alice)).statusCode,
    ).toBe(404);
    const derive = await call(
      'POST',
      `${API}/dashboards/${created.id}/versions/1/versions/99999999999`,
      token.alice,
    );
    expect(derive.statusCode).toBe(409);
  });
});
