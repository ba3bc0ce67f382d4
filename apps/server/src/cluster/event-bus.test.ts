import { describe, expect, it } from 'vitest';
import { type BusLog, InProcessEventBus } from './event-bus.ts';
import { invalidation } from './invalidation.ts';

function recordingLog() {
  const lines: { level: string; detail: object; message: string }[] = [];
  const at =
    (level: string) =>
    (detail: object, message: string): void => {
      lines.push({ level, detail, message });
    };
  const log: BusLog = { warn: at('warn'), error: at('error'), info: at('info') };
  return { log, lines };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the in-process event bus', () => {
  it("delivers a message to every subscriber of its channel, after the publisher's call, and to no other", async () => {
    const bus = new InProcessEventBus();
    const got: string[] = [];
    bus.subscribe('edgeport_one', (payload) => got.push(`a:${payload}`));
    bus.subscribe('edgeport_one', (payload) => got.push(`b:${payload}`));
    bus.subscribe('edgeport_two', (payload) => got.push(`other:${payload}`));
    const sent = bus.publish('edgeport_one', 'org-1');
    expect(got).toEqual([]);
    await sent;
    await tick();
    expect(got).toEqual(['a:org-1', 'b:org-1']);
  });

  it('stops delivering once unsubscribed, and after close', async () => {
    const bus = new InProcessEventBus();
    const got: string[] = [];
    const stop = bus.subscribe('edgeport_one', (payload) => got.push(payload));
    await bus.publish('edgeport_one', 'first');
    await tick();
    stop();
    await bus.publish('edgeport_one', 'second');
    await tick();
    bus.subscribe('edgeport_one', (payload) => got.push(payload));
    await bus.close();
    await bus.publish('edgeport_one', 'third');
    await tick();
    expect(got).toEqual(['first']);
  });

  it('logs a failing subscriber; the publisher and the other subscribers carry on', async () => {
    const { log, lines } = recordingLog();
    const bus = new InProcessEventBus(log);
    const got: string[] = [];
    bus.subscribe('edgeport_one', () => {
      throw new Error('boom');
    });
    bus.subscribe('edgeport_one', async () => {
      throw new Error('async boom');
    });
    bus.subscribe('edgeport_one', (payload) => got.push(payload));
    await expect(bus.publish('edgeport_one', 'x')).resolves.toBeUndefined();
    await tick();
    expect(got).toEqual(['x']);
    expect(lines.map((line) => [line.level, line.message])).toEqual([
      ['error', 'event bus: a subscriber failed'],
      ['error', 'event bus: a subscriber failed'],
    ]);
  });

  it('refuses channel names that are no plain identifiers and payloads PostgreSQL would refuse', async () => {
    const bus = new InProcessEventBus();
    expect(() => bus.subscribe('Edgeport one; drop table x', () => {})).toThrow(/not a valid channel name/);
    await expect(bus.publish('1abc', 'x')).rejects.toThrow(/not a valid channel name/);
    await expect(bus.publish('edgeport_one', 'é'.repeat(4_000))).rejects.toThrow(/too long/);
  });
});

describe('an invalidation', () => {
  it('applies the change here before it resolves, then again on every subscriber when the message arrives', async () => {
    const bus = new InProcessEventBus();
    const here: string[] = [];
    const elsewhere: string[] = [];
    const mine = invalidation(bus, 'edgeport_rules', { one: (key) => here.push(key), all: () => {} });
    invalidation(bus, 'edgeport_rules', { one: (key) => elsewhere.push(key), all: () => {} });
    await mine.changed('org-1');
    expect(here).toEqual(['org-1']);
    await tick();
    expect(here).toEqual(['org-1', 'org-1']);
    expect(elsewhere).toEqual(['org-1']);
    mine.stop();
    await mine.changed('org-2');
    await tick();
    expect(here).toEqual(['org-1', 'org-1', 'org-2']);
    expect(elsewhere).toEqual(['org-1', 'org-2']);
  });
});
