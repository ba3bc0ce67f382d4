import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { appLikes, apps, auditLog } from '../../../db/schema.ts';
import { appOrigins, registerApp } from './service.ts';

let server: TestServer;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let loginA: string;

const LIST = '/svc/core/api/v1/apps';

beforeAll(async () => {
  server = await startTestServer();
  const tenants = await seedTenants(server);
  call = caller(server, 'acme');
  const a = await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId);
  rptA = a.rpt;
  loginA = a.accessToken;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const { db } = server.database;
  await registerApp(db, {
    id: 'weather',
    name: 'Weather station',
    description: 'Local forecasts next to the plant',
    publisher: 'Meteo Ltd',
    entryUrl: 'https://weather.example.com/app/',
  });
  await registerApp(db, {
    id: 'energy.meter',
    name: 'Energy meter',
    description: 'kWh per line',
    publisher: 'Edgeport',
    entryUrl: 'http://apps.localhost:8080/energy/',
  });
  await registerApp(db, {
    id: 'audit_helper',
    name: 'Audit helper',
    publisher: 'Edgeport',
    entryUrl: 'http://apps.localhost:8080/audit/',
  });
});
afterAll(() => server.close());

describe('GET /api/v1/apps (the store catalogue)', () => {
  it('lists the catalogue by name, paged, without the entry addresses (they come with a launch)', async () => {
    const response = await call('GET', LIST, rptA);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    // The two sample store apps (shift-report, energy-cost) are registered when the server starts.
    expect(page).toMatchObject({ total: 5, page: 0, pageSize: 50 });
    expect(page.items.map((app: { id: string }) => app.id)).toEqual([
      'audit_helper',
      'energy-cost',
      'energy.meter',
      'shift-report',
      'weather',
    ]);
    expect(page.items[4]).toEqual({
      id: 'weather',
      name: 'Weather station',
      description: 'Local forecasts next to the plant',
      publisher: 'Meteo Ltd',
      version: '1.0.0',
      plans: [],
      likeCount: 0,
      liked: false,
    });
    expect(page.items[3]).toMatchObject({
      id: 'shift-report',
      plans: [
        { id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'MONTH' },
        { id: 'team', name: 'Team', priceMinor: 1900, currency: 'EUR', period: 'MONTH' },
      ],
    });
    expect(page.items[1].plans).toEqual([
      { id: 'basic', name: 'Basic', priceMinor: 900, currency: 'EUR', period: 'MONTH' },
      { id: 'pro', name: 'Pro', priceMinor: 2900, currency: 'EUR', period: 'MONTH' },
    ]);
  });

  it('pages, sorts and searches name, description and publisher', async () => {
    const second = (await call('GET', `${LIST}?page=1&pageSize=2`, rptA)).json();
    expect(second).toMatchObject({ total: 5, page: 1, pageSize: 2 });
    expect(second.items.map((app: { id: string }) => app.id)).toEqual(['energy.meter', 'shift-report']);
    const byPublisher = (await call('GET', `${LIST}?sort=publisher&order=desc`, rptA)).json();
    expect(byPublisher.items[0].publisher).toBe('Meteo Ltd');
    const searched = (await call('GET', `${LIST}?search=kwh`, rptA)).json();
    expect(searched.items.map((app: { id: string }) => app.id)).toEqual(['energy.meter']);
    const wildcard = (await call('GET', `${LIST}?search=%25`, rptA)).json();
    expect(wildcard.total).toBe(0);
  });

  it('is the same catalogue for every organization and for a plain login token', async () => {
    const fromB = (await call('GET', LIST, rptB)).json();
    const withLogin = (await call('GET', LIST, loginA)).json();
    expect(fromB.total).toBe(5);
    expect(withLogin.items).toEqual(fromB.items);
  });

  it('needs a signed-in caller', async () => {
    expect((await call('GET', LIST)).statusCode).toBe(401);
    expect((await call('GET', `${LIST}/weather`)).statusCode).toBe(401);
    expect((await call('GET', LIST, 'not-a-token')).statusCode).toBe(401);
  });

  it('refuses bad paging and sorting with the field named', async () => {
    const sort = await call('GET', `${LIST}?sort=entryUrl`, rptA);
    expect(sort.statusCode).toBe(400);
    expect(sort.json().message).toBe('sort must be one of name, publisher, id');
    const size = await call('GET', `${LIST}?pageSize=0`, rptA);
    expect(size.statusCode).toBe(400);
    expect(size.json().message).toContain('querystring/pageSize');
    const unknown = await call('GET', `${LIST}?installed=true`, rptA);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain("'installed'");
  });
});

describe('GET /api/v1/apps/{id}', () => {
  it('answers one app, without what it needs to run (an organization that has not installed it learns no address)', async () => {
    const response = await call('GET', `${LIST}/energy.meter`, rptB);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: 'energy.meter',
      name: 'Energy meter',
      publisher: 'Edgeport',
    });
    expect(response.json()).not.toHaveProperty('entryUrl');
    expect(response.json()).not.toHaveProperty('origin');
  });

  it('answers 404 for an unknown app and 400 for an id that cannot be one', async () => {
    const unknown = await call('GET', `${LIST}/nope`, rptA);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe("app 'nope' not found");
    const bad = await call('GET', `${LIST}/${encodeURIComponent('a b')}`, rptA);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('params/id');
    const long = await call('GET', `${LIST}/${'x'.repeat(81)}`, rptA);
    expect(long.statusCode).toBe(400);
  });
});

