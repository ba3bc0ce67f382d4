import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startLogin, submitForm, TestBrowser } from '../../../../test/support/oidc-client.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, deviceSecurityPolicies, securityPolicies } from '../../../db/schema.ts';
import { createDevice } from '../devices/provisioning.ts';
import { normalizeRange } from './rules.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
const ids: Record<string, string> = {};

const policies = (org: string) => `/svc/core/api/v1/organizations/${org}/securityPolicies`;
const id = (key: string) => ids[key] ?? '';

async function stored(policyId: string) {
  const [row] = await server.database.db
    .select()
    .from(securityPolicies)
    .where(eq(securityPolicies.id, policyId));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  ids.deviceA = (await createDevice(db, tenants.orgA.id, 'press-01')).id;
  ids.deviceB = (await createDevice(db, tenants.orgB.id, 'b-gateway')).id;
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)).rpt;
  const reader = await userWithRole(server, 'acme', tenants.orgA.id, 'reader@acme-a.test', [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'organizations', scopes: ['READ'] },
  ]);
  readerA = (await rptFor(server, 'acme', reader.email, tenants.orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('address ranges', () => {
  it('accepts CIDR ranges and single addresses of both families, nothing else', () => {
    expect(normalizeRange('10.0.0.0/8')).toBe('10.0.0.0/8');
    expect(normalizeRange(' 192.0.2.7 ')).toBe('192.0.2.7');
    expect(normalizeRange('2001:db8::/32')).toBe('2001:db8::/32');
    for (const bad of [
      '10.0.0.0/33',
      '10.0.0/8',
      'example.com',
      '10.0.0.0/8/1',
      '::1/129',
      '1.2.3.4/-1',
      '',
    ]) {
      expect(normalizeRange(bad), bad).toBeUndefined();
    }
  });
});

describe('security policy groups', () => {
  it('creates groups with rules, nested groups, and reads them back', async () => {
    const created = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Office only',
      description: 'VPN from the office',
      rules: {
        allowedIpRanges: ['10.0.0.0/8', '10.0.0.0/8', '2001:db8::/32'],
        requireTotp: true,
        maxSessionMinutes: 480,
      },
    });
    expect(created.statusCode).toBe(201);
    const office = created.json();
    expect(office).toMatchObject({
      name: 'Office only',
      parentId: null,
      rules: { allowedIpRanges: ['10.0.0.0/8', '2001:db8::/32'], requireTotp: true, maxSessionMinutes: 480 },
      deviceCount: 0,
      childCount: 0,
    });
    ids.office = office.id;
    const nested = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Night shift',
      parentId: office.id,
    });
    expect(nested.statusCode).toBe(201);
    expect(nested.json()).toMatchObject({
      parentId: office.id,
      rules: { allowedIpRanges: [], requireTotp: false, maxSessionMinutes: 0 },
    });
    ids.night = nested.json().id;
    const grand = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Weekend',
      parentId: id('night'),
    });
    ids.weekend = grand.json().id;

    const list = await call('GET', `${policies(tenants.orgA.id)}?sort=name`, readerA);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.map((p: { name: string }) => p.name)).toEqual([
      'Night shift',
      'Office only',
      'Weekend',
    ]);
    expect(list.json().items[1].childCount).toBe(1);
    const searched = (await call('GET', `${policies(tenants.orgA.id)}?search=office`, readerA)).json();
    expect(searched.total).toBe(1);
    const children = await call('GET', `${policies(tenants.orgA.id)}/${office.id}/securityPolicies`, readerA);
    expect(children.json().items.map((p: { id: string }) => p.id)).toEqual([id('night')]);
    expect((await call('GET', `${policies(tenants.orgA.id)}/${office.id}`, readerA)).json().name).toBe(
      'Office only',
    );
    const [record] = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'securityPolicies.create'), eq(auditLog.resourceId, office.id)));
    expect(record?.organizationId).toBe(tenants.orgA.id);
  });

  it('validates rules and names, naming the field', async () => {
    const badRange = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Bad',
      rules: { allowedIpRanges: ['10.0.0.0/40'], requireTotp: false, maxSessionMinutes: 0 },
    });
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().message).toContain('allowedIpRanges[0]');
    const tooLong = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Bad',
      rules: { allowedIpRanges: [], requireTotp: false, maxSessionMinutes: 1441 },
    });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().message).toContain('maxSessionMinutes');
    expect((await call('POST', policies(tenants.orgA.id), rptA, { name: '' })).statusCode).toBe(400);
    const duplicate = await call('POST', policies(tenants.orgA.id), rptA, { name: 'Office only' });
    expect(duplicate.statusCode).toBe(409);
    const foreignParent = await call('POST', policies(tenants.orgB.id), rptB, {
      name: 'B',
      parentId: id('office'),
    });
    expect(foreignParent.statusCode).toBe(400);
    expect(foreignParent.json().message).toContain('parentId');
    const names = (await server.database.db.select().from(securityPolicies)).map((p) => p.name);
    expect(names).not.toContain('Bad');
    expect(names).not.toContain('B');
  });

  it('refuses cycles when nesting', async () => {
    const self = await call('PUT', `${policies(tenants.orgA.id)}/${id('office')}`, rptA, {
      parentId: id('office'),
    });
    expect(self.statusCode).toBe(400);
    const cycle = await call('PUT', `${policies(tenants.orgA.id)}/${id('office')}`, rptA, {
      parentId: id('weekend'),
    });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toContain('cycle');
    expect((await stored(id('office')))?.parentId).toBeNull();
    // Moving a group to the top level and renaming it works.
    const ok = await call('PUT', `${policies(tenants.orgA.id)}/${id('weekend')}`, rptA, {
      parentId: null,
      name: 'Weekends',
      rules: { allowedIpRanges: ['192.0.2.0/24'], requireTotp: false, maxSessionMinutes: 60 },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ parentId: null, name: 'Weekends', rules: { maxSessionMinutes: 60 } });
    const renameClash = await call('PUT', `${policies(tenants.orgA.id)}/${id('weekend')}`, rptA, {
      name: 'Night shift',
    });
    expect(renameClash.statusCode).toBe(409);
  });

  it('assigns and removes devices of the same organization only', async () => {
    const base = `${policies(tenants.orgA.id)}/${id('office')}/devices`;
    expect((await call('POST', `${base}/${id('deviceA')}`, rptA)).statusCode).toBe(204);
    expect((await call('POST', `${base}/${id('deviceA')}`, rptA)).statusCode).toBe(204);
    const listed = await call('GET', base, readerA);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id: id('deviceA'), label: 'press-01' }] });
    expect((await call('GET', `${policies(tenants.orgA.id)}/${id('office')}`, rptA)).json().deviceCount).toBe(
      1,
    );
    // B's device cannot be assigned to A's policy.
    expect((await call('POST', `${base}/${id('deviceB')}`, rptA)).statusCode).toBe(404);
    expect((await call('POST', `${base}/${id('deviceA')}`, readerA)).statusCode).toBe(403);
    expect((await call('DELETE', `${base}/${id('deviceA')}`, rptA)).statusCode).toBe(204);
    expect((await call('DELETE', `${base}/${id('deviceA')}`, rptA)).statusCode).toBe(404);
    const rows = await server.database.db.select().from(deviceSecurityPolicies);
    expect(rows).toEqual([]);
  });

  it("keeps other tenants out: B's administrator gets 403 with A's organization and 404 with A's ids", async () => {
    const a = policies(tenants.orgA.id);
    const b = policies(tenants.orgB.id);
    expect((await call('GET', a, rptB)).statusCode).toBe(403);
    expect((await call('POST', a, rptB, { name: 'intruder' })).statusCode).toBe(403);
    expect((await call('GET', `${b}/${id('office')}`, rptB)).statusCode).toBe(404);
    expect((await call('PUT', `${b}/${id('office')}`, rptB, { name: 'taken' })).statusCode).toBe(404);
    expect((await call('DELETE', `${b}/${id('office')}`, rptB)).statusCode).toBe(404);
    expect((await call('POST', `${b}/${id('office')}/devices/${id('deviceB')}`, rptB)).statusCode).toBe(404);
    expect((await call('GET', `${b}/${id('office')}/securityPolicies`, rptB)).statusCode).toBe(404);
    expect((await call('PUT', `${a}/${id('office')}`, readerA, { name: 'reader' })).statusCode).toBe(403);
    expect((await stored(id('office')))?.name).toBe('Office only');
  });

  it('refuses deleting a group with nested groups, then deletes it', async () => {
    const refused = await call('DELETE', `${policies(tenants.orgA.id)}/${id('office')}`, rptA);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('nested');
    expect((await call('DELETE', `${policies(tenants.orgA.id)}/${id('night')}`, rptA)).statusCode).toBe(204);
    expect((await call('DELETE', `${policies(tenants.orgA.id)}/${id('office')}`, rptA)).statusCode).toBe(204);
    expect(await stored(id('office'))).toBeUndefined();
    expect((await call('GET', `${policies(tenants.orgA.id)}/${id('office')}`, rptA)).statusCode).toBe(404);
  });
});

