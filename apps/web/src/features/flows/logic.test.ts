import { type FlowDocument, type FlowEntry, readDocument } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import {
  childrenOf,
  copyName,
  levelOf,
  moveEntry,
  newDashboardPath,
  newEntryId,
  nextVersion,
  placeFor,
  removeEntries,
  replaceEntry,
  rootEntries,
  rowActions,
  setParent,
  shareChanges,
  slotDevicesOf,
  trailTo,
  versionActions,
  versionParam,
} from './logic.ts';
import { editPath, entryPath, openPath } from './paths.ts';

const DASHBOARD = '11111111-1111-4111-8111-111111111111';
const FLOW = '22222222-2222-4222-8222-222222222222';

function entry(id: string, parentId?: string, extra: Partial<FlowEntry> = {}): FlowEntry {
  return {
    id,
    ...(parentId ? { parentId } : {}),
    alias: id.toUpperCase(),
    icon: 'dashboard',
    color: '#1c7ed6',
    target: { kind: 'dashboard', dashboardId: DASHBOARD },
    position: { x: 0, y: 0 },
    ...extra,
  };
}

/** a ─ b ─ d, a ─ c; e alone. */
const TREE: FlowDocument = {
  schemaVersion: 1,
  entries: [entry('a'), entry('b', 'a'), entry('c', 'a'), entry('d', 'b'), entry('e')],
};

const ids = (entries: readonly { id: string }[]) => entries.map((item) => item.id);
const parentOf = (document: FlowDocument, id: string) =>
  document.entries.find((item) => item.id === id)?.parentId;

describe('row and version actions by access (spec 4)', () => {
  it('readers open and list versions only; editors also edit; owners also share and delete', () => {
    expect(rowActions('dashboard', 'r', false)).toEqual({
      open: true,
      edit: false,
      duplicate: false,
      share: false,
      versions: true,
      delete: false,
    });
    expect(rowActions('flow', 'r/w', true)).toEqual({
      open: true,
      edit: true,
      duplicate: true,
      share: false,
      versions: true,
      delete: false,
    });
    expect(rowActions('dashboard', 'owner', true)).toMatchObject({ edit: true, share: true, delete: true });
  });

  it('saved widgets have no viewer or editor', () => {
    expect(rowActions('widget', 'owner', true)).toMatchObject({ open: false, edit: false, share: true });
    expect(versionActions('widget', 'owner', false)).toMatchObject({
      open: false,
      edit: false,
      derive: true,
    });
  });

  it('only owners make a version current or delete it, never the current one', () => {
    expect(versionActions('dashboard', 'owner', false)).toEqual({
      open: true,
      edit: true,
      derive: true,
      makeCurrent: true,
      delete: true,
    });
    expect(versionActions('dashboard', 'owner', true)).toMatchObject({ makeCurrent: false, delete: false });
    expect(versionActions('dashboard', 'r/w', false)).toMatchObject({
      derive: true,
      makeCurrent: false,
      delete: false,
    });
    expect(versionActions('dashboard', 'r', false)).toMatchObject({ edit: false, derive: false });
  });
});

describe('names, versions and addresses', () => {
  const copy = (name: string) => `${name} (copy)`;

  it('names a copy, shortening the original to the name limit', () => {
    expect(copyName('Line 4', copy)).toBe('Line 4 (copy)');
    const long = 'x'.repeat(120);
    const named = copyName(long, copy);
    expect(named.length).toBeLessThanOrEqual(120);
    expect(named.endsWith('… (copy)')).toBe(true);
  });

  it('derives into the next free version number', () => {
    expect(nextVersion([{ version: 1 }, { version: 4 }, { version: 2 }])).toBe(5);
    expect(nextVersion([])).toBe(1);
  });

  it('builds the viewer, editor and entry addresses', () => {
    expect(openPath('dashboard', 'd1')).toBe('/dashboards/d1');
    expect(openPath('dashboard', 'd1', 3)).toBe('/dashboards/d1?version=3');
    expect(openPath('flow', 'f1', 2)).toBe('/flow/f1?version=2');
    expect(editPath('dashboard', 'd1', 2)).toBe('/dashboards/d1/edit?version=2');
    expect(editPath('flow', 'f1')).toBe('/flow/f1?edit=1');
    expect(editPath('flow', 'f1', 2)).toBe('/flow/f1?edit=1&version=2');
    expect(entryPath('f1', 'e-1', 4)).toBe('/flow/f1/e-1?version=4');
    expect(newDashboardPath(() => 'abc123')).toBe('/dashboards/new-abc123/new');
  });

  it('reads the version and the ecc_device_ slots of the address', () => {
    const params = new URLSearchParams('version=3&ecc_device_press=dev-1&ecc_device_oven=&other=x');
    expect(versionParam(params)).toBe(3);
    expect(slotDevicesOf(params)).toEqual({ press: 'dev-1' });
    expect(versionParam(new URLSearchParams('version=0'))).toBeUndefined();
    expect(versionParam(new URLSearchParams('version=2x'))).toBeUndefined();
  });

  it('makes entry ids the flow schema accepts and that are not taken', () => {
    const values = ['aaaaaaaa', 'bbbbbbbb'];
    const id = newEntryId([{ id: 'e-aaaaaaaa' }], () => values.shift() ?? 'cccccccc');
    expect(id).toBe('e-bbbbbbbb');
    expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });
});

