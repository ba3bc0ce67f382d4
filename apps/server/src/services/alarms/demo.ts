import { eq } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { alarmRules } from '../../db/schema.ts';

/**
 * The demo organization's alarm rules, on paths the simulated packaging lines move through: the motor runs warm for
 * part of each four-minute cycle and the glue tank runs low in each ten-minute one, so alarms come and go on their own.
 */
const DEMO_RULES: Omit<typeof alarmRules.$inferInsert, 'organizationId'>[] = [
  {
    name: 'Motor running hot',
    description: 'Main drive winding above 71 °C',
    condition: { kind: 'threshold', path: '/motor/temperature', operator: '>', value: 71 },
    severity: 'MAJOR',
    ackRequired: true,
    hysteresis: 1,
    message: '{device}: motor at {value} °C',
  },
  {
    name: 'Glue tank low',
    description: 'Refill before the tank runs dry',
    condition: { kind: 'threshold', path: '/tank/level', operator: '<', value: 35 },
    severity: 'WARNING',
    hysteresis: 2,
    message: '{device}: glue tank at {value} %',
  },
  {
    name: 'Line offline',
    description: 'The line lost its connection',
    condition: { kind: 'offline' },
    severity: 'CRITICAL',
    ackRequired: true,
    delaySeconds: 30,
    message: '{device} is offline',
  },
];

/** Adds the demo alarm rules once (an organization that has rules keeps its own). Answers whether it added them. */
export async function seedDemoAlarmRules(db: Db, organizationId: string): Promise<boolean> {
  const existing = await db
    .select({ id: alarmRules.id })
    .from(alarmRules)
    .where(eq(alarmRules.organizationId, organizationId))
    .limit(1);
  if (existing.length > 0) return false;
  await db.insert(alarmRules).values(DEMO_RULES.map((rule) => ({ ...rule, organizationId })));
  return true;
}
