import type { alarms } from '@edgeport/contract';
import type { FastifyBaseLogger } from 'fastify';
import { type EventBus, InProcessEventBus } from '../../cluster/event-bus.ts';
import { CHANNELS, type Invalidation, invalidation } from '../../cluster/invalidation.ts';
import { partitionOf } from '../../cluster/partitions.ts';
import type { Db } from '../../db/index.ts';
import type { DeviceEvents, StatusEvent, ValuesEvent } from '../../ingest/events.ts';
import { type DataValue, isValueCondition, renderMessage, valueConditionHolds } from './conditions.ts';
import {
  type ActiveRule,
  activeRule,
  evaluationChanged,
  indexRules,
  newState,
  type OrgRules,
  type RuleState,
  stopTimers,
} from './rule-cache.ts';
import * as store from './store.ts';
import {
  conditionGone,
  conditionGoneAfterClear,
  insertAlarm,
  type OperatorAction,
  operatorAction,
  raiseForRule,
  type Written,
} from './transitions.ts';

/** An alarm a trigger rule raises (no alarm rule behind it). */
export type RaisedByTrigger = {
  organizationId: string;
  triggerId: string;
  name: string;
  deviceId: string | null;
  severity: alarms.Severity;
  message: string;
  ackRequired: boolean;
  resetRequired: boolean;
  value: number | boolean | string | null;
};

/** An alarm an operator acts on: its id and what orders the writes of its (rule, device). */
export type AlarmKey = { id: string; ruleId: string | null; deviceId: string | null };

const keyOf = (ruleId: string, deviceId: string) => `${ruleId}:${deviceId}`;
const keyOfAlarm = (alarm: AlarmKey) =>
  alarm.ruleId && alarm.deviceId ? keyOf(alarm.ruleId, alarm.deviceId) : `alarm:${alarm.id}`;

/**
 * Evaluates the organizations' alarm rules inside the ingest pipeline (on every stored value and connection change,
 * no polling) and keeps the alarm instances and their history. Every change is emitted as an `alarm` device event.
 *
 * The rules live in memory, indexed by organization, device and model path; what is going on per (rule, device)
 * (condition holding, delay and no-data timers, an operator's clear) too, rebuilt from the open alarms at start. The
 * database writes of one (rule, device) run one after another, so a burst of values never opens two alarms for it.
 */
export class AlarmEngine {
  private readonly db: Db;
  private readonly events: DeviceEvents;
  /** Where values and connection changes come from: the ingest events, or in a cluster those of owned devices. */
  private readonly input: DeviceEvents;
  /** Whether this instance runs the device's state (in a cluster: owns its partition). */
  private readonly owns: (deviceId: string) => boolean;
  private readonly log: FastifyBaseLogger;
  private readonly bus: EventBus;
  /** Rule changes made through any instance: every instance's engine reloads the organization's rules. */
  private ruleChanges: Invalidation | undefined;
  private readonly orgs = new Map<string, OrgRules>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly pending = new Set<Promise<void>>();
  private listening = false;
  private closed = false;

  /**
   * `bus`: the cluster's (rule changes reach every instance); an engine on its own has one of its own. `input` and
   * `owns`: in a cluster, the values and connection changes of the devices this instance owns (see PartitionRouter);
   * by default every device's, straight from `events`.
   */
  constructor(deps: {
    db: Db;
    events: DeviceEvents;
    log: FastifyBaseLogger;
    bus?: EventBus;
    input?: DeviceEvents;
    owns?: (deviceId: string) => boolean;
  }) {
    this.db = deps.db;
    this.events = deps.events;
    this.input = deps.input ?? deps.events;
    this.owns = deps.owns ?? (() => true);
    this.log = deps.log;
    this.bus = deps.bus ?? new InProcessEventBus(deps.log);
  }

