import type { DashboardDocument } from '@edgeport/dashboard-schema';

/** Deterministic ids for tests: id-1, id-2, ... */
export function counterIds(prefix = 'id'): () => string {
  let next = 0;
  return () => {
    next += 1;
    return `${prefix}-${next}`;
  };
}

/**
 * Two pages: the root page with a value bound to slot `motor`, a gauge bound to variable `limit`, a group `g1`
 * holding a text and a nested group `g2` (holding a button navigating to page 2); page 2 with a line chart on slots
 * `motor` and `pump` and a button writing to `pump`.
 */
export function sampleDocument(): DashboardDocument {
  return {
    schemaVersion: 2,
    rootPageId: 'home',
    slots: [
      { name: 'motor', label: 'Motor', modelId: '11111111-1111-4111-8111-111111111111' },
      { name: 'pump', label: 'Pump' },
      { name: 'spare', label: 'Spare' },
    ],
    variables: [
      { name: 'limit', type: 'number', initial: 10 },
      { name: 'mode', type: 'string', initial: 'auto' },
    ],
    pages: [
      {
        id: 'home',
        title: 'Home',
        widgets: [
          {
            id: 'speed',
            type: 'value',
            layout: { x: 0, y: 0, w: 4, h: 3 },
            binding: { slot: 'motor', path: '/motor/speed' },
            options: { unit: 'rpm' },
          },
          {
            id: 'gauge',
            type: 'gauge',
            layout: { x: 4, y: 0, w: 5, h: 5 },
            binding: { variable: 'limit' },
            options: { min: 0, max: 100 },
          },
          { id: 'g1', type: 'group', layout: { x: 0, y: 5, w: 12, h: 8 }, options: {} },
          {
            id: 'note',
            type: 'text',
            parentId: 'g1',
            layout: { x: 0, y: 0, w: 12, h: 3 },
            options: { text: 'Hello', size: 'md' },
          },
          { id: 'g2', type: 'group', parentId: 'g1', layout: { x: 12, y: 0, w: 12, h: 4 }, options: {} },
          {
            id: 'go',
            type: 'button',
            parentId: 'g2',
            layout: { x: 0, y: 0, w: 8, h: 2 },
            action: { kind: 'navigate', pageId: 'second' },
            options: { label: 'Details' },
          },
        ],
      },
      {
        id: 'second',
        title: 'Second',
        widgets: [
          {
            id: 'trend',
            type: 'lineChart',
            layout: { x: 0, y: 0, w: 12, h: 6 },
            bindings: [
              { slot: 'motor', path: '/motor/speed' },
              { slot: 'pump', path: '/pump/flow' },
            ],
            options: { windowSeconds: 600 },
          },
          {
            id: 'start',
            type: 'button',
            layout: { x: 12, y: 0, w: 4, h: 2 },
            action: { kind: 'write', binding: { slot: 'pump', path: '/pump/on' }, value: true },
            options: { label: 'Start' },
          },
        ],
      },
    ],
  };
}
