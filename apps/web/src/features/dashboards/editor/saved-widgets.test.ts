import { describe, expect, it } from 'vitest';
import { versionParam } from './EditorPage.tsx';
import { savedWidgetPayload } from './saved-widgets.ts';

describe('saved widgets', () => {
  it('insert as a paste that brings the slots their bindings name', () => {
    const payload = savedWidgetPayload({
      schemaVersion: 2,
      widgets: [
        {
          id: 'chart',
          type: 'lineChart',
          layout: { x: 0, y: 0, w: 8, h: 6 },
          bindings: [
            { slot: 'press', path: '/a' },
            { slot: 'press', path: '/b' },
            { slot: 'oven', path: '/t' },
          ],
          options: { windowSeconds: 600 },
        },
      ],
    });
    expect(payload.format).toBe('edgeport/widgets');
    expect(payload.slots).toEqual([
      { name: 'press', label: 'press' },
      { name: 'oven', label: 'oven' },
    ]);
  });
});

describe('version parameter', () => {
  it('takes positive whole numbers only', () => {
    expect(versionParam('3')).toBe(3);
    expect(versionParam(null)).toBeUndefined();
    expect(versionParam('0')).toBeUndefined();
    expect(versionParam('-1')).toBeUndefined();
    expect(versionParam('1.5')).toBeUndefined();
    expect(versionParam('abc')).toBeUndefined();
  });
});
