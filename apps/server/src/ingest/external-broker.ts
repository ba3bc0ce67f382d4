import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { INSTANCE_ID_PATTERN } from '../config.ts';
import type { Db, Exclusive } from '../db/index.ts';
import { BrokerDevices, ensureServerRole, INTERNAL_TOPIC_ROOT, SHARE_GROUP } from './broker-devices.ts';
import type { ConnectionTracker } from './connections.ts';
import { DynsecApi } from './dynsec.ts';
import type { DeviceEvents } from './events.ts';
import { LiveRelay } from './live-relay.ts';
import type { IngestPipeline } from './pipeline.ts';
import { parseDeviceTopic, TOPIC_ROOT } from './topics.ts';

/** Consumers share the subscriptions: the broker spreads the devices' messages over them. */
const CONSUMERS = 8;
const RECONNECT_MS = 2000;
const INSTANCE_ID_FILE = 'instance-id';

export type ExternalBroker = {
  /** Live events between the instances (see live-relay.ts). */
  relay: LiveRelay;
  /**
   * Starts consuming (and keeping the devices' clients): call once every listener of the device events is attached,
   * since a resumed session delivers what waited for this instance at once.
   */
  start(): Promise<void>;
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
};

export type ExternalBrokerOptions = {
  url: string;
  /** This instance's fixed name (INSTANCE_ID, else kept under DATA_DIR: `instanceIdOf`). */
  instanceId: string;
  /** MQTT_DYNSEC: manage the devices' clients through Mosquitto's dynamic-security API. */
  dynsec: boolean;
  db: Db;
  exclusive: Exclusive;
  events: DeviceEvents;
  pipeline: IngestPipeline;
  connections: ConnectionTracker;
  log: FastifyBaseLogger;
};

/**
 * INSTANCE_ID, or the id made on this instance's first start and kept in `{dataDir}/instance-id`: the same after
 * every restart, different for every data directory (each instance of a cluster has its own).
 */
export async function instanceIdOf(configured: string | undefined, dataDir: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, INSTANCE_ID_FILE);
  const kept = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => '',
  );
  if (INSTANCE_ID_PATTERN.test(kept)) return kept;
  const made = randomBytes(6).toString('hex');
  // Written whole under a private name, then linked into place: a process starting at the same moment never reads
  // a half-written file, and whichever link comes first is the id of both.
  const draft = `${file}.${made}`;
  try {
    await mkdir(dataDir, { recursive: true });
    await writeFile(draft, `${made}\n`);
    await link(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new Error(`INSTANCE_ID is not set and ${file} cannot be written: set INSTANCE_ID`, {
        cause: error,
      });
  } finally {
    await rm(draft, { force: true });
  }
  const id = (await readFile(file, 'utf8')).trim();
  if (!INSTANCE_ID_PATTERN.test(id))
    throw new Error(`${file} does not hold an instance id: remove it or set INSTANCE_ID`);
  return id;
}

/** The broker's address as devices reach it: MQTT_URL without the server's user name and password. */
export function deviceBrokerUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}

/** Connects and resolves at the first CONNACK; `prepare` runs before, so nothing a session resumes is missed. */
async function connected(url: string, options: IClientOptions, prepare?: (client: MqttClient) => void) {
  const client = mqtt.connect(url, { reconnectPeriod: RECONNECT_MS, ...options });
  prepare?.(client);
  try {
    await new Promise<void>((resolve, reject) => {
      const onConnect = () => {
        client.off('error', onError);
        resolve();
      };
      const onError = (error: Error) => {
        client.off('connect', onConnect);
        reject(error);
      };
      client.once('connect', onConnect);
      client.once('error', onError);
    });
  } catch (error) {
    await client.endAsync(true);
    throw error;
  }
  return client;
}

