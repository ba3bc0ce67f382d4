import { and, eq } from 'drizzle-orm';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../../test/support/calls.ts';
import { PASSWORD, seedTenants } from '../../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../../test/support/server.ts';
import { rptFor } from '../../../../test/support/tokens.ts';
import {
  auditLog,
  deviceLicenses,
  devices,
  invoices,
  licenseEvents,
  licenses,
  notificationDeliveries,
  organizations,
  roles,
  userPreferences,
  users,
} from '../../../db/schema.ts';
import { addMember, createUser } from '../../core/organizations/provisioning.ts';
import { seedDemoLicenses } from '../demo.ts';
import { SWEEP_INTERVAL_MS } from './expiry.ts';

const DAY = 24 * 60 * 60 * 1000;
const base = (org: string) => `/svc/license/api/v1/organizations/${org}`;

let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;
let call: ReturnType<typeof caller>;
let rptA: string;
let rptClient: string;
let clientId: string;
let port: number;
let licence: { id: string; expiresAt: string };
let autoLicence: { id: string; expiresAt: string };
let device: { deviceId: string; password: string };

function connect(credentials: { deviceId: string; password: string }) {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
    clientId: credentials.deviceId,
    username: credentials.deviceId,
    password: credentials.password,
    reconnectPeriod: 0,
    connectTimeout: 5000,
  });
}

function closed(client: MqttClient) {
  return new Promise<void>((resolve) => {
    if (!client.connected) resolve();
    client.once('close', () => resolve());
  });
}

/** Moves the server clock to `at` (it only moves forward) and sweeps. */
async function moveTo(at: number) {
  const delta = at - server.app.clock.now().getTime();
  if (delta > 0) server.app.clock.advance(delta);
  await server.app.licenseExpiry.sweep();
}

async function events(id: string, event: string) {
  return server.database.db
    .select()
    .from(licenseEvents)
    .where(and(eq(licenseEvents.licenseId, id), eq(licenseEvents.event, event)));
}

async function warningsTo(id: string) {
  const rows = await server.database.db.select().from(notificationDeliveries);
  return rows.filter((row) => row.payload.licenseId === id);
}

async function licenceRow(id: string) {
  const [row] = await server.database.db.select().from(licenses).where(eq(licenses.id, id));
  return row;
}

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, 'acme');
  call = caller(server);
  const { db } = server.database;
  await db.update(organizations).set({ dealer: true }).where(eq(organizations.id, tenants.orgA.id));
  rptA = (await rptFor(server, 'acme', tenants.adminA.email, tenants.orgA.resourceId)).rpt;
  const product = (
    await call('POST', `${base(tenants.orgA.id)}/products`, rptA, {
      code: 'DEV',
      name: 'Device licence',
      resourceType: 'devices',
      quantity: 1,
      termDays: 365,
      priceMinor: 4900,
      currency: 'EUR',
    })
  ).json();
  const client = (await call('POST', `${base(tenants.orgA.id)}/clients`, rptA, { name: 'Client' })).json();
  clientId = client.id;
  const [administrator] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.organizationId, clientId), eq(roles.name, 'Administrator')));
  const user = await createUser(db, { realm: 'acme', email: 'admin@client.test', password: PASSWORD });
  await addMember(db, clientId, user.id, administrator ? [administrator.id] : []);
  // A German-speaking administrator: German by the portal locale preference over an English account locale.
  const german = await createUser(db, { realm: 'acme', email: 'greta@client.test', password: PASSWORD });
  await db.update(users).set({ locale: 'en-GB' }).where(eq(users.id, german.id));
  await db.insert(userPreferences).values({
    userId: german.id,
    serviceName: 'portal',
    property: 'locale',
    value1: 'de-DE',
  });
  await addMember(db, clientId, german.id, administrator ? [administrator.id] : []);
  rptClient = (await rptFor(server, 'acme', user.email, client.resourceId)).rpt;
  const issue = (body: Record<string, unknown>) =>
    call('POST', `${base(tenants.orgA.id)}/clients/${clientId}/licenses`, rptA, {
      productId: product.id,
      quantity: 2,
      activate: true,
      ...body,
    });
  licence = (await issue({})).json().license;
  // The autorenew licence ends a day later than the other one.
  server.app.clock.advance(DAY);
  autoLicence = (await issue({ autorenew: true })).json().license;
  const [key] = await db.select().from(deviceLicenses).where(eq(deviceLicenses.licenseId, licence.id));
  const activation = await call('POST', `${base(clientId)}/deviceLicenses/activate`, rptClient, {
    activationKey: key?.activationKey,
    label: 'Pump 1',
  });
  expect(activation.statusCode).toBe(201);
  device = {
    deviceId: activation.json().device.id,
    password: activation.json().credentials.password,
  };
  port = await server.app.ingest.listen(0, '127.0.0.1');
}, 90_000);
afterAll(() => server.close());

