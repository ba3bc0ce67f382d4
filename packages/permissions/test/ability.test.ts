import { describe, expect, it } from 'vitest';
import type { RptRule } from '../src/index.ts';
import {
  buildAbility,
  can,
  canAll,
  canAny,
  canOnEntities,
  IOT_ONLY_RESOURCES,
  resourceEntity,
} from '../src/index.ts';
import { abilityOf, FULL_ORG } from './helpers.ts';

const NO_IOT = { iot: false, vpn: true };

describe('buildAbility', () => {
  it('grants exactly the actions listed per resource type', () => {
    const ability = buildAbility([{ rsname: 'devices', scopes: ['READ', 'UPDATE'] }], FULL_ORG);
    expect(can(ability, 'READ', 'devices')).toBe(true);
    expect(can(ability, 'UPDATE', 'devices')).toBe(true);
    expect(can(ability, 'DELETE', 'devices')).toBe(false);
    expect(can(ability, 'READ', 'devicegroups')).toBe(false);
  });

  it('grants nothing from an empty permission list', () => {
    const ability = buildAbility([], FULL_ORG);
    expect(can(ability, 'ACCESS', 'portal')).toBe(false);
    expect(ability.rules).toEqual([]);
  });

  it('ignores unknown resource types and actions in the token without throwing', () => {
    const fromToken: unknown = [
      { rsname: 'spaceships', scopes: ['READ'] },
      { rsname: 'devices', scopes: ['FLY', 'READ'] },
      { rsname: 'roles', scopes: 'READ' },
      42,
      null,
    ];
    const ability = buildAbility(fromToken as RptRule[], FULL_ORG);
    expect(can(ability, 'READ', 'devices')).toBe(true);
    expect(can(ability, 'READ', 'roles')).toBe(false);
    expect(ability.rules).toHaveLength(1);
  });

  it('keeps IoT-only resource permissions when the organization has IoT', () => {
    const ability = abilityOf(
      IOT_ONLY_RESOURCES.map((resource) => ['READ', resource] as const),
      FULL_ORG,
    );
    for (const resource of IOT_ONLY_RESOURCES) expect(can(ability, 'READ', resource)).toBe(true);
  });

  it('ignores permissions on models, dashboards, notifications and alarms when IoT is off', () => {
    const ability = buildAbility(
      [
        ...IOT_ONLY_RESOURCES.map((resource): RptRule => ({ rsname: resource, scopes: ['READ', 'UPDATE'] })),
        { rsname: 'devices', scopes: ['READ'] },
      ],
      NO_IOT,
    );
    for (const resource of IOT_ONLY_RESOURCES) {
      expect(can(ability, 'READ', resource)).toBe(false);
      expect(can(ability, 'UPDATE', resource)).toBe(false);
    }
    expect(can(ability, 'READ', 'devices')).toBe(true);
  });

  it('turns inverted rules into a cannot, whatever their place in the token', () => {
    const cannotFirst = buildAbility(
      [
        { rsname: 'devices', scopes: ['DELETE'], inverted: true },
        { rsname: 'devices', scopes: ['READ', 'DELETE'] },
      ],
      FULL_ORG,
    );
    expect(can(cannotFirst, 'READ', 'devices')).toBe(true);
    expect(can(cannotFirst, 'DELETE', 'devices')).toBe(false);
    expect(cannotFirst.cannot('DELETE', 'devices')).toBe(true);
  });

  it('lets an inverted rule with conditions forbid only the matching entities', () => {
    const ability = buildAbility(
      [
        { rsname: 'devices', scopes: ['DELETE'] },
        { rsname: 'devices', scopes: ['DELETE'], inverted: true, conditions: { locked: true } },
      ],
      FULL_ORG,
    );
    expect(can(ability, 'DELETE', resourceEntity('devices', { id: 'd1', locked: false }))).toBe(true);
    expect(can(ability, 'DELETE', resourceEntity('devices', { id: 'd2', locked: true }))).toBe(false);
  });

  it('matches conditions against entities: UPDATE devices only in the own organization', () => {
    const ability = buildAbility(
      [{ rsname: 'devices', scopes: ['UPDATE'], conditions: { organizationId: 'o1' } }],
      FULL_ORG,
    );
    expect(can(ability, 'UPDATE', resourceEntity('devices', { organizationId: 'o1' }))).toBe(true);
    expect(can(ability, 'UPDATE', resourceEntity('devices', { organizationId: 'o2' }))).toBe(false);
    expect(can(ability, 'UPDATE', resourceEntity('devicegroups', { organizationId: 'o1' }))).toBe(false);
    // CASL semantics: a type-level check asks whether the action is allowed on at least some entities.
    expect(can(ability, 'UPDATE', 'devices')).toBe(true);
  });

  it('supports Mongo-style operators in conditions', () => {
    const ability = buildAbility(
      [{ rsname: 'alarms', scopes: ['ACK'], conditions: { severity: { $in: ['low', 'medium'] } } }],
      FULL_ORG,
    );
    expect(can(ability, 'ACK', resourceEntity('alarms', { severity: 'low' }))).toBe(true);
    expect(can(ability, 'ACK', resourceEntity('alarms', { severity: 'high' }))).toBe(false);
  });

  it('drops an allow rule whose conditions cannot compile, so no later check throws', () => {
    const ability = buildAbility(
      [
        { rsname: 'devices', scopes: ['READ'], conditions: { organizationId: { $in: 'o1' } } },
        { rsname: 'roles', scopes: ['READ'] },
      ],
      FULL_ORG,
    );
    expect(() => can(ability, 'READ', resourceEntity('devices', { organizationId: 'o1' }))).not.toThrow();
    expect(can(ability, 'READ', resourceEntity('devices', { organizationId: 'o1' }))).toBe(false);
    expect(can(ability, 'READ', 'roles')).toBe(true);
  });

  it('makes an inverted rule with uncompilable conditions forbid unconditionally', () => {
    const ability = buildAbility(
      [
        { rsname: 'devices', scopes: ['DELETE'] },
        { rsname: 'devices', scopes: ['DELETE'], inverted: true, conditions: { tags: { $elemMatch: 1 } } },
      ],
      FULL_ORG,
    );
    expect(can(ability, 'DELETE', resourceEntity('devices', { tags: ['a'] }))).toBe(false);
    expect(can(ability, 'DELETE', 'devices')).toBe(false);
  });

  it('treats a condition that throws while matching as no match for allow rules', () => {
    const ability = buildAbility(
      [{ rsname: 'devices', scopes: ['READ'], conditions: { organizationId: { $gt: 'o1' } } }],
      FULL_ORG,
    );
    const odd = resourceEntity('devices', { organizationId: Object.create(null) });
    expect(can(ability, 'READ', odd)).toBe(false);
    expect(can(ability, 'READ', resourceEntity('devices', { organizationId: 'o2' }))).toBe(true);
  });

  it('treats a condition that throws while matching as a match for inverted rules', () => {
    const ability = buildAbility(
      [
        { rsname: 'devices', scopes: ['READ'] },
        {
          rsname: 'devices',
          scopes: ['READ'],
          inverted: true,
          conditions: { organizationId: { $gt: 'o1' } },
        },
      ],
      FULL_ORG,
    );
    const odd = resourceEntity('devices', { organizationId: Object.create(null) });
    expect(can(ability, 'READ', odd)).toBe(false);
    expect(can(ability, 'READ', resourceEntity('devices', { organizationId: 'o0' }))).toBe(true);
  });

  it('restricts a rule to its fields', () => {
    const ability = buildAbility(
      [{ rsname: 'devices', scopes: ['UPDATE'], fields: ['label', 'alias'] }],
      FULL_ORG,
    );
    expect(can(ability, 'UPDATE', 'devices', 'label')).toBe(true);
    expect(can(ability, 'UPDATE', 'devices', 'configuration')).toBe(false);
  });

  it('forbids fields through an inverted rule with fields', () => {
    const ability = buildAbility(
      [
        { rsname: 'users', scopes: ['UPDATE'] },
        { rsname: 'users', scopes: ['UPDATE'], inverted: true, fields: ['email'] },
      ],
      FULL_ORG,
    );
    expect(can(ability, 'UPDATE', 'users', 'groupPoliciesEnabled')).toBe(true);
    expect(can(ability, 'UPDATE', 'users', 'email')).toBe(false);
  });

  it('does not change the entity passed to resourceEntity', () => {
    const device = { organizationId: 'o1' };
    const tagged = resourceEntity('devices', device);
    expect(tagged).not.toBe(device);
    expect(Object.getOwnPropertyNames(device)).toEqual(['organizationId']);
  });
});

