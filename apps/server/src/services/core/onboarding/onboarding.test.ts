import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { passwordLogin, TestBrowser } from '../../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { organizations, users } from '../../../db/schema.ts';
import { publishAgreement } from '../agreements/store.ts';

let server: TestServer;
let call: ReturnType<typeof caller>;
let agreementIds: string[];

beforeAll(async () => {
  server = await startTestServer();
  await server.app.realms.create('acme', 'Acme');
  call = caller(server);
  const { db } = server.database;
  agreementIds = [
    (
      await publishAgreement(db, {
        realm: 'acme',
        serviceName: 'portal',
        type: 'TERM',
        version: '1',
        title: 'Terms',
      })
    ).id,
    (
      await publishAgreement(db, {
        realm: 'acme',
        serviceName: 'portal',
        type: 'PRIVACY',
        version: '1',
        title: 'Privacy',
      })
    ).id,
  ];
});
afterAll(() => server.close());

const form = () => ({
  agreementsServiceName: 'portal',
  organizationName: 'Dairy Plant North',
  email: 'founder@dairy.test',
  password: 'milk-and-honey',
  firstName: 'Fiona',
  lastName: 'Founder',
  acceptedAgreementIds: agreementIds,
});

async function organizationCount() {
  return (await server.database.db.select().from(organizations)).length;
}

describe('self-onboarding', () => {
  it('refuses bad input naming the field, and missing agreements, creating nothing', async () => {
    const bad = await call('POST', '/svc/core/api/v1/organizations/selfOnBoarding', undefined, {
      ...form(),
      email: 'not-an-email',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('email');
    const short = await call('POST', '/svc/core/api/v1/organizations/selfOnBoarding', undefined, {
      ...form(),
      password: 'short',
    });
    expect(short.json().message).toContain('password');
    const unaccepted = await call('POST', '/svc/core/api/v1/organizations/selfOnBoarding', undefined, {
      ...form(),
      acceptedAgreementIds: agreementIds.slice(0, 1),
    });
    expect(unaccepted.statusCode).toBe(400);
    expect(unaccepted.json().message).toContain('PRIVACY');
    const noRealm = await caller(server, 'nope')(
      'POST',
      '/svc/core/api/v1/organizations/selfOnBoarding',
      undefined,
      form(),
    );
    expect(noRealm.statusCode).toBe(404);
    expect(await organizationCount()).toBe(0);
  });

  it('creates the organization, its roles and its administrator, who can sign in and enter it', async () => {
    const created = await call('POST', '/svc/core/api/v1/organizations/selfOnBoarding', undefined, form());
    expect(created.statusCode).toBe(201);
    const browser = new TestBrowser(server.app, 'acme');
    const tokens = await passwordLogin(browser, 'acme', 'founder@dairy.test', 'milk-and-honey');
    const mine = await call('GET', '/svc/core/api/v1/organizations/mine', tokens.access_token);
    expect(mine.json()).toEqual([
      expect.objectContaining({ name: 'Dairy Plant North', id: created.json().organizationId }),
    ]);
    const pending = await call(
      'GET',
      '/svc/core/api/v1/agreements/check?serviceName=portal',
      tokens.access_token,
    );
    expect(pending.json()).toEqual({ pending: [] });
  });

  it('refuses an email that already has an account (409) without creating another organization', async () => {
    const before = await organizationCount();
    const again = await call('POST', '/svc/core/api/v1/organizations/selfOnBoarding', undefined, {
      ...form(),
      organizationName: 'Second',
    });
    expect(again.statusCode).toBe(409);
    expect(await organizationCount()).toBe(before);
    expect(
      (await server.database.db.select().from(users).where(eq(users.email, 'founder@dairy.test'))).length,
    ).toBe(1);
  });
});
