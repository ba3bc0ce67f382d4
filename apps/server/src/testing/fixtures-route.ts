import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import { type Static, Type } from 'typebox';
import type { Clock } from '../clock.ts';
import type { Db } from '../db/index.ts';
import { users as usersTable } from '../db/schema.ts';
import { REALM_NAME_PATTERN, type RealmRegistry } from '../identity/realms.ts';
import { recentMail } from '../mail/outbox.ts';
import type { AlarmEngine } from '../services/alarms/engine.ts';
import { publishAgreement } from '../services/core/agreements/store.ts';
import { registerApp } from '../services/core/apps/service.ts';
import { addToGroupNamed, createDevice, recordStatusHistory } from '../services/core/devices/provisioning.ts';
import { insertInstallation } from '../services/core/organization-apps/store.ts';
import {
  addMember,
  createOrganization,
  createRole,
  createUser,
} from '../services/core/organizations/provisioning.ts';
import { insertIssue } from '../services/core/status/store.ts';
import { seedLicenseKeys } from '../services/license/demo.ts';
import { issueDeviceCredentials } from '../services/license/device-credentials.ts';
import type { LicenseExpiry } from '../services/license/licenses/expiry.ts';
import {
  DeliveryFixture,
  NotificationRuleFixture,
  NotificationSettingsFixture,
  seedNotificationFixtures,
} from '../services/notifications/fixtures.ts';
import { seedTelemetryFixture } from '../services/platform/data/fixtures.ts';
import type { TriggerEngine } from '../services/triggermanager/engine.ts';
import { GatewayFixture, type SeededGateway, seedGateway } from '../services/vpn/fixtures.ts';
import { AlarmRuleFixture, seedAlarmRules } from './alarm-fixtures.ts';
import { DashboardFixture, seedDashboards } from './dashboard-fixtures.ts';
import { LimitsFixture, seedLimits, seedTriggers, TriggerFixture } from './trigger-limit-fixtures.ts';

const FREE_PLAN = { id: 'free', name: 'Free', priceMinor: 0, currency: 'EUR', period: 'MONTH' } as const;

const Permission = Type.Object({ rsname: Type.String(), scopes: Type.Array(Type.String()) });