  /** Loads the rules and the open alarms, then listens to the device events. */
  async start(): Promise<void> {
    const byOrg = new Map<string, ActiveRule[]>();
    for (const row of await store.enabledRules(this.db)) {
      const list = byOrg.get(row.organizationId) ?? [];
      list.push(activeRule(row));
      byOrg.set(row.organizationId, list);
    }
    for (const [organizationId, rules] of byOrg) this.orgs.set(organizationId, indexRules(rules));
    await this.restoreDevices(this.owns);
    if (!this.listening) {
      this.input.on('values', this.onValues);
      this.input.on('status', this.onStatus);
      this.ruleChanges = invalidation(this.bus, CHANNELS.alarmRules, {
        one: (organizationId) => this.reloadHere(organizationId),
        all: () => this.reloadEverything(),
      });
      this.listening = true;
    }
  }

  /**
   * An organization's rules changed (call after the change is committed): this engine and those of the other
   * instances evaluate with the new ones from the next value on; this one before the promise resolves.
   */
  async rulesChanged(organizationId: string): Promise<void> {
    if (this.ruleChanges) await this.ruleChanges.changed(organizationId);
    else await this.reloadHere(organizationId);
  }

  private async reloadHere(organizationId: string): Promise<void> {
    if (this.closed) return;
    // One reload at a time per organization: a slower earlier reload must not overwrite a later one.
    await this.enqueue(`rules:${organizationId}`, () => this.reloadRules(organizationId));
  }

  /** Rule changes may have been missed (the bus reconnected): every organization's rules are read again. */
  private async reloadEverything(): Promise<void> {
    const organizations = new Set(this.orgs.keys());
    for (const row of await store.enabledRules(this.db)) organizations.add(row.organizationId);
    await Promise.all([...organizations].map((organizationId) => this.reloadHere(organizationId)));
  }

  private async reloadRules(organizationId: string): Promise<void> {
    const rows = await store.enabledRules(this.db, organizationId);
    const before = this.orgs.get(organizationId);
    const kept: ActiveRule[] = [];
    const fresh: ActiveRule[] = [];
    const restart: Promise<void>[] = [];
    for (const row of rows) {
      const existing = before?.rules.get(row.id);
      if (!existing) {
        fresh.push(activeRule(row));
        continue;
      }
      if (evaluationChanged(existing.row, row)) restart.push(this.forgetStates(existing, 'rule changed'));
      existing.row = row;
      existing.path = activeRule(row).path;
      kept.push(existing);
    }
    const stillEnabled = new Set(rows.map((row) => row.id));
    for (const rule of before?.rules.values() ?? []) {
      if (stillEnabled.has(rule.row.id)) continue;
      rule.removed = true;
      restart.push(this.forgetStates(rule, 'rule disabled'));
    }
    const all = [...kept, ...fresh];
    if (all.length === 0) this.orgs.delete(organizationId);
    else this.orgs.set(organizationId, indexRules(all));
    await Promise.all(restart);
    for (const rule of fresh) await this.seedNoData(organizationId, rule);
  }

  /**
   * A deleted rule's open alarms (read before the delete, which unlinks them) are cleared with the detail 'rule
   * deleted'; call `rulesChanged` first so that it raises nothing more (on any instance). The clearing is written
   * once, by the instance the deletion went through: it is no message on the bus.
   */
  async ruleDeleted(
    organizationId: string,
    ruleId: string,
    openAlarms: { id: string; deviceId: string | null }[],
    by: string,
  ): Promise<void> {
    await Promise.all(
      openAlarms.map((alarm) =>
        this.enqueue(keyOfAlarm({ id: alarm.id, ruleId, deviceId: alarm.deviceId }), async () => {
          const written = await operatorAction(this.db, {
            organizationId,
            alarmId: alarm.id,
            action: 'clear',
            by,
            detail: 'rule deleted',
          });
          await this.emitWritten(written);
        }),
      ),
    );
  }

  async raise(input: RaisedByTrigger): Promise<alarms.Alarm> {
    return this.enqueue(`trigger:${input.triggerId}:${input.deviceId ?? ''}`, async () => {
      const written = await insertAlarm(this.db, {
        organizationId: input.organizationId,
        ruleId: null,
        triggerId: input.triggerId,
        deviceId: input.deviceId,
        name: input.name,
        path: null,
        severity: input.severity,
        ackRequired: input.ackRequired,
        resetRequired: input.resetRequired,
        message: input.message,
        value: input.value,
        detail: 'raised by a trigger',
      });
      const alarm = await this.emitWritten(written);
      if (!alarm) throw new Error('the raised alarm was not found');
      return alarm;
    });
  }

