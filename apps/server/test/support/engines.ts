import { expect } from 'vitest';
import type { ValuesEvent } from '../../src/ingest/events.ts';
import type { TestServer } from './server.ts';

/**
 * A message of `payload` consumed by `server`, with the alarm and trigger work it caused finished on every instance:
 * in a cluster its values are evaluated by the owner of the device's partition, which may be another instance.
 */
export async function consumeAndSettle(
  server: TestServer,
  instances: TestServer[],
  deviceId: string,
  payload: unknown,
): Promise<void> {
  const stored: number[] = [];
  const handed = new Set<number>();
  const onStored = (event: ValuesEvent) => {
    if (event.deviceId === deviceId) stored.push(event.ts);
  };
  const onHanded = (event: ValuesEvent) => {
    if (event.deviceId === deviceId) handed.add(event.ts);
  };
  const inputs = instances.flatMap((instance) => instance.app.partitions?.input ?? []);
  for (const input of inputs) input.on('values', onHanded);
  server.app.ingest.events.on('values', onStored);
  try {
    await server.app.ingest.pipeline.accept(deviceId, Buffer.from(JSON.stringify(payload)));
    await server.app.partitions?.settled();
    if (inputs.length > 0)
      await expect
        .poll(() => stored.every((ts) => handed.has(ts)), { timeout: 5_000, interval: 5 })
        .toBe(true);
  } finally {
    server.app.ingest.events.off('values', onStored);
    for (const input of inputs) input.off('values', onHanded);
  }
  for (const instance of instances) {
    await instance.app.alarms.settled();
    await instance.app.triggers.settled();
  }
}
