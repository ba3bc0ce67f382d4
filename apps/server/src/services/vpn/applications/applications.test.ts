import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { seedTenants, userWithRole } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import { auditLog, vpnActionProfiles, vpnActions, vpnApplicationPreferences } from '../../../db/schema.ts';
import { type SeededGateway, seedGateway } from '../fixtures.ts';

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptB: string;
let readerA: string;
let otherReaderA: string;
let plant: SeededGateway;
let foreign: SeededGateway;

const vpn2 = '/svc/vpn2/api/v1';
const profilesOf = (domain: string) => `${vpn2}/domains/${domain}/actionProfiles`;
const actionsOf = (domain: string) => `${vpn2}/domains/${domain}/actions`;
const preferencesOf = (domain: string) => `${vpn2}/preferences/applications/${domain}`;

async function profileRows(organizationId: string) {
  return server.database.db
    .select()
    .from(vpnActionProfiles)
    .where(eq(vpnActionProfiles.organizationId, organizationId))
    .orderBy(vpnActionProfiles.name);
}
async function actionRows(organizationId: string) {
  return server.database.db
    .select()
    .from(vpnActions)
    .where(eq(vpnActions.organizationId, organizationId))
    .orderBy(vpnActions.name);
}
async function auditActions(organizationId: string) {
  const rows = await server.database.db
    .select({ action: auditLog.action })
    .from(auditLog)
    .where(eq(auditLog.organizationId, organizationId));
  return rows.map((row) => row.action);
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server);
  call = caller(server);
  const { db } = server.database;
  const { orgA, orgB } = tenants;
  plant = await seedGateway(db, orgA.id, {
    name: 'Plant',
    lanNetwork: '192.168.10.0/24',
    profile: { name: 'Secure', otpRequired: true },
    endpoints: [{ name: 'HMI', address: '192.168.10.20', protocol: 'HTTP', port: 80 }],
    actions: [{ name: 'Web', protocol: 'HTTP', port: 80, path: '/index.html' }],
  });
  foreign = await seedGateway(db, orgB.id, {
    name: 'B plant',
    lanNetwork: '10.1.0.0/16',
    profile: { name: 'B profile' },
    endpoints: [{ name: 'HMI', address: '10.1.0.5', protocol: 'HTTP', port: 80 }],
    actions: [{ name: 'B web', protocol: 'HTTP', port: 80 }],
  });
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, orgA.resourceId)).rpt;
  rptB = (await rptFor(server, 'acme', tenants.adminB.email, orgB.resourceId)).rpt;
  const readerPermissions = [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ'] },
  ];
  const reader = await userWithRole(server, 'acme', orgA.id, 'reader@acme-a.test', readerPermissions);
  readerA = (await rptFor(server, 'acme', reader.email, orgA.resourceId)).rpt;
  const other = await userWithRole(server, 'acme', orgA.id, 'other@acme-a.test', readerPermissions);
  otherReaderA = (await rptFor(server, 'acme', other.email, orgA.resourceId)).rpt;
});
afterAll(() => server.close());

