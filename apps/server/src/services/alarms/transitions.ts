import type { alarms as contract } from '@edgeport/contract';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { alarmEvents, alarms } from '../../db/schema.ts';
import type { DataValue } from './conditions.ts';

/**
 * The writes of an alarm's state changes. Each runs in one transaction, changes the row only from the state it
 * applies to (a conditional UPDATE), adds the history steps, and answers which steps it wrote: none when the alarm
 * was not in a state the change applies to. The engine runs them one after another per (rule, device).
 */
export type Written = { alarmId: string; events: contract.AlarmEventKind[] } | undefined;

type Requirement = contract.Requirement;
const requirement = (required: boolean): Requirement => (required ? 'REQUIRED' : 'NOT_REQUIRED');

function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => work(tx as unknown as Db));
}

export type Raise = {
  organizationId: string;
  ruleId: string | null;
  triggerId: string | null;
  deviceId: string | null;
  name: string;
  path: string | null;
  severity: contract.Severity;
  ackRequired: boolean;
  resetRequired: boolean;
  message: string;
  value: DataValue | null;
  detail?: string;
};

/** A new ACTIVE alarm with its RAISED step. */
export async function insertAlarm(db: Db, input: Raise, at = new Date()): Promise<Written> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .insert(alarms)
      .values({
        organizationId: input.organizationId,
        ruleId: input.ruleId,
        triggerId: input.triggerId,
        deviceId: input.deviceId,
        name: input.name,
        path: input.path,
        severity: input.severity,
        status: 'ACTIVE',
        ack: requirement(input.ackRequired),
        reset: requirement(input.resetRequired),
        message: input.message,
        value: input.value,
        raisedAt: at,
        updatedAt: at,
      })
      // A rule's alarm is open once per device (alarms_open_rule_device_idx): one raised meanwhile elsewhere stands.
      .onConflictDoNothing({
        target: [alarms.ruleId, alarms.deviceId],
        where: sql`${alarms.clearedAt} is null and ${alarms.ruleId} is not null and ${alarms.deviceId} is not null`,
      })
      .returning({ id: alarms.id });
    if (!row) return undefined;
    await tx.insert(alarmEvents).values({
      alarmId: row.id,
      organizationId: input.organizationId,
      kind: 'RAISED',
      at,
      value: input.value,
      detail: input.detail ?? '',
    });
    return { alarmId: row.id, events: ['RAISED'] };
  });
}

/**
 * A rule's condition holds for a device: the (rule, device)'s open alarm becomes ACTIVE again when there is one (its
 * condition had cleared but an acknowledgement or reset is still awaited: requirements start over), else a new one.
 * One open alarm per (rule, device), whatever the order of values.
 */
export async function raiseForRule(
  db: Db,
  input: Raise & { ruleId: string; deviceId: string },
): Promise<Written> {
  const at = new Date();
  const [open] = await db
    .select({ id: alarms.id, status: alarms.status })
    .from(alarms)
    .where(
      and(eq(alarms.ruleId, input.ruleId), eq(alarms.deviceId, input.deviceId), isNull(alarms.clearedAt)),
    )
    .limit(1);
  if (open?.status === 'ACTIVE') return undefined;
  if (!open) return insertAlarm(db, input, at);
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(alarms)
      .set({
        status: 'ACTIVE',
        severity: input.severity,
        message: input.message,
        value: input.value,
        ack: requirement(input.ackRequired),
        reset: requirement(input.resetRequired),
        ackAt: null,
        ackBy: null,
        resetAt: null,
        resetBy: null,
        conditionClearedAt: null,
        updatedAt: at,
      })
      .where(and(eq(alarms.id, open.id), isNull(alarms.clearedAt), eq(alarms.status, 'CLEARED')))
      .returning({ id: alarms.id });
    if (!row) return undefined;
    await tx.insert(alarmEvents).values({
      alarmId: row.id,
      organizationId: input.organizationId,
      kind: 'RAISED',
      at,
      value: input.value,
      detail: 'the condition holds again',
    });
    return { alarmId: row.id, events: ['RAISED'] };
  });
}

/** Closes the alarm when its condition is gone and nothing is required any more (CLOSED, by the system). */
async function closeIfDone(tx: Db, alarmId: string, organizationId: string, at: Date, detail: string) {
  const [closed] = await tx
    .update(alarms)
    .set({ clearedAt: at, updatedAt: at })
    .where(
      and(
        eq(alarms.id, alarmId),
        isNull(alarms.clearedAt),
        eq(alarms.status, 'CLEARED'),
        ne(alarms.ack, 'REQUIRED'),
        ne(alarms.reset, 'REQUIRED'),
      ),
    )
    .returning({ id: alarms.id });
  if (!closed) return false;
  await tx.insert(alarmEvents).values({ alarmId, organizationId, kind: 'CLOSED', at, detail });
  return true;
}