const TenantFixture = Type.Object({
  realm: Type.String({ pattern: REALM_NAME_PATTERN.source }),
  organizations: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String({ minLength: 1 }),
      parent: Type.Optional(Type.String()),
      iotEnabled: Type.Optional(Type.Boolean()),
      vpnEnabled: Type.Optional(Type.Boolean()),
      /** A dealer organization (issue 8): manages client organizations and their licences. */
      dealer: Type.Optional(Type.Boolean()),
    }),
  ),
  users: Type.Array(
    Type.Object({
      key: Type.String(),
      email: Type.String({ minLength: 3 }),
      password: Type.String({ minLength: 8 }),
      requiredActions: Type.Optional(Type.Array(Type.String())),
      /** A TOTP secret (base32) already enrolled: one-time passwords of remote access (issue 9). */
      totpSecret: Type.Optional(Type.String({ pattern: '^[A-Z2-7]{16,}=*$' })),
      memberships: Type.Array(Type.Object({ org: Type.String(), permissions: Type.Array(Permission) })),
    }),
  ),
  agreements: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal('TERM'), Type.Literal('PRIVACY'), Type.Literal('MAINTENANCE')]),
        title: Type.String(),
        version: Type.String(),
      }),
    ),
  ),
  statusIssues: Type.Optional(
    Type.Array(
      Type.Object({
        type: Type.Union([Type.Literal('incident'), Type.Literal('maintenance')]),
        status: Type.String(),
        title: Type.String(),
      }),
    ),
  ),
  // Store catalogue apps (shared by every realm; registered again with the same id, an app is updated).
  apps: Type.Optional(
    Type.Array(
      Type.Object({
        id: Type.String({ pattern: '^[A-Za-z0-9_.-]{1,80}$' }),
        name: Type.String({ minLength: 1 }),
        entryUrl: Type.String({ minLength: 1 }),
        description: Type.Optional(Type.String()),
        publisher: Type.Optional(Type.String()),
        /** Organizations (keys) that installed the app, on its free plan: only an installed app opens (issue 32). */
        installedIn: Type.Optional(Type.Array(Type.String())),
      }),
    ),
  ),
  // Data exploration: a model, a preset of it, devices bound to the preset and generated values.
  telemetry: Type.Optional(
    Type.Array(
      Type.Object({
        org: Type.String(),
        model: Type.String({ minLength: 1 }),
        paths: Type.Array(
          Type.Object({
            path: Type.String({ pattern: '^(/[A-Za-z0-9_-]+)+$' }),
            type: Type.Union([
              Type.Literal('number'),
              Type.Literal('integer'),
              Type.Literal('boolean'),
              Type.Literal('string'),
            ]),
            unit: Type.Optional(Type.String()),
            writable: Type.Optional(Type.Boolean()),
          }),
        ),
        preset: Type.String({ minLength: 1 }),
        devices: Type.Array(Type.String({ minLength: 1 })),
        points: Type.Integer({ minimum: 0, maximum: 200_000 }),
        intervalMs: Type.Integer({ minimum: 1, maximum: 86_400_000 }),
        // Issue MQTT credentials to the devices (answered once, in telemetryDevices) so a test can publish as them.
        mqttCredentials: Type.Optional(Type.Boolean()),
      }),
    ),
  ),
  // Device licences with the activation keys given (the activation walkthrough).
  deviceLicenses: Type.Optional(
    Type.Array(
      Type.Object({
        org: Type.String(),
        activationKey: Type.String({ pattern: '^EP(-[2-9A-HJKMNP-TV-Z]{4}){3}$' }),
        vpn: Type.Optional(Type.Boolean()),
      }),
    ),
  ),
  // Devices of an organization (the devices table and map): times are relative to now, in minutes.
  devices: Type.Optional(
    Type.Array(
      Type.Object({
        org: Type.String(),
        label: Type.String({ minLength: 1 }),
        alias: Type.Optional(Type.String()),
        serialNumber: Type.Optional(Type.String()),
        description: Type.Optional(Type.String()),
        status: Type.Optional(Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')])),
        tags: Type.Optional(Type.Array(Type.String())),
        latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
        longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
        lastSeenMinutesAgo: Type.Optional(Type.Integer({ minimum: 0 })),
        configuration: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
        groups: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
        statusHistory: Type.Optional(
          Type.Array(
            Type.Object({
              status: Type.Union([Type.Literal('ONLINE'), Type.Literal('OFFLINE')]),
              minutesAgo: Type.Integer({ minimum: 0 }),
            }),
          ),
        ),
      }),
    ),
  ),
  // Notification rules (users by key), deliveries (the failed-notification log) and channel settings.
  notifications: Type.Optional(Type.Array(NotificationRuleFixture)),
  notificationDeliveries: Type.Optional(Type.Array(DeliveryFixture)),
  notificationSettings: Type.Optional(Type.Array(NotificationSettingsFixture)),
  // Organization limits (absent keys: unlimited); trigger rules (devices by label, notification rules by name).
  limits: Type.Optional(Type.Array(LimitsFixture)),
  triggers: Type.Optional(Type.Array(TriggerFixture)),
  // Alarm rules (devices by label); answered as alarmRules: name -> id.
  alarmRules: Type.Optional(Type.Array(AlarmRuleFixture)),
  // Remote-access gateways (issue 9): each a device with an ACTIVE VPN licence, its gateway, LAN, profile, endpoints
  // and applications; answered as gateways: name -> { name, id, deviceId, activationKey, ... }.
  gateways: Type.Optional(Type.Array(GatewayFixture)),
  // Dashboards, flows and widgets (issue 6; owner and shares by user key, placeholders for seeded ids); answered as
  // dashboards: name -> id.
  dashboards: Type.Optional(Type.Array(DashboardFixture)),
});
/** What `POST /test-support/tenants` takes (the browser tests' seed builds on it). */
export type TenantFixture = Static<typeof TenantFixture>;

