import { alarms } from '@edgeport/contract';
import { and, eq } from 'drizzle-orm';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/index.ts';
import { alarmRules, devices } from '../db/schema.ts';
import type { AlarmEngine } from '../services/alarms/engine.ts';

/**
 * An alarm rule of a seeded organization (by key); `device` names a seeded device by label (from `devices` or
 * `telemetry`), absent: every device of the organization. The rest is the API's rule input.
 */
export const AlarmRuleFixture = Type.Object({
  org: Type.String(),
  name: Type.String({ minLength: 1 }),
  device: Type.Optional(Type.String({ description: 'device label; absent: every device' })),
  condition: alarms.AlarmCondition,
  severity: alarms.Severity,
  description: Type.Optional(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  ackRequired: Type.Optional(Type.Boolean()),
  resetRequired: Type.Optional(Type.Boolean()),
  delaySeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  hysteresis: Type.Optional(Type.Number({ minimum: 0 })),
  message: Type.Optional(Type.String()),
});
export type AlarmRuleFixture = Static<typeof AlarmRuleFixture>;

const refused = (message: string) => Object.assign(new Error(message), { statusCode: 400 });

/** Inserts the rules and tells the engine, so they evaluate from the next value on. Answers their ids by name. */
export async function seedAlarmRules(
  db: Db,
  organizations: Record<string, { id: string }>,
  fixtures: AlarmRuleFixture[],
  engine?: AlarmEngine,
): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  const touched = new Set<string>();
  for (const fixture of fixtures) {
    const org = organizations[fixture.org];
    if (!org) throw refused(`alarmRules.org '${fixture.org}' is not a seeded organization`);
    let deviceId: string | null = null;
    if (fixture.device) {
      const [device] = await db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.organizationId, org.id), eq(devices.label, fixture.device)));
      if (!device)
        throw refused(`alarmRules.device '${fixture.device}' is not a seeded device of '${fixture.org}'`);
      deviceId = device.id;
    }
    const { org: _org, device: _device, name, ...rule } = fixture;
    const [row] = await db
      .insert(alarmRules)
      .values({ ...rule, organizationId: org.id, name, deviceId })
      .returning({ id: alarmRules.id });
    if (!row) throw new Error('alarm rule insert returned nothing');
    ids[name] = row.id;
    touched.add(org.id);
  }
  for (const organizationId of touched) await engine?.rulesChanged(organizationId);
  return ids;
}
