import { describe, expect, it } from 'vitest';
import { followSource, type OwnCommit } from './use-form-follows.ts';

type Row = { name: string; label: string };
type Values = { rows: Row[] };
const valuesOf = (rows: Row[]): Values => ({ rows });
const named: OwnCommit<Row[], Values> = {
  next: [{ name: 'press', label: 'slot1' }],
  values: valuesOf([{ name: 'press', label: 'slot1' }]),
};
const labelled: OwnCommit<Row[], Values> = {
  next: [{ name: 'press', label: 'Press' }],
  values: valuesOf([{ name: 'press', label: 'Press' }]),
};
/** followSource as the hook calls it: the source's own values are what the form would be reset to. */
const follow = (pending: OwnCommit<Row[], Values>[], source: Row[], values: Values) =>
  followSource(pending, source, values, valuesOf(source));

describe('followSource', () => {
  it('resets the form to a source it did not commit (undo, redo, another part of the editor) and awaits nothing more', () => {
    const undone = [{ name: 'slot1', label: 'slot1' }];
    expect(follow([named, labelled], undone, labelled.values)).toEqual({ reset: true, pending: [] });
  });

  it('keeps what was typed when its own last commit comes back after more typing', () => {
    const typedOn = valuesOf([{ name: 'press', label: 'Pres' }]);
    expect(follow([labelled], labelled.next, typedOn)).toEqual({ reset: false, pending: [] });
  });

  it('does not reset a form that already shows its own commit, so the focus stays where the person moved it', () => {
    expect(follow([labelled], labelled.next, labelled.values)).toEqual({ reset: false, pending: [] });
  });

  it('resets to its own commit as the editor stored it when nothing was typed since (a name trimmed)', () => {
    const untrimmed = valuesOf([{ name: ' press ', label: 'Press' }]);
    expect(follow([{ ...labelled, values: untrimmed }], labelled.next, untrimmed)).toEqual({
      reset: true,
      pending: [],
    });
  });

  it('does not reset to a source that shows what the form shows, even one it did not commit', () => {
    expect(follow([], labelled.next, labelled.values)).toEqual({ reset: false, pending: [] });
  });

  it('does not go back to an earlier commit of its own that a deferred render still shows, and awaits the later one', () => {
    // The name was committed, then the label; the inspector first shows the state after the name only.
    expect(follow([named, labelled], named.next, labelled.values)).toEqual({
      reset: false,
      pending: [labelled],
    });
    expect(follow([labelled], labelled.next, labelled.values)).toEqual({ reset: false, pending: [] });
  });

  it('skips an earlier commit the deferred render never showed', () => {
    expect(follow([named, labelled], labelled.next, labelled.values)).toEqual({ reset: false, pending: [] });
  });
});
