import type { Action, AppAbility, OrgFeatures, ResourceType, RptPermission } from '../src/index.ts';
import { ACTIONS, buildAbility, RESOURCE_TYPES } from '../src/index.ts';

export type Pair = readonly [Action, ResourceType];

export const FULL_ORG: OrgFeatures = { iot: true, vpn: true };

export const PORTAL: Pair = ['ACCESS', 'portal'];

export const ALL_PAIRS: readonly Pair[] = RESOURCE_TYPES.flatMap((resource) =>
  ACTIONS.map((action): Pair => [action, resource]),
);

export function samePair(a: Pair, b: Pair): boolean {
  return a[0] === b[0] && a[1] === b[1];
}

export function toPermissions(pairs: readonly Pair[]): RptPermission[] {
  return pairs.map(([action, resource]) => ({ rsname: resource, scopes: [action] }));
}

export function abilityOf(pairs: readonly Pair[], org: OrgFeatures = FULL_ORG): AppAbility {
  return buildAbility(toPermissions(pairs), org);
}
