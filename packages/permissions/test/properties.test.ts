import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { OrgFeatures, RptRule } from '../src/index.ts';
import {
  ACTIONS,
  buildAbility,
  canSeeScreen,
  HOME_ORDER,
  homeScreen,
  IOT_ONLY_RESOURCES,
  RESOURCE_TYPES,
  resourceEntity,
  SCREEN_IDS,
} from '../src/index.ts';
import type { Pair } from './helpers.ts';
import { ALL_PAIRS, abilityOf, PORTAL, samePair } from './helpers.ts';

const orgArb: fc.Arbitrary<OrgFeatures> = fc.record({ iot: fc.boolean(), vpn: fc.boolean() });
const pairsArb: fc.Arbitrary<Pair[]> = fc.subarray([...ALL_PAIRS]);

function visibleScreens(pairs: readonly Pair[], org: OrgFeatures): Set<string> {
  const ability = abilityOf(pairs, org);
  return new Set(SCREEN_IDS.filter((screen) => canSeeScreen(ability, screen, org)));
}

describe('properties', () => {
  it('removing a permission never makes a hidden screen visible', () => {
    fc.assert(
      fc.property(pairsArb, fc.nat(), orgArb, (pairs, index, org) => {
        fc.pre(pairs.length > 0);
        const removed = pairs[index % pairs.length];
        const fewer = pairs.filter((pair) => pair !== removed);
        const before = visibleScreens(pairs, org);
        for (const screen of visibleScreens(fewer, org)) expect(before.has(screen)).toBe(true);
      }),
    );
  });

  it('adding an inverted rule never makes a hidden screen visible', () => {
    const actionArb = fc.constantFrom(...ACTIONS);
    const resourceArb = fc.constantFrom(...RESOURCE_TYPES);
    fc.assert(
      fc.property(pairsArb, actionArb, resourceArb, orgArb, (pairs, action, resource, org) => {
        const allowed: RptRule[] = pairs.map(([a, r]) => ({ rsname: r, scopes: [a] }));
        const withCannot = buildAbility(
          [...allowed, { rsname: resource, scopes: [action], inverted: true }],
          org,
        );
        const before = visibleScreens(pairs, org);
        for (const screen of SCREEN_IDS) {
          if (canSeeScreen(withCannot, screen, org)) expect(before.has(screen)).toBe(true);
        }
      }),
    );
  });

  it('no screen is visible without ACCESS portal', () => {
    fc.assert(
      fc.property(pairsArb, orgArb, (pairs, org) => {
        const withoutPortal = pairs.filter((pair) => !samePair(pair, PORTAL));
        expect(visibleScreens(withoutPortal, org).size).toBe(0);
      }),
    );
  });

  it('homeScreen is the first visible screen of the home order, else directaccess', () => {
    fc.assert(
      fc.property(pairsArb, orgArb, (pairs, org) => {
        const ability = abilityOf(pairs, org);
        const home = homeScreen(ability, org);
        const candidates = HOME_ORDER.filter((screen) => screen !== 'vpn-devices' || !org.iot);
        const expected = candidates.find((screen) => canSeeScreen(ability, screen, org)) ?? 'directaccess';
        expect(home).toBe(expected);
      }),
    );
  });

  it('with IoT off, IoT-only resource permissions change nothing', () => {
    const org = { iot: false, vpn: true };
    fc.assert(
      fc.property(pairsArb, (pairs) => {
        const iotOnly: readonly string[] = IOT_ONLY_RESOURCES;
        const stripped = pairs.filter(([, resource]) => !iotOnly.includes(resource));
        const full = abilityOf(pairs, org);
        const reduced = abilityOf(stripped, org);
        for (const [action, resource] of ALL_PAIRS) {
          expect(full.can(action, resource)).toBe(reduced.can(action, resource));
        }
      }),
    );
  });

  it('never throws on arbitrary token content', () => {
    fc.assert(
      fc.property(fc.array(fc.anything()), orgArb, (junk, org) => {
        const ability = buildAbility(junk as RptRule[], org);
        for (const screen of SCREEN_IDS) canSeeScreen(ability, screen, org);
        homeScreen(ability, org);
      }),
    );
  });

  it('never throws on near-valid rules with arbitrary conditions and fields', () => {
    const ruleArb = fc.record(
      {
        rsname: fc.oneof(fc.constantFrom(...RESOURCE_TYPES), fc.string()),
        scopes: fc.array(fc.oneof(fc.constantFrom(...ACTIONS), fc.string())),
        inverted: fc.oneof(fc.boolean(), fc.anything()),
        conditions: fc.oneof(
          fc.dictionary(fc.constantFrom('organizationId', 'tags', '$and', '$or'), fc.anything()),
          fc.dictionary(
            fc.constantFrom('organizationId', 'severity'),
            fc.dictionary(
              fc.constantFrom('$in', '$regex', '$elemMatch', '$gt', '$size', '$exists'),
              fc.anything(),
            ),
          ),
          fc.anything(),
        ),
        fields: fc.oneof(fc.array(fc.string()), fc.anything()),
      },
      { requiredKeys: ['rsname', 'scopes'] },
    );
    const entityArb = fc.dictionary(fc.constantFrom('organizationId', 'tags', 'severity'), fc.anything());
    fc.assert(
      fc.property(fc.array(ruleArb), entityArb, orgArb, (rules, fields, org) => {
        const ability = buildAbility(rules as RptRule[], org);
        for (const [action, resource] of ALL_PAIRS) {
          ability.can(action, resource);
          ability.can(action, resourceEntity(resource, fields));
        }
      }),
    );
  });
});
