import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { apps } from '../../../db/schema.ts';
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
  it('lists the catalogue by name, paged, with each entry address and its origin', async () => {
    const response = await call('GET', LIST, rptA);
    expect(response.statusCode).toBe(200);
    const page = response.json();
    expect(page).toMatchObject({ total: 3, page: 0, pageSize: 50 });
    expect(page.items.map((app: { id: string }) => app.id)).toEqual([
      'audit_helper',
      'energy.meter',
      'weather',
    ]);
    expect(page.items[2]).toEqual({
      id: 'weather',
      name: 'Weather station',
      description: 'Local forecasts next to the plant',
      publisher: 'Meteo Ltd',
      entryUrl: 'https://weather.example.com/app/',
      origin: 'https://weather.example.com',
    });
  });

  it('pages, sorts and searches name, description and publisher', async () => {
    const second = (await call('GET', `${LIST}?page=1&pageSize=2`, rptA)).json();
    expect(second).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(second.items.map((app: { id: string }) => app.id)).toEqual(['weather']);
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
    expect(fromB.total).toBe(3);
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
  it('answers one app', async () => {
    const response = await call('GET', `${LIST}/energy.meter`, rptB);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: 'energy.meter',
      entryUrl: 'http://apps.localhost:8080/energy/',
      origin: 'http://apps.localhost:8080',
    });
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
      'energy.meter',
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
    expect((await call('GET', `${LIST}/audit_helper`, rptA)).json().entryUrl).toBe(
      'http://apps.localhost:8080/audit/v2/',
    );
  });

  it('knows the origins the portal may frame (each once)', async () => {
    expect(await appOrigins(server.database.db)).toEqual([
      'http://apps.localhost:8080',
      'https://weather.example.com',
    ]);
  });
});
