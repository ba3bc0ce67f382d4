import { Fleet, PACKAGING_LINE_TAGS } from '@edgeport/device-sim';
import { and, eq, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/index.ts';
import { devices, organizations } from '../db/schema.ts';
import { seedDemoAlarmRules } from '../services/alarms/demo.ts';
import type { AlarmEngine } from '../services/alarms/engine.ts';
import { createDevice } from '../services/core/devices/provisioning.ts';
import { seedDemoLicenses } from '../services/license/demo.ts';
import { issueDeviceCredentials } from '../services/license/device-credentials.ts';
import { seedDemoModel } from '../services/mappings/demo.ts';
import { seedDemoDashboards } from './dashboards.ts';
import { DEMO_ORGANIZATION, DEMO_REALM } from './seed.ts';

/** Six packaging lines around the demo plant in Eindhoven, so the device map has something to show. */
const DEMO_DEVICES = [
  { label: 'Packaging line 1', serialNumber: 'PL-2024-0001', latitude: 51.4416, longitude: 5.4697 },
  { label: 'Packaging line 2', serialNumber: 'PL-2024-0002', latitude: 51.4432, longitude: 5.4781 },
  { label: 'Packaging line 3', serialNumber: 'PL-2024-0003', latitude: 51.4389, longitude: 5.4623 },
  { label: 'Filling station', serialNumber: 'FS-2023-0107', latitude: 51.4501, longitude: 5.4902 },
  { label: 'Palletizer Veldhoven', serialNumber: 'PZ-2022-0042', latitude: 51.4182, longitude: 5.4042 },
  { label: 'Wrapper Helmond', serialNumber: 'WR-2021-0313', latitude: 51.4793, longitude: 5.657 },
];
const DEMO_ACTIVATION_KEYS = 5;
/** One message a second per device: enough to watch values move, light on a laptop. */
const DEMO_RATE = 1;
/** How often an instance of a cluster checks whether the one running the demo devices is gone. */
const TAKE_OVER_EVERY_MS = 15_000;

export async function demoOrganizationId(db: Db): Promise<string | undefined> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.realm, DEMO_REALM), eq(organizations.resourceId, DEMO_ORGANIZATION)));
  return org?.id;
}

/**
 * The demo model and preset, the demo devices bound to it, and spare activation keys for the walkthrough: with the
 * first of the demo devices (the organization has the plant gateway's device before, so its being empty is no sign).
 */
export async function ensureDemoDevices(db: Db, organizationId: string) {
  const { presetId } = await seedDemoModel(db, organizationId);
  const existing = await db.select().from(devices).where(eq(devices.organizationId, organizationId));
  const firstTime = !existing.some((row) => DEMO_DEVICES.some((demo) => demo.label === row.label));
  if (firstTime) await seedDemoLicenses(db, organizationId, DEMO_ACTIVATION_KEYS);
  const ids: string[] = [];
  for (const demo of DEMO_DEVICES) {
    let device = existing.find((row) => row.label === demo.label);
    if (!device) {
      device = await createDevice(db, organizationId, demo.label, { serialNumber: demo.serialNumber });
      await db
        .update(devices)
        .set({ presetId, latitude: demo.latitude, longitude: demo.longitude })
        .where(eq(devices.id, device.id));
    }
    ids.push(device.id);
  }
  return ids;
}

/**
 * `npm start` with the demo on: the demo organization's packaging lines connect to the broker at `url` (the embedded
 * one, or the external one of MQTT_URL) as real MQTT clients and publish every second, so a newcomer sees live values
 * at once. Their secrets are issued afresh on each start (only hashes are stored); the demo alarm rules watch them.
 * Answers the function that stops them.
 */
export async function startDemoDevices(
  db: Db,
  url: string,
  alarms: AlarmEngine,
): Promise<() => Promise<void>> {
  const organizationId = await demoOrganizationId(db);
  if (!organizationId) return async () => {};
  const ids = await ensureDemoDevices(db, organizationId);
  const { modelId } = await seedDemoModel(db, organizationId);
  await seedDemoDashboards(db, { organizationId, modelId, lines: ids });
  if (await seedDemoAlarmRules(db, organizationId)) await alarms.rulesChanged(organizationId);
  const credentials = [];
  for (const deviceId of ids)
    credentials.push({ deviceId, password: (await issueDeviceCredentials(db, deviceId)).password });
  const fleet = new Fleet({
    url,
    devices: credentials,
    tags: PACKAGING_LINE_TAGS,
    rate: DEMO_RATE,
    qos: 1,
  });
  return () => fleet.stop();
}

/**
 * The demo devices of a cluster, on one instance only: devices have one client id each, so two instances running
 * them would push each other off the broker. On PostgreSQL the instance holding a transaction-level advisory lock
 * runs them for as long as it lives; the others try again every few seconds and take over when it is gone (its
 * connection, and with it the lock, ends). PGlite is one process's own: it just runs them. Answers the function that
 * stops them (or the waiting).
 */
export function startDemoDevicesOnOneInstance(
  database: Database,
  url: string,
  alarms: AlarmEngine,
  onError: (error: unknown) => void,
): () => Promise<void> {
  if (database.kind === 'pglite') {
    const started = startDemoDevices(database.db, url, alarms);
    return async () => (await started)();
  }
  let stop: () => void = () => {};
  const stopped = new Promise<void>((resolve) => {
    stop = resolve;
  });
  let ending = false;
  let holding: Promise<void> = Promise.resolve();
  const attempt = () =>
    database.db.transaction(async (tx) => {
      const result = await tx.execute(
        sql`select pg_try_advisory_xact_lock(hashtext('edgeport:demo-devices')) as locked`,
      );
      const rows = (result as unknown as { rows: { locked: boolean }[] }).rows;
      if (ending || !rows[0]?.locked) return;
      clearInterval(retry);
      const stopDevices = await startDemoDevices(database.db, url, alarms);
      await stopped;
      await stopDevices();
    });
  const tryNow = () => {
    holding = holding.then(attempt).catch(onError);
  };
  const retry = setInterval(tryNow, TAKE_OVER_EVERY_MS);
  retry.unref();
  tryNow();
  return async () => {
    ending = true;
    clearInterval(retry);
    stop();
    await holding;
  };
}
