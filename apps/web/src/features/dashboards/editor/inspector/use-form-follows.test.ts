import { describe, expect, it } from 'vitest';
import { followSource, type OwnCommit } from './use-form-follows.ts';

type Row = { name: string; label: string };
const named: OwnCommit<Row[], { rows: Row[] }> = {
  next: [{ name: 'press', label: 'slot1' }],
  values: { rows: [{ name: 'press', label: 'slot1' }] },
};
const labelled: OwnCommit<Row[], { rows: Row[] }> = {
  next: [{ name: 'press', label: 'Press' }],
  values: { rows: [{ name: 'press', label: 'Press' }] },
};

describe('followSource', () => {
  it('resets the form to a source it did not commit (undo, redo, another part of the editor) and awaits nothing more', () => {
    const undone = [{ name: 'slot1', label: 'slot1' }];
    expect(followSource([named, labelled], undone, labelled.values)).toEqual({ reset: true, pending: [] });
  });

  it('keeps what was typed when its own last commit comes back after more typing', () => {
    const typedOn = { rows: [{ name: 'press', label: 'Pres' }] };
    expect(followSource([labelled], labelled.next, typedOn)).toEqual({ reset: false, pending: [] });
  });

  it('resets to its own commit when nothing was typed since (the same values)', () => {
    expect(followSource([labelled], labelled.next, labelled.values)).toEqual({ reset: true, pending: [] });
  });

  it('does not go back to an earlier commit of its own that a deferred render still shows, and awaits the later one', () => {
    // The name was committed, then the label; the inspector first shows the state after the name only.
    expect(followSource([named, labelled], named.next, labelled.values)).toEqual({
      reset: false,
      pending: [labelled],
    });
    expect(followSource([labelled], labelled.next, labelled.values)).toEqual({ reset: true, pending: [] });
  });

  it('skips an earlier commit the deferred render never showed', () => {
    expect(followSource([named, labelled], labelled.next, labelled.values)).toEqual({
      reset: true,
      pending: [],
    });
  });
});
