import { Duplex } from 'node:stream';
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
/** A connection that has not sent its CONNECT by then is closed (aedes' default is 30 s). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * Follows the MQTT packets of one connection's byte stream by their fixed headers — a type byte, then the remaining
 * length in one to four bytes of seven bits — and skips their bodies without keeping them. It refuses a packet as soon
 * as its header declares more than `maxBytes` in all, or a malformed length, before any of its body arrives.
 */
export class PacketSizeMeter {
  private state: 'type' | 'length' | 'body' = 'type';
  private declared = 0;
  private lengthBytes = 0;
  private remaining = 0;
  private refused = false;
  private readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  /** Follows the packets in `chunk`; false once a packet is too large (every later call answers false too). */
  accept(chunk: Uint8Array): boolean {
    if (this.refused) return false;
    let index = 0;
    while (index < chunk.length) {
      if (this.state === 'body') {
        const skipped = Math.min(this.remaining, chunk.length - index);
        index += skipped;
        this.remaining -= skipped;
        if (this.remaining === 0) this.state = 'type';
        continue;
      }
      const byte = chunk[index++] as number;
      if (this.state === 'type') {
        this.state = 'length';
        this.declared = 0;
        this.lengthBytes = 0;
        continue;
      }
      this.declared += (byte & 0x7f) * 128 ** this.lengthBytes;
      this.lengthBytes++;
      if (byte & 0x80) {
        if (this.lengthBytes === 4) return this.refuse();
        continue;
      }
      if (1 + this.lengthBytes + this.declared > this.maxBytes) return this.refuse();
      this.remaining = this.declared;
      this.state = this.remaining === 0 ? 'type' : 'body';
    }
    return true;
  }

  /** The size the last packet header declared (header included). */
  get declaredBytes(): number {
    return 1 + this.lengthBytes + this.declared;
  }

  private refuse(): false {
    this.refused = true;
    return false;
  }
}

/**
 * The connection as the broker reads it: bytes pass through while every packet is within `maxBytes`; at the first
 * packet over it the connection is destroyed before its body is read — before authentication, so an unknown client
 * cannot make the broker buffer a large packet. Writes, ends and errors pass through both ways.
 */
export function limitPacketSize(
  conn: Duplex,
  maxBytes: number,
  onRefused: (declared: number) => void,
): Duplex {
  const meter = new PacketSizeMeter(maxBytes);
  const limited = new Duplex({
    allowHalfOpen: false,
    read: () => {
      conn.resume();
    },
    write: (chunk, encoding, done) => {
      conn.write(chunk, encoding, done);
    },
    final: (done) => {
      conn.end(done);
    },
    destroy: (error, done) => {
      conn.destroy();
      done(error);
    },
  });
  conn.on('data', (chunk: Buffer) => {
    if (!meter.accept(chunk)) {
      conn.pause();
      onRefused(meter.declaredBytes);
      limited.destroy(
        new Error(`MQTT packet of ${meter.declaredBytes} bytes is over the limit of ${maxBytes}`),
      );
      return;
    }
    if (!limited.push(chunk)) conn.pause();
  });
  conn.once('end', () => limited.push(null));
  conn.on('error', (error) => limited.destroy(error));
  conn.once('close', () => limited.destroy());
  return limited;
}

function refusal(message: string, returnCode: number): AuthenticateError {
  return Object.assign(new Error(message), { returnCode }) as AuthenticateError;
}

export type BrokerDependencies = {
  db: Db;
  pipeline: IngestPipeline;
  connections: ConnectionTracker;
  log: FastifyBaseLogger;
  /** The largest MQTT packet accepted (MQTT_MAX_PACKET_BYTES), from the first byte of a connection on. */
  maxPacketBytes: number;
};

/**
 * The embedded MQTT broker. A device signs in with its id as user name and the secret issued at activation, and its
 * client id must start with its device id (so one device cannot take over another's session). It may publish only
 * to its own data and status topics and subscribe only to its own set-points. A QoS 1 data publish is acknowledged
 * only after its values are stored: the acknowledgement waits in `authorizePublish`, which aedes runs before PUBACK.
 * Every connection (TCP and WebSocket, both through `handle`) is held to the packet size limit, and one that sends no
 * CONNECT within CONNECT_TIMEOUT_MS is closed.
 */
export async function createBroker({
  db,
  pipeline,
  connections,
  log,
  maxPacketBytes,
}: BrokerDependencies): Promise<Aedes> {
  const deviceOf = new WeakMap<Client, string>();
  const broker = await Aedes.createBroker({
    connectTimeout: CONNECT_TIMEOUT_MS,
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
  const handle = broker.handle;
  broker.handle = (conn, req) =>
    handle(
      limitPacketSize(conn, maxPacketBytes, (declared) =>
        log.warn({ declared, maxPacketBytes }, 'MQTT packet over the size limit: connection closed'),
      ),
      req,
    );
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