  /**
   * An operator's ack, reset or clear of alarms of the organization (found by the caller in that organization).
   * Answers how many it changed: alarms it does not apply to are left alone.
   */
  async act(input: {
    organizationId: string;
    action: OperatorAction;
    alarms: AlarmKey[];
    by: string;
  }): Promise<number> {
    const changed = await Promise.all(
      input.alarms.map((alarm) =>
        this.enqueue(keyOfAlarm(alarm), async () => {
          const written = await operatorAction(this.db, {
            organizationId: input.organizationId,
            alarmId: alarm.id,
            action: input.action,
            by: input.by,
          });
          if (!written) return false;
          // Cleared while ACTIVE: the engine must not raise it again while the condition still holds.
          if (written.wasActive && alarm.ruleId && alarm.deviceId) {
            this.clearedByOperator(input.organizationId, alarm.ruleId, alarm.deviceId, alarm.id);
          }
          await this.emitWritten(written);
          return true;
        }),
      ),
    );
    return changed.filter(Boolean).length;
  }

  /** Resolves when every write started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.listening) {
      this.input.off('values', this.onValues);
      this.input.off('status', this.onStatus);
      this.ruleChanges?.stop();
      this.ruleChanges = undefined;
      this.listening = false;
    }
    for (const index of this.orgs.values()) {
      for (const rule of index.rules.values()) for (const state of rule.states.values()) stopTimers(state);
    }
    this.orgs.clear();
    await this.settled();
  }

  // --- evaluation (synchronous: it runs inside the ingest pipeline for every stored message) ---

  private readonly onValues = (event: ValuesEvent): void => {
    const index = this.orgs.get(event.organizationId);
    if (!index) return;
    const own = index.byDevice.get(event.deviceId);
    for (const path in event.values) {
      const any = index.anyDevice.get(path);
      const mine = own?.get(path);
      if (!any && !mine) continue;
      const value = event.values[path] as DataValue;
      if (any) for (const rule of any) this.onValue(event.organizationId, rule, event.deviceId, value);
      if (mine) for (const rule of mine) this.onValue(event.organizationId, rule, event.deviceId, value);
    }
  };

  private readonly onStatus = (event: StatusEvent): void => {
    const index = this.orgs.get(event.organizationId);
    if (!index) return;
    const offline = event.status === 'OFFLINE';
    for (const rule of index.offlineAny)
      this.setCondition(event.organizationId, rule, event.deviceId, offline, null);
    for (const rule of index.offlineByDevice.get(event.deviceId) ?? []) {
      this.setCondition(event.organizationId, rule, event.deviceId, offline, null);
    }
  };

  private onValue(organizationId: string, rule: ActiveRule, deviceId: string, value: DataValue): void {
    const condition = rule.row.condition;
    if (condition.kind === 'noData') {
      let state = rule.states.get(deviceId);
      if (!state) {
        state = newState();
        rule.states.set(deviceId, state);
      }
      if (state.noData) state.noData.refresh();
      else state.noData = this.noDataTimer(organizationId, rule, deviceId, condition.seconds * 1000);
      this.setCondition(organizationId, rule, deviceId, false, value, state);
      return;
    }
    if (!isValueCondition(condition)) return;
    const state = rule.states.get(deviceId);
    const holds = valueConditionHolds(condition, value, state?.holding ?? false, rule.row.hysteresis);
    if (holds === undefined) return;
    this.setCondition(organizationId, rule, deviceId, holds, value, state);
  }

  private noDataTimer(organizationId: string, rule: ActiveRule, deviceId: string, ms: number) {
    const timer = setTimeout(() => {
      if (rule.removed || this.closed) return;
      this.setCondition(organizationId, rule, deviceId, true, null);
    }, ms);
    timer.unref();
    return timer;
  }

  /** The condition of (rule, device) holds or not now; acts on a change only. */
  private setCondition(
    organizationId: string,
    rule: ActiveRule,
    deviceId: string,
    holds: boolean,
    value: DataValue | null,
    known?: RuleState,
  ): void {
    let state = known ?? rule.states.get(deviceId);
    if (!state) {
      if (!holds) return;
      state = newState();
      rule.states.set(deviceId, state);
    }
    if (holds) state.lastValue = value;
    if (state.holding === holds) return;
    state.holding = holds;
    if (holds) {
      const delay = rule.row.delaySeconds;
      if (delay <= 0) {
        this.raiseRule(organizationId, rule, deviceId, state);
        return;
      }
      const current = state;
      state.delay = setTimeout(() => {
        current.delay = undefined;
        if (current.holding && !rule.removed && !this.closed)
          this.raiseRule(organizationId, rule, deviceId, current);
      }, delay * 1000);
      state.delay.unref();
      return;
    }
    clearTimeout(state.delay);
    state.delay = undefined;
    if (state.suppressedAlarmId) {
      const alarmId = state.suppressedAlarmId;
      state.suppressedAlarmId = undefined;
      this.background(keyOf(rule.row.id, deviceId), async () =>
        this.emitWritten(await conditionGoneAfterClear(this.db, { organizationId, alarmId, value })),
      );
    } else if (state.raised) {
      state.raised = false;
      const ruleId = rule.row.id;
      this.background(keyOf(ruleId, deviceId), async () =>
        this.emitWritten(await conditionGone(this.db, { organizationId, ruleId, deviceId, value })),
      );
    }
    if (!state.noData) rule.states.delete(deviceId);
  }

