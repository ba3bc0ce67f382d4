import type { Widget } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import { clampLayout, clickSelection, gridLayoutOf, movedLayouts, widgetsIn } from './canvas-layout.ts';

const widget = (id: string, layout: Widget['layout'], parentId?: string): Widget => ({
  id,
  type: 'text',
  layout,
  options: { text: id, size: 'md' },
  ...(parentId && { parentId }),
});

const a = widget('a', { x: 0, y: 0, w: 4, h: 2 });
const b = widget('b', { x: 4, y: 0, w: 4, h: 2 });
const child = widget('c', { x: 0, y: 0, w: 6, h: 2 }, 'g');

describe('canvas layout', () => {
  it('splits a page into its top level and each group', () => {
    expect(widgetsIn([a, b, child], undefined).map((item) => item.id)).toEqual(['a', 'b']);
    expect(widgetsIn([a, b, child], 'g').map((item) => item.id)).toEqual(['c']);
  });

  it('gives react-grid-layout the widgets positions', () => {
    expect(gridLayoutOf([a])).toEqual([{ i: 'a', x: 0, y: 0, w: 4, h: 2 }]);
  });

  it('reports only the widgets that moved or changed size, inside the grid bounds', () => {
    const moved = movedLayouts(
      [a, b],
      [
        { i: 'a', x: 0, y: 0, w: 4, h: 2 },
        { i: 'b', x: 22, y: 3.4, w: 5, h: 2 },
        { i: 'unknown', x: 1, y: 1, w: 1, h: 1 },
      ],
    );
    expect(moved).toEqual([{ id: 'b', layout: { x: 19, y: 3, w: 5, h: 2 } }]);
  });

  it('answers nothing when nothing moved (no empty history step)', () => {
    expect(movedLayouts([a, b], gridLayoutOf([a, b]))).toEqual([]);
  });

  it('clamps sizes to the schema limits', () => {
    expect(clampLayout({ x: -3, y: -1, w: 40, h: 500 })).toEqual({ x: 0, y: 0, w: 24, h: 200 });
    expect(clampLayout({ x: 30, y: 20_000, w: 0, h: 0 })).toEqual({ x: 23, y: 10_000, w: 1, h: 1 });
  });

  it('toggles with Ctrl, Cmd or Shift and replaces on a plain click', () => {
    const plain = { ctrlKey: false, metaKey: false, shiftKey: false };
    expect(clickSelection(plain)).toBe('replace');
    expect(clickSelection({ ...plain, ctrlKey: true })).toBe('toggle');
    expect(clickSelection({ ...plain, metaKey: true })).toBe('toggle');
    expect(clickSelection({ ...plain, shiftKey: true })).toBe('toggle');
  });
});
