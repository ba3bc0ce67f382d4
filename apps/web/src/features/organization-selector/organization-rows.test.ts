import { describe, expect, it } from 'vitest';
import { organization } from '../../test-support/organizations.ts';
import { organizationRows } from './organization-rows.ts';

const north = organization({ id: 'n', name: 'North', resourceId: 'north' });
const south = organization({ id: 's', name: 'South', resourceId: 'south' });
const seville = organization({ id: 'sv', name: 'Seville plant', resourceId: 'sev', parentId: 's' });
const orphan = organization({ id: 'o', name: 'Orphan', resourceId: 'orph', parentId: 'not-listed' });

describe('selector rows', () => {
  it('are a tree: sub-organizations under their parent, by name', () => {
    const rows = organizationRows([seville, south, orphan, north], '');
    expect(rows.map((row) => [row.organization.id, row.depth, row.parentName])).toEqual([
      ['n', 0, undefined],
      ['o', 0, undefined],
      ['s', 0, undefined],
      ['sv', 1, 'South'],
    ]);
  });

  it('are the flat matches on name or resourceId when searching, each naming its parent', () => {
    expect(organizationRows([north, south, seville], 'SEV').map((row) => row.organization.id)).toEqual([
      'sv',
    ]);
    expect(organizationRows([north, south, seville], 'sev')[0]?.parentName).toBe('South');
    expect(organizationRows([north, south, seville], 'nor').map((row) => row.organization.id)).toEqual(['n']);
    expect(organizationRows([north], 'zzz')).toEqual([]);
  });
});
