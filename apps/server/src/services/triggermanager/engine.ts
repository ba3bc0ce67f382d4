import type { alarms, triggers } from '@edgeport/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type EventBus, InProcessEventBus } from '../../cluster/event-bus.ts';
import { CHANNELS, type Invalidation, invalidation } from '../../cluster/invalidation.ts';
import { partitionOf } from '../../cluster/partitions.ts';
import type { Db } from '../../db/index.ts';
import type { AlarmChange, DeviceEvents, ValuesEvent } from '../../ingest/events.ts';
import type { Ingest } from '../../ingest/index.ts';
import type { DataValue } from '../../ingest/payload.ts';
import type { AlarmEngine } from '../alarms/engine.ts';
import { deviceInOrganization } from '../core/devices/service.ts';
import type { Notifier } from '../notifications/notifier.ts';
import { setpointFor } from './setpoint.ts';
import * as store from './store.ts';

type DataCondition = Extract<triggers.TriggerCondition, { kind: 'data' }>;
type AlarmStateCondition = Extract<triggers.TriggerCondition, { kind: 'alarm' }>;
type DataTrigger = store.TriggerRow & { condition: DataCondition };
type AlarmTrigger = store.TriggerRow & { condition: AlarmStateCondition };

/** One organization's enabled rules, indexed so that a value of an unrelated path costs one map lookup. */
type OrganizationRules = { byPath: Map<string, DataTrigger[]>; onAlarm: AlarmTrigger[] };

/** Why an action runs: the value or alarm change that made the condition true, or an operator's test run. */
export type Occasion = {
  deviceId: string | null;
  path: string | null;
  value: DataValue | null;
  alarm: { event: alarms.AlarmEventKind; alarm: alarms.Alarm } | null;
  manual: boolean;
};

/** Whether `actual {operator} expected` holds; values of different types never compare. */
export function compare(actual: DataValue, operator: alarms.Comparison, expected: DataValue): boolean {
  if (operator === '==') return actual === expected;
  if (operator === '!=') return typeof actual === typeof expected && actual !== expected;
  if (typeof actual === 'number' && typeof expected === 'number') return ordered(actual, operator, expected);
  if (typeof actual === 'string' && typeof expected === 'string') return ordered(actual, operator, expected);
  return false;
}

