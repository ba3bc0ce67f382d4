import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { publishAgreement } from './store.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let tokenA: string;
let tokenB: string;
const ids: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const old = await publishAgreement(db, {
    realm: 'acme',
    serviceName: 'portal',
    type: 'TERM',
    version: '1',
    title: 'Terms v1',
    publishedAt: new Date('2026-01-01'),
  });
  const term = await publishAgreement(db, {
    realm: 'acme',
    serviceName: 'portal',
    type: 'TERM',
    version: '2',
    title: 'Terms v2',
  });
  const privacy = await publishAgreement(db, {
    realm: 'acme',
    serviceName: 'portal',
    type: 'PRIVACY',
    version: '1',
    title: 'Privacy',
  });
  Object.assign(ids, { old: old.id, term: term.id, privacy: privacy.id });
  tokenA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).accessToken;
  tokenB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).accessToken;
});
afterAll(() => server.close());

describe('agreements', () => {
  it('lists the newest version of each type of the host realm, publicly', async () => {
    const response = await call('GET', '/svc/core/api/v1/agreements/last?serviceName=portal');
    expect(response.statusCode).toBe(200);
    expect((response.json() as Array<{ title: string }>).map((a) => a.title).sort()).toEqual([
      'Privacy',
      'Terms v2',
    ]);
    const elsewhere = await caller(server, 'nope')(
      'GET',
      '/svc/core/api/v1/agreements/last?serviceName=portal',
    );
    expect(elsewhere.json()).toEqual([]);
  });

  it('names the missing query field', async () => {
    const response = await call('GET', '/svc/core/api/v1/agreements/last');
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toContain('serviceName');
  });

  it('reports pending agreements until they are accepted, per user', async () => {
    const before = await call('GET', '/svc/core/api/v1/agreements/check?serviceName=portal', tokenA);
    expect((before.json().pending as unknown[]).length).toBe(2);
    const accepted = await call('POST', '/svc/core/api/v1/agreements/accept', tokenA, {
      ids: [ids.term, ids.privacy],
    });
    expect(accepted.statusCode).toBe(204);
    expect(
      (await call('GET', '/svc/core/api/v1/agreements/check?serviceName=portal', tokenA)).json(),
    ).toEqual({ pending: [] });
    const other = await call('GET', '/svc/core/api/v1/agreements/check?serviceName=portal', tokenB);
    expect((other.json().pending as unknown[]).length).toBe(2);
  });

  it('refuses unknown ids and a missing token, accepting nothing', async () => {
    const unknown = await call('POST', '/svc/core/api/v1/agreements/accept', tokenB, {
      ids: [ids.term, '00000000-0000-4000-8000-000000000000'],
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain('ids');
    expect(
      (await call('POST', '/svc/core/api/v1/agreements/accept', undefined, { ids: [ids.term] })).statusCode,
    ).toBe(401);
    const still = await call('GET', '/svc/core/api/v1/agreements/check?serviceName=portal', tokenB);
    expect((still.json().pending as unknown[]).length).toBe(2);
  });
});
