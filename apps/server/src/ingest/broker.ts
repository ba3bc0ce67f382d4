import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { onDeviceCredentialsRevoked, verifyDeviceSecret } from '../services/license/device-credentials.ts';
import type { ConnectionTracker } from './connections.ts';
import type { IngestPipeline } from './pipeline.ts';
import { ownTopic, PUBLISHABLE, parseDeviceTopic, SUBSCRIBABLE } from './topics.ts';

/** MQTT CONNACK return codes (3.1.1): 4 bad user name or password, 5 not authorized. */
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

export type BrokerDependencies = {
  db: Db;
  pipeline: IngestPipeline;
  connections: ConnectionTracker;
  log: FastifyBaseLogger;
};

/**
 * The embedded MQTT broker. A device signs in with its id as user name and the secret issued at activation, and its
 * client id must start with its device id (so one device cannot take over another's session). It may publish only
 * to its own data and status topics and subscribe only to its own set-points. A QoS 1 data publish is acknowledged
 * only after its values are stored: the acknowledgement waits in `authorizePublish`, which aedes runs before PUBACK.
 */
export async function createBroker({ db, pipeline, connections, log }: BrokerDependencies): Promise<Aedes> {
  const deviceOf = new WeakMap<Client, string>();
  const broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) => {
      if (!username || !password) {
        done(refusal('user name and password are required', BAD_USERNAME_OR_PASSWORD), false);
        return;
      }
      verifyDeviceSecret(db, username, password.toString('utf8'))
        .then((device) => {
          if (!device) return done(refusal('bad user name or password', BAD_USERNAME_OR_PASSWORD), false);
          if (!client.id.startsWith(device.deviceId)) {
            return done(refusal('client id must start with the device id', NOT_AUTHORIZED), false);
          }
          deviceOf.set(client, device.deviceId);
          done(null, true);
        })
        .catch((error: unknown) => {
          log.error({ error }, 'device authentication failed');
          done(refusal('authentication unavailable', 3), false);
        });
    },
    authorizePublish: (client, packet, done) => {
      const deviceId = client ? deviceOf.get(client) : undefined;
      if (!deviceId || !ownTopic(packet.topic, deviceId, PUBLISHABLE)) {
        log.warn({ deviceId, topic: packet.topic }, 'device publish refused: not its topic');
        done(new Error(`not allowed to publish to ${packet.topic}`));
        return;
      }
      if (parseDeviceTopic(packet.topic)?.kind !== 'data') return done();
      pipeline.accept(deviceId, packet.payload as Buffer).then(
        () => done(),
        (error: unknown) => {
          // Not stored, so not acknowledged: the device keeps the message and sends it again after reconnecting.
          log.error({ error, deviceId }, 'storing device data failed');
          done(error instanceof Error ? error : new Error('storing failed'));
        },
      );
    },
    authorizeSubscribe: (client, subscription, done) => {
      const deviceId = deviceOf.get(client);
      if (!deviceId || !ownTopic(subscription.topic, deviceId, SUBSCRIBABLE)) {
        // A null subscription is refused in the SUBACK (0x80) without dropping the connection.
        done(null, null);
        return;
      }
      done(null, subscription);
    },
  });
  const clientsOf = new Map<string, Set<Client>>();
  broker.on('clientReady', (client) => {
    const deviceId = deviceOf.get(client);
    if (!deviceId) return;
    clientsOf.set(deviceId, (clientsOf.get(deviceId) ?? new Set()).add(client));
    connections.opened(deviceId);
  });
  broker.on('clientDisconnect', (client) => {
    const deviceId = deviceOf.get(client);
    if (!deviceId) return;
    clientsOf.get(deviceId)?.delete(client);
    if (clientsOf.get(deviceId)?.size === 0) clientsOf.delete(deviceId);
    connections.closed(deviceId);
  });
  // A device whose credentials were revoked (licence deleted, device deleted) is disconnected at once.
  const stopListening = onDeviceCredentialsRevoked((deviceId) => {
    for (const client of clientsOf.get(deviceId) ?? []) client.close();
  });
  broker.once('closed', stopListening);
  return broker;
}