function ordered<T extends number | string>(actual: T, operator: alarms.Comparison, expected: T): boolean {
  switch (operator) {
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    default:
      return false;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Runs the organizations' trigger rules: on stored values (data conditions) and alarm changes (alarm conditions),
 * an action when the condition becomes true — notify, call a webhook, write a value to a device, raise an alarm.
 *
 * A data condition fires when its comparison BECOMES true for a device (it was false, or not known, for the previous
 * value of that path), not on every value while it holds; `cooldownSeconds` spaces the runs of a rule further. An
 * action's failure is recorded on the rule (lastError, lastErrorAt) and never reaches ingest.
 */
export class TriggerEngine {
  private readonly deps: {
    db: Db;
    ingest: Ingest;
    alarms: AlarmEngine;
    notifier: Notifier;
    log: FastifyBaseLogger;
    bus: EventBus;
    input: DeviceEvents;
  };
  /** Rule changes made through any instance: every instance's engine reloads the organization's rules. */
  private ruleChanges: Invalidation | undefined;
  private readonly rules = new Map<string, OrganizationRules>();
  /** The comparison's last result per rule and device. */
  private readonly holding = new Map<string, Map<string, boolean>>();
  /** The condition each loaded rule was indexed with (a changed condition starts its edge state afresh). */
  private readonly conditions = new Map<string, string>();
  /** When each rule's condition last fired it (cooldown). */
  private readonly firedAt = new Map<string, number>();
  private readonly pending = new Set<Promise<unknown>>();
  /** The latest reload per organization: reloads of one organization apply in order. */
  private readonly reloads = new Map<string, Promise<void>>();
  private listening = false;

  /**
   * `bus`: the cluster's (rule changes reach every instance); an engine on its own has one of its own. `input`: in a
   * cluster, the values of the devices this instance owns (see PartitionRouter); by default every stored value.
   */
  constructor(deps: {
    db: Db;
    ingest: Ingest;
    alarms: AlarmEngine;
    notifier: Notifier;
    log: FastifyBaseLogger;
    bus?: EventBus;
    input?: DeviceEvents;
  }) {
    this.deps = {
      ...deps,
      bus: deps.bus ?? new InProcessEventBus(deps.log),
      input: deps.input ?? deps.ingest.events,
    };
  }

  /** Loads every enabled rule, then listens to stored values and alarm changes. */
  async start(): Promise<void> {
    const rows = await store.enabledTriggers(this.deps.db);
    const byOrganization = new Map<string, store.TriggerRow[]>();
    for (const row of rows) {
      const list = byOrganization.get(row.organizationId) ?? [];
      list.push(row);
      byOrganization.set(row.organizationId, list);
    }
    for (const [organizationId, list] of byOrganization) {
      this.index(organizationId, list);
      // After a restart the cooldown counts from the last recorded run.
      for (const row of list) if (row.lastRunAt) this.firedAt.set(row.id, row.lastRunAt.getTime());
    }
    if (this.listening) return;
    this.listening = true;
    this.deps.input.on('values', this.onValues);
    this.deps.ingest.events.on('alarm', this.onAlarm);
    this.ruleChanges = invalidation(this.deps.bus, CHANNELS.triggerRules, {
      one: (organizationId) => this.reloadHere(organizationId),
      all: () => this.reloadEverything(),
    });
  }

  /**
   * An organization's rules changed (call after the change is committed): this engine and those of the other
   * instances evaluate with the new ones from the next value on; this one before the promise resolves.
   */
  async rulesChanged(organizationId: string): Promise<void> {
    if (this.ruleChanges) await this.ruleChanges.changed(organizationId);
    else await this.reloadHere(organizationId);
  }

  /** Rule changes may have been missed (the bus reconnected): every organization's rules are read again. */
  private async reloadEverything(): Promise<void> {
    const organizations = new Set(this.rules.keys());
    for (const row of await store.enabledTriggers(this.deps.db)) organizations.add(row.organizationId);
    await Promise.all([...organizations].map((organizationId) => this.reloadHere(organizationId)));
  }

  private reloadHere(organizationId: string): Promise<void> {
    const previous = this.reloads.get(organizationId) ?? Promise.resolve();
    const reload = previous
      .then(() => store.enabledTriggers(this.deps.db, organizationId))
      .then((rows) => this.index(organizationId, rows))
      .catch((error: unknown) => this.deps.log.warn({ error, organizationId }, 'trigger rules not reloaded'))
      .finally(() => {
        if (this.reloads.get(organizationId) === reload) this.reloads.delete(organizationId);
      });
    this.reloads.set(organizationId, reload);
    return reload;
  }

  /**
   * Runs the rule's action once now, whatever its condition (an operator's test), and answers the rule as recorded
   * afterwards (run count, last run, last error).
   */
  async runNow(row: store.TriggerRow): Promise<store.TriggerRow> {
    const occasion: Occasion = {
      deviceId: row.condition.kind === 'data' ? row.condition.deviceId : null,
      path: row.condition.kind === 'data' ? row.condition.path : null,
      value: null,
      alarm: null,
      manual: true,
    };
    return (await this.track(this.execute(row, occasion))) ?? row;
  }

  /** Resolves when every action and reload started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0 || this.reloads.size > 0) {
      await Promise.allSettled([...this.pending, ...this.reloads.values()]);
    }
  }

  async close(): Promise<void> {
    if (this.listening) {
      this.deps.input.off('values', this.onValues);
      this.deps.ingest.events.off('alarm', this.onAlarm);
      this.ruleChanges?.stop();
      this.ruleChanges = undefined;
      this.listening = false;
    }
    await this.settled();
  }

  /**
   * This instance now runs the devices of `partitions` (cluster): each data condition's last result is taken from the
   * device's last stored value, so a condition that already held under the previous owner does not fire again.
   */
  async gained(partitions: Set<number>): Promise<void> {
    for (const [organizationId, rules] of this.rules) {
      for (const [path, triggers] of rules.byPath) {
        const latest = (await store.latestOfPath(this.deps.db, organizationId, path)).filter((row) =>
          partitions.has(partitionOf(row.deviceId)),
        );
        for (const trigger of triggers) {
          const { condition } = trigger;
          let devices = this.holding.get(trigger.id);
          for (const row of latest) {
            if (condition.deviceId !== null && condition.deviceId !== row.deviceId) continue;
            if (!devices) {
              devices = new Map();
              this.holding.set(trigger.id, devices);
            }
            devices.set(row.deviceId, compare(row.value, condition.operator, condition.value));
          }
        }
      }
    }
  }

  /** Another instance runs the devices of `partitions` from now on: their comparison results are dropped here. */
  lost(partitions: Set<number>): void {
    for (const devices of this.holding.values()) {
      for (const deviceId of devices.keys())
        if (partitions.has(partitionOf(deviceId))) devices.delete(deviceId);
    }
  }

  private index(organizationId: string, rows: store.TriggerRow[]): void {
    const previous = this.rules.get(organizationId);
    const kept = new Set(rows.map((row) => row.id));
    for (const trigger of allOf(previous)) {
      if (!kept.has(trigger.id)) this.forget(trigger.id);
    }
    const next: OrganizationRules = { byPath: new Map(), onAlarm: [] };
    for (const row of rows) {
      const key = JSON.stringify(row.condition);
      if (this.conditions.get(row.id) !== key) {
        this.holding.delete(row.id);
        this.conditions.set(row.id, key);
      }
      if (row.condition.kind === 'data') {
        const list = next.byPath.get(row.condition.path) ?? [];
        list.push(row as DataTrigger);
        next.byPath.set(row.condition.path, list);
      } else {
        next.onAlarm.push(row as AlarmTrigger);
      }
    }
    if (rows.length === 0) this.rules.delete(organizationId);
    else this.rules.set(organizationId, next);
  }

  private forget(triggerId: string): void {
    this.holding.delete(triggerId);
    this.conditions.delete(triggerId);
    this.firedAt.delete(triggerId);
  }

  private readonly onValues = (event: ValuesEvent): void => {
    const rules = this.rules.get(event.organizationId);
    if (!rules) return;
    for (const path in event.values) {
      const triggers = rules.byPath.get(path);
      if (!triggers) continue;
      const value = event.values[path] as DataValue;
      for (const trigger of triggers) {
        const { condition } = trigger;
        if (condition.deviceId !== null && condition.deviceId !== event.deviceId) continue;
        const holds = compare(value, condition.operator, condition.value);
        let devices = this.holding.get(trigger.id);
        if (!devices) {
          devices = new Map();
          this.holding.set(trigger.id, devices);
        }
        const held = devices.get(event.deviceId) ?? false;
        devices.set(event.deviceId, holds);
        if (holds && !held) {
          this.fire(trigger, { deviceId: event.deviceId, path, value, alarm: null, manual: false });
        }
      }
    }
  };

  private readonly onAlarm = (change: AlarmChange): void => {
    const rules = this.rules.get(change.organizationId);
    if (!rules) return;
    const { alarm } = change;
    for (const trigger of rules.onAlarm) {
      const { condition } = trigger;
      if (condition.event !== change.event) continue;
      if (condition.severities.length > 0 && !condition.severities.includes(alarm.severity)) continue;
      if (condition.ruleIds.length > 0 && (!alarm.ruleId || !condition.ruleIds.includes(alarm.ruleId)))
        continue;
      // An alarm raised by a trigger never makes a rule raise another one: rules cannot feed each other forever.
      if (alarm.triggerId !== null && trigger.action.kind === 'alarm') continue;
      this.fire(trigger, {
        deviceId: alarm.deviceId,
        path: alarm.path,
        value: alarm.value,
        alarm: { event: change.event, alarm },
        manual: false,
      });
    }
  };

  private fire(trigger: store.TriggerRow, occasion: Occasion): void {
    const now = Date.now();
    const last = this.firedAt.get(trigger.id);
    if (last !== undefined && now - last < trigger.cooldownSeconds * 1000) return;
    this.firedAt.set(trigger.id, now);
    void this.track(this.execute(trigger, occasion));
  }

  private track<T>(work: Promise<T>): Promise<T> {
    this.pending.add(work);
    work.then(
      () => this.pending.delete(work),
      () => this.pending.delete(work),
    );
    return work;
  }

  /** Runs the action and records the run; never rejects. */
  private async execute(
    trigger: store.TriggerRow,
    occasion: Occasion,
  ): Promise<store.TriggerRow | undefined> {
    const at = new Date();
    let failure: string | null = null;
    try {
      await this.perform(trigger, occasion, at);
    } catch (error) {
      failure = errorText(error);
      this.deps.log.warn({ triggerId: trigger.id, error: failure }, 'trigger action failed');
    }
    try {
      return await store.recordRun(this.deps.db, trigger.id, at, failure);
    } catch (error) {
      this.deps.log.warn({ triggerId: trigger.id, error }, 'trigger run not recorded');
      return undefined;
    }
  }

  private async perform(trigger: store.TriggerRow, occasion: Occasion, at: Date): Promise<void> {
    const { db, notifier, ingest, alarms } = this.deps;
    const { action, organizationId } = trigger;
    switch (action.kind) {
      case 'notify': {
        if (!(await store.notificationRuleExists(db, organizationId, action.notificationId))) {
          throw new Error(`notification rule '${action.notificationId}' no longer exists`);
        }
        const detail = await this.describe(trigger, occasion);
        await notifier.notifyTrigger(organizationId, action.notificationId, {
          triggerId: trigger.id,
          triggerName: trigger.name,
          detail,
        });
        return;
      }
      case 'webhook': {
        await notifier.callWebhook(organizationId, action.url, await this.payload(trigger, occasion, at));
        return;
      }
      case 'write': {
        const setpoint = await setpointFor(db, organizationId, action, 'action');
        await ingest.sendSetpoint(action.deviceId, setpoint);
        return;
      }
      case 'alarm': {
        await alarms.raise({
          organizationId,
          triggerId: trigger.id,
          name: trigger.name,
          deviceId: occasion.deviceId,
          severity: action.severity,
          message: action.message,
          ackRequired: action.ackRequired,
          resetRequired: action.resetRequired,
          value: occasion.value,
        });
        return;
      }
    }
  }

  private async deviceLabel(organizationId: string, deviceId: string | null): Promise<string | null> {
    if (!deviceId) return null;
    return (await deviceInOrganization(this.deps.db, organizationId, deviceId))?.label ?? null;
  }

  /** The text a notification carries about why the trigger ran. */
  private async describe(trigger: store.TriggerRow, occasion: Occasion): Promise<string> {
    if (occasion.manual) return `Trigger '${trigger.name}' was run by hand.`;
    const label = await this.deviceLabel(trigger.organizationId, occasion.deviceId);
    const device = label ? ` on device '${label}'` : '';
    if (occasion.alarm) {
      const { alarm, event } = occasion.alarm;
      return `Alarm '${alarm.name}' (${alarm.severity}) ${event}${device}: ${alarm.message}`;
    }
    const { condition } = trigger;
    const rule = condition.kind === 'data' ? ` (${condition.operator} ${String(condition.value)})` : '';
    return `${occasion.path} = ${String(occasion.value)}${rule}${device}`;
  }

  /** What a webhook action posts. */
  private async payload(
    trigger: store.TriggerRow,
    occasion: Occasion,
    at: Date,
  ): Promise<Record<string, unknown>> {
    const label = await this.deviceLabel(trigger.organizationId, occasion.deviceId);
    const alarm = occasion.alarm;
    return {
      trigger: { id: trigger.id, name: trigger.name },
      organizationId: trigger.organizationId,
      firedAt: at.toISOString(),
      manual: occasion.manual,
      device: occasion.deviceId ? { id: occasion.deviceId, label } : null,
      path: occasion.path,
      value: occasion.value,
      alarm: alarm
        ? {
            event: alarm.event,
            id: alarm.alarm.id,
            name: alarm.alarm.name,
            severity: alarm.alarm.severity,
            status: alarm.alarm.status,
            message: alarm.alarm.message,
          }
        : null,
    };
  }
}

function* allOf(rules: OrganizationRules | undefined): Generator<store.TriggerRow> {
  if (!rules) return;
  for (const list of rules.byPath.values()) yield* list;
  yield* rules.onAlarm;
}
