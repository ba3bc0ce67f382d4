import { randomBytes } from 'node:crypto';
import { type APIRequestContext, expect, type Frame, type FrameLocator, type Page } from '@playwright/test';
import { e2ePort } from '../support/environment.ts';
import {
  type Permission,
  PORTAL_ACCESS,
  seedTenant,
  type Tenant,
  type TenantFixture,
} from '../support/seed.ts';

export { PORTAL_ROUTES } from '../../../../packages/bridge/src/portal-routes.ts';
/** Spec 2's page identifiers and the portal routes they lead to (the bridge package's table). */
export { PAGE_IDS } from '../../../../packages/bridge/src/protocol.ts';

/** Every `*.localhost` name reaches the test server: the app, the host page and the probe get origins of their own. */
export function originOf(name: 'apps' | 'host' | 'evil'): string {
  return `http://${name}.localhost:${e2ePort()}`;
}

export const SAMPLE_APP = () => `${originOf('apps')}/samples/bridge-app/`;
export const PROBE = () => `${originOf('evil')}/samples/bridge-probe/`;

/** Sees every screen the page identifiers lead to (store for the container, users for the menu). */
const EVERYTHING: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'organizations', scopes: ['READ'] },
  { rsname: 'users', scopes: ['READ'] },
  { rsname: 'usergroups', scopes: ['READ'] },
  { rsname: 'roles', scopes: ['READ'] },
  { rsname: 'devices', scopes: ['READ', 'CREATE'] },
  { rsname: 'models', scopes: ['READ'] },
  { rsname: 'audit', scopes: ['ACCESS'] },
];

export type BridgeTenant = Tenant & { appId: string; orgId: string; resourceId: string };

/**
 * A realm with one organization, an administrator, and the sample app in the store catalogue (its own id), installed
 * in the organization (only an installed app opens in the container).
 */
export async function seedBridgeTenant(request: APIRequestContext): Promise<BridgeTenant> {
  const appId = `bridge-${randomBytes(4).toString('hex')}`;
  const fixture: TenantFixture = {
    organizations: [{ key: 'org', name: 'Bridge works', iotEnabled: true, vpnEnabled: true }],
    users: [{ key: 'admin', memberships: [{ org: 'org', permissions: EVERYTHING }] }],
    apps: [
      {
        id: appId,
        name: 'Bridge sample app',
        entryUrl: SAMPLE_APP(),
        publisher: 'Edgeport',
        installedIn: ['org'],
      },
    ],
  };
  const tenant = await seedTenant(request, fixture);
  const org = tenant.organizations.org;
  if (!org) throw new Error('no organization seeded');
  return { ...tenant, appId, orgId: org.id, resourceId: org.resourceId };
}

/** The sample app inside the portal's container. */
export function appFrame(page: Page): FrameLocator {
  return page.frameLocator('[data-testid="app-frame"]');
}

/** The frame (not the locator) of an origin, for evaluate(). */
export async function frameOf(page: Page, origin: string): Promise<Frame> {
  let found: Frame | undefined;
  await expect
    .poll(() => {
      found = page.frames().find((frame) => frame.url().startsWith(origin));
      return found !== undefined;
    })
    .toBe(true);
  return found as Frame;
}

/** Waits until the sample app (in `frame`) says it is connected to `hostOrigin`. */
export async function expectConnected(frame: FrameLocator, hostOrigin: string): Promise<void> {
  await expect(frame.locator('#status')).toHaveText(`Connected to ${hostOrigin}`);
}

export function contextField(frame: FrameLocator, name: string) {
  return frame.locator(`dd[data-field="${name}"]`);
}

/** The `appHref` of the portal's hash query. */
export function appHrefOf(page: Page): string | null {
  const hash = new URL(page.url()).hash;
  return new URLSearchParams(hash.split('?')[1] ?? '').get('appHref');
}