/** The rule's condition is gone for the device: its ACTIVE alarm becomes CLEARED, and closes if nothing is required. */
export async function conditionGone(
  db: Db,
  input: {
    organizationId: string;
    ruleId: string;
    deviceId: string;
    value: DataValue | null;
    detail?: string;
  },
): Promise<Written> {
  const at = new Date();
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(alarms)
      .set({ status: 'CLEARED', conditionClearedAt: at, updatedAt: at })
      .where(
        and(
          eq(alarms.ruleId, input.ruleId),
          eq(alarms.deviceId, input.deviceId),
          isNull(alarms.clearedAt),
          eq(alarms.status, 'ACTIVE'),
        ),
      )
      .returning({ id: alarms.id, ack: alarms.ack, reset: alarms.reset });
    if (!row) return undefined;
    await tx.insert(alarmEvents).values({
      alarmId: row.id,
      organizationId: input.organizationId,
      kind: 'CONDITION_CLEARED',
      at,
      value: input.value,
      detail: input.detail ?? '',
    });
    const events: contract.AlarmEventKind[] = ['CONDITION_CLEARED'];
    if (row.ack !== 'REQUIRED' && row.reset !== 'REQUIRED') {
      if (await closeIfDone(tx, row.id, input.organizationId, at, 'nothing more required'))
        events.push('CLOSED');
    }
    return { alarmId: row.id, events };
  });
}

/**
 * The condition of an alarm an operator cleared while it still held has gone away: the closed alarm records when,
 * and from now on the condition may raise a new alarm.
 */
export async function conditionGoneAfterClear(
  db: Db,
  input: { organizationId: string; alarmId: string; value: DataValue | null },
): Promise<Written> {
  const at = new Date();
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(alarms)
      .set({ conditionClearedAt: at, updatedAt: at })
      .where(and(eq(alarms.id, input.alarmId), isNull(alarms.conditionClearedAt)))
      .returning({ id: alarms.id });
    if (!row) return undefined;
    await tx.insert(alarmEvents).values({
      alarmId: row.id,
      organizationId: input.organizationId,
      kind: 'CONDITION_CLEARED',
      at,
      value: input.value,
      detail: 'after it was cleared',
    });
    return { alarmId: row.id, events: ['CONDITION_CLEARED'] };
  });
}

export type OperatorAction = 'ack' | 'reset' | 'clear';

/**
 * An operator's ack, reset or clear of one alarm of the organization, when it applies: ack/reset only while REQUIRED
 * and the alarm is not closed, clear only while it is not closed. After an ack or reset, an alarm whose condition is
 * gone and that requires nothing more closes.
 */
export async function operatorAction(
  db: Db,
  input: { organizationId: string; alarmId: string; action: OperatorAction; by: string; detail?: string },
): Promise<(NonNullable<Written> & { wasActive?: boolean }) | undefined> {
  const at = new Date();
  const { organizationId, alarmId, by } = input;
  const mine = and(
    eq(alarms.id, alarmId),
    eq(alarms.organizationId, organizationId),
    isNull(alarms.clearedAt),
  );
  return inTransaction(db, async (tx) => {
    if (input.action === 'clear') {
      const [before] = await tx.select({ status: alarms.status }).from(alarms).where(mine);
      if (!before) return undefined;
      const [row] = await tx
        .update(alarms)
        .set({ status: 'CLEARED', clearedAt: at, clearedBy: by, updatedAt: at })
        .where(mine)
        .returning({ id: alarms.id });
      if (!row) return undefined;
      await tx
        .insert(alarmEvents)
        .values({ alarmId, organizationId, kind: 'CLEARED', at, by, detail: input.detail ?? '' });
      return { alarmId, events: ['CLEARED'], wasActive: before.status === 'ACTIVE' };
    }
    const kind = input.action === 'ack' ? 'ACKNOWLEDGED' : 'RESET';
    const changes =
      input.action === 'ack'
        ? { ack: 'DONE' as const, ackAt: at, ackBy: by, updatedAt: at }
        : { reset: 'DONE' as const, resetAt: at, resetBy: by, updatedAt: at };
    const requiredNow = input.action === 'ack' ? eq(alarms.ack, 'REQUIRED') : eq(alarms.reset, 'REQUIRED');
    const [row] = await tx
      .update(alarms)
      .set(changes)
      .where(and(mine, requiredNow))
      .returning({ status: alarms.status, ack: alarms.ack, reset: alarms.reset });
    if (!row) return undefined;
    await tx
      .insert(alarmEvents)
      .values({ alarmId, organizationId, kind, at, by, detail: input.detail ?? '' });
    const events: contract.AlarmEventKind[] = [kind];
    if (row.status === 'CLEARED' && row.ack !== 'REQUIRED' && row.reset !== 'REQUIRED') {
      if (await closeIfDone(tx, alarmId, organizationId, at, 'nothing more required')) events.push('CLOSED');
    }
    return { alarmId, events };
  });
}
