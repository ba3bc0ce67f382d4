import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/support/server.ts';
import { periodicRuns } from '../db/schema.ts';
import { claimPeriod } from './periodic.ts';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('timed work once per period', () => {
  it('lets the first claim of a period run, refuses the rest of it, and lets the next period run', async () => {
    const { db } = server.database;
    expect(await claimPeriod(db, 'sweep', 60_000)).toBe(true);
    expect(await claimPeriod(db, 'sweep', 60_000)).toBe(false);
    // Another kind of work has its own periods.
    expect(await claimPeriod(db, 'resync', 60_000)).toBe(true);
    // 55 s later (over 90 % of the period: a timer firing a little early still runs).
    await db
      .update(periodicRuns)
      .set({ lastRunAt: sql`now() - interval '55 seconds'` })
      .where(eq(periodicRuns.name, 'sweep'));
    expect(await claimPeriod(db, 'sweep', 60_000)).toBe(true);
    expect(await claimPeriod(db, 'sweep', 60_000)).toBe(false);
    await db
      .update(periodicRuns)
      .set({ lastRunAt: sql`now() - interval '50 seconds'` })
      .where(eq(periodicRuns.name, 'sweep'));
    expect(await claimPeriod(db, 'sweep', 60_000)).toBe(false);
  });
});
