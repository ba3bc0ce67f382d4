/**
 * What the cluster benchmarks share: a fresh database on the benchmark's PostgreSQL, counters read from it, and a
 * cluster of real server processes on Debian's Mosquitto with its dynamic-security plugin.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startDynsecMosquitto } from '../../apps/server/test/ingest/dynsec-mosquitto.ts';
import {
  type ProvisionedDevice,
  provisionDataDir,
  type ServerProcess,
  startServerProcess,
} from '../../apps/server/test/support/server-process.ts';

/** A fresh database on the PostgreSQL server at `serverUrl`; its URL. */
export async function freshDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name}`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Telemetry rows (one per stored message) and the PostgreSQL backends serving the database. */
export class Store {
  private readonly client: pg.Client;
  private readonly name: string;
  constructor(url: string) {
    this.client = new pg.Client({ connectionString: url });
    this.name = new URL(url).pathname.slice(1);
  }
  connect = () => this.client.connect();
  close = () => this.client.end();
  async rows(): Promise<number> {
    const result = await this.client.query<{ rows: number }>('SELECT count(*)::int AS rows FROM telemetry');
    return result.rows[0]?.rows ?? 0;
  }
  /** Transactions committed in the database so far (statistics PostgreSQL reports about once a second). */
  async commits(): Promise<number> {
    const result = await this.client.query<{ commits: string }>(
      'SELECT xact_commit AS commits FROM pg_stat_database WHERE datname = current_database()',
    );
    return Number(result.rows[0]?.commits ?? 0);
  }
  /** Alarms a rule raised (each row is one crossing). */
  async alarmsOf(ruleId: string): Promise<number> {
    const result = await this.client.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM alarms WHERE rule_id = $1',
      [ruleId],
    );
    return result.rows[0]?.n ?? 0;
  }
  async backends(): Promise<number[]> {
    const result = await this.client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [this.name],
    );
    return result.rows.map((row) => row.pid);
  }
}

export async function stopServers(servers: ServerProcess[]): Promise<void> {
  for (const server of servers) server.child.kill('SIGTERM');
  await Promise.all(servers.map((server) => server.exited));
}

export type BenchCluster = {
  servers: ServerProcess[];
  store: Store;
  /** Where the devices publish. */
  brokerUrl: string;
  devices: ProvisionedDevice[];
  apiKey: string;
  organizationId: string;
  stop(): Promise<void>;
};

/**
 * `instances` servers (`MQTT_URL` = a dynamic-security admin of a fresh Mosquitto, `MQTT_DYNSEC=true`, their own
 * INSTANCE_ID and data directory) on a fresh database holding `devices` provisioned devices in realm `realm`.
 */
export async function startBenchCluster(options: {
  serverUrl: string;
  database: string;
  instances: number;
  devices: number;
  realm: string;
  env?: Record<string, string>;
  onLogLine?: (instance: number, line: string) => void;
}): Promise<BenchCluster> {
  const databaseUrl = await freshDatabase(options.serverUrl, options.database);
  const dirs = Array.from({ length: options.instances }, () =>
    mkdtempSync(path.join(os.tmpdir(), 'bench-cluster-')),
  );
  const mosquitto = await startDynsecMosquitto();
  const store = new Store(databaseUrl);
  const servers: ServerProcess[] = [];
  const stop = async () => {
    await stopServers(servers);
    await store.close().catch(() => undefined);
    await mosquitto.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const provisioned = await provisionDataDir(
      dirs[0] as string,
      options.devices,
      options.realm,
      databaseUrl,
    );
    for (const [index, dir] of dirs.entries()) {
      const onLogLine = options.onLogLine;
      servers.push(
        await startServerProcess(
          dir,
          {
            DATABASE_URL: databaseUrl,
            MQTT_URL: mosquitto.adminUrl,
            MQTT_DYNSEC: 'true',
            MQTT_PORT: '0',
            INSTANCE_ID: `${options.database}-${index}`,
            ...options.env,
          },
          onLogLine && ((line) => onLogLine(index, line)),
        ),
      );
    }
    await store.connect();
    return { servers, store, brokerUrl: mosquitto.url, ...provisioned, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