  private raiseRule(organizationId: string, rule: ActiveRule, deviceId: string, state: RuleState): void {
    if (state.raised || state.suppressedAlarmId) return;
    state.raised = true;
    const row = rule.row;
    const value = state.lastValue;
    this.background(keyOf(row.id, deviceId), async () => {
      const label = await store.deviceLabel(this.db, deviceId);
      // The device was deleted meanwhile: nothing to raise.
      if (label === undefined) return;
      const path = rule.path ?? null;
      const written = await raiseForRule(this.db, {
        organizationId,
        ruleId: row.id,
        triggerId: null,
        deviceId,
        name: row.name,
        path,
        severity: row.severity,
        ackRequired: row.ackRequired,
        resetRequired: row.resetRequired,
        message: renderMessage(row.message, row.condition, {
          device: label,
          path: path ?? '',
          value,
          rule: row.name,
          severity: row.severity,
        }),
        value,
      });
      await this.emitWritten(written);
    });
  }

  /** An operator cleared an ACTIVE alarm of (rule, device): while the condition holds, it is not raised again. */
  private clearedByOperator(organizationId: string, ruleId: string, deviceId: string, alarmId: string): void {
    const state = this.orgs.get(organizationId)?.rules.get(ruleId)?.states.get(deviceId);
    if (!state) return;
    state.raised = false;
    if (state.holding) state.suppressedAlarmId = alarmId;
  }

  /** Forgets what is remembered for a rule; its ACTIVE alarms' condition clears with the reason. */
  private async forgetStates(rule: ActiveRule, reason: string): Promise<void> {
    const organizationId = rule.row.organizationId;
    const ruleId = rule.row.id;
    const writes: Promise<void>[] = [];
    for (const [deviceId, state] of rule.states) {
      stopTimers(state);
      if (!state.raised) continue;
      writes.push(
        this.enqueue(keyOf(ruleId, deviceId), async () =>
          this.emitWritten(
            await conditionGone(this.db, { organizationId, ruleId, deviceId, value: null, detail: reason }),
          ),
        ).then(() => undefined),
      );
    }
    rule.states.clear();
    await Promise.all(writes);
  }

  /**
   * This instance now runs the devices of `partitions` (cluster): what is going on for them is read from the database
   * (open alarms, no-data timers from the last stored values). Resolves before their events are delivered.
   */
  async gained(partitions: Set<number>): Promise<void> {
    await this.restoreDevices((deviceId) => partitions.has(partitionOf(deviceId)));
  }

