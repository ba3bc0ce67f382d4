import { expect, type Page } from '@playwright/test';
import { type Permission, PORTAL_ACCESS, type TenantFixture } from '../support/seed.ts';

/** The devices part of the fixture (apps/server/src/testing/fixtures-route.ts). */
export type DeviceFixture = { devices: NonNullable<TenantFixture['devices']> };

/** Everything on devices and device groups, and READ models (the device map needs it). */
export const DEVICE_ADMIN: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ', 'UPDATE', 'DELETE', 'CREATE'] },
  { rsname: 'devicegroups', scopes: ['READ', 'CREATE', 'UPDATE', 'DELETE'] },
  { rsname: 'models', scopes: ['READ'] },
];

/** Looks, changes nothing. */
export const DEVICE_READER: Permission[] = [
  PORTAL_ACCESS,
  { rsname: 'devices', scopes: ['READ'] },
  { rsname: 'models', scopes: ['READ'] },
];

/** `dev-001` ... : every third ONLINE, odd ones tagged `hall-a`, the first ones placed on a map. */
export function numberedDevices(count: number): DeviceFixture['devices'] {
  return Array.from({ length: count }, (_, index) => {
    const number = index + 1;
    const label = `dev-${String(number).padStart(3, '0')}`;
    return {
      org: 'org',
      label,
      serialNumber: `SN-${1000 + number}`,
      description: `Press line ${number}`,
      status: number % 3 === 0 ? 'ONLINE' : 'OFFLINE',
      tags: number % 2 === 1 ? ['hall-a'] : ['hall-b'],
      lastSeenMinutesAgo: number,
    };
  });
}

export function plant(devices: DeviceFixture['devices']): TenantFixture & DeviceFixture {
  return {
    organizations: [{ key: 'org', name: 'Press plant', iotEnabled: true }],
    users: [
      { key: 'admin', memberships: [{ org: 'org', permissions: DEVICE_ADMIN }] },
      { key: 'reader', memberships: [{ org: 'org', permissions: DEVICE_READER }] },
    ],
    devices,
  };
}

export function devicesTable(page: Page) {
  return page.getByRole('table', { name: 'Devices of the organization' });
}

export function deviceRow(page: Page, label: string) {
  return devicesTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: `Open ${label}` }) });
}

/** The hash query of the page (`#/devices?device=x` -> {device: 'x'}). */
export function hashQuery(page: Page): URLSearchParams {
  return new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');
}

export async function expectTotal(page: Page, total: number) {
  await expect(page.getByText(total === 1 ? '1 entry' : `${total} entries`, { exact: true })).toBeVisible();
}
