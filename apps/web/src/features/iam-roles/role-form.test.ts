import { describe, expect, it } from 'vitest';
import type { Role } from './api.ts';
import {
  emptyRoleForm,
  firstInvalidId,
  formToRole,
  gridToPermissions,
  modelPathError,
  parseConditions,
  permissionsToGrid,
  roleToForm,
} from './role-form.ts';

const role: Role = {
  id: '11111111-1111-4111-8111-111111111111',
  name: 'Viewer',
  description: 'reads',
  kind: 'general',
  permissions: [
    { rsname: 'portal', scopes: ['ACCESS'] },
    { rsname: 'devices', scopes: ['READ', 'UPDATE'] },
    { rsname: 'users', scopes: ['DELETE'], inverted: true, conditions: { email: 'boss@acme.test' } },
    { rsname: 'devices', scopes: ['DELETE'], inverted: true },
    { rsname: 'spaceships', scopes: ['READ'] },
  ],
  modelPathPermissions: [{ path: '/plant', read: true, write: false }],
  applicationPermissionIds: ['data.export'],
  deviceAccess: { deviceGroupIds: [], deviceIds: [], vpn: true },
  owners: [],
  usage: { users: 2, groups: 1 },
};

describe('the permission grid', () => {
  it('puts the first entry of each resource type in its row and keeps the others aside', () => {
    const { grid, extra } = permissionsToGrid(role.permissions);
    const devices = grid.find((row) => row.rsname === 'devices');
    expect(devices?.actions).toMatchObject({ READ: true, UPDATE: true, DELETE: false });
    const users = grid.find((row) => row.rsname === 'users');
    expect(users).toMatchObject({ inverted: true, conditions: '{"email":"boss@acme.test"}' });
    expect(extra).toEqual([role.permissions[3], role.permissions[4]]);
  });

  it('round-trips a role through the form without losing anything', () => {
    const input = formToRole(roleToForm(role));
    expect(input.permissions).toEqual([
      { rsname: 'users', scopes: ['DELETE'], inverted: true, conditions: { email: 'boss@acme.test' } },
      { rsname: 'devices', scopes: ['READ', 'UPDATE'] },
      { rsname: 'portal', scopes: ['ACCESS'] },
      role.permissions[3],
      role.permissions[4],
    ]);
    expect(input).toMatchObject({
      name: 'Viewer',
      applicationPermissionIds: ['data.export'],
      deviceAccess: { deviceGroupIds: [], deviceIds: [], vpn: true },
    });
  });

  it('drops rows without actions and builds entries in resource order', () => {
    const form = emptyRoleForm('general');
    const rows = form.grid.map((row) =>
      row.rsname === 'roles' || row.rsname === 'portal'
        ? {
            ...row,
            actions: { ...row.actions, READ: row.rsname === 'roles', ACCESS: row.rsname === 'portal' },
          }
        : row,
    );
    expect(gridToPermissions(rows, [])).toEqual([
      { rsname: 'roles', scopes: ['READ'] },
      { rsname: 'portal', scopes: ['ACCESS'] },
    ]);
  });
});

describe('validation helpers', () => {
  it('accepts empty or object conditions and refuses other JSON', () => {
    expect(parseConditions('')).toEqual({ ok: true, value: undefined });
    expect(parseConditions(' {} ')).toEqual({ ok: true, value: undefined });
    expect(parseConditions('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseConditions('{a:1}')).toEqual({ ok: false, error: 'notJson' });
    expect(parseConditions('[1]')).toEqual({ ok: false, error: 'notObject' });
    expect(parseConditions('null')).toEqual({ ok: false, error: 'notObject' });
  });

  it('checks model paths and device ids', () => {
    const all = [{ path: '/a' }, { path: '/a' }, { path: 'b' }];
    expect(modelPathError('', all)).toBe('required');
    expect(modelPathError('b', all)).toBe('slash');
    expect(modelPathError('/a', all)).toBe('duplicate');
    expect(modelPathError('/c', all)).toBeUndefined();
    expect(firstInvalidId(['5b3b4c7e-1111-4a7e-9d3c-000000000001', 'dev-1'])).toBe('dev-1');
    expect(firstInvalidId(['5B3B4C7E-1111-4A7E-9D3C-000000000001'])).toBeUndefined();
  });
});
