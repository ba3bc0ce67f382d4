import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import { freePort } from '../support/server-process.ts';

const run = promisify(execFile);
export const DYNSEC_PLUGIN = '/usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so';
export const ADMIN = { username: 'edgeport-admin', password: 'admin-secret' };

export type DynsecMosquitto = {
  port: number;
  /** MQTT_URL: the dynamic-security admin's user name and password in it. */
  adminUrl: string;
  /** Where devices connect. */
  url: string;
  /** Stops the broker and starts it again; `forget` starts it with a fresh dynamic-security file (only the admin). */
  restart(options?: { forget?: boolean }): Promise<void>;
  /** What the broker logged so far (connections, dynamic-security commands), for a failing test's message. */
  log(): string;
  close(): Promise<void>;
};

/**
 * Debian's Mosquitto with its dynamic-security plugin on a spare loopback port, initialised as an operator would
 * (`mosquitto_ctrl dynsec init`): one admin client, nothing else. Persistent sessions queue up to 100,000 messages.
 */
export async function startDynsecMosquitto(): Promise<DynsecMosquitto> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'edgeport-dynsec-'));
  const dynsecFile = path.join(dir, 'dynamic-security.json');
  const conf = path.join(dir, 'mosquitto.conf');
  const logFile = path.join(dir, 'mosquitto.log');
  writeFileSync(
    conf,
    [
      // As root Mosquitto would switch to its own user, which cannot write this directory.
      'user root',
      'per_listener_settings false',
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${dynsecFile}`,
      'max_queued_messages 100000',
      `log_dest file ${logFile}`,
      `listener ${port} 127.0.0.1`,
      '',
    ].join('\n'),
  );
  const init = async () => {
    rmSync(dynsecFile, { force: true });
    await run('mosquitto_ctrl', ['dynsec', 'init', dynsecFile, ADMIN.username, ADMIN.password]);
  };
  let broker: ChildProcess | undefined;
  const url = `mqtt://127.0.0.1:${port}`;
  const adminUrl = `mqtt://${ADMIN.username}:${ADMIN.password}@127.0.0.1:${port}`;
  const start = async () => {
    broker = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
    const admin = await connectWhenUp(adminUrl);
    await admin.endAsync();
  };
  const stop = async () => {
    const exited = new Promise((resolve) => broker?.once('exit', resolve));
    broker?.kill();
    await exited;
  };
  await init();
  await start();
  return {
    port,
    adminUrl,
    url,
    async restart(options = {}) {
      await stop();
      if (options.forget) await init();
      await start();
    },
    log: () => readFileSync(logFile, 'utf8'),
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Mosquitto takes a moment to listen. */
export async function connectWhenUp(url: string): Promise<MqttClient> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      return await mqtt.connectAsync(url, { reconnectPeriod: 0 });
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error('mosquitto did not start');
}

/** A device's connection to the broker, or the CONNACK refusal's return code. */
export async function connectDevice(
  url: string,
  device: { deviceId: string; password: string },
  options: IClientOptions = {},
): Promise<MqttClient | { refused: number }> {
  try {
    return await mqtt.connectAsync(url, {
      clientId: device.deviceId,
      username: device.deviceId,
      password: device.password,
      reconnectPeriod: 0,
      ...options,
    });
  } catch (error) {
    return { refused: (error as { code?: number }).code ?? -1 };
  }
}