/**
 * Consumes device data from an external broker (Mosquitto, EMQX) given by MQTT_URL, with MQTT shared subscriptions so
 * several server instances (and several consumers in one) split the load. Each consumer has a fixed client id
 * (`edgeport-{instance}-{n}`) and a persistent session (clean session off, QoS 1): while an instance is down or
 * restarting, even killed, the broker keeps the messages routed to it and delivers them when it is back. A QoS 1
 * message is acknowledged to the broker only after it is stored: mqtt.js sends the PUBACK when `handleMessage` calls
 * back. mqtt.js handles one message per connection at a time, hence several consumers. One more connection (clean)
 * sends set-points, relays live events between instances and, with MQTT_DYNSEC, manages the devices' clients.
 * Devices report their status on `devices/{id}/status`.
 */
export async function connectExternalBroker(options: ExternalBrokerOptions): Promise<ExternalBroker> {
  const { url, instanceId, log } = options;
  const control = await connected(url, { clientId: `edgeport-${instanceId}-control`, clean: true });
  control.on('error', (error) => log.warn({ error }, 'external broker connection error'));
  const consumers: MqttClient[] = [];
  const endAll = (force: boolean) =>
    Promise.all([...consumers, control].map((client) => client.endAsync(force)));
  let devices: BrokerDevices | undefined;
  try {
    if (options.dynsec) devices = await manageDevices(control, options);
  } catch (error) {
    await endAll(true);
    throw error;
  }
  const relay = new LiveRelay(control, options.events, { root: INTERNAL_TOPIC_ROOT, instanceId, log });
  return {
    relay,
    async start() {
      try {
        for (let index = 0; index < CONSUMERS; index++)
          consumers.push(await consumer(options, `edgeport-${instanceId}-${index}`));
        await devices?.start();
      } catch (error) {
        await endAll(true);
        throw error;
      }
    },
    async publish(topic, payload) {
      await control.publishAsync(topic, payload, { qos: 1 });
    },
    async close() {
      relay.close();
      await devices?.close();
      // A normal disconnect keeps the sessions: what arrives until this instance is back waits for it on the broker.
      await endAll(false);
    },
  };
}

/** MQTT_DYNSEC: the server's user gets its role, and the devices' clients are kept as the database says. */
async function manageDevices(control: MqttClient, options: ExternalBrokerOptions): Promise<BrokerDevices> {
  const api = await DynsecApi.open(control);
  const username = decodeURIComponent(new URL(options.url).username);
  // Giving the role disconnects every connection of the user, the other instances' too: one instance at a time, so
  // those starting with it find the role given and change nothing.
  await options.exclusive('broker server role', () =>
    ensureServerRole(api, username, async () => {
      await Promise.race([
        new Promise((resolve) => control.once('connect', resolve)),
        delay(RECONNECT_MS * 5),
      ]);
    }),
  );
  return new BrokerDevices(api, options.db, options.log);
}

async function consumer(options: ExternalBrokerOptions, clientId: string): Promise<MqttClient> {
  const { pipeline, connections, log } = options;
  const client = await connected(options.url, { clientId, clean: false }, (client) => {
    client.handleMessage = (packet, callback) => {
      const parsed = parseDeviceTopic(packet.topic);
      if (!parsed) return callback();
      if (parsed.kind === 'status') {
        const text = packet.payload.toString().trim().toLowerCase();
        if (text === 'online' || text === 'offline') {
          connections.reported(parsed.deviceId, text === 'online' ? 'ONLINE' : 'OFFLINE');
        }
        return callback();
      }
      if (parsed.kind !== 'data') return callback();
      pipeline.accept(parsed.deviceId, Buffer.from(packet.payload)).then(
        () => callback(),
        (error: unknown) => {
          log.error(
            { error, deviceId: parsed.deviceId },
            'storing device data from the external broker failed',
          );
          // Not acknowledged: dropping the connection makes the broker deliver the message again.
          client.stream.destroy();
          callback(error instanceof Error ? error : new Error('storing failed'));
        },
      );
    };
  });
  client.on('error', (error) => log.warn({ error }, 'external broker connection error'));
  // A resumed session has them already; subscribing again is harmless (and needed the first time).
  await client.subscribeAsync(
    [`$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/data`, `$share/${SHARE_GROUP}/${TOPIC_ROOT}/+/status`],
    { qos: 1 },
  );
  return client;
}
