import { describe, expect, it } from 'vitest';
import { followSource, type OwnCommit } from './use-form-follows.ts';

type Row = { name: string; label: string };
type Values = { rows: Row[] };
const valuesOf = (...rows: Row[]): Values => ({ rows });
const namedValues = valuesOf({ name: 'press', label: 'slot1' });
const labelledValues = valuesOf({ name: 'press', label: 'Press' });
const named: OwnCommit<Values> = { committed: namedValues, typed: namedValues };
const labelled: OwnCommit<Values> = { committed: labelledValues, typed: labelledValues };

describe('followSource', () => {
  it('resets the form to a source it did not commit (undo, redo, another part of the editor) and awaits nothing more', () => {
    const undone = valuesOf({ name: 'slot1', label: 'slot1' });
    expect(followSource([named, labelled], undone, labelledValues)).toEqual({ reset: true, pending: [] });
  });

  it('keeps what was typed when its own last commit comes back after more typing', () => {
    const typedOn = valuesOf({ name: 'press', label: 'Pres' });
    expect(followSource([labelled], labelledValues, typedOn)).toEqual({ reset: false, pending: [] });
  });

  it('does not reset a form that already shows its own commit, so the focus stays where the person moved it', () => {
    expect(followSource([labelled], labelledValues, labelledValues)).toEqual({ reset: false, pending: [] });
  });

  it('resets to its own commit as the editor stored it when nothing was typed since (a name trimmed)', () => {
    const untrimmed = valuesOf({ name: ' press ', label: 'Press' });
    expect(
      followSource([{ committed: labelledValues, typed: untrimmed }], labelledValues, untrimmed),
    ).toEqual({
      reset: true,
      pending: [],
    });
  });

  it('does not reset to a source that shows what the form shows, even one it did not commit', () => {
    expect(followSource([], labelledValues, labelledValues)).toEqual({ reset: false, pending: [] });
  });

  it('does not go back to an earlier commit of its own that a deferred render still shows, and awaits the later one', () => {
    // The name was committed, then the label; the inspector first shows the state after the name only.
    expect(followSource([named, labelled], namedValues, labelledValues)).toEqual({
      reset: false,
      pending: [labelled],
    });
    expect(followSource([labelled], labelledValues, labelledValues)).toEqual({ reset: false, pending: [] });
  });

  it('leaves what is being typed alone when the source changed only elsewhere (a binding chosen, the layout)', () => {
    const typing = valuesOf({ name: 'press', label: 'Pre' });
    expect(followSource([], namedValues, typing, namedValues)).toEqual({ reset: false, pending: [] });
    expect(followSource([labelled], namedValues, typing, namedValues)).toEqual({
      reset: false,
      pending: [labelled],
    });
  });

  it('follows an undo of its fields even while typing', () => {
    const typing = valuesOf({ name: 'press', label: 'Pre' });
    expect(followSource([], namedValues, typing, labelledValues)).toEqual({ reset: true, pending: [] });
  });

  it('skips an earlier commit the deferred render never showed', () => {
    expect(followSource([named, labelled], labelledValues, labelledValues)).toEqual({
      reset: false,
      pending: [],
    });
  });
});
