import net from 'node:net';
import { Duplex } from 'node:stream';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activatedDevice, testPreset } from '../../test/support/devices.ts';
import { seedTenants } from '../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { CONNECT_TIMEOUT_MS, PacketSizeMeter } from './broker.ts';

/*
 * F9 of issue 32: an unauthenticated client must not make the embedded broker buffer a large packet, nor hold a
 * connection open without signing in. The size limit is MQTT_MAX_PACKET_BYTES (256 KiB by default).
 */

const LIMIT = 256 * 1024;
const HUNDRED_MB = 100 * 1024 * 1024;

let server: TestServer;
let port: number;
let device: { deviceId: string; password: string };

beforeAll(async () => {
  server = await startTestServer();
  expect(server.config.mqttMaxPacketBytes).toBe(LIMIT);
  const tenants = await seedTenants(server, 'limits');
  const preset = await testPreset(server, tenants.orgA.id);
  device = await activatedDevice(server, tenants.orgA.id, 'Line 1', preset.id);
  port = await server.app.ingest.listen(0, '127.0.0.1');
}, 60_000);
afterAll(() => server.close());

/** An MQTT fixed header: the packet type byte and the remaining length as a variable byte integer. */
function fixedHeader(type: number, remaining: number): Buffer {
  const bytes = [type];
  let rest = remaining;
  do {
    let byte = rest % 128;
    rest = Math.floor(rest / 128);
    if (rest > 0) byte |= 0x80;
    bytes.push(byte);
  } while (rest > 0);
  return Buffer.from(bytes);
}

/** The start of a CONNECT (MQTT 3.1.1, user name and password flags) whose header declares `remaining` bytes. */
function connectDeclaring(remaining: number): Buffer {
  const variable = Buffer.from([0, 4, 0x4d, 0x51, 0x54, 0x54, 4, 0xc2, 0, 60]);
  return Buffer.concat([fixedHeader(0x10, remaining), variable]);
}

/**
 * A client connection that hands out a packet of `declared` bytes lazily, 64 KiB at a time, only as fast as the
 * broker reads it, and counts what the broker took: the broker's memory for the packet is at most that count.
 */
function lazyClient(head: Buffer, declared: number) {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const state = { taken: 0, destroyed: false };
  const stream = new Duplex({
    read() {
      if (state.taken === 0) {
        state.taken += head.length;
        this.push(head);
      } else if (state.taken < declared) {
        state.taken += chunk.length;
        this.push(chunk);
      }
    },
    write(_chunk, _encoding, done) {
      done();
    },
    destroy(error, done) {
      state.destroyed = true;
      done(error);
    },
  });
  stream.on('error', () => {});
  return { stream, state };
}

async function until(probe: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (probe()) return true;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return probe();
}

function closedWithin(socket: net.Socket, timeoutMs: number): Promise<number | 'open'> {
  const started = Date.now();
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('open'), timeoutMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve(Date.now() - started);
    });
  });
}

function rawSocket(): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => resolve(socket));
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

describe('the packet size limit', () => {
  it('follows packet headers across chunks and refuses one declaring more than the limit', () => {
    const meter = new PacketSizeMeter(LIMIT);
    const small = Buffer.concat([fixedHeader(0x30, 300), Buffer.alloc(300)]);
    expect(meter.accept(small.subarray(0, 2))).toBe(true);
    expect(meter.accept(Buffer.concat([small.subarray(2), fixedHeader(0xc0, 0), small]))).toBe(true);
    expect(meter.accept(fixedHeader(0x30, LIMIT - 4))).toBe(true);
    expect(meter.accept(Buffer.alloc(LIMIT - 4))).toBe(true);
    const header = fixedHeader(0x10, HUNDRED_MB);
    expect(meter.accept(header.subarray(0, 3))).toBe(true);
    expect(meter.accept(header.subarray(3))).toBe(false);
    expect(meter.declaredBytes).toBe(HUNDRED_MB + header.length);
    expect(meter.accept(Buffer.alloc(1))).toBe(false);
    // A remaining length with a fifth byte is malformed.
    expect(new PacketSizeMeter(LIMIT).accept(Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x01]))).toBe(false);
  });

  it('closes a raw TCP connection whose CONNECT declares 100 MB at once, before authentication', async () => {
    const socket = await rawSocket();
    const closing = closedWithin(socket, 3000);
    socket.write(connectDeclaring(HUNDRED_MB));
    socket.write(Buffer.alloc(64 * 1024, 0x61));
    expect(await closing).not.toBe('open');
  });

  it('takes only the header of a 100 MB CONNECT from the stream (the WebSocket path) before closing it', async () => {
    const { stream, state } = lazyClient(connectDeclaring(HUNDRED_MB), HUNDRED_MB);
    server.app.ingest.handle(stream);
    expect(await until(() => state.destroyed, 3000)).toBe(true);
    // Only what the stream pushed before the header was read: no more than a chunk or two of the 100 MB.
    expect(state.taken).toBeLessThan(LIMIT);
  });

  it('lets a device sign in and publish, and closes its connection at a packet over the limit', async () => {
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.password,
      reconnectPeriod: 0,
      connectTimeout: 5000,
    });
    await client.publishAsync(`devices/${device.deviceId}/status`, 'x'.repeat(LIMIT / 2), { qos: 1 });
    expect(client.connected).toBe(true);
    const gone = new Promise<void>((resolve) => client.once('close', () => resolve()));
    client.publish(`devices/${device.deviceId}/status`, 'x'.repeat(LIMIT + 1), { qos: 1 });
    await gone;
    client.end(true);
  });
});

describe('the CONNECT time-out', () => {
  it('closes a connection that sends no CONNECT, or only part of one, after a few seconds', async () => {
    const silent = await rawSocket();
    const partial = await rawSocket();
    const times = Promise.all([
      closedWithin(silent, CONNECT_TIMEOUT_MS + 3000),
      closedWithin(partial, CONNECT_TIMEOUT_MS + 3000),
    ]);
    partial.write(connectDeclaring(60).subarray(0, 6));
    const [silentMs, partialMs] = await times;
    for (const elapsed of [silentMs, partialMs]) {
      expect(elapsed).not.toBe('open');
      expect(elapsed).toBeGreaterThanOrEqual(CONNECT_TIMEOUT_MS - 500);
    }
    expect(CONNECT_TIMEOUT_MS).toBeLessThanOrEqual(10_000);
  }, 20_000);
});
