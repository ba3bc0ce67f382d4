import { describe, expect, it } from 'vitest';
import { subtreeIds, type TreeOrganization, treeRows } from './tree.ts';

const org = (id: string, parentId: string | null, name = id): TreeOrganization => ({
  id,
  name,
  parentId,
  iotEnabled: true,
  vpnEnabled: false,
});

describe('the organization tree', () => {
  const root = org('root', null, 'Works');
  const descendants = [
    org('b', 'root', 'Beta'),
    org('a', 'root', 'Alpha'),
    org('a1', 'a', 'Alpha line'),
    org('stray', 'elsewhere', 'Stray'),
  ];

  it('lists parents before children, siblings by name, with depth and child counts', () => {
    const rows = treeRows(root, descendants);
    expect(rows.map((row) => [row.organization.id, row.depth, row.childCount, row.parentName])).toEqual([
      ['root', 0, 2, undefined],
      ['a', 1, 1, 'Works'],
      ['a1', 2, 0, 'Alpha'],
      ['b', 1, 0, 'Works'],
    ]);
  });

  it('leaves out organizations it cannot place and survives a cycle', () => {
    const cyclic = [org('x', 'y'), org('y', 'x'), org('c', 'root')];
    expect(treeRows(root, cyclic).map((row) => row.organization.id)).toEqual(['root', 'c']);
  });

  it('finds an organization and everything below it', () => {
    expect([...subtreeIds([root, ...descendants], 'a')].sort()).toEqual(['a', 'a1']);
    expect([...subtreeIds([root, ...descendants], 'root')].sort()).toEqual(['a', 'a1', 'b', 'root']);
  });
});
