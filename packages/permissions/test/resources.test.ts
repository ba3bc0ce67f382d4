import { describe, expect, it } from 'vitest';
import { ACTIONS, IOT_ONLY_RESOURCES, isAction, isResourceType, RESOURCE_TYPES } from '../src/index.ts';

describe('resource types and actions', () => {
  it('lists the thirteen resource types of spec section 3', () => {
    expect(RESOURCE_TYPES).toEqual([
      'users',
      'usergroups',
      'roles',
      'devices',
      'devicegroups',
      'organizations',
      'models',
      'dashboards',
      'products',
      'notifications',
      'alarms',
      'portal',
      'audit',
    ]);
  });

  it('lists the nine actions of spec section 3', () => {
    expect(ACTIONS).toEqual([
      'READ',
      'CREATE',
      'DELETE',
      'UPDATE',
      'ACK',
      'RESET',
      'CLEAR',
      'ACCESS',
      'INHERIT',
    ]);
  });

  it('marks models, dashboards, notifications and alarms as IoT-only', () => {
    expect([...IOT_ONLY_RESOURCES].sort()).toEqual(['alarms', 'dashboards', 'models', 'notifications']);
  });

  it('recognises known resource types and rejects anything else', () => {
    expect(RESOURCE_TYPES.every(isResourceType)).toBe(true);
    for (const value of ['device', 'Devices', '', 'READ', 42, null, undefined, {}, ['devices']]) {
      expect(isResourceType(value)).toBe(false);
    }
  });

  it('recognises known actions and rejects anything else', () => {
    expect(ACTIONS.every(isAction)).toBe(true);
    for (const value of ['read', 'WRITE', '', 'devices', 0, null, undefined, ['READ']]) {
      expect(isAction(value)).toBe(false);
    }
  });
});
