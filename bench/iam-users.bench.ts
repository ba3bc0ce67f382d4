import { request } from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { sql } from 'drizzle-orm';
import {
  addDefaultRoles,
  addMember,
  createOrganization,
  createUser,
} from '../apps/server/src/services/core/organizations/provisioning.ts';
import { PASSWORD } from '../apps/server/test/support/fixtures.ts';
import { rptFor } from '../apps/server/test/support/tokens.ts';
import { writeSection } from './support/results-file.ts';
import { percentile, round } from './support/stats.ts';
import { BENCH_ID_HEADER, startTimedApp } from './support/timed-app.ts';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '200' },
    'no-write': { type: 'boolean', default: false },
  },
});
const USERS = Number(args.users);
const REQUESTS = Number(args.requests);
const TARGET_MS = 50;
const REALM = 'bench';

function log(message: string) {
  process.stderr.write(`[iam-users.bench] ${message}\n`);
}

type Scenario = { name: string; query: Record<string, string> };

const SCENARIOS: Scenario[] = [
  { name: 'first page (50, by e-mail)', query: { page: '0', pageSize: '50' } },
  { name: 'middle page (page 100 of 200)', query: { page: '100', pageSize: '50' } },
  { name: 'last page', query: { page: String(Math.floor(USERS / 50)), pageSize: '50' } },
  {
    name: 'sorted by last name, descending',
    query: { page: '10', pageSize: '50', sort: 'lastName', order: 'desc' },
  },
  { name: 'search "user12" (111 matches)', query: { page: '0', pageSize: '50', search: 'user12' } },
  { name: 'search by name "Miller"', query: { page: '1', pageSize: '50', search: 'Miller' } },
  { name: 'search with no match', query: { page: '0', pageSize: '50', search: 'nobody-here' } },
  { name: 'page of 500', query: { page: '3', pageSize: '500' } },
];

const server = await startTimedApp('iam');
const { app, database } = server;

try {
  const { db } = database;
  await app.realms.create(REALM, 'Bench');
  const org = await createOrganization(db, { realm: REALM, name: 'Bench plant', resourceId: 'bench-plant' });
  const roles = await addDefaultRoles(db, org.id);
  const admin = await createUser(db, { realm: REALM, email: 'admin@bench.test', password: PASSWORD });
  await addMember(db, org.id, admin.id, [roles.administrator.id]);

  log(`seeding ${USERS} members`);
  const lastNames = ['Miller', 'Jansen', 'Rossi', 'Garcia', 'Dubois', 'Schmidt', 'de Vries', 'Bianchi'];
  await db.execute(sql`
    insert into users (realm, email, first_name, last_name)
    select ${REALM}, 'user' || g || '@bench.test', 'First' || g,
      (array[${sql.join(
        lastNames.map((name) => sql`${name}`),
        sql`, `,
      )}])[1 + g % ${lastNames.length}]
    from generate_series(1, ${USERS}) g`);
  await db.execute(sql`
    insert into memberships (organization_id, user_id)
    select ${org.id}, id from users where realm = ${REALM} and email like 'user%'`);
  await db.execute(sql`
    insert into user_roles (user_id, role_id)
    select id, ${roles.operator.id} from users where realm = ${REALM} and email like 'user%'`);
  await db.execute(sql`
    insert into user_groups (organization_id, name) select ${org.id}, 'Shift ' || g from generate_series(1, 20) g`);
  await db.execute(sql`
    insert into group_members (group_id, user_id)
    select g.id, u.id from users u
    join user_groups g on g.organization_id = ${org.id}
      and g.name = 'Shift ' || (1 + (hashtext(u.email) & 2147483647) % 20)
    where u.realm = ${REALM} and u.email like 'user%'`);
  await db.execute(sql`analyze`);

  const { rpt } = await rptFor(server, REALM, admin.email, org.resourceId);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');

  let counter = 0;
  const get = (query: Record<string, string>) =>
    new Promise<{ status: number; clientMs: number; serverMs: number; total: number }>((resolve, reject) => {
      const id = String(++counter);
      const started = performance.now();
      const req = request(
        {
          host: '127.0.0.1',
          port: address.port,
          path: `/svc/core/api/v1/organizations/${org.id}/users?${new URLSearchParams(query)}`,
          headers: {
            host: `${REALM}.app.localhost:8080`,
            authorization: `Bearer ${rpt}`,
            [BENCH_ID_HEADER]: id,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const clientMs = performance.now() - started;
            const body = JSON.parse(Buffer.concat(chunks).toString()) as { total?: number };
            resolve({
              status: res.statusCode ?? 0,
              clientMs,
              serverMs: server.serverTimeOf(id),
              total: body.total ?? -1,
            });
          });
        },
      );
      req.on('error', reject);
      req.end();
    });

  const rows: string[] = [];
  let allMet = true;
  for (const scenario of SCENARIOS) {
    for (let warm = 0; warm < 10; warm++) await get(scenario.query);
    const server: number[] = [];
    const client: number[] = [];
    let total = 0;
    for (let i = 0; i < REQUESTS; i++) {
      const answer = await get(scenario.query);
      if (answer.status !== 200) throw new Error(`${scenario.name}: status ${answer.status}`);
      server.push(answer.serverMs);
      client.push(answer.clientMs);
      total = answer.total;
    }
    const p95 = percentile(server, 95);
    const met = p95 < TARGET_MS;
    allMet &&= met;
    log(`${scenario.name}: server p50 ${round(percentile(server, 50), 2)} ms, p95 ${round(p95, 2)} ms`);
    rows.push(
      `| ${scenario.name} | ${total} | ${round(percentile(server, 50), 1)} ms | ${round(p95, 1)} ms | ${round(Math.max(...server), 1)} ms | ${round(percentile(client, 95), 1)} ms | ${met ? '**yes**' : '**no**'} |`,
    );
  }

  const body = [
    '## Users list (identity and access administration) — PGlite',
    '',
    `Run ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} vCPUs (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}.`,
    `${USERS} members of one organization (each with a role and a group), embedded PGlite with files in a temporary`,
    `data directory. ${REQUESTS} sequential requests per row after 10 warm-up requests, through the real HTTP route with`,
    'an RPT. Server time is Fastify’s `reply.elapsedTime` (routing, token check, queries, serialisation).',
    `Target: under ${TARGET_MS} ms per page (p95 of server time). Command: \`node bench/iam-users.bench.ts\`.`,
    '',
    '| request | matching users | server p50 | server p95 | server max | client p95 | under 50 ms |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `Target met for every row: ${allMet ? '**yes**' : '**no**'}.`,
  ].join('\n');
  if (!args['no-write']) writeSection('iam-users', body);
  process.stdout.write(`${body}\n`);
} finally {
  await server.stop();
}
