import { randomBytes } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { TenantFixture as ServerFixture } from '../../../server/src/testing/fixtures-route.ts';
import { e2ePort, realmOrigin } from './environment.ts';

export type Permission = { rsname: string; scopes: string[] };

/**
 * A tenant to seed: the server's fixture (organizations, users, and the optional devices, telemetry, licences, apps,
 * agreements, status notices), with the realm and the users' e-mail and password made up when left out.
 */
export type TenantFixture = Omit<ServerFixture, 'realm' | 'users'> & {
  realm?: string;
  users: (Omit<ServerFixture['users'][number], 'email' | 'password'> & {
    email?: string;
    password?: string;
  })[];
};

export type SeededUser = { id: string; email: string; password: string };

export type Tenant = {
  realm: string;
  /** `http://{realm}.app.localhost:{port}` */
  origin: string;
  organizations: Record<string, { id: string; resourceId: string }>;
  users: Record<string, SeededUser>;
  /** Devices of the optional `telemetry` fixture field, with their MQTT secret when `mqttCredentials` was asked. */
  telemetryDevices: Record<string, { id: string; password?: string }>;
  /** Gateways of the optional `gateways` fixture field (issue 9), by name, with their VPN activation key. */
  gateways: Record<string, { name: string; id: string; deviceId: string; activationKey: string }>;
  /** Dashboards, flows and widgets of the optional `dashboards` fixture field (issue 6), by name. */
  dashboards: Record<string, string>;
};

/** A realm name nobody else uses: every test gets its own tenant. */
export function uniqueRealm(prefix = 'e2e'): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

/** Spec 6: every screen needs ACCESS on portal. */
export const PORTAL_ACCESS: Permission = { rsname: 'portal', scopes: ['ACCESS'] };

/** Seeds a realm with its organizations, users (with permissions) and optional agreements and status notices. */
export async function seedTenant(request: APIRequestContext, fixture: TenantFixture): Promise<Tenant> {
  const realm = fixture.realm ?? uniqueRealm();
  const users = fixture.users.map((user) => ({
    ...user,
    email: user.email ?? `${user.key}@${realm}.test`,
    password: user.password ?? `pw-${randomBytes(6).toString('hex')}`,
  }));
  const response = await request.post(`http://127.0.0.1:${e2ePort()}/test-support/tenants`, {
    data: { ...fixture, realm, users },
  });
  if (response.status() !== 201) {
    throw new Error(`seeding ${realm} failed: ${response.status()} ${await response.text()}`);
  }
  const body = (await response.json()) as {
    organizations: Tenant['organizations'];
    users: Record<string, { id: string; email: string }>;
    telemetryDevices?: Tenant['telemetryDevices'];
    gateways?: Tenant['gateways'];
    dashboards?: Tenant['dashboards'];
  };
  return {
    realm,
    origin: realmOrigin(realm),
    organizations: body.organizations,
    telemetryDevices: body.telemetryDevices ?? {},
    gateways: body.gateways ?? {},
    dashboards: body.dashboards ?? {},
    users: Object.fromEntries(
      users.map((user) => {
        const seeded = body.users[user.key];
        if (!seeded) throw new Error(`the server did not seed ${user.key}`);
        return [user.key, { ...seeded, password: user.password }];
      }),
    ),
  };
}

export function userOf(tenant: Tenant, key: string): SeededUser {
  const user = tenant.users[key];
  if (!user) throw new Error(`no seeded user ${key}`);
  return user;
}

export function organizationOf(tenant: Tenant, key: string): { id: string; resourceId: string } {
  const organization = tenant.organizations[key];
  if (!organization) throw new Error(`no seeded organization ${key}`);
  return organization;
}