/**
 * Browser tests seed their own realm through this route, using the same provisioning code as the product. It is
 * mounted only when EDGEPORT_TEST_FIXTURES=true, which nothing but the test setup sets.
 */
export const testFixtureRoutes: FastifyPluginAsyncTypebox<{
  db: Db;
  realms: RealmRegistry;
  /** Told about seeded trigger rules, so that they run. */
  triggers?: TriggerEngine;
  /** Told about seeded alarm rules, so that they evaluate. */
  alarms?: AlarmEngine;
  /** The server's time, which `POST /test-support/clock` moves forward. */
  clock?: Clock;
  /** Swept right after the clock moves, so expiry is settled when the call answers. */
  licenseExpiry?: LicenseExpiry;
}> = async (app, { db, realms, triggers, alarms, clock, licenseExpiry }) => {
  app.post(
    '/test-support/tenants',
    { schema: { hide: true, body: TenantFixture } },
    async (request, reply) => {
      return reply.code(201).send(await seedTenant(db, realms, request.body, triggers, alarms));
    },
  );

  // Moves the server's clock forward (licence terms, app billing) and settles what fell due; `reset` puts it back on
  // the system time, as a browser test that moved it must do before the next test (they share the server).
  app.post(
    '/test-support/clock',
    {
      schema: {
        hide: true,
        body: Type.Union([
          Type.Object({ advanceMs: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
          Type.Object({ reset: Type.Literal(true) }, { additionalProperties: false }),
        ]),
      },
    },
    async (request) => {
      if (!clock) throw new Error('no clock');
      const now = 'reset' in request.body ? clock.reset() : clock.advance(request.body.advanceMs);
      await licenseExpiry?.sweep();
      return { now: now.toISOString() };
    },
  );

  // The newest mails to one address (invitations, password changes), newest first: browser tests follow their links.
  app.get(
    '/test-support/outbox',
    { schema: { hide: true, querystring: Type.Object({ recipient: Type.String({ minLength: 3 }) }) } },
    async (request) =>
      (await recentMail(db, request.query.recipient)).map((mail) => ({
        recipient: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        sentAt: mail.sentAt?.toISOString() ?? null,
        lastError: mail.lastError,
        createdAt: mail.createdAt.toISOString(),
      })),
  );
};

async function seedTenant(
  db: Db,
  realms: RealmRegistry,
  fixture: TenantFixture,
  engine?: TriggerEngine,
  alarmEngine?: AlarmEngine,
) {
  await realms.create(fixture.realm, fixture.realm);
  const organizations: Record<string, { id: string; resourceId: string }> = {};
  for (const org of fixture.organizations) {
    const parentId = org.parent ? organizations[org.parent]?.id : undefined;
    const row = await createOrganization(db, {
      realm: fixture.realm,
      name: org.name,
      parentId: parentId ?? null,
      iotEnabled: org.iotEnabled,
      vpnEnabled: org.vpnEnabled,
      dealer: org.dealer,
      ownsRealm: true,
    });
    organizations[org.key] = { id: row.id, resourceId: row.resourceId };
  }
  const users: Record<string, { id: string; email: string }> = {};
  for (const person of fixture.users) {
    const user = await createUser(db, {
      realm: fixture.realm,
      email: person.email,
      password: person.password,
      requiredActions: person.requiredActions,
    });
    if (person.totpSecret)
      await db.update(usersTable).set({ totpSecret: person.totpSecret }).where(eq(usersTable.id, user.id));
    for (const membership of person.memberships) {
      const org = organizations[membership.org];
      if (!org)
        throw Object.assign(new Error(`memberships.org '${membership.org}' is not a seeded organization`), {
          statusCode: 400,
        });
      const role = await createRole(db, org.id, `${person.key} in ${membership.org}`, membership.permissions);
      await addMember(db, org.id, user.id, [role.id]);
    }
    users[person.key] = { id: user.id, email: user.email };
  }
  for (const agreement of fixture.agreements ?? []) {
    await publishAgreement(db, { realm: fixture.realm, serviceName: 'portal', url: '', ...agreement });
  }
  for (const issue of fixture.statusIssues ?? []) {
    await insertIssue(db, fixture.realm, { ...issue, date: new Date() });
  }
  for (const licence of fixture.deviceLicenses ?? []) {
    const org = organizations[licence.org];
    if (!org)
      throw Object.assign(new Error(`deviceLicenses.org '${licence.org}' is not a seeded organization`), {
        statusCode: 400,
      });
    await seedLicenseKeys(db, org.id, [licence.activationKey], { vpn: licence.vpn });
  }
  for (const { installedIn = [], ...app } of fixture.apps ?? []) {
    const registered = await registerApp(db, installedIn.length > 0 ? { ...app, plans: [FREE_PLAN] } : app);
    for (const key of installedIn) {
      const org = organizations[key];
      if (!org)
        throw Object.assign(new Error(`apps.installedIn '${key}' is not a seeded organization`), {
          statusCode: 400,
        });
      await insertInstallation(db, {
        organizationId: org.id,
        appId: registered.id,
        plan: FREE_PLAN.id,
        version: registered.version,
        status: 'ACTIVE',
      });
    }
  }
  const telemetryDevices: Record<string, { id: string; password?: string }> = {};
  for (const data of fixture.telemetry ?? []) {
    const org = organizations[data.org];
    if (!org)
      throw Object.assign(new Error(`telemetry.org '${data.org}' is not a seeded organization`), {
        statusCode: 400,
      });
    const seeded = (await seedTelemetryFixture(db, org.id, data)).devices;
    for (const [label, device] of Object.entries(seeded)) {
      const password = data.mqttCredentials
        ? (await issueDeviceCredentials(db, device.id)).password
        : undefined;
      telemetryDevices[label] = { ...device, ...(password ? { password } : {}) };
    }
  }
  const seededDevices: Record<string, string> = {};
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  for (const device of fixture.devices ?? []) {
    const org = organizations[device.org];
    if (!org)
      throw Object.assign(new Error(`devices.org '${device.org}' is not a seeded organization`), {
        statusCode: 400,
      });
    const { org: _org, label, groups, statusHistory, lastSeenMinutesAgo, ...extra } = device;
    const row = await createDevice(db, org.id, label, {
      ...extra,
      lastSeenAt: lastSeenMinutesAgo === undefined ? null : minutesAgo(lastSeenMinutesAgo),
    });
    for (const group of groups ?? []) await addToGroupNamed(db, org.id, row.id, group);
    await recordStatusHistory(
      db,
      row.id,
      (statusHistory ?? []).map((change) => ({ status: change.status, at: minutesAgo(change.minutesAgo) })),
    );
    seededDevices[label] = row.id;
  }
  const notified = await seedNotificationFixtures(db, fixture, organizations, users);
  await seedLimits(db, organizations, fixture.limits ?? []);
  const triggers = await seedTriggers(db, organizations, fixture.triggers ?? []);
  for (const organizationId of triggers.organizationIds) await engine?.rulesChanged(organizationId);
  const alarmRuleIds = await seedAlarmRules(db, organizations, fixture.alarmRules ?? [], alarmEngine);
  const gateways: Record<string, SeededGateway> = {};
  for (const { org: key, ...seed } of fixture.gateways ?? []) {
    const org = key === undefined ? Object.values(organizations)[0] : organizations[key];
    if (!org)
      throw Object.assign(new Error(`gateways.org '${key ?? ''}' is not a seeded organization`), {
        statusCode: 400,
      });
    gateways[seed.name] = await seedGateway(db, org.id, seed);
  }
  const dashboards = await seedDashboards(db, organizations, users, fixture.dashboards ?? []);
  return {
    realm: fixture.realm,
    organizations,
    users,
    dashboards,
    telemetryDevices,
    devices: seededDevices,
    notifications: notified.notifications,
    notificationDeliveries: notified.deliveries,
    triggers: triggers.ids,
    alarmRules: alarmRuleIds,
    gateways,
  };
}
