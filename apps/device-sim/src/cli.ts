#!/usr/bin/env node
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { activateDevices } from './activation.ts';
import { BENCH_TAGS, PACKAGING_LINE_TAGS } from './demo-tags.ts';
import type { DeviceCredentials } from './device.ts';
import { Fleet, progressLine } from './fleet.ts';

const USAGE = `edgeport-device-sim: simulated devices publishing over MQTT

  Activate new devices (through the licence service, with a personal API key) and run them:
    --server http://demo.app.localhost:8080 --api-key ep_... --organization <id> --preset <id> --devices 10
    [--out devices.json]  keeps their credentials for later runs
  Run devices activated before:
    --credentials devices.json
  Common:
    --url mqtt://localhost:1883   broker (ws://host:8080/mqtt also works)
    --rate 1                      messages per second per device (0: as fast as acknowledgements allow)
    --qos 1                       0 or 1
    --inflight 10                 with --rate 0: unacknowledged messages per device
    --tags demo|bench             demo: the packaging-line preset's tags; bench: three numbers
    --duration 0                  seconds to run (0: until Ctrl+C)`;

async function main() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      'api-key': { type: 'string' },
      organization: { type: 'string' },
      preset: { type: 'string' },
      devices: { type: 'string', default: '1' },
      out: { type: 'string' },
      credentials: { type: 'string' },
      url: { type: 'string', default: 'mqtt://localhost:1883' },
      rate: { type: 'string', default: '1' },
      qos: { type: 'string', default: '1' },
      inflight: { type: 'string', default: '10' },
      tags: { type: 'string', default: 'demo' },
      duration: { type: 'string', default: '0' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) return console.log(USAGE);
  let devices: DeviceCredentials[];
  if (values.credentials) {
    devices = JSON.parse(await readFile(values.credentials, 'utf8')) as DeviceCredentials[];
  } else if (values.server && values['api-key'] && values.organization && values.preset) {
    devices = await activateDevices({
      server: values.server,
      apiKey: values['api-key'],
      organization: values.organization,
      presetId: values.preset,
      count: Number(values.devices),
      onProgress: (done, total) => process.stderr.write(`\ractivating ${done}/${total}`),
    });
    process.stderr.write('\n');
    if (values.out) await writeFile(values.out, JSON.stringify(devices, null, 2));
  } else {
    console.error(USAGE);
    process.exit(2);
  }

  const fleet = new Fleet({
    url: values.url,
    devices,
    tags: values.tags === 'bench' ? BENCH_TAGS : PACKAGING_LINE_TAGS,
    rate: Number(values.rate),
    qos: values.qos === '0' ? 0 : 1,
    inflight: Number(values.inflight),
  });
  let lastAcked = 0;
  let lastAt = Date.now();
  const progress = setInterval(() => {
    const now = Date.now();
    const rate = ((fleet.progress.acked - lastAcked) * 1000) / (now - lastAt);
    lastAcked = fleet.progress.acked;
    lastAt = now;
    const line = progressLine(fleet.progress, rate);
    if (process.stderr.isTTY) process.stderr.write(`\r${line}\u001b[K`);
    else console.error(line);
  }, 1000);
  const stop = async () => {
    clearInterval(progress);
    await fleet.stop();
    process.stderr.write('\n');
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  const duration = Number(values.duration);
  if (duration > 0) setTimeout(() => void stop(), duration * 1000);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
