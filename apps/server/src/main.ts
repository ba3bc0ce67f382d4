import type { AddressInfo } from 'node:net';
import { buildApp } from './app.ts';
import { everyPeriodOnce } from './cluster/periodic.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/index.ts';
import { demoOrganizationId, startDemoDevices, startDemoDevicesOnOneInstance } from './demo/devices.ts';
import { startDemoPlant } from './demo/plant.ts';
import { loginLine, seedDemo } from './demo/seed.ts';
import {
  INITIALIZE_FLAG,
  initializeAndExit,
  initializeInChildProcess,
  needsFirstStart,
} from './first-start.ts';
import { sweepRateLimitCounters } from './http/rate-limit-store.ts';
import { sweepLoginFailures } from './identity/accounts.ts';
import { sweepExpiredPayloads } from './identity/adapter.ts';
import { deviceBrokerUrl } from './ingest/external-broker.ts';
import { startTelemetryMaintenance } from './telemetry/maintenance.ts';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;
const SHUTDOWN_GRACE_MS = 25_000;

async function main() {
  const config = loadConfig();
  if (process.argv.includes(INITIALIZE_FLAG)) await initializeAndExit(config);
  const firstLogins = needsFirstStart(config) ? await initializeInChildProcess() : [];
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const app = await buildApp({ config, database, logger: { level: config.logLevel } });

  // Instances starting together on one PostgreSQL seed the demo once: the others wait, then find the realm.
  const demoLogins = config.demo
    ? await database.exclusive('demo-seed', () => seedDemo(database.db, app.realms, config))
    : [];
  const logins = [...firstLogins, ...demoLogins];
  // Expired rows are the cluster's, not an instance's: one instance sweeps them each period.
  const stopSweeping = everyPeriodOnce(
    database.db,
    'expired rows',
    SWEEP_INTERVAL_MS,
    async () => {
      await Promise.all([
        sweepExpiredPayloads(database.db),
        sweepLoginFailures(database.db),
        sweepRateLimitCounters(database.db),
      ]);
    },
    (error) => app.log.warn({ error }, 'sweeping expired sessions failed'),
  );

  const stopTelemetryMaintenance = startTelemetryMaintenance(database, config.telemetryRetention, app.log);

  let stopDemoDevices = async () => {};
  let stopDemoPlant = async () => {};
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    app.markShuttingDown();
    stopSweeping();
    stopTelemetryMaintenance();
    await stopDemoDevices();
    await stopDemoPlant();
    // Keep-alive connections become idle as their last response ends; close them then, not at their time-out.
    const reaper = setInterval(() => app.server.closeIdleConnections(), 100);
    setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
    await app.close();
    clearInterval(reaper);
    await database.close();
    app.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const demoOrganization = config.demo ? await demoOrganizationId(database.db) : undefined;
  if (demoOrganization) {
    // The demo gateway's agent reaches this server where it listens (any interface: through loopback).
    const { port } = app.server.address() as AddressInfo;
    const host = ['0.0.0.0', '::'].includes(config.host) ? '127.0.0.1' : config.host;
    stopDemoPlant = await startDemoPlant(
      database.db,
      demoOrganization,
      `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    );
  }
  if (config.mqttUrl) {
    // The demo devices publish to the external broker, from one instance of a cluster.
    if (config.demo)
      stopDemoDevices = startDemoDevicesOnOneInstance(
        database,
        deviceBrokerUrl(config.mqttUrl),
        app.alarms,
        (error) => app.log.warn({ error }, 'demo devices failed'),
      );
  } else if (config.mqttPort > 0) {
    const mqttPort = await app.ingest.listen(config.mqttPort, config.host);
    if (config.demo)
      stopDemoDevices = await startDemoDevices(database.db, `mqtt://127.0.0.1:${mqttPort}`, app.alarms);
  }
  for (const login of logins) console.log(loginLine(login));
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(`Configuration error: ${error.message}`);
  } else {
    console.error(error);
  }
  process.exit(1);
});
