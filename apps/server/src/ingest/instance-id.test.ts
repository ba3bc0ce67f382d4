import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { deviceBrokerUrl, instanceIdOf } from './external-broker.ts';

const root = mkdtempSync(path.join(tmpdir(), 'edgeport-instance-id-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the instance id on the external broker', () => {
  it('is made once per data directory and kept across restarts; INSTANCE_ID wins', async () => {
    const first = path.join(root, 'one');
    const made = await instanceIdOf(undefined, first);
    expect(made).toMatch(/^[0-9a-f]{12}$/);
    expect(await instanceIdOf(undefined, first)).toBe(made);
    // Processes starting on one directory at once agree, and none reads the file half-written.
    for (let round = 0; round < 50; round += 1) {
      const together = path.join(root, `together-${round}`);
      const ids = await Promise.all(Array.from({ length: 16 }, () => instanceIdOf(undefined, together)));
      expect(new Set(ids).size).toBe(1);
      expect(ids[0]).toMatch(/^[0-9a-f]{12}$/);
      expect(ids[0]).not.toBe(made);
    }
    expect(await instanceIdOf('instance-1', first)).toBe('instance-1');
  });

  it('INSTANCE_ID and MQTT_DYNSEC are checked at start', () => {
    expect(() => loadConfig({ INSTANCE_ID: 'a b' })).toThrow(/INSTANCE_ID must be/);
    expect(() => loadConfig({ MQTT_DYNSEC: 'true' })).toThrow(/needs MQTT_URL/);
    expect(() => loadConfig({ MQTT_DYNSEC: 'true', MQTT_URL: 'mqtt://broker:1883' })).toThrow(
      /user name and password/,
    );
    expect(
      loadConfig({ MQTT_DYNSEC: 'true', MQTT_URL: 'mqtt://admin:secret@broker:1883', INSTANCE_ID: 'node-1' }),
    ).toMatchObject({ mqttDynsec: true, instanceId: 'node-1' });
    expect(loadConfig({})).toMatchObject({ mqttDynsec: false, instanceId: undefined });
  });

  it('devices reach the broker of MQTT_URL without its user and password', () => {
    expect(deviceBrokerUrl('mqtt://admin:secret@broker.example:1883')).toBe('mqtt://broker.example:1883');
    expect(deviceBrokerUrl('mqtts://admin:secret@broker.example')).toBe('mqtts://broker.example');
  });
});
