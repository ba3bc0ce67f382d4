import type { Action, ResourceType } from './resources.ts';
import { isAction, isResourceType } from './resources.ts';

/** One entry of the RPT's `authorization.permissions` list (Keycloak style). */
export type RptPermission = {
  rsname: ResourceType;
  scopes: Action[];
  resource_id?: string;
  claims?: Record<string, unknown>;
};

/** Spec 6: a permission may also be inverted (a "cannot") and carry conditions and fields. */
export type RptRule = RptPermission & {
  inverted?: boolean;
  conditions?: Record<string, unknown>;
  fields?: string[];
};

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isFieldList(value: unknown): value is string[] {
  return Array.isArray(value) && value.length > 0 && value.every((field) => typeof field === 'string');
}

// A malformed restriction fails closed: an allow rule that carries it is dropped,
// an inverted rule loses the restriction and so forbids more.
function restrictionsOf(
  entry: Record<string, unknown>,
  inverted: boolean,
): Pick<RptRule, 'conditions' | 'fields'> | undefined {
  const { conditions, fields } = entry;
  const badConditions = conditions !== undefined && !isRecord(conditions);
  const badFields = fields !== undefined && !isFieldList(fields);
  if (!inverted && (badConditions || badFields)) return undefined;
  return {
    ...(isRecord(conditions) && { conditions }),
    ...(isFieldList(fields) && { fields }),
  };
}

// Anything but an explicit false/absent is read as inverted, so a malformed flag never grants access.
function isInverted(entry: Record<string, unknown>): boolean {
  return entry.inverted !== undefined && entry.inverted !== false;
}

/** Keeps one token entry if it names a known resource type and at least one known action. */
export function parseRptRule(entry: unknown): RptRule | undefined {
  if (!isRecord(entry) || !isResourceType(entry.rsname)) return undefined;
  const scopes = Array.isArray(entry.scopes) ? entry.scopes.filter(isAction) : [];
  if (scopes.length === 0) return undefined;
  const inverted = isInverted(entry);
  const restrictions = restrictionsOf(entry, inverted);
  if (!restrictions) return undefined;
  return {
    rsname: entry.rsname,
    scopes: [...new Set(scopes)],
    ...(typeof entry.resource_id === 'string' && { resource_id: entry.resource_id }),
    ...(isRecord(entry.claims) && { claims: entry.claims }),
    ...(inverted && { inverted }),
    ...restrictions,
  };
}

/** Reads a token's `authorization.permissions` claim; unknown or malformed entries are ignored. */
export function parseRptRules(claim: unknown): RptRule[] {
  if (!Array.isArray(claim)) return [];
  return claim.flatMap((entry) => parseRptRule(entry) ?? []);
}
