import { describe, expect, it } from 'vitest';
import { rebaseEdit } from './rebase-edit.ts';

type Edited = {
  title?: string;
  binding?: { slot: string; path: string };
  options: { decimals?: number; fit?: string; source?: string };
  bindings: string[];
};
const base: Edited = { title: 'Speed', options: { decimals: 1, fit: 'contain' }, bindings: ['a'] };

describe('rebaseEdit', () => {
  it('keeps a change made meanwhile elsewhere: a binding chosen before the title was committed', () => {
    const current = { ...base, binding: { slot: 'press', path: '/motor/speed' } };
    const next = { ...base, title: 'Rotor speed' };
    expect(rebaseEdit(base, next, current)).toEqual({ ...current, title: 'Rotor speed' });
  });

  it('applies the edit field by field inside an object, over another field changed meanwhile', () => {
    const current = { ...base, options: { ...base.options, fit: 'cover' } };
    const next = { ...base, options: { ...base.options, source: 'asset:1' } };
    expect(rebaseEdit(base, next, current).options).toEqual({ decimals: 1, fit: 'cover', source: 'asset:1' });
  });

  it('removes what the edit removed and takes lists whole', () => {
    const current = { ...base, bindings: ['a', 'b'] };
    const next = { ...base, title: undefined, bindings: ['c'] };
    const rebased = rebaseEdit(base, next, current);
    expect(rebased).not.toHaveProperty('title');
    expect(rebased.bindings).toEqual(['c']);
  });

  it('is the edit itself when nothing changed meanwhile, and the current value when the edit changes nothing', () => {
    const next = { ...base, options: { ...base.options, decimals: 2 } };
    expect(rebaseEdit(base, next, base)).toEqual(next);
    const current = { ...base, title: 'Other' };
    expect(rebaseEdit(base, { ...base }, current)).toBe(current);
  });
});