describe('checks on several permissions', () => {
  const ability = abilityOf([
    ['READ', 'roles'],
    ['CREATE', 'products'],
  ]);

  it('canAny holds when one of several permissions is held', () => {
    expect(
      canAny(ability, [
        ['READ', 'users'],
        ['READ', 'roles'],
      ]),
    ).toBe(true);
    expect(
      canAny(ability, [
        ['READ', 'users'],
        ['READ', 'usergroups'],
      ]),
    ).toBe(false);
    expect(canAny(ability, [])).toBe(false);
  });

  it('canAll holds only when every permission is held', () => {
    expect(
      canAll(ability, [
        ['READ', 'roles'],
        ['CREATE', 'products'],
      ]),
    ).toBe(true);
    expect(
      canAll(ability, [
        ['READ', 'roles'],
        ['UPDATE', 'products'],
      ]),
    ).toBe(false);
  });
});

describe('canOnEntities', () => {
  const ability = buildAbility(
    [{ rsname: 'devices', scopes: ['DELETE'], conditions: { organizationId: 'o1' } }],
    FULL_ORG,
  );
  const own = { id: 'd1', organizationId: 'o1' };
  const alsoOwn = { id: 'd2', organizationId: 'o1' };
  const foreign = { id: 'd3', organizationId: 'o2' };

  it("'one' holds when the action is allowed on at least one entity", () => {
    expect(canOnEntities(ability, 'DELETE', 'devices', [foreign, own], 'one')).toBe(true);
    expect(canOnEntities(ability, 'DELETE', 'devices', [foreign], 'one')).toBe(false);
  });

  it("'all' holds only when the action is allowed on every entity", () => {
    expect(canOnEntities(ability, 'DELETE', 'devices', [own, alsoOwn], 'all')).toBe(true);
    expect(canOnEntities(ability, 'DELETE', 'devices', [own, foreign], 'all')).toBe(false);
  });

  it('checks the entities as the given resource type', () => {
    expect(canOnEntities(ability, 'DELETE', 'devicegroups', [own], 'all')).toBe(false);
  });

  it('never allows an empty selection', () => {
    expect(canOnEntities(ability, 'DELETE', 'devices', [], 'one')).toBe(false);
    expect(canOnEntities(ability, 'DELETE', 'devices', [], 'all')).toBe(false);
  });
});
