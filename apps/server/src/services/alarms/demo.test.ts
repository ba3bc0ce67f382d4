import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caller } from '../../../test/support/calls.ts';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { rptFor } from '../../../test/support/tokens.ts';
import { seedDemoAlarmRules } from './demo.ts';

const REALM = 'alarmdemo';
let server: TestServer;
let tenants: Awaited<ReturnType<typeof seedTenants>>;

beforeAll(async () => {
  server = await startTestServer();
  tenants = await seedTenants(server, REALM);
});
afterAll(() => server.close());

describe('the demo alarm rules', () => {
  it('are added once and read back through the rules API as valid rules', async () => {
    const { db } = server.database;
    expect(await seedDemoAlarmRules(db, tenants.orgA.id)).toBe(true);
    expect(await seedDemoAlarmRules(db, tenants.orgA.id)).toBe(false);
    const { rpt } = await rptFor(server, REALM, tenants.adminA.email, tenants.orgA.resourceId);
    const response = await caller(server, REALM)(
      'GET',
      `/svc/alarms/api/v1/rules?organization=${tenants.orgA.id}`,
      rpt,
    );
    expect(response.statusCode).toBe(200);
    const rules = response.json().items as { name: string; enabled: boolean; deviceId: string | null }[];
    expect(rules.map((rule) => rule.name).sort()).toEqual([
      'Glue tank low',
      'Line offline',
      'Motor running hot',
    ]);
    expect(rules.every((rule) => rule.enabled && rule.deviceId === null)).toBe(true);
  });
});