describe('sign-in under the assigned security policy groups', () => {
  async function signIn(email: string) {
    const start = await startLogin(new TestBrowser(server.app, 'acme'), 'acme');
    return submitForm(start, start.action, { username: email, password: PASSWORD });
  }

  it('refuses a sign-in from outside the allowed ranges, in any nested group, and asks for TOTP when required', async () => {
    const worker = await userWithRole(server, 'acme', tenants.orgA.id, 'night-shift@acme-a.test', [
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
    expect((await signIn(worker.email)).code, 'no policy: signed in').toBeDefined();

    const outer = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Plant network only',
      rules: { allowedIpRanges: ['10.99.0.0/16'], requireTotp: false, maxSessionMinutes: 0 },
    });
    expect(outer.statusCode).toBe(201);
    const assigned = await call(
      'POST',
      `/svc/core/api/v1/organizations/${tenants.orgA.id}/users/${worker.id}/securityPolicies/${outer.json().id}`,
      rptA,
    );
    expect(assigned.statusCode).toBeLessThan(300);
    // app.inject comes from 127.0.0.1, outside 10.99.0.0/16.
    const refused = await signIn(worker.email);
    expect(refused.status).toBe(403);
    expect(refused.page).toContain('security policy does not allow signing in from this network');
    expect(refused.code).toBeUndefined();

    await call('PUT', `${policies(tenants.orgA.id)}/${outer.json().id}`, rptA, {
      rules: { allowedIpRanges: ['10.99.0.0/16', '127.0.0.0/8'], requireTotp: false, maxSessionMinutes: 0 },
    });
    expect((await signIn(worker.email)).code, 'loopback now allowed').toBeDefined();

    const nested = await call('POST', policies(tenants.orgA.id), rptA, {
      name: 'Second factor',
      parentId: outer.json().id,
      rules: { allowedIpRanges: [], requireTotp: true, maxSessionMinutes: 0 },
    });
    expect(nested.statusCode).toBe(201);
    const asked = await signIn(worker.email);
    expect(asked.code, 'TOTP must be set up first').toBeUndefined();
    expect(asked.page).toContain('configure-totp');
  });
});