describe('registering apps (demo seed, fixtures)', () => {
  it('needs an id usable as a preference service name and an absolute http(s) entry address', async () => {
    const { db } = server.database;
    await expect(registerApp(db, { id: 'a b', name: 'x', entryUrl: 'https://x.example/' })).rejects.toThrow(
      'id must match',
    );
    for (const entryUrl of ['/relative', 'javascript:alert(1)', 'ftp://x.example/'])
      await expect(registerApp(db, { id: 'bad', name: 'x', entryUrl })).rejects.toThrow(
        'entryUrl must be an absolute http(s) address',
      );
    expect((await db.select().from(apps)).map((row) => row.id).sort()).toEqual([
      'audit_helper',
      'energy-cost',
      'energy.meter',
      'shift-report',
      'weather',
    ]);
  });

  it('updates an app registered again under its id', async () => {
    const { db } = server.database;
    const app = await registerApp(db, {
      id: 'audit_helper',
      name: 'Audit helper 2',
      publisher: 'Edgeport',
      entryUrl: 'http://apps.localhost:8080/audit/v2/',
    });
    expect(app.name).toBe('Audit helper 2');
    expect((await call('GET', `${LIST}/audit_helper`, rptA)).json().name).toBe('Audit helper 2');
    const [row] = await db.select().from(apps).where(eq(apps.id, 'audit_helper'));
    expect(row?.entryUrl).toBe('http://apps.localhost:8080/audit/v2/');
  });

  it('knows the origins the portal may frame (each once)', async () => {
    expect(await appOrigins(server.database.db)).toEqual([
      'http://apps.localhost:8080',
      'https://weather.example.com',
    ]);
  });
});

describe('likes (GET/POST/DELETE /api/v1/apps/{id}/like)', () => {
  const like = (id: string) => `${LIST}/${id}/like`;

  it('counts each user once, tells each caller whether they like it, and is idempotent', async () => {
    expect((await call('GET', like('weather'), rptA)).json()).toEqual({ liked: false, likeCount: 0 });
    const first = await call('POST', like('weather'), rptA);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ liked: true, likeCount: 1 });
    expect((await call('POST', like('weather'), rptA)).json()).toEqual({ liked: true, likeCount: 1 });
    expect((await call('GET', like('weather'), rptB)).json()).toEqual({ liked: false, likeCount: 1 });
    expect((await call('POST', like('weather'), rptB)).json()).toEqual({ liked: true, likeCount: 2 });
    // A plain login token is the same user as A's RPT.
    expect((await call('GET', like('weather'), loginA)).json()).toEqual({ liked: true, likeCount: 2 });

    const listA = (await call('GET', `${LIST}?search=weather`, rptA)).json();
    expect(listA.items[0]).toMatchObject({ id: 'weather', likeCount: 2, liked: true });
    expect((await call('GET', `${LIST}/weather`, rptB)).json()).toMatchObject({ likeCount: 2, liked: true });
    expect((await call('GET', `${LIST}/energy.meter`, rptB)).json()).toMatchObject({
      likeCount: 0,
      liked: false,
    });

    expect((await call('DELETE', like('weather'), rptA)).json()).toEqual({ liked: false, likeCount: 1 });
    expect((await call('DELETE', like('weather'), rptA)).json()).toEqual({ liked: false, likeCount: 1 });
    expect((await call('GET', `${LIST}/weather`, rptA)).json()).toMatchObject({ likeCount: 1, liked: false });
    expect((await call('GET', `${LIST}/weather`, rptB)).json()).toMatchObject({ likeCount: 1, liked: true });
  });

  it('audits each change once, not the repeated calls', async () => {
    const rows = await server.database.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.action, ['apps.like', 'apps.unlike']));
    expect(rows.map((row) => [row.action, row.resourceId]).sort()).toEqual([
      ['apps.like', 'weather'],
      ['apps.like', 'weather'],
      ['apps.unlike', 'weather'],
    ]);
  });

  it('answers 404 for an unknown app and 401 without a token, changing nothing', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const unknown = await call(method, like('nope'), rptA);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe("app 'nope' not found");
      expect((await call(method, like('weather'))).statusCode).toBe(401);
    }
    expect(await server.database.db.select().from(appLikes)).toHaveLength(1);
  });
});

describe('plans of a registered app', () => {
  it('refuses plans that are not integer minor units, twice the same id or an unknown period', async () => {
    const { db } = server.database;
    const base = { id: 'planned', name: 'Planned', entryUrl: 'https://planned.example/' };
    const plan = { id: 'p', name: 'P', priceMinor: 100, currency: 'EUR', period: 'MONTH' as const };
    await expect(registerApp(db, { ...base, plans: [{ ...plan, priceMinor: 9.99 }] })).rejects.toThrow(
      'plans/0/priceMinor must be an integer of at least 0 (minor units)',
    );
    await expect(registerApp(db, { ...base, plans: [plan, plan] })).rejects.toThrow(
      "plans/1/id 'p' is used twice",
    );
    await expect(registerApp(db, { ...base, plans: [{ ...plan, currency: 'euro' }] })).rejects.toThrow(
      'plans/0/currency must be an ISO 4217 code',
    );
    const weekly = { ...plan, period: 'WEEK' } as unknown as typeof plan;
    await expect(registerApp(db, { ...base, plans: [weekly] })).rejects.toThrow(
      'plans/0/period must be one of MONTH, YEAR',
    );
    const stored = await registerApp(db, { ...base, version: '2.0.0', plans: [plan] });
    expect(stored).toMatchObject({ version: '2.0.0', plans: [plan], likeCount: 0, liked: false });
    await db.delete(apps).where(eq(apps.id, 'planned'));
  });
});