describe('share changes (spec 4: no level removes from both lists)', () => {
  const shares = { readers: ['u1', 'u2'], editors: ['u3'] };

  it('knows each user level', () => {
    expect(levelOf(shares, 'u1')).toBe('r');
    expect(levelOf(shares, 'u3')).toBe('r/w');
    expect(levelOf(shares, 'u9')).toBe('none');
  });

  it('sends only the users whose level changed; none is sent without a level', () => {
    const choices = new Map([
      ['u1', 'r' as const],
      ['u2', 'none' as const],
      ['u3', 'r' as const],
      ['u4', 'r/w' as const],
      ['u5', 'none' as const],
    ]);
    expect(shareChanges(shares, choices)).toEqual([
      { user: 'u2' },
      { user: 'u3', level: 'r' },
      { user: 'u4', level: 'r/w' },
    ]);
  });
});

describe('the flow tree', () => {
  it('finds the first level, children and the trail to an entry', () => {
    expect(ids(rootEntries(TREE))).toEqual(['a', 'e']);
    expect(ids(childrenOf(TREE, 'a'))).toEqual(['b', 'c']);
    expect(ids(trailTo(TREE, 'd'))).toEqual(['a', 'b', 'd']);
    expect(trailTo(TREE, 'nope')).toEqual([]);
  });

  it('sets a parent, and refuses one that would make a cycle', () => {
    const moved = setParent(TREE, 'e', 'c');
    expect(moved.ok && parentOf(moved.document, 'e')).toBe('c');
    expect(setParent(TREE, 'a', 'd')).toEqual({ ok: false, reason: 'cycle' });
    expect(setParent(TREE, 'b', 'b')).toEqual({ ok: false, reason: 'cycle' });
    expect(setParent(TREE, 'b', 'ghost')).toEqual({ ok: false, reason: 'unknown' });
    const lifted = setParent(TREE, 'd', undefined);
    expect(lifted.ok && parentOf(lifted.document, 'd')).toBeUndefined();
    expect(TREE.entries.find((item) => item.id === 'd')?.parentId).toBe('b');
  });

  it('removes entries; their children move up to the nearest surviving ancestor', () => {
    const without = removeEntries(TREE, new Set(['b']));
    expect(ids(without.entries)).toEqual(['a', 'c', 'd', 'e']);
    expect(parentOf(without, 'd')).toBe('a');
    const bothGone = removeEntries(TREE, new Set(['a', 'b']));
    expect(parentOf(bothGone, 'd')).toBeUndefined();
    expect(parentOf(bothGone, 'c')).toBeUndefined();
  });

  it('replaces an entry, checking a changed parent', () => {
    const b = TREE.entries[1] as FlowEntry;
    const renamed = replaceEntry(TREE, { ...b, alias: 'Press' });
    expect(renamed.ok && renamed.document.entries[1]?.alias).toBe('Press');
    expect(renamed.ok && parentOf(renamed.document, 'b')).toBe('a');
    expect(replaceEntry(TREE, { ...b, parentId: 'd' })).toEqual({ ok: false, reason: 'cycle' });
    const { parentId: _dropped, ...rootB } = b;
    const lifted = replaceEntry(TREE, rootB);
    expect(lifted.ok && parentOf(lifted.document, 'b')).toBeUndefined();
  });

  it('moves and places entries', () => {
    const moved = moveEntry(TREE, 'e', { x: 10.6, y: -3.2 });
    expect(moved.entries[4]?.position).toEqual({ x: 11, y: -3 });
    const placed = {
      ...TREE,
      entries: TREE.entries.map((item) => ({ ...item, position: { x: 0, y: 100 } })),
    };
    expect(placeFor(placed, undefined)).toEqual({ x: 0, y: 240 });
    expect(placeFor(placed, 'e')).toEqual({ x: 0, y: 240 });
  });

  it('keeps every edit a valid flow document', () => {
    let document: FlowDocument = { schemaVersion: 1, entries: [] };
    const add = (item: FlowEntry) => {
      document = { ...document, entries: [...document.entries, item] };
    };
    add(entry('root'));
    add(entry('child', 'root', { target: { kind: 'flow', flowId: FLOW }, icon: 'folder' }));
    add(
      entry('leaf', 'child', {
        target: { kind: 'dashboard', dashboardId: DASHBOARD, slots: { press: DASHBOARD } },
      }),
    );
    const cyclic = setParent(document, 'root', 'leaf');
    expect(cyclic.ok).toBe(false);
    document = removeEntries(document, new Set(['child']));
    expect(readDocument('flow', document)).toEqual({ ok: true, document });
  });
});
