import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../../src/db/index.ts';
import {
  apiKeys,
  devices,
  type ModelPath,
  models,
  modelVersions,
  type PresetMapping,
  presets,
  realms,
} from '../../src/db/schema.ts';
import { hashApiKey, newApiKeySecret } from '../../src/services/core/api-keys/authentication.ts';
import { createDevice } from '../../src/services/core/devices/provisioning.ts';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../../src/services/core/organizations/provisioning.ts';
import { issueDeviceCredentials } from '../../src/services/license/device-credentials.ts';
import { TEST_MAPPINGS, TEST_PATHS } from './devices.ts';

const MAIN = path.join(import.meta.dirname, '../../src/main.ts');

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export type ServerProcess = {
  child: ChildProcess;
  httpPort: number;
  mqttPort: number;
  exited: Promise<unknown>;
};

/**
 * The real server (`node src/main.ts`) in its own process on a PGlite data directory, once /readyz answers. `onLogLine`
 * gets each line the server logs (JSON, from LOG_LEVEL warn up); without it the log is dropped.
 */
export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
  onLogLine?: (line: string) => void,
): Promise<ServerProcess> {
  const [httpPort, mqttPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      PORT: String(httpPort),
      MQTT_PORT: String(mqttPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      EDGEPORT_DEMO: 'false',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', onLogLine ? 'pipe' : 'ignore', 'inherit'],
  });
  if (onLogLine && child.stdout) createInterface({ input: child.stdout }).on('line', onLogLine);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let attempt = 0; attempt < 600; attempt++) {
    const ready = await fetch(`http://127.0.0.1:${httpPort}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return { child, httpPort, mqttPort, exited };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('server did not start');
}

export type ProvisionedDevice = { deviceId: string; password: string };

/** The test preset plus the tags the benchmarks' devices publish (device-sim's BENCH_TAGS), so all of them are stored. */
const BENCH_PATHS: ModelPath[] = [
  ...TEST_PATHS,
  { path: '/motor/current', type: 'number', unit: 'A' },
  { path: '/tank/level', type: 'number', unit: '%' },
];
const BENCH_MAPPINGS: PresetMapping[] = [
  ...TEST_MAPPINGS,
  { tag: 'MotorCurrent', path: '/motor/current' },
  { tag: 'TankLevel', path: '/tank/level' },
];

/**
 * A realm, an organization with an administrator and their personal API key (usable as a bearer credential and on
 * the live feed), the test preset and `count` activated devices, written into a data directory.
 */
export async function provisionDataDir(
  dataDir: string,
  count: number,
  realm = 'bench',
  databaseUrl?: string,
) {
  const database = await openDatabase({ dataDir, databaseUrl });
  const { db } = database;
  try {
    await db.insert(realms).values({ name: realm, displayName: realm });
    const org = await createOrganization(db, {
      realm,
      name: `${realm} organization`,
      resourceId: `${realm}-org`,
      ownsRealm: true,
    });
    const [model] = await db.insert(models).values({ organizationId: org.id, name: 'Machine' }).returning();
    if (!model) throw new Error('model insert returned nothing');
    await db.insert(modelVersions).values({ modelId: model.id, version: 1, paths: BENCH_PATHS });
    const [preset] = await db
      .insert(presets)
      .values({
        organizationId: org.id,
        name: 'Machine PLC',
        modelId: model.id,
        modelVersion: 1,
        mappings: BENCH_MAPPINGS,
      })
      .returning();
    const roles = await addDefaultRoles(db, org.id);
    const admin = await createUser(db, {
      realm,
      email: `admin@${realm}.test`,
      password: 'correct horse battery',
    });
    await addMember(db, org.id, admin.id, [roles.administrator.id]);
    const apiKey = newApiKeySecret();
    await db.insert(apiKeys).values({
      userId: admin.id,
      organizationId: org.id,
      name: 'bench',
      prefix: apiKey.slice(0, 10),
      secretHash: hashApiKey(apiKey),
    });
    const provisioned: ProvisionedDevice[] = [];
    for (let i = 0; i < count; i++) {
      const device = await createDevice(db, org.id, `Device ${i + 1}`);
      await db.update(devices).set({ presetId: preset?.id }).where(eq(devices.id, device.id));
      const credentials = await issueDeviceCredentials(db, device.id);
      provisioned.push({ deviceId: device.id, password: credentials.password });
    }
    return { organizationId: org.id, apiKey, devices: provisioned };
  } finally {
    await database.close();
  }
}
