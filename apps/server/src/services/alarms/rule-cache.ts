import { type DataValue, pathOf } from './conditions.ts';
import type { RuleRow } from './store.ts';

/** What the engine remembers of one (rule, device): only kept while something is going on for it. */
export type RuleState = {
  /** The condition holds (with hysteresis) as of the last value or event. */
  holding: boolean;
  /** An ACTIVE alarm exists for it (or its raise is queued). */
  raised: boolean;
  /** An operator cleared its alarm while the condition held: no new alarm until the condition went away. */
  suppressedAlarmId: string | undefined;
  lastValue: DataValue | null;
  /** Waiting for `delaySeconds` of holding before raising. */
  delay: NodeJS.Timeout | undefined;
  /** Fires when the path has been silent for the noData rule's seconds; refreshed by every value. */
  noData: NodeJS.Timeout | undefined;
};

export function newState(): RuleState {
  return {
    holding: false,
    raised: false,
    suppressedAlarmId: undefined,
    lastValue: null,
    delay: undefined,
    noData: undefined,
  };
}

export function stopTimers(state: RuleState): void {
  clearTimeout(state.delay);
  clearTimeout(state.noData);
  state.delay = undefined;
  state.noData = undefined;
}

/** An enabled rule as the engine evaluates it. The object stays the same while the rule exists (timers refer to it). */
export type ActiveRule = {
  row: RuleRow;
  /** The model path it watches; undefined for `offline`. */
  path: string | undefined;
  /** By device id. */
  states: Map<string, RuleState>;
  /** Set once the rule was deleted or disabled: pending timers do nothing. */
  removed: boolean;
};

export function activeRule(row: RuleRow): ActiveRule {
  return { row, path: pathOf(row.condition), states: new Map(), removed: false };
}

/**
 * One organization's enabled rules, indexed so that a stored message costs a map lookup per value when no rule
 * watches its paths: rules for every device by path, rules for one device by device then path, and offline rules.
 */
export type OrgRules = {
  rules: Map<string, ActiveRule>;
  anyDevice: Map<string, ActiveRule[]>;
  byDevice: Map<string, Map<string, ActiveRule[]>>;
  offlineAny: ActiveRule[];
  offlineByDevice: Map<string, ActiveRule[]>;
};

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function indexRules(rules: Iterable<ActiveRule>): OrgRules {
  const index: OrgRules = {
    rules: new Map(),
    anyDevice: new Map(),
    byDevice: new Map(),
    offlineAny: [],
    offlineByDevice: new Map(),
  };
  for (const rule of rules) {
    index.rules.set(rule.row.id, rule);
    const deviceId = rule.row.deviceId;
    if (rule.path === undefined) {
      if (deviceId) push(index.offlineByDevice, deviceId, rule);
      else index.offlineAny.push(rule);
      continue;
    }
    if (!deviceId) {
      push(index.anyDevice, rule.path, rule);
      continue;
    }
    let paths = index.byDevice.get(deviceId);
    if (!paths) {
      paths = new Map();
      index.byDevice.set(deviceId, paths);
    }
    push(paths, rule.path, rule);
  }
  return index;
}

/** Whether two versions of a rule evaluate differently enough that what is remembered for it must start over. */
export function evaluationChanged(before: RuleRow, after: RuleRow): boolean {
  return (
    before.deviceId !== after.deviceId || JSON.stringify(before.condition) !== JSON.stringify(after.condition)
  );
}
