import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { e2eMqttPort } from './environment.ts';

const run = promisify(execFile);

/**
 * Debian's mosquitto_pub (a client this project did not write) publishing `{values}` as an activated device, on its
 * data topic unless another `topic` is given.
 */
export function mosquittoPub(
  device: { id: string; password?: string },
  values: Record<string, unknown>,
  topic = `devices/${device.id}/data`,
) {
  return run('mosquitto_pub', [
    ...['-h', '127.0.0.1', '-p', String(e2eMqttPort()), '-q', '1', '-V', 'mqttv311'],
    ...['-i', device.id, '-u', device.id, '-P', device.password ?? ''],
    ...['-t', topic, '-m', JSON.stringify({ values })],
  ]);
}

/** Debian's mosquitto_sub as the device, waiting (up to 30 s) for one message on `topic`; resolves its output. */
export function mosquittoSubOnce(device: { id: string; password?: string }, topic: string) {
  return run('mosquitto_sub', [
    ...['-h', '127.0.0.1', '-p', String(e2eMqttPort()), '-q', '1', '-C', '1', '-W', '30', '-V', 'mqttv311'],
    ...['-i', device.id, '-u', device.id, '-P', device.password ?? '', '-t', topic],
  ]);
}
