import { and, eq } from 'drizzle-orm';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/index.ts';
import { devices, notificationRules, triggerRules } from '../db/schema.ts';
import { upsertLimits } from '../services/limits/store.ts';
import { insertTrigger } from '../services/triggermanager/store.ts';

const Value = Type.Unsafe<number | boolean | string>({ type: ['number', 'boolean', 'string'] });
const Severity = Type.Union([
  Type.Literal('CRITICAL'),
  Type.Literal('MAJOR'),
  Type.Literal('MINOR'),
  Type.Literal('WARNING'),
  Type.Literal('INFO'),
]);
const Operator = Type.Union([
  Type.Literal('>'),
  Type.Literal('>='),
  Type.Literal('<'),
  Type.Literal('<='),
  Type.Literal('=='),
  Type.Literal('!='),
]);
const AlarmEventKind = Type.Union([
  Type.Literal('RAISED'),
  Type.Literal('ACKNOWLEDGED'),
  Type.Literal('RESET'),
  Type.Literal('CONDITION_CLEARED'),
  Type.Literal('CLEARED'),
  Type.Literal('CLOSED'),
]);
const Limit = Type.Optional(Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0 }));

/** An organization's limits (absent keys: unlimited). */
export const LimitsFixture = Type.Object({
  org: Type.String(),
  devices: Limit,
  users: Limit,
  dashboards: Limit,
  dataPointsPerDay: Limit,
  notificationsPerDay: Limit,
});

/**
 * A trigger rule; devices are named by label (seeded by `devices` or `telemetry`), a notify action's notification
 * rule by name. `lastRunMinutesAgo`, `runCount` and `lastError` set what the rule shows as its last run.
 */
export const TriggerFixture = Type.Object({
  org: Type.String(),
  name: Type.String({ minLength: 1 }),
  enabled: Type.Optional(Type.Boolean()),
  cooldownSeconds: Type.Optional(Type.Integer({ minimum: 0 })),
  condition: Type.Union([
    Type.Object({
      kind: Type.Literal('data'),
      device: Type.Optional(Type.String({ description: 'label; absent: every device' })),
      path: Type.String(),
      operator: Operator,
      value: Value,
    }),
    Type.Object({
      kind: Type.Literal('alarm'),
      event: AlarmEventKind,
      severities: Type.Optional(Type.Array(Severity)),
    }),
  ]),
  action: Type.Union([
    Type.Object({ kind: Type.Literal('notify'), notification: Type.String() }),
    Type.Object({ kind: Type.Literal('webhook'), url: Type.String() }),
    Type.Object({ kind: Type.Literal('write'), device: Type.String(), path: Type.String(), value: Value }),
    Type.Object({
      kind: Type.Literal('alarm'),
      severity: Severity,
      message: Type.String({ minLength: 1 }),
      ackRequired: Type.Optional(Type.Boolean()),
      resetRequired: Type.Optional(Type.Boolean()),
    }),
  ]),
  runCount: Type.Optional(Type.Integer({ minimum: 0 })),
  lastRunMinutesAgo: Type.Optional(Type.Integer({ minimum: 0 })),
  lastError: Type.Optional(Type.String()),
});

type Organizations = Record<string, { id: string }>;

function fixtureError(message: string) {
  return Object.assign(new Error(message), { statusCode: 400 });
}

function orgOf(organizations: Organizations, key: string, field: string) {
  const org = organizations[key];
  if (!org) throw fixtureError(`${field}.org '${key}' is not a seeded organization`);
  return org;
}

async function deviceId(db: Db, organizationId: string, label: string): Promise<string> {
  const [row] = await db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.organizationId, organizationId), eq(devices.label, label)));
  if (!row) throw fixtureError(`triggers: device '${label}' is not a seeded device of its organization`);
  return row.id;
}

export async function seedLimits(
  db: Db,
  organizations: Organizations,
  fixtures: Static<typeof LimitsFixture>[],
) {
  for (const { org, ...values } of fixtures) {
    await upsertLimits(db, orgOf(organizations, org, 'limits').id, values);
  }
}

/** Seeds the trigger rules; answers their ids by name. */
export async function seedTriggers(
  db: Db,
  organizations: Organizations,
  fixtures: Static<typeof TriggerFixture>[],
): Promise<{ ids: Record<string, string>; organizationIds: string[] }> {
  const ids: Record<string, string> = {};
  const touched = new Set<string>();
  for (const fixture of fixtures) {
    const organizationId = orgOf(organizations, fixture.org, 'triggers').id;
    const source = fixture.condition;
    const condition: typeof triggerRules.$inferInsert.condition =
      source.kind === 'data'
        ? {
            kind: 'data',
            deviceId: source.device ? await deviceId(db, organizationId, source.device) : null,
            path: source.path,
            operator: source.operator,
            value: source.value,
          }
        : {
            kind: 'alarm',
            event: source.event,
            severities: source.severities ?? [],
            ruleIds: [],
          };
    const given = fixture.action;
    let action: typeof triggerRules.$inferInsert.action;
    if (given.kind === 'notify') {
      const [rule] = await db
        .select({ id: notificationRules.id })
        .from(notificationRules)
        .where(
          and(
            eq(notificationRules.organizationId, organizationId),
            eq(notificationRules.name, given.notification),
          ),
        );
      if (!rule) throw fixtureError(`triggers: notification rule '${given.notification}' is not seeded`);
      action = { kind: 'notify', notificationId: rule.id };
    } else if (given.kind === 'write') {
      action = {
        kind: 'write',
        deviceId: await deviceId(db, organizationId, given.device),
        path: given.path,
        value: given.value,
      };
    } else if (given.kind === 'alarm') {
      action = {
        kind: 'alarm',
        severity: given.severity,
        message: given.message,
        ackRequired: given.ackRequired ?? false,
        resetRequired: given.resetRequired ?? false,
      };
    } else {
      action = { kind: 'webhook', url: given.url };
    }
    const row = await insertTrigger(db, {
      organizationId,
      name: fixture.name,
      enabled: fixture.enabled ?? true,
      cooldownSeconds: fixture.cooldownSeconds ?? 0,
      condition,
      action,
    });
    const lastRunAt =
      fixture.lastRunMinutesAgo === undefined
        ? null
        : new Date(Date.now() - fixture.lastRunMinutesAgo * 60_000);
    if (lastRunAt || fixture.runCount !== undefined || fixture.lastError !== undefined) {
      await db
        .update(triggerRules)
        .set({
          runCount: fixture.runCount ?? (lastRunAt ? 1 : 0),
          lastRunAt,
          lastError: fixture.lastError ?? null,
          lastErrorAt: fixture.lastError ? (lastRunAt ?? new Date()) : null,
        })
        .where(eq(triggerRules.id, row.id));
    }
    ids[fixture.name] = row.id;
    touched.add(organizationId);
  }
  return { ids, organizationIds: [...touched] };
}
