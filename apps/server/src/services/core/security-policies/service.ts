import type { common, core } from '@edgeport/contract';
import type { Db } from '../../../db/index.ts';
import { badRequest, conflict, notFound } from '../../../http/errors.ts';
import type { Principal } from '../../../http/principal.ts';
import { recordAudit } from '../../audit/service.ts';
import { deviceInOrganization } from '../devices/service.ts';
import { authorizeInOrganization } from '../organizations/service.ts';
import { combineSignInRules, DEFAULT_RULES, type SignInRules, validRules } from './rules.ts';
import * as store from './store.ts';

/** Nested security policy groups go at most this many levels deep. */
const MAX_NESTING = 20;

export function toPolicy(row: store.PolicyWithCounts): core.SecurityPolicy {
  return {
    id: row.id,
    organizationId: row.organizationId,
    parentId: row.parentId,
    name: row.name,
    description: row.description,
    rules: row.rules,
    deviceCount: row.deviceCount,
    userCount: row.userCount,
    childCount: row.childCount,
    createdAt: row.createdAt.toISOString(),
  };
}

async function policyOf(db: Db, organizationId: string, id: string) {
  const row = await store.findPolicy(db, organizationId, id);
  if (!row) throw notFound(`security policy '${id}' not found`);
  return row;
}

/**
 * Checks a new parent: a policy of the same organization that is neither the policy itself nor nested inside it
 * (that would make a cycle), and not too deep.
 */
async function checkParent(db: Db, organizationId: string, parentId: string, self?: string): Promise<void> {
  if (parentId === self) throw badRequest('parentId: a security policy cannot contain itself');
  let current: string | null | undefined = parentId;
  let depth = 0;
  while (current) {
    if (current === self) {
      throw badRequest('parentId: the policy is nested inside the policy it would contain (a cycle)');
    }
    const next = await store.parentOf(db, organizationId, current);
    if (next === undefined) {
      if (current === parentId) {
        throw badRequest(`parentId: no security policy '${parentId}' in this organization`);
      }
      break;
    }
    depth += 1;
    if (depth > MAX_NESTING) throw badRequest(`parentId: policies nest at most ${MAX_NESTING} levels deep`);
    current = next;
  }
}

export async function listPolicies(db: Db, principal: Principal, ref: string, query: common.PageQuery) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  const page = await store.pageOfPolicies(db, org.id, query);
  return { ...page, items: page.items.map(toPolicy) };
}

export async function listNestedPolicies(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  query: common.PageQuery,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  await policyOf(db, org.id, id);
  const page = await store.pageOfPolicies(db, org.id, query, id);
  return { ...page, items: page.items.map(toPolicy) };
}

export async function getPolicy(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  return toPolicy(await policyOf(db, org.id, id));
}

export async function createPolicy(
  db: Db,
  principal: Principal,
  ref: string,
  input: core.SecurityPolicyCreate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const name = input.name.trim();
  if (!name) throw badRequest('name must not be blank');
  const rules = validRules(input.rules ?? DEFAULT_RULES);
  const parentId = input.parentId ?? null;
  if (parentId) await checkParent(db, org.id, parentId);
  if (await store.nameTaken(db, org.id, name)) {
    throw conflict(`name: a security policy named '${name}' already exists in this organization`);
  }
  const row = await store.insertPolicy(db, {
    organizationId: org.id,
    name,
    description: input.description ?? '',
    parentId,
    rules,
  });
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'securityPolicies.create',
    resourceType: 'securityPolicies',
    resourceId: row.id,
    resourceName: row.name,
    detail: { parentId, rules },
  });
  return toPolicy(await policyOf(db, org.id, row.id));
}

export async function updatePolicy(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  input: core.SecurityPolicyUpdate,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const before = await policyOf(db, org.id, id);
  const changes: Parameters<typeof store.updatePolicy>[3] = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name) throw badRequest('name must not be blank');
    if (await store.nameTaken(db, org.id, name, id)) {
      throw conflict(`name: a security policy named '${name}' already exists in this organization`);
    }
    changes.name = name;
  }
  if (input.description !== undefined) changes.description = input.description;
  if (input.rules !== undefined) changes.rules = validRules(input.rules);
  if (input.parentId !== undefined) {
    if (input.parentId) await checkParent(db, org.id, input.parentId, id);
    changes.parentId = input.parentId;
  }
  await store.updatePolicy(db, org.id, id, changes);
  const after = await policyOf(db, org.id, id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'securityPolicies.update',
    resourceType: 'securityPolicies',
    resourceId: id,
    resourceName: after.name,
    detail: {
      changes,
      before: {
        name: before.name,
        description: before.description,
        parentId: before.parentId,
        rules: before.rules,
      },
    },
  });
  return toPolicy(after);
}

/** Deletes a policy and its user and device assignments; refused (409) while policies are nested in it. */
export async function deletePolicy(db: Db, principal: Principal, ref: string, id: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const policy = await policyOf(db, org.id, id);
  if (policy.childCount > 0) {
    throw conflict(
      `security policy '${policy.name}' contains ${policy.childCount} nested polic${policy.childCount === 1 ? 'y' : 'ies'}; move or delete ${policy.childCount === 1 ? 'it' : 'them'} first`,
    );
  }
  await store.deletePolicy(db, org.id, id);
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'securityPolicies.delete',
    resourceType: 'securityPolicies',
    resourceId: id,
    resourceName: policy.name,
    detail: { deviceCount: policy.deviceCount, userCount: policy.userCount },
  });
}

export async function listPolicyDevices(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  query: common.PageQuery,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'READ', 'organizations');
  await policyOf(db, org.id, id);
  return store.pageOfPolicyDevices(db, id, query);
}

/** Assigns a device of the same organization to the policy (UPDATE organizations); assigning twice is fine. */
export async function assignDevice(db: Db, principal: Principal, ref: string, id: string, deviceId: string) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const policy = await policyOf(db, org.id, id);
  const device = await deviceInOrganization(db, org.id, deviceId);
  if (!device) throw notFound(`device '${deviceId}' not found`);
  if (await store.assignDevice(db, policy.id, device.id)) {
    await recordAudit(db, principal, {
      organizationId: org.id,
      action: 'securityPolicies.assignDevice',
      resourceType: 'securityPolicies',
      resourceId: policy.id,
      resourceName: policy.name,
      detail: { deviceId: device.id, deviceLabel: device.label },
    });
  }
}

export async function unassignDevice(
  db: Db,
  principal: Principal,
  ref: string,
  id: string,
  deviceId: string,
) {
  const org = await authorizeInOrganization(db, principal, ref, 'UPDATE', 'organizations');
  const policy = await policyOf(db, org.id, id);
  const device = await deviceInOrganization(db, org.id, deviceId);
  if (!device) throw notFound(`device '${deviceId}' not found`);
  if (!(await store.unassignDevice(db, policy.id, device.id))) {
    throw notFound(`device '${device.label}' is not assigned to security policy '${policy.name}'`);
  }
  await recordAudit(db, principal, {
    organizationId: org.id,
    action: 'securityPolicies.unassignDevice',
    resourceType: 'securityPolicies',
    resourceId: policy.id,
    resourceName: policy.name,
    detail: { deviceId: device.id, deviceLabel: device.label },
  });
}

/** What the user's security policy groups demand when they sign in (used by the identity server). */
export async function signInRulesOf(db: Db, userId: string): Promise<SignInRules> {
  return combineSignInRules(await store.rulesAssignedToUser(db, userId));
}
