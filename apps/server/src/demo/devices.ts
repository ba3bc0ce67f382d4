import { Fleet, PACKAGING_LINE_TAGS } from '@edgeport/device-sim';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
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

export async function demoOrganizationId(db: Db): Promise<string | undefined> {
  const [org] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(and(eq(organizations.realm, DEMO_REALM), eq(organizations.resourceId, DEMO_ORGANIZATION)));
  return org?.id;
}

/** The demo model and preset, the demo devices bound to it, and spare activation keys for the walkthrough (once). */
async function ensureDemoDevices(db: Db, organizationId: string) {
  const { presetId } = await seedDemoModel(db, organizationId);
  const existing = await db.select().from(devices).where(eq(devices.organizationId, organizationId));
  if (existing.length === 0) await seedDemoLicenses(db, organizationId, DEMO_ACTIVATION_KEYS);
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
 * `npm start` with the demo on: the demo organization's packaging lines connect to the embedded broker as real MQTT
 * clients and publish every second, so a newcomer sees live values at once. Their secrets are issued afresh on each
 * start (only hashes are stored); the demo alarm rules watch them. Answers the function that stops them.
 */
export async function startDemoDevices(
  db: Db,
  mqttPort: number,
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
    url: `mqtt://127.0.0.1:${mqttPort}`,
    devices: credentials,
    tags: PACKAGING_LINE_TAGS,
    rate: DEMO_RATE,
    qos: 1,
  });
  return () => fleet.stop();
}
