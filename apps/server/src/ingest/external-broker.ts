import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type MqttClient } from 'mqtt';
import type { ConnectionTracker } from './connections.ts';
import type { IngestPipeline } from './pipeline.ts';
import { parseDeviceTopic } from './topics.ts';

/** Consumers share the subscriptions: the broker spreads the devices' messages over them. */
const CONSUMERS = 8;
const SHARE_GROUP = 'edgeport';

export type ExternalBroker = {
  publish(topic: string, payload: string): Promise<void>;
  close(): Promise<void>;
};

/**
 * Consumes device data from an external broker (Mosquitto, EMQX) given by MQTT_URL, with MQTT shared subscriptions so
 * several server instances (and several consumers in one) split the load. A QoS 1 message is acknowledged to the
 * broker only after it is stored: mqtt.js sends the PUBACK when `handleMessage` calls back. mqtt.js handles one
 * message per connection at a time, hence several consumers. Authentication and topic ACLs are the broker's job
 * here (see docs/device-protocol.md); devices report their status on `devices/{id}/status`.
 */
export async function consumeExternalBroker(
  url: string,
  pipeline: IngestPipeline,
  connections: ConnectionTracker,
  log: FastifyBaseLogger,
): Promise<ExternalBroker> {
  const consumers: MqttClient[] = [];
  for (let index = 0; index < CONSUMERS; index++) {
    const client = await mqtt.connectAsync(url, {
      clientId: `edgeport-ingest-${process.pid}-${index}-${Math.random().toString(36).slice(2, 8)}`,
      reconnectPeriod: 2000,
    });
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
    client.on('error', (error) => log.warn({ error }, 'external broker connection error'));
    await client.subscribeAsync(
      [`$share/${SHARE_GROUP}/devices/+/data`, `$share/${SHARE_GROUP}/devices/+/status`],
      { qos: 1 },
    );
    consumers.push(client);
  }
  const [publisher] = consumers;
  return {
    async publish(topic, payload) {
      await publisher?.publishAsync(topic, payload, { qos: 1 });
    },
    async close() {
      await Promise.all(consumers.map((client) => client.endAsync()));
    },
  };
}
