import { describe, expect, it } from 'vitest';
import { followText, type TextCommit } from './use-followed-text.ts';

const overview: TextCommit = { committed: 'Overview', typed: 'Overview' };

describe('followText', () => {
  it('shows a source it did not commit (undo, redo, a change made elsewhere) and awaits nothing more', () => {
    expect(followText([overview], 'Main', 'Overview')).toEqual({ text: 'Main', pending: [] });
  });

  it('keeps what was typed after Enter when its own commit comes back', () => {
    expect(followText([overview], 'Overview', 'Overview A')).toEqual({ text: 'Overview A', pending: [] });
  });

  it('shows its commit as the editor stored it when nothing was typed since (a title trimmed)', () => {
    expect(followText([{ committed: 'Overview', typed: ' Overview ' }], 'Overview', ' Overview ')).toEqual({
      text: 'Overview',
      pending: [],
    });
  });

  it('keeps the text while a later commit is still on its way, and awaits only that one', () => {
    const later: TextCommit = { committed: 'Overview A', typed: 'Overview A' };
    expect(followText([overview, later], 'Overview', 'Overview A')).toEqual({
      text: 'Overview A',
      pending: [later],
    });
  });

  it('drops the earlier commits a deferred render skipped when the latest comes back', () => {
    const later: TextCommit = { committed: 'Overview A', typed: 'Overview A' };
    expect(followText([overview, later], 'Overview A', 'Overview AB')).toEqual({
      text: 'Overview AB',
      pending: [],
    });
  });
});
