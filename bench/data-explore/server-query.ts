import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../../apps/server/src/services/core/organizations/provisioning.ts';
import { seedTelemetryFixture } from '../../apps/server/src/services/platform/data/fixtures.ts';
import { ensurePartitionsBetween } from '../../apps/server/src/telemetry/partitions.ts';
import { rebuildRollups } from '../../apps/server/src/telemetry/rollups.ts';
import { PASSWORD } from '../../apps/server/test/support/fixtures.ts';
import { rptFor } from '../../apps/server/test/support/tokens.ts';
import { percentile, round } from '../support/stats.ts';
import { BENCH_ID_HEADER, startTimedApp } from '../support/timed-app.ts';

const REALM = 'bench';

export type ServerRow = {
  name: string;
  serverP50: number;
  serverP95: number;
  clientP50: number;
  detail: string;
};
export type ServerResult = { points: number; seedSeconds: number; rows: ServerRow[] };

type Answer = { status: number; clientMs: number; serverMs: number; bytes: number; body: string };

export async function measureServer(
  points: number,
  requests: number,
  log: (message: string) => void,
): Promise<ServerResult> {
  const server = await startTimedApp('data');
  const { app, database } = server;
  try {
    const { db } = database;
    await app.realms.create(REALM, 'Bench');
    const org = await createOrganization(db, {
      realm: REALM,
      name: 'Bench plant',
      resourceId: 'bench-plant',
    });
    const roles = await addDefaultRoles(db, org.id);
    const admin = await createUser(db, { realm: REALM, email: 'admin@bench.test', password: PASSWORD });
    await addMember(db, org.id, admin.id, [roles.administrator.id]);
    const seeded = await seedTelemetryFixture(db, org.id, {
      model: 'Press',
      paths: [
        { path: '/motor/speed', type: 'number', unit: 'rpm' },
        { path: '/motor/running', type: 'boolean' },
      ],
      preset: 'Press preset',
      devices: ['press-01'],
      points: 0,
      intervalMs: 1000,
    });
    const deviceId = seeded.devices['press-01']?.id ?? '';
    const end = Date.now();
    const start = end - points * 100;
    log(`storing ${points.toLocaleString('en-US')} values (one every 100 ms)`);
    const seedStarted = performance.now();
    const batch = 200_000;
    await ensurePartitionsBetween(db, start, end);
    for (let from = 0; from < points; from += batch) {
      await db.execute(sql`
        insert into telemetry (device_id, ts, values)
        select ${deviceId}::uuid, to_timestamp((${start}::float8 + g * 100) / 1000.0),
          jsonb_build_object('/motor/speed', round((50 + 40 * sin(g / 5000.0) + (g % 7))::numeric, 2),
            '/motor/running', (g / 600) % 2 = 0)
        from generate_series(${from}::int, ${Math.min(points, from + batch) - 1}::int) g`);
    }
    await rebuildRollups(db, deviceId);
    await db.execute(sql`analyze telemetry`);
    const seedSeconds = (performance.now() - seedStarted) / 1000;

    // A fresh permission token per row: a slow machine could outlast one.
    let rpt = '';
    const renewToken = async () => {
      rpt = (await rptFor(server, REALM, admin.email, org.resourceId)).rpt;
    };
    await renewToken();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');

    let counter = 0;
    const call = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      new Promise<Answer>((resolve, reject) => {
        const id = String(++counter);
        const payload = body === undefined ? undefined : JSON.stringify(body);
        const started = performance.now();
        const req = request(
          {
            host: '127.0.0.1',
            port: address.port,
            method,
            path: url,
            headers: {
              host: `${REALM}.app.localhost:8080`,
              authorization: `Bearer ${rpt}`,
              [BENCH_ID_HEADER]: id,
              ...(payload ? { 'content-type': 'application/json' } : {}),
            },
          },
          (res) => {
            let bytes = 0;
            const keep: Buffer[] = [];
            res.on('data', (chunk: Buffer) => {
              bytes += chunk.length;
              if (keep.length < 4) keep.push(chunk);
            });
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                clientMs: performance.now() - started,
                serverMs: server.serverTimeOf(id),
                bytes,
                body: Buffer.concat(keep).toString(),
              }),
            );
          },
        );
        req.on('error', reject);
        req.end(payload);
      });

    const base = `/svc/platform/api/v1/organizations/${org.id}/data`;
    const range = { from: new Date(start - 1000).toISOString(), to: new Date(end + 1000).toISOString() };
    const rows: ServerRow[] = [];
    const scenarios = [
      { name: `query, 1 path, maxPoints 2000`, body: { paths: ['/motor/speed'], maxPoints: 2000 } },
      { name: `query, 1 path, maxPoints 20000`, body: { paths: ['/motor/speed'], maxPoints: 20_000 } },
      {
        name: `query, 2 paths (number, boolean), maxPoints 4000`,
        body: { paths: ['/motor/speed', '/motor/running'], maxPoints: 4000 },
      },
    ];
    for (const scenario of scenarios) {
      const body = { deviceIds: [deviceId], ...range, ...scenario.body };
      await renewToken();
      const answers: Answer[] = [];
      await call('POST', `${base}/query`, body);
      for (let i = 0; i < requests; i++) {
        const answer = await call('POST', `${base}/query`, body);
        if (answer.status !== 200) throw new Error(`${scenario.name}: ${answer.status} ${answer.body}`);
        answers.push(answer);
      }
      const server = answers.map((a) => a.serverMs);
      log(`${scenario.name}: server p50 ${round(percentile(server, 50))} ms`);
      rows.push({
        name: scenario.name,
        serverP50: percentile(server, 50),
        serverP95: percentile(server, 95),
        clientP50: percentile(
          answers.map((a) => a.clientMs),
          50,
        ),
        detail: `${Math.round((answers[0]?.bytes ?? 0) / 1024)} KiB JSON`,
      });
    }
    const params = new URLSearchParams({ deviceIds: deviceId, paths: '/motor/speed', ...range });
    log('exporting every value as CSV');
    await renewToken();
    const exported = await call('GET', `${base}/export.csv?${params}`);
    if (exported.status !== 200) throw new Error(`export: ${exported.status}`);
    const seconds = exported.clientMs / 1000;
    rows.push({
      name: `CSV export of every value (1 path)`,
      serverP50: exported.serverMs,
      serverP95: exported.serverMs,
      clientP50: exported.clientMs,
      detail: `${round(exported.bytes / 1024 / 1024)} MiB, ${Math.round(points / seconds).toLocaleString('en-US')} rows/s`,
    });
    return { points, seedSeconds, rows };
  } finally {
    await server.stop();
  }
}
