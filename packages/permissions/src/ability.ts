import type { ConditionsMatcher, ForcedSubject, MongoAbility, MongoQuery, RawRuleOf } from '@casl/ability';
import { createMongoAbility, mongoQueryMatcher, subject as tagSubject } from '@casl/ability';
import type { Action, ResourceType } from './resources.ts';
import { isIotOnlyResource } from './resources.ts';
import type { RptRule } from './rpt.ts';
import { parseRptRules } from './rpt.ts';

/** What the selected organization has switched on. */
export type OrgFeatures = { iot: boolean; vpn: boolean };

/** An entity tagged with its resource type, so conditions can be matched against its fields. */
export type ResourceEntity<T extends ResourceType = ResourceType> = ForcedSubject<T>;
export type AppSubject = ResourceType | ResourceEntity;
export type AppAbility = MongoAbility<[Action, AppSubject]>;
export type PermissionCheck = readonly [Action, AppSubject];
export type EntityMatchMode = 'one' | 'all';

type AppRawRule = RawRuleOf<AppAbility>;

function appliesToOrg(rule: RptRule, org: OrgFeatures): boolean {
  return org.iot || !isIotOnlyResource(rule.rsname);
}

// CASL compiles conditions lazily and throws on a bad operator at check time; checking here keeps
// every later check from throwing.
function compiles(conditions: Record<string, unknown>): boolean {
  try {
    mongoQueryMatcher(conditions);
    return true;
  } catch {
    return false;
  }
}

function toCaslRule(rule: RptRule, failClosed: WeakSet<object>): AppRawRule[] {
  const conditions = rule.conditions && compiles(rule.conditions) ? { ...rule.conditions } : undefined;
  // An uncompilable condition fails closed: the allow rule goes, the inverted rule forbids unconditionally.
  if (rule.conditions && !conditions && !rule.inverted) return [];
  if (conditions && rule.inverted) failClosed.add(conditions);
  return [
    {
      action: rule.scopes,
      subject: rule.rsname,
      ...(rule.inverted && { inverted: true }),
      ...(conditions && { conditions: conditions as MongoQuery }),
      ...(rule.fields && { fields: rule.fields }),
    },
  ];
}

// Matching can still throw on odd values (e.g. an object without prototype compared to a string);
// such a failure counts as a match for inverted rules and as no match for allow rules.
function safeConditionsMatcher(failClosed: WeakSet<object>): ConditionsMatcher<MongoQuery> {
  return (conditions) => {
    const match = mongoQueryMatcher(conditions);
    const onError = failClosed.has(conditions);
    const safeMatch = (object: Record<string, unknown>) => {
      try {
        return match(object);
      } catch {
        return onError;
      }
    };
    return Object.assign(safeMatch, { ast: match.ast });
  };
}

/**
 * Turns the RPT permission list into the organization's ability. Unknown resource types and
 * actions are ignored; when the organization has no IoT, rules on IoT-only resources are dropped.
 */
export function buildAbility(permissions: readonly RptRule[], org: OrgFeatures): AppAbility {
  const failClosed = new WeakSet<object>();
  const rules = parseRptRules(permissions)
    .filter((rule) => appliesToOrg(rule, org))
    .flatMap((rule) => toCaslRule(rule, failClosed));
  // CASL lets later rules win; putting every inverted rule last makes a "cannot" win whatever the token order.
  const ordered = [...rules.filter((rule) => !rule.inverted), ...rules.filter((rule) => rule.inverted)];
  return createMongoAbility<AppAbility>(ordered, { conditionsMatcher: safeConditionsMatcher(failClosed) });
}

/** Tags a copy of `fields` as an entity of `type`, for checks that match conditions. */
export function resourceEntity<T extends ResourceType, E extends object>(
  type: T,
  fields: E,
): E & ResourceEntity<T> {
  return tagSubject(type, { ...fields });
}

export function can(ability: AppAbility, action: Action, target: AppSubject, field?: string): boolean {
  return ability.can(action, target, field);
}

/** True when at least one of the checks holds. */
export function canAny(ability: AppAbility, checks: readonly PermissionCheck[]): boolean {
  return checks.some(([action, target]) => ability.can(action, target));
}

/** True when every one of the checks holds. */
export function canAll(ability: AppAbility, checks: readonly PermissionCheck[]): boolean {
  return checks.every(([action, target]) => ability.can(action, target));
}

/**
 * Checks an action on one ('one') or all ('all') of several entities of one resource type.
 * An empty selection is never allowed: there is nothing to act on.
 */
export function canOnEntities(
  ability: AppAbility,
  action: Action,
  subjectType: ResourceType,
  entities: readonly object[],
  mode: EntityMatchMode,
): boolean {
  if (entities.length === 0) return false;
  const allowed = (entity: object) => ability.can(action, resourceEntity(subjectType, entity));
  return mode === 'all' ? entities.every(allowed) : entities.some(allowed);
}
