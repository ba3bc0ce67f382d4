import { describe, expect, it } from 'vitest';
import { parseRptRule, parseRptRules } from '../src/index.ts';

describe('parseRptRules', () => {
  it('keeps well-formed Keycloak-style entries as they are', () => {
    const entry = {
      rsname: 'devices',
      scopes: ['READ', 'UPDATE'],
      resource_id: 'org-resource-1',
      claims: { origin: 'role' },
    };
    expect(parseRptRules([entry])).toEqual([entry]);
  });

  it('returns nothing for a claim that is not a list', () => {
    for (const claim of [undefined, null, 'devices', 7, { rsname: 'devices', scopes: ['READ'] }]) {
      expect(parseRptRules(claim)).toEqual([]);
    }
  });

  it('drops entries with an unknown resource type or without any known action', () => {
    const claim = [
      { rsname: 'spaceships', scopes: ['READ'] },
      { rsname: 'devices', scopes: ['FLY'] },
      { rsname: 'devices', scopes: [] },
      { rsname: 'devices' },
      { scopes: ['READ'] },
      'devices:READ',
      null,
    ];
    expect(parseRptRules(claim)).toEqual([]);
  });

  it('keeps the known actions of an entry and drops the unknown ones', () => {
    expect(parseRptRule({ rsname: 'roles', scopes: ['READ', 'FLY', 3, 'READ'] })).toEqual({
      rsname: 'roles',
      scopes: ['READ'],
    });
  });

  it('keeps inverted flags, conditions and fields', () => {
    const entry = {
      rsname: 'devices',
      scopes: ['UPDATE'],
      inverted: true,
      conditions: { organizationId: 'o1' },
      fields: ['label'],
    };
    expect(parseRptRule(entry)).toEqual(entry);
  });

  it('drops an allow rule whose conditions or fields are malformed', () => {
    expect(
      parseRptRule({ rsname: 'devices', scopes: ['READ'], conditions: 'organizationId=o1' }),
    ).toBeUndefined();
    expect(parseRptRule({ rsname: 'devices', scopes: ['READ'], fields: 'label' })).toBeUndefined();
    expect(parseRptRule({ rsname: 'devices', scopes: ['READ'], fields: [] })).toBeUndefined();
  });

  it('keeps an inverted rule without its malformed restriction, so it forbids more', () => {
    expect(
      parseRptRule({ rsname: 'devices', scopes: ['DELETE'], inverted: true, conditions: ['x'], fields: [1] }),
    ).toEqual({ rsname: 'devices', scopes: ['DELETE'], inverted: true });
  });

  it('reads a malformed inverted flag as inverted', () => {
    expect(parseRptRule({ rsname: 'devices', scopes: ['READ'], inverted: 'yes' })?.inverted).toBe(true);
    expect(parseRptRule({ rsname: 'devices', scopes: ['READ'], inverted: false })?.inverted).toBeUndefined();
  });
});
