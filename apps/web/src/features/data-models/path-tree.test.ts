import { describe, expect, it } from 'vitest';
import { buildPathTree, groupPaths, valueCount } from './path-tree.ts';

const paths = (...list: string[]) => list.map((path) => ({ path }));

describe('buildPathTree', () => {
  it('groups paths by their segments, groups first, names in natural order', () => {
    const tree = buildPathTree(
      paths('/state', '/motor/speed', '/axis10/pos', '/motor/current', '/axis2/pos', '/motor/temp/winding'),
    );
    expect(tree.map((node) => node.name)).toEqual(['axis2', 'axis10', 'motor', 'state']);
    const motor = tree[2];
    expect(motor?.path).toBe('/motor');
    expect(motor?.entry).toBeUndefined();
    expect(motor?.children.map((node) => node.path)).toEqual([
      '/motor/temp',
      '/motor/current',
      '/motor/speed',
    ]);
    expect(motor?.children[0]?.children[0]).toMatchObject({
      name: 'winding',
      path: '/motor/temp/winding',
      entry: { path: '/motor/temp/winding' },
      children: [],
    });
    expect(tree[3]).toMatchObject({ name: 'state', entry: { path: '/state' }, children: [] });
  });

  it('keeps the entries themselves on the value nodes', () => {
    const entry = { path: '/a/b', type: 'number', unit: 'bar' };
    const [group] = buildPathTree([entry]);
    expect(group?.children[0]?.entry).toBe(entry);
  });

  it('ignores entries without a segment and tolerates doubled slashes of a half-typed path', () => {
    const tree = buildPathTree(paths('', '/', '/a//b', '/a/'));
    expect(tree).toHaveLength(1);
    expect(tree[0]?.path).toBe('/a');
    expect(tree[0]?.entry).toEqual({ path: '/a/' });
    expect(tree[0]?.children[0]?.entry).toEqual({ path: '/a//b' });
  });

  it('keeps the first of duplicated paths', () => {
    const first = { path: '/x', n: 1 };
    const [node] = buildPathTree([first, { path: '/x', n: 2 }]);
    expect(node?.entry).toBe(first);
  });
});

describe('valueCount and groupPaths', () => {
  it('counts the values below a node and lists every group depth first', () => {
    const tree = buildPathTree(paths('/m/a', '/m/b', '/m/t/x', '/s'));
    expect(tree.map(valueCount)).toEqual([4 - 1, 1]);
    expect(groupPaths(tree)).toEqual(['/m', '/m/t']);
  });
});
