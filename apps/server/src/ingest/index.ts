import { createServer, type Server } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Aedes } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import mqttPacket from 'mqtt-packet';
import type { Db, Exclusive } from '../db/index.ts';
import { markStoppedCleanly, repairAfterCrash } from '../telemetry/rollup-accumulator.ts';
import { createBroker } from './broker.ts';
import { ConnectionTracker } from './connections.ts';
import { DeviceEvents } from './events.ts';
import { connectExternalBroker, type ExternalBroker } from './external-broker.ts';
import type { LiveRelay } from './live-relay.ts';
import type { DataValue } from './payload.ts';
import { IngestPipeline } from './pipeline.ts';
import * as store from './store.ts';
import { setpointTopic } from './topics.ts';

/** Latest values are written through, counters and tags added, this often. */
const HOT_FLUSH_MS = 1_000;
/** The name of the one instance of an installation without a cluster (embedded broker, no INSTANCE_ID). */
const EMBEDDED_INSTANCE = 'embedded';

export type Setpoint = { id: string; tag: string; path: string; value: DataValue };
export type LatestValue = { path: string; value: DataValue; ts: number };

/** Device data in: the MQTT broker, the telemetry pipeline, connection status and the events the live feed sends. */
export type Ingest = {
  events: DeviceEvents;
  pipeline: IngestPipeline;
  connections: ConnectionTracker;
  /** The embedded broker; undefined when device data comes from an external broker (MQTT_URL). */
  broker: Aedes | undefined;
  /**
   * With an external broker: live events to and from the other instances (the live feed shows what they produced
   * too). Undefined with the embedded broker, whose one process produces every event itself.
   */
  relay: LiveRelay | undefined;
  /**
   * Starts consuming the external broker: call once the alarm, trigger and notification engines listen to `events`
   * (what waited in this instance's sessions arrives at once). With the embedded broker: does nothing.
   */
  start(): Promise<void>;
  /** Serves MQTT on a TCP port (0 picks a free one); answers the port. With an external broker: does nothing. */
  listen(port: number, host?: string): Promise<number>;
  /** Serves one MQTT connection over an already open stream (MQTT over WebSocket). */
  handle(stream: Duplex): void;
  /** Publishes a set-point to the device (QoS 1); resolves when the broker took it. */
  sendSetpoint(deviceId: string, setpoint: Setpoint): Promise<void>;
  latestValues(deviceId: string): Promise<LatestValue[]>;
  /** Writes everything pending (telemetry batches, latest values, counters). */
  flush(): Promise<void>;
  close(): Promise<void>;
};

export type IngestOptions = {
  /** MQTT_MAX_PACKET_BYTES, the largest packet the embedded broker accepts. */
  maxPacketBytes: number;
  /** MQTT_DYNSEC: the external broker's device clients are managed through its dynamic-security API. */
  dynsec?: boolean;
  /** This instance's fixed name (`instanceIdOf`): an external broker's consumer sessions are named after it. */
  instanceId?: string;
  /** Work no other instance runs at the same time (Database.exclusive): the broker's one-time set-up. */
  exclusive?: Exclusive;
};

export async function createIngest(
  db: Db,
  log: FastifyBaseLogger,
  mqttUrl: string | undefined,
  { maxPacketBytes, dynsec = false, instanceId, exclusive = (_name, work) => work() }: IngestOptions,
): Promise<Ingest> {
  // mqtt-packet (under aedes and mqtt.js alike) otherwise makes a two-byte Buffer for each of the 65,536 numbers on
  // the first packet it writes and keeps them for good: about 9 MB of the server's idle heap, to save one small
  // allocation per packet.
  mqttPacket.writeToStream.cacheNumbers = false;
  const events = new DeviceEvents();
  // What a crash of this instance's last run kept from the rollups is computed again before anything is stored.
  const instance = instanceId ?? EMBEDDED_INSTANCE;
  const repaired = await repairAfterCrash(db, instance);
  if (repaired)
    log.warn(repaired, 'the last run stopped without flushing: rollups computed again around its end');
  const pipeline = new IngestPipeline(db, events, log, instance);
  const connections = new ConnectionTracker(db, events, log);
  let broker: Aedes | undefined;
  let external: ExternalBroker | undefined;
  if (mqttUrl) {
    if (!instanceId) throw new Error('consuming an external broker needs the instance id');
    external = await connectExternalBroker({
      url: mqttUrl,
      instanceId,
      dynsec,
      db,
      exclusive,
      events,
      pipeline,
      connections,
      log,
    });
  } else {
    // Nobody is connected to a broker that is only starting: what a previous run left ONLINE is stale.
    await store.markAllOffline(db, 'server restarted');
    broker = await createBroker({ db, pipeline, connections, log, maxPacketBytes });
  }
  let tcp: Server | undefined;

  const flushHot = () => pipeline.flushHot().catch((error: unknown) => log.warn({ error }, 'flush failed'));
  const timer = setInterval(flushHot, HOT_FLUSH_MS);
  timer.unref();

  return {
    events,
    pipeline,
    connections,
    broker,
    relay: external?.relay,
    start: () => external?.start() ?? Promise.resolve(),
    listen(port, host) {
      const embedded = broker;
      if (!embedded) return Promise.resolve(0);
      return new Promise((resolve, reject) => {
        // Acknowledgements are tiny writes: without TCP_NODELAY, Nagle and delayed ACKs hold each one back ~40 ms.
        tcp = createServer({ noDelay: true }, embedded.handle);
        tcp.once('error', reject);
        tcp.listen(port, host, () => {
          const address = tcp?.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    },
    handle(stream) {
      if (broker) broker.handle(stream);
      else stream.destroy();
    },
    sendSetpoint(deviceId, setpoint) {
      if (external) return external.publish(setpointTopic(deviceId), JSON.stringify(setpoint));
      const embedded = broker;
      if (!embedded) return Promise.reject(new Error('no broker'));
      return new Promise((resolve, reject) => {
        embedded.publish(
          {
            cmd: 'publish',
            topic: setpointTopic(deviceId),
            payload: Buffer.from(JSON.stringify(setpoint)),
            qos: 1,
            retain: false,
            dup: false,
          },
          (error) => (error ? reject(error) : resolve()),
        );
      });
    },
    async latestValues(deviceId) {
      const merged = new Map<string, LatestValue>();
      for (const row of await store.latestValuesStored(db, deviceId)) merged.set(row.path, row);
      for (const [path, latest] of pipeline.hot.latestOf(deviceId)) {
        const stored = merged.get(path);
        if (!stored || stored.ts <= latest.ts) merged.set(path, { path, ...latest });
      }
      return [...merged.values()].sort((a, b) => a.path.localeCompare(b.path));
    },
    flush: () => pipeline.flush(),
    async close() {
      clearInterval(timer);
      await new Promise<void>((resolve) => (tcp ? tcp.close(() => resolve()) : resolve()));
      await external?.close();
      await new Promise<void>((resolve) => (broker ? broker.close(() => resolve()) : resolve()));
      const flushed = await pipeline.flush().then(
        () => true,
        (error: unknown) => {
          log.warn({ error }, 'final flush failed');
          return false;
        },
      );
      if (flushed) await markStoppedCleanly(db, instance);
      await connections.settled();
    },
  };
}