  /** Another instance runs the devices of `partitions` from now on: their states and timers are dropped here. */
  lost(partitions: Set<number>): void {
    for (const index of this.orgs.values()) {
      for (const rule of index.rules.values()) {
        for (const [deviceId, state] of rule.states) {
          if (!partitions.has(partitionOf(deviceId))) continue;
          stopTimers(state);
          rule.states.delete(deviceId);
        }
      }
    }
  }

  private async restoreDevices(which: (deviceId: string) => boolean): Promise<void> {
    await this.restoreStates(which);
    for (const [organizationId, index] of this.orgs) {
      for (const rule of index.rules.values()) await this.seedNoData(organizationId, rule, which);
    }
  }

  /** Per (rule, device), ACTIVE alarms mean the condition held; operator-cleared ones suppress. */
  private async restoreStates(which: (deviceId: string) => boolean): Promise<void> {
    for (const row of await store.restartState(this.db)) {
      if (!row.ruleId || !row.deviceId || !which(row.deviceId)) continue;
      const rule = this.findRule(row.ruleId);
      if (!rule) continue;
      const state = rule.states.get(row.deviceId) ?? newState();
      state.holding = true;
      if (row.clearedAt === null) {
        state.raised = true;
        state.suppressedAlarmId = undefined;
      } else {
        state.raised = false;
        state.suppressedAlarmId = row.id;
      }
      rule.states.set(row.deviceId, state);
    }
  }

  /**
   * A noData rule counts from the last value each device stored before (it holds once the path has been silent that
   * long after reporting once), so a restart or a new rule does not wait for a first value.
   */
  private async seedNoData(
    organizationId: string,
    rule: ActiveRule,
    which: (deviceId: string) => boolean = this.owns,
  ): Promise<void> {
    const condition = rule.row.condition;
    if (condition.kind !== 'noData') return;
    const now = Date.now();
    for (const seen of await store.lastSeenOfPath(
      this.db,
      organizationId,
      condition.path,
      rule.row.deviceId,
    )) {
      if (!which(seen.deviceId)) continue;
      let state = rule.states.get(seen.deviceId);
      if (state?.noData) continue;
      if (!state) {
        state = newState();
        rule.states.set(seen.deviceId, state);
      }
      if (state.holding) {
        // Already raised before the restart: the next value clears it and starts the timer.
        continue;
      }
      const left = Math.max(0, condition.seconds * 1000 - (now - new Date(seen.ts).getTime()));
      state.noData = this.noDataTimer(organizationId, rule, seen.deviceId, left);
    }
  }

  private findRule(ruleId: string): ActiveRule | undefined {
    for (const index of this.orgs.values()) {
      const rule = index.rules.get(ruleId);
      if (rule) return rule;
    }
    return undefined;
  }

  // --- writes ---

  /** Runs `work` after the earlier writes of the same key. */
  private enqueue<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(key) ?? Promise.resolve();
    const result = previous.then(work);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(key, tail);
    this.pending.add(tail);
    void tail.then(() => {
      this.pending.delete(tail);
      if (this.chains.get(key) === tail) this.chains.delete(key);
    });
    return result;
  }

  private background(key: string, work: () => Promise<unknown>): void {
    this.enqueue(key, work).catch((error: unknown) => this.log.error({ error, key }, 'alarm write failed'));
  }

  /** Announces the steps a write made, each with the alarm as it is now. */
  private async emitWritten(written: Written): Promise<alarms.Alarm | undefined> {
    if (!written) return undefined;
    const row = await store.alarmById(this.db, written.alarmId);
    if (!row) return undefined;
    const alarm = store.toAlarm(row);
    for (const event of written.events) {
      try {
        this.events.emit('alarm', { organizationId: row.organizationId, event, alarm });
      } catch (error) {
        this.log.error({ error, alarmId: alarm.id, event }, 'an alarm listener failed');
      }
    }
    return alarm;
  }
}