describe('licence expiry on the server clock', () => {
  it('sweeps every minute on an unref’d timer', () => {
    expect(SWEEP_INTERVAL_MS).toBe(60_000);
  });

  it('sends nothing while the term is more than 30 days away', async () => {
    await moveTo(new Date(licence.expiresAt).getTime() - 31 * DAY);
    expect(await events(licence.id, 'EXPIRY_WARNING')).toHaveLength(0);
    expect(await warningsTo(licence.id)).toHaveLength(0);
  });

  it('warns once 30 days ahead: e-mail to the holder and the dealer administrators', async () => {
    await moveTo(new Date(licence.expiresAt).getTime() - 30 * DAY + 60_000);
    await server.app.licenseExpiry.sweep();
    const warned = await events(licence.id, 'EXPIRY_WARNING');
    expect(warned).toHaveLength(1);
    expect(warned[0]?.detail).toMatchObject({ days: 30 });
    const mails = await warningsTo(licence.id);
    expect(mails.map((mail) => mail.target).sort()).toEqual([
      'admin@acme-a.test',
      'admin@client.test',
      'greta@client.test',
    ]);
    expect(mails.every((mail) => mail.channel === 'email')).toBe(true);
    const code = (await licenceRow(licence.id))?.licenseCode ?? '';
    const to = (target: string) => mails.find((mail) => mail.target === target);
    // Each administrator in their own language: English by default, German by the portal locale.
    expect(to('admin@client.test')).toMatchObject({ language: 'en' });
    expect(to('admin@client.test')?.subject).toBe(`Licence ${code} (Device licence) expires in 30 days`);
    expect(to('admin@client.test')?.body).toContain(
      `The licence ${code} (Device licence, quantity 2) of Client`,
    );
    expect(to('admin@client.test')?.body).toContain('Renew it before then');
    expect(to('greta@client.test')).toMatchObject({ language: 'de' });
    expect(to('greta@client.test')?.subject).toBe(`Lizenz ${code} (Device licence) läuft in 30 Tagen ab`);
    expect(to('greta@client.test')?.body).toContain(
      `Die Lizenz ${code} (Device licence, Menge 2) von Client`,
    );
    expect(to('greta@client.test')?.body).toContain('Verlängern Sie sie vorher');
    expect(to('greta@client.test')?.body).toMatch(/läuft am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}:\d{2} UTC ab/);
    // The dealer's administrator hears about the licence it issued.
    expect(to('admin@acme-a.test')).toMatchObject({ language: 'en' });
    expect(to('admin@acme-a.test')?.body).toContain('you issued to Client');
    expect((await licenceRow(licence.id))?.warnedDays).toEqual([30]);
  });

  it('warns once 7 days ahead', async () => {
    await moveTo(new Date(licence.expiresAt).getTime() - 7 * DAY + 60_000);
    await server.app.licenseExpiry.sweep();
    await server.app.licenseExpiry.sweep();
    const warned = await events(licence.id, 'EXPIRY_WARNING');
    expect(warned.map((row) => row.detail.days)).toEqual([30, 7]);
    const mails = await warningsTo(licence.id);
    expect(mails).toHaveLength(6);
    expect(
      mails
        .filter((mail) => mail.language === 'de')
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual([
      expect.stringContaining('läuft in 30 Tagen ab'),
      expect.stringContaining('läuft in 7 Tagen ab'),
    ]);
  });

  it('the device signs in over MQTT while the licence runs', async () => {
    const client = await connect(device);
    expect(client.connected).toBe(true);
    const gone = closed(client);
    // At the end of the term the licence expires and the open connection is dropped.
    // The broker knows the connection once the device shows ONLINE.
    await expect
      .poll(async () => {
        const [row] = await server.database.db.select().from(devices).where(eq(devices.id, device.deviceId));
        return row?.status;
      })
      .toBe('ONLINE');
    await moveTo(new Date(licence.expiresAt).getTime() + 1000);
    await gone;
    expect(client.connected).toBe(false);
    client.end(true);
  });

  it('expiry marks the licence and its device licences EXPIRED and refuses the MQTT sign-in', async () => {
    expect((await licenceRow(licence.id))?.status).toBe('EXPIRED');
    const keys = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.licenseId, licence.id));
    expect(keys.map((key) => key.status)).toEqual(['EXPIRED', 'EXPIRED']);
    const list = (await call('GET', `${base(clientId)}/deviceLicenses`, rptClient)).json();
    const mine = list.items.find(
      (item: { device: { id: string } | null }) => item.device?.id === device.deviceId,
    );
    expect(mine.status).toBe('EXPIRED');
    await expect(connect(device)).rejects.toThrow();
    expect(await events(licence.id, 'EXPIRED')).toHaveLength(1);
    const audit = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resourceId, licence.id), eq(auditLog.action, 'licenses.expire')));
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorEmail).toBe('system');
    const validation = (
      await call(
        'GET',
        `${base(clientId)}/licenses/validate?licenseCode=${(await licenceRow(licence.id))?.licenseCode}`,
        rptClient,
      )
    ).json();
    expect(validation).toMatchObject({ valid: false, status: 'EXPIRED' });
  });

  it('renewal brings the licence, its device licences and the device access back', async () => {
    const before = server.app.clock.now().getTime();
    const response = await call('POST', `${base(clientId)}/licenses/${licence.id}/renew`, rptClient);
    expect(response.statusCode).toBe(200);
    const renewed = response.json().license;
    expect(renewed.status).toBe('ACTIVE');
    const expires = new Date(renewed.expiresAt).getTime();
    expect(expires).toBeGreaterThan(before + 365 * DAY - 1);
    expect(expires).toBeLessThanOrEqual(server.app.clock.now().getTime() + 365 * DAY);
    expect(renewed.deviceLicenses).toMatchObject({ active: 1, available: 1, expired: 0 });
    const client = await connect(device);
    expect(client.connected).toBe(true);
    await client.endAsync();
    expect((await licenceRow(licence.id))?.warnedDays).toEqual([]);
  });

  it('an autorenew licence is renewed at the end of its term and charged with an OPEN invoice', async () => {
    const before = await server.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.reference, `license:${autoLicence.id}`));
    await moveTo(new Date(autoLicence.expiresAt).getTime() + 1000);
    const row = await licenceRow(autoLicence.id);
    expect(row?.status).toBe('ACTIVE');
    expect(row?.expiresAt?.getTime()).toBeGreaterThan(server.app.clock.now().getTime() + 364 * DAY);
    expect(row?.warnedDays).toEqual([]);
    const after = await server.database.db
      .select()
      .from(invoices)
      .where(eq(invoices.reference, `license:${autoLicence.id}`));
    expect(after).toHaveLength(before.length + 1);
    const newest = after.find((invoice) => !before.some((old) => old.id === invoice.id));
    expect(newest).toMatchObject({ status: 'OPEN', amountMinor: 9800, organizationId: clientId });
    expect(await events(autoLicence.id, 'RENEWED')).toHaveLength(1);
    expect(await events(autoLicence.id, 'EXPIRED')).toHaveLength(0);
    // It was warned (once per window) before its term ended.
    expect((await events(autoLicence.id, 'EXPIRY_WARNING')).map((event) => event.detail.days)).toEqual([
      30, 7,
    ]);
  });

  it('device licences issued on their own expire after their year and lose access', async () => {
    const [key] = await seedDemoLicenses(server.database.db, clientId, 1);
    const activation = await call('POST', `${base(clientId)}/deviceLicenses/activate`, rptClient, {
      activationKey: key,
      label: 'Standalone',
    });
    expect(activation.statusCode).toBe(201);
    const standalone = {
      deviceId: activation.json().device.id,
      password: activation.json().credentials.password,
    };
    await moveTo(new Date(activation.json().license.expiresAt).getTime() + 1000);
    const [row] = await server.database.db
      .select()
      .from(deviceLicenses)
      .where(eq(deviceLicenses.deviceId, standalone.deviceId));
    expect(row?.status).toBe('EXPIRED');
    await expect(connect(standalone)).rejects.toThrow();
  });

  it('an organization without an ACTIVE licence is on a 30-day trial from its creation', async () => {
    const trial = (
      await call(
        'GET',
        `${base(tenants.orgB.id)}/subscriptions/trialExpiration`,
        (
          await rptFor(server, 'acme', tenants.adminB.email, tenants.orgB.resourceId)
        ).rpt,
      )
    ).json();
    expect(trial).toMatchObject({ onTrial: true, expired: true, daysLeft: 0 });
    expect(new Date(trial.trialExpiresAt).getTime() - new Date(trial.trialStartedAt).getTime()).toBe(
      30 * DAY,
    );
  });
});
