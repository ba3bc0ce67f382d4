import { randomBytes } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusLog } from '../../src/cluster/event-bus.ts';
import { PostgresEventBus } from '../../src/cluster/postgres-event-bus.ts';
import type { Db } from '../../src/db/index.ts';

// The cluster's event bus on a real PostgreSQL: what LISTEN/NOTIFY delivers, and what happens when the dedicated
// LISTEN connection is killed. Channels are named per test: NOTIFY reaches every session of the database.
const url = process.env.TEST_DATABASE_URL ?? '';

function recordingLog() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (_detail: object, message: string) => {
    lines.push({ level, message });
  };
  const log: BusLog = { warn: at('warn'), error: at('error'), info: at('info') };
  return { log, lines };
}

const channelName = () => `edgeport_test_${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(url)('the PostgreSQL event bus', () => {
  let pool: pg.Pool;
  let db: Db;
  const buses: PostgresEventBus[] = [];
  const connect = async (log: BusLog = recordingLog().log) => {
    const bus = await PostgresEventBus.connect({ connectionString: url, db, log });
    buses.push(bus);
    return bus;
  };

  beforeAll(() => {
    pool = new pg.Pool({ connectionString: url, max: 3 });
    db = drizzle(pool) as unknown as Db;
  });
  afterAll(async () => {
    for (const bus of buses) await bus.close();
    await pool.end();
  });

  it('delivers a publish to the subscribers of every instance, the publisher included', async () => {
    const channel = channelName();
    const [a, b] = [await connect(), await connect()];
    const got: string[] = [];
    a.subscribe(channel, (payload) => got.push(`a:${payload}`));
    b.subscribe(channel, (payload) => got.push(`b:${payload}`));
    b.subscribe(channelName(), (payload) => got.push(`other:${payload}`));
    await Promise.all([a.ready(), b.ready()]);
    await a.publish(channel, 'org-1');
    await expect.poll(() => got.sort(), { timeout: 1_000 }).toEqual(['a:org-1', 'b:org-1']);
  });

  it('sends several messages in one statement, each to its channel, in their order, or none', async () => {
    const [first, second] = [channelName(), channelName()];
    const bus = await connect();
    const got: string[] = [];
    bus.subscribe(first, (payload) => got.push(`first:${payload}`));
    bus.subscribe(second, (payload) => got.push(`second:${payload}`));
    await bus.ready();
    await bus.publishAll([
      { channel: first, payload: '1' },
      { channel: second, payload: '2' },
      { channel: first, payload: "3 it's" },
    ]);
    await expect.poll(() => got, { timeout: 1_000 }).toEqual(['first:1', 'second:2', "first:3 it's"]);
    // Checked before anything is sent: a batch goes whole or not at all.
    await expect(
      bus.publishAll([
        { channel: first, payload: 'never' },
        { channel: 'Not valid', payload: 'x' },
      ]),
    ).rejects.toThrow(/not a valid channel/);
    await sleep(200);
    expect(got).toHaveLength(3);
  });

  it('delivers a NOTIFY sent in a transaction only when it commits, never when it rolls back', async () => {
    const channel = channelName();
    const bus = await connect();
    const got: string[] = [];
    bus.subscribe(channel, (payload) => got.push(payload));
    await bus.ready();
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query('select pg_notify($1, $2)', [channel, 'rolled back']);
      await client.query('rollback');
      await client.query('begin');
      await client.query('select pg_notify($1, $2)', [channel, 'committed']);
      await sleep(200);
      expect(got).toEqual([]);
      await client.query('commit');
    } finally {
      client.release();
    }
    await expect.poll(() => got, { timeout: 1_000 }).toEqual(['committed']);
    await sleep(100);
    expect(got).toEqual(['committed']);
  });

  it('warns when its LISTEN connection is killed, reconnects, tells the subscribers to reload and hears again', async () => {
    const channel = channelName();
    const { log, lines } = recordingLog();
    const bus = await connect(log);
    const got: string[] = [];
    let missed = 0;
    bus.subscribe(
      channel,
      (payload) => got.push(payload),
      () => {
        missed += 1;
      },
    );
    await bus.ready();
    const killed = await pool.query(
      'select pg_terminate_backend(pid) as done from pg_stat_activity where query = $1 and pid <> pg_backend_pid()',
      [`listen ${channel}`],
    );
    expect(killed.rows).toEqual([{ done: true }]);
    await expect.poll(() => lines.map((line) => line.level), { timeout: 2_000 }).toEqual(['warn', 'info']);
    expect(lines[0]?.message).toMatch(/LISTEN connection to PostgreSQL was lost/);
    expect(missed).toBe(1);
    const publisher = await connect();
    await publisher.publish(channel, 'after the drop');
    await expect.poll(() => got, { timeout: 1_000 }).toEqual(['after the drop']);
  });
});
