import { readDocument, WIDGET_TYPES } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZES, defaultWidget, newId, normalizeLayout } from './defaults.ts';

describe('defaultWidget', () => {
  it('gives a valid widget of every type with its default size', () => {
    for (const type of WIDGET_TYPES) {
      const widget = defaultWidget(type, `w-${type}`);
      expect(widget.type).toBe(type);
      expect(widget.layout).toEqual({ x: 0, y: 0, ...DEFAULT_SIZES[type] });
      const read = readDocument('widget', { schemaVersion: 2, widgets: [widget] });
      expect(read.ok, `${type}: ${read.ok ? '' : read.errors.join('; ')}`).toBe(true);
    }
  });

  it('uses the sizes of the brief', () => {
    expect(DEFAULT_SIZES.value).toEqual({ w: 4, h: 3 });
    expect(DEFAULT_SIZES.gauge).toEqual({ w: 5, h: 5 });
    expect(DEFAULT_SIZES.lineChart).toEqual({ w: 8, h: 6 });
    expect(DEFAULT_SIZES.table).toEqual({ w: 6, h: 6 });
    expect(DEFAULT_SIZES.text).toEqual({ w: 6, h: 3 });
    expect(DEFAULT_SIZES.button).toEqual({ w: 4, h: 2 });
    expect(DEFAULT_SIZES.group).toEqual({ w: 8, h: 8 });
  });

  it('takes a layout and keeps it inside the grid', () => {
    expect(defaultWidget('value', 'a', { x: 22, y: 3 }).layout).toEqual({ x: 20, y: 3, w: 4, h: 3 });
    expect(defaultWidget('text', 'a', { w: 40, h: 0 }).layout).toEqual({ x: 0, y: 0, w: 24, h: 1 });
  });

  it('lets a new button navigate to the root page', () => {
    const button = defaultWidget('button', 'b', undefined, { rootPageId: 'home' });
    expect(button.type === 'button' && button.action).toEqual({ kind: 'navigate', pageId: 'home' });
  });
});

describe('normalizeLayout', () => {
  it('rounds and clamps', () => {
    expect(normalizeLayout({ x: -3, y: 2.6, w: 4.4, h: 500 })).toEqual({ x: 0, y: 3, w: 4, h: 200 });
    expect(normalizeLayout({ x: Number.NaN, y: 20_000, w: 1, h: 1 })).toEqual({
      x: 0,
      y: 10_000,
      w: 1,
      h: 1,
    });
  });
});

describe('newId', () => {
  it('is short, URL- and selector-safe, and does not repeat', () => {
    const ids = Array.from({ length: 20_000 }, () => newId());
    expect(ids.filter((id) => !/^[A-Za-z][A-Za-z0-9_-]{11}$/.test(id))).toEqual([]);
    expect(new Set(ids).size).toBe(20_000);
  });
});
