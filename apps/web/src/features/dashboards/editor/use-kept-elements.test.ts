import { createElement } from 'react';
import { describe, expect, it } from 'vitest';
import { keptElements } from './use-kept-elements.ts';

describe('keptElements', () => {
  it('keeps an element while its inputs are the same values, builds a new one when one changes', () => {
    const kept = keptElements();
    const runtime = {};
    const first = kept.keep('w1', [1, runtime, 'a'], () => createElement('div', { key: 'w1' }));
    expect(kept.keep('w1', [1, runtime, 'a'], () => createElement('span'))).toBe(first);
    const changed = kept.keep('w1', [1, {}, 'a'], () => createElement('div', { key: 'w1' }));
    expect(changed).not.toBe(first);
    expect(kept.keep('w2', [1, runtime, 'a'], () => createElement('p'))).not.toBe(changed);
  });

  it('forgets the keys no longer shown, only when more are kept than shown', () => {
    const kept = keptElements();
    const a = kept.keep('a', [1], () => createElement('div'));
    kept.keep('b', [1], () => createElement('div'));
    kept.prune(2, () => false);
    expect(kept.keep('a', [1], () => createElement('p'))).toBe(a);
    kept.prune(1, (key) => key === 'b');
    expect(kept.keep('a', [1], () => createElement('p'))).not.toBe(a);
  });
});
