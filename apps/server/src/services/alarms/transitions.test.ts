import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenants } from '../../../test/support/fixtures.ts';
import { startTestServer, type TestServer } from '../../../test/support/server.ts';
import { alarmEvents, alarmRules, alarms } from '../../db/schema.ts';
import { createDevice } from '../core/devices/provisioning.ts';
import { raiseForRule } from './transitions.ts';

let server: TestServer;
let organizationId = '';
let deviceId = '';
let ruleId = '';

beforeAll(async () => {
  server = await startTestServer();
  const tenants = await seedTenants(server);
  organizationId = tenants.orgA.id;
  deviceId = (await createDevice(server.database.db, organizationId, 'press')).id;
  const [rule] = await server.database.db
    .insert(alarmRules)
    .values({
      organizationId,
      name: 'Hot',
      condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 80 },
      severity: 'MAJOR',
    })
    .returning();
  ruleId = rule?.id ?? '';
});
afterAll(() => server.close());

describe('raising a rule alarm', () => {
  it('opens one alarm per rule and device when several raises meet (two instances, one crossing)', async () => {
    const raise = () =>
      raiseForRule(server.database.db, {
        organizationId,
        ruleId,
        triggerId: null,
        deviceId,
        name: 'Hot',
        path: '/motor/temperature',
        severity: 'MAJOR',
        ackRequired: false,
        resetRequired: false,
        message: 'too hot',
        value: 95,
      });
    const written = await Promise.all([raise(), raise(), raise(), raise(), raise()]);
    expect(written.filter((result) => result?.events.includes('RAISED'))).toHaveLength(1);
    const open = await server.database.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.ruleId, ruleId), eq(alarms.deviceId, deviceId), isNull(alarms.clearedAt)));
    expect(open).toHaveLength(1);
    const raised = await server.database.db
      .select()
      .from(alarmEvents)
      .where(and(eq(alarmEvents.alarmId, open[0]?.id ?? ''), eq(alarmEvents.kind, 'RAISED')));
    expect(raised).toHaveLength(1);
  });
});