describe('application profiles', () => {
  it('lists, creates, edits (POST with id or on /{id}) and reads profiles', async () => {
    const { orgA } = tenants;
    const listed = await call('GET', profilesOf(orgA.resourceId), readerA);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items).toEqual([
      {
        id: plant.profileId,
        name: 'Secure',
        description: '',
        otpRequired: true,
        actionCount: 1,
        gatewayCount: 1,
      },
    ]);
    const created = await call('POST', profilesOf(orgA.id), rptA, {
      name: 'Service',
      description: 'Vendors',
    });
    expect(created.statusCode).toBe(201);
    const service = created.json();
    expect(service).toMatchObject({
      name: 'Service',
      description: 'Vendors',
      otpRequired: false,
      actionCount: 0,
    });
    const edited = await call('POST', profilesOf(orgA.id), rptA, {
      id: service.id,
      name: 'Service',
      otpRequired: true,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: service.id, otpRequired: true, description: 'Vendors' });
    const renamed = await call('POST', `${profilesOf(orgA.id)}/${service.id}`, rptA, { name: 'Vendors' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Vendors', otpRequired: true });
    const one = await call('GET', `${profilesOf(orgA.id)}/${service.id}`, readerA);
    expect(one.json()).toMatchObject({ id: service.id, name: 'Vendors' });
    expect(await auditActions(orgA.id)).toEqual(
      expect.arrayContaining(['vpnActionProfiles.create', 'vpnActionProfiles.update']),
    );
  });

  it('refuses duplicates, bad input, unknown ids, readers and another tenant, changing nothing', async () => {
    const { orgA, orgB } = tenants;
    const before = await profileRows(orgA.id);
    const foreignProfile = foreign.profileId ?? '';
    const cases: [string, string, string, unknown, number, string][] = [
      ['POST', profilesOf(orgA.id), rptA, { name: 'Secure' }, 409, 'name'],
      ['POST', profilesOf(orgA.id), rptA, { name: '' }, 400, 'body/name'],
      ['POST', profilesOf(orgA.id), rptA, { name: 'a/b' }, 400, 'body/name'],
      ['POST', profilesOf(orgA.id), rptA, { name: 'x', otpRequired: 'maybe' }, 400, 'otpRequired'],
      ['POST', profilesOf(orgA.id), rptA, { id: foreignProfile, name: 'Stolen' }, 404, foreignProfile],
      ['POST', `${profilesOf(orgA.id)}/${foreignProfile}`, rptA, { name: 'Stolen' }, 404, foreignProfile],
      [
        'POST',
        `${profilesOf(orgA.id)}/${plant.profileId}`,
        rptA,
        { id: foreignProfile, name: 'x' },
        400,
        'body/id',
      ],
      ['POST', `${profilesOf(orgA.id)}/not-a-uuid`, rptA, { name: 'x' }, 400, 'id'],
      ['POST', profilesOf(orgA.id), readerA, { name: 'Readers' }, 403, 'CREATE'],
      ['POST', `${profilesOf(orgA.id)}/${plant.profileId}`, readerA, { name: 'x' }, 403, 'UPDATE'],
      ['DELETE', `${profilesOf(orgA.id)}/${plant.profileId}`, readerA, undefined, 403, 'DELETE'],
      ['POST', profilesOf('nowhere'), rptA, { name: 'x' }, 404, 'nowhere'],
      ['GET', `${profilesOf(orgA.id)}/${foreignProfile}`, rptA, undefined, 404, foreignProfile],
      ['DELETE', `${profilesOf(orgA.id)}/${foreignProfile}`, rptA, undefined, 404, foreignProfile],
      // The profile is used by the gateway 'Plant': deleting it would drop its OTP rule.
      ['DELETE', `${profilesOf(orgA.id)}/${plant.profileId}`, rptA, undefined, 409, "'Plant'"],
    ];
    for (const [method, url, token, body, status, message] of cases) {
      const answer = await call(method as 'GET', url, token, body);
      expect(answer.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.json().message).toContain(message);
    }
    for (const [method, url, body] of [
      ['GET', profilesOf(orgA.id), undefined],
      ['POST', profilesOf(orgA.id), { name: 'Intruder' }],
      ['DELETE', `${profilesOf(orgA.id)}/${plant.profileId}`, undefined],
    ] as const) {
      expect([403, 404]).toContain((await call(method, url, rptB, body)).statusCode);
    }
    expect((await call('DELETE', `${profilesOf(orgB.id)}/${plant.profileId}`, rptB)).statusCode).toBe(404);
    expect(await profileRows(orgA.id)).toEqual(before);
    expect((await profileRows(orgB.id)).map((row) => row.name)).toEqual(['B profile']);
  });

  it('deletes an unused profile, keeping its applications', async () => {
    const { orgA } = tenants;
    const profile = (await call('POST', profilesOf(orgA.id), rptA, { name: 'Temporary' })).json();
    const action = await call('POST', actionsOf(orgA.id), rptA, {
      name: 'Temp VNC',
      protocol: 'TCP',
      port: 5900,
      profileId: profile.id,
    });
    expect(action.statusCode).toBe(201);
    expect((await call('DELETE', `${profilesOf(orgA.id)}/${profile.id}`, rptA)).statusCode).toBe(204);
    expect((await call('GET', `${profilesOf(orgA.id)}/${profile.id}`, rptA)).statusCode).toBe(404);
    const kept = await call('GET', `${actionsOf(orgA.id)}/${action.json().id}`, rptA);
    expect(kept.json()).toMatchObject({ name: 'Temp VNC', profileId: null });
    expect(await auditActions(orgA.id)).toContain('vpnActionProfiles.delete');
  });
});

describe('applications', () => {
  it('lists, creates, edits with PUT, reads and deletes applications', async () => {
    const { orgA } = tenants;
    const listed = (await call('GET', actionsOf(orgA.resourceId), readerA)).json();
    expect(listed.items.map((item: { name: string }) => item.name)).toContain('Web');
    const created = await call('POST', actionsOf(orgA.id), rptA, {
      name: 'SSH',
      protocol: 'TCP',
      port: 22,
      path: '/ignored',
      clientOs: ['Lin', 'Mac'],
      profileId: plant.profileId,
    });
    expect(created.statusCode).toBe(201);
    const ssh = created.json();
    expect(ssh).toMatchObject({
      name: 'SSH',
      protocol: 'TCP',
      port: 22,
      path: '/',
      clientOs: ['Lin', 'Mac'],
    });
    const edited = await call('PUT', actionsOf(orgA.id), rptA, {
      id: ssh.id,
      name: 'SSH console',
      protocol: 'TCP',
      port: 2222,
      profileId: null,
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id: ssh.id,
      name: 'SSH console',
      port: 2222,
      profileId: null,
      clientOs: [],
    });
    expect((await call('GET', `${actionsOf(orgA.id)}/${ssh.id}`, readerA)).json().name).toBe('SSH console');
    expect((await call('DELETE', `${actionsOf(orgA.id)}/${ssh.id}`, rptA)).statusCode).toBe(204);
    expect((await call('GET', `${actionsOf(orgA.id)}/${ssh.id}`, rptA)).statusCode).toBe(404);
    expect(await auditActions(orgA.id)).toEqual(
      expect.arrayContaining(['vpnActions.create', 'vpnActions.update', 'vpnActions.delete']),
    );
  });

  it('refuses bad input, foreign profiles, unknown ids, readers and another tenant, changing nothing', async () => {
    const { orgA, orgB } = tenants;
    const before = await actionRows(orgA.id);
    const web = before.find((row) => row.name === 'Web');
    const foreignAction = (await actionRows(orgB.id))[0]?.id ?? '';
    const base = { name: 'RDP', protocol: 'TCP', port: 3389 };
    const cases: [string, string, string, unknown, number, string][] = [
      ['POST', actionsOf(orgA.id), rptA, { ...base, name: 'Web' }, 409, 'name'],
      ['POST', actionsOf(orgA.id), rptA, { ...base, port: 0 }, 400, 'body/port'],
      ['POST', actionsOf(orgA.id), rptA, { ...base, protocol: 'FTP' }, 400, 'body/protocol'],
      ['POST', actionsOf(orgA.id), rptA, { ...base, clientOs: ['Amiga'] }, 400, 'body/clientOs'],
      ['POST', actionsOf(orgA.id), rptA, { ...base, path: 'no-slash' }, 400, 'body/path'],
      ['POST', actionsOf(orgA.id), rptA, { ...base, profileId: foreign.profileId }, 404, 'body/profileId'],
      ['POST', actionsOf(orgA.id), rptA, { ...base, id: foreignAction }, 404, foreignAction],
      ['PUT', actionsOf(orgA.id), rptA, base, 400, 'body/id'],
      ['PUT', actionsOf(orgA.id), rptA, { ...base, id: foreignAction }, 404, foreignAction],
      [
        'PUT',
        actionsOf(orgA.id),
        rptA,
        { ...base, id: web?.id, profileId: foreign.profileId },
        404,
        'profileId',
      ],
      ['POST', actionsOf(orgA.id), readerA, base, 403, 'CREATE'],
      ['PUT', actionsOf(orgA.id), readerA, { ...base, id: web?.id }, 403, 'UPDATE'],
      ['DELETE', `${actionsOf(orgA.id)}/${web?.id}`, readerA, undefined, 403, 'DELETE'],
      ['GET', `${actionsOf(orgA.id)}/${foreignAction}`, rptA, undefined, 404, foreignAction],
      ['DELETE', `${actionsOf(orgA.id)}/${foreignAction}`, rptA, undefined, 404, foreignAction],
      ['GET', actionsOf('nowhere'), rptA, undefined, 404, 'nowhere'],
    ];
    for (const [method, url, token, body, status, message] of cases) {
      const answer = await call(method as 'GET', url, token, body);
      expect(answer.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(status);
      expect(answer.json().message).toContain(message);
    }
    for (const [method, url, body] of [
      ['GET', actionsOf(orgA.id), undefined],
      ['POST', actionsOf(orgA.id), base],
      ['PUT', actionsOf(orgA.id), { ...base, id: web?.id }],
      ['DELETE', `${actionsOf(orgA.id)}/${web?.id}`, undefined],
    ] as const) {
      expect([403, 404]).toContain((await call(method, url, rptB, body)).statusCode);
    }
    expect((await call('PUT', actionsOf(orgB.id), rptB, { ...base, id: web?.id })).statusCode).toBe(404);
    expect(await actionRows(orgA.id)).toEqual(before);
    expect((await actionRows(orgB.id)).map((row) => row.name)).toEqual(['B web']);
  });
});

describe('application preferences', () => {
  it("saves, lists and deletes the caller's own shortcuts", async () => {
    const { orgA } = tenants;
    const created = await call('POST', `${preferencesOf(orgA.resourceId)}/Plant/HMI/Web/Win/My HMI`, readerA);
    expect(created.statusCode).toBe(201);
    const shortcut = created.json();
    expect(shortcut).toMatchObject({
      gateway: 'Plant',
      endpoint: 'HMI',
      action: 'Web',
      clientOs: 'Win',
      label: 'My HMI',
    });
    await call('POST', `${preferencesOf(orgA.id)}/Plant/HMI/Web/Linux/Other users`, otherReaderA);
    const mine = await call('GET', `${preferencesOf(orgA.id)}/all`, readerA);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({ total: 1, page: 0, pageSize: 200, items: [{ id: shortcut.id }] });
    const ofPlant = (await call('GET', `${preferencesOf(orgA.id)}/Plant?pageSize=10`, readerA)).json();
    expect(ofPlant).toMatchObject({ total: 1, pageSize: 10 });
    expect((await call('GET', `${preferencesOf(orgA.id)}/nope`, readerA)).statusCode).toBe(404);
    expect((await call('GET', `${preferencesOf(orgA.id)}/all?pageSize=201`, readerA)).statusCode).toBe(400);
    // Another user's shortcut is not found for the caller, and stays.
    const others = (await call('GET', `${preferencesOf(orgA.id)}/all`, otherReaderA)).json();
    const othersId = others.items[0].id as string;
    expect((await call('DELETE', `${preferencesOf(orgA.id)}/${othersId}`, readerA)).statusCode).toBe(404);
    expect((await call('DELETE', `${preferencesOf(orgA.id)}/${othersId}`, rptA)).statusCode).toBe(404);
    expect((await call('DELETE', `${preferencesOf(orgA.id)}/${shortcut.id}`, readerA)).statusCode).toBe(204);
    const left = await server.database.db.select().from(vpnApplicationPreferences);
    expect(left.map((row) => row.id)).toEqual([othersId]);
    expect(await auditActions(orgA.id)).toEqual(
      expect.arrayContaining(['vpnApplicationPreferences.create', 'vpnApplicationPreferences.delete']),
    );
  });

  it('refuses unknown gateways, endpoints and applications, and another tenant', async () => {
    const { orgA, orgB } = tenants;
    const before = await server.database.db.select().from(vpnApplicationPreferences);
    const cases: [string, number, string][] = [
      [`${preferencesOf(orgA.id)}/nope/HMI/Web/Win/x`, 404, "gateway 'nope'"],
      [`${preferencesOf(orgA.id)}/Plant/nope/Web/Win/x`, 404, "endpoint 'nope'"],
      [`${preferencesOf(orgA.id)}/Plant/HMI/nope/Win/x`, 404, "application 'nope'"],
      [`${preferencesOf(orgA.id)}/Plant/HMI/B web/Win/x`, 404, "application 'B web'"],
      [`${preferencesOf(orgA.id)}/B plant/HMI/Web/Win/x`, 404, "gateway 'B plant'"],
      [`${preferencesOf(orgA.id)}/Plant/HMI/Web/Amiga/x`, 400, 'clientOs'],
      [`${preferencesOf('nowhere')}/Plant/HMI/Web/Win/x`, 404, 'nowhere'],
    ];
    for (const [url, status, message] of cases) {
      const answer = await call('POST', url, readerA);
      expect(answer.statusCode, url).toBe(status);
      expect(answer.json().message).toContain(message);
    }
    expect([403, 404]).toContain(
      (await call('POST', `${preferencesOf(orgA.id)}/Plant/HMI/Web/Win/x`, rptB)).statusCode,
    );
    expect([403, 404]).toContain((await call('GET', `${preferencesOf(orgA.id)}/all`, rptB)).statusCode);
    expect((await call('POST', `${preferencesOf(orgB.id)}/Plant/HMI/Web/Win/x`, rptB)).statusCode).toBe(404);
    expect(await server.database.db.select().from(vpnApplicationPreferences)).toEqual(before);
  });
});
