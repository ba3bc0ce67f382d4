import { describe, expect, it } from 'vitest';
import type { DashboardDocument } from './dashboard.ts';
import { emptyDocument, readDocument } from './read.ts';

const DEVICE = '00000000-0000-4000-8000-000000000001';

function dashboard(change: (document: DashboardDocument) => void = () => {}): DashboardDocument {
  const document: DashboardDocument = {
    schemaVersion: 2,
    rootPageId: 'p1',
    pages: [
      {
        id: 'p1',
        title: 'Overview',
        widgets: [
          { id: 'g', type: 'group', layout: { x: 0, y: 0, w: 12, h: 8 }, options: {} },
          {
            id: 'v',
            type: 'value',
            parentId: 'g',
            layout: { x: 0, y: 0, w: 4, h: 3 },
            binding: { slot: 'press', path: '/press/temperature' },
            options: { unit: '°C' },
          },
          {
            id: 'b',
            type: 'button',
            layout: { x: 12, y: 0, w: 4, h: 2 },
            action: { kind: 'navigate', pageId: 'p2' },
            options: { label: 'Details' },
          },
        ],
      },
      { id: 'p2', title: 'Details', widgets: [] },
    ],
    slots: [{ name: 'press', label: 'Press', defaultDeviceId: DEVICE }],
    variables: [],
  };
  change(document);
  return document;
}

function errorsOf(raw: unknown, kind: 'dashboard' | 'flow' | 'widget' = 'dashboard'): string[] {
  const result = readDocument(kind, raw);
  return result.ok ? [] : result.errors;
}

describe('readDocument', () => {
  it('accepts a valid dashboard and every empty document', () => {
    expect(errorsOf(dashboard())).toEqual([]);
    for (const kind of ['dashboard', 'flow', 'widget'] as const)
      expect(errorsOf(emptyDocument(kind), kind)).toEqual([]);
  });

  it('names the widget field that is wrong, checked against the schema of its type', () => {
    const raw = dashboard((document) => {
      const widget = document.pages[0]?.widgets[1];
      if (widget) widget.layout.w = 30;
    });
    expect(errorsOf(raw)).toEqual(['document/pages/0/widgets/1/layout/w must be <= 24']);
    expect(
      errorsOf({ ...dashboard(), pages: [{ id: 'p1', title: 'x', widgets: [{ id: 'a', type: 'script' }] }] }),
    ).toEqual([expect.stringMatching(/^document\/pages\/0\/widgets\/0\/type must be one of value, gauge/)]);
  });

  it('refuses broken references: unknown slot, root page, navigate target, parent, duplicate ids, group cycles', () => {
    expect(
      errorsOf(
        dashboard((document) => {
          document.slots = [];
          document.rootPageId = 'nope';
          document.pages.pop();
        }),
      ),
    ).toEqual([
      'document/rootPageId must name one of the pages',
      "document/pages/0/widgets/1/binding/slot 'press' is not a slot of the dashboard",
      'document/pages/0/widgets/2/action/pageId must name one of the pages',
    ]);
    const cyclic = dashboard((document) => {
      const page = document.pages[0];
      if (!page) return;
      page.widgets.push({
        id: 'h',
        type: 'group',
        parentId: 'g',
        layout: { x: 0, y: 0, w: 2, h: 2 },
        options: {},
      });
      const group = page.widgets[0];
      if (group) group.parentId = 'h';
    });
    expect(errorsOf(cyclic)).toEqual(['document/pages/0/widgets parentId must not form a cycle']);
    const twice = dashboard((document) => {
      const page = document.pages[1];
      if (page) page.id = 'p1';
    });
    expect(errorsOf(twice)).toContain("document/pages/1/id 'p1' is used twice");
  });

  it('refuses iframe addresses other than http(s) and unknown properties', () => {
    const raw = dashboard((document) => {
      document.pages[1]?.widgets.push({
        id: 'f',
        type: 'iframe',
        layout: { x: 0, y: 0, w: 4, h: 4 },
        options: { url: 'javascript:alert(1)' },
      });
    });
    expect(errorsOf(raw)[0]).toMatch(/^document\/pages\/1\/widgets\/0\/options\/url must match pattern/);
    expect(errorsOf({ ...dashboard(), extra: 1 })[0]).toMatch(/^document/);
  });

  it('checks a binding formula (formulaMapping) and accepts who may see a widget (widgetPermissions)', () => {
    const withFormula = (formula: string) =>
      dashboard((document) => {
        const widget = document.pages[0]?.widgets[1];
        if (widget?.type === 'value' && widget.binding && 'slot' in widget.binding) {
          widget.binding = { ...widget.binding, formula };
          widget.visibleTo = 'editors';
        }
      });
    expect(errorsOf(withFormula('value * 1.8 + 32'))).toEqual([]);
    expect(errorsOf(withFormula('process.exit()'))[0]).toMatch(
      /^document\/pages\/0\/widgets\/1\/binding\/formula formula /,
    );
  });

  it('migrates a version 1 dashboard to the current version', () => {
    const result = readDocument('dashboard', {
      schemaVersion: 1,
      devices: ['press'],
      pages: [
        {
          name: 'Main',
          widgets: [
            {
              id: 'a',
              kind: 'label',
              x: 2,
              y: 1,
              w: 3,
              h: 2,
              path: '/press/temperature',
              props: { unit: '°C', title: 'T' },
            },
            {
              id: 'b',
              kind: 'gauge',
              x: 0,
              y: 3,
              w: 4,
              h: 4,
              deviceSlot: 'press',
              path: '/press/pressure',
              props: { max: 10 },
            },
            { id: 'c', kind: 'line', x: 4, y: 3, w: 8, h: 4, path: '/press/pressure' },
            { id: 'd', kind: 'text', x: 0, y: 7, w: 12, h: 2, props: { text: '<b>hi</b>' } },
          ],
        },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.document).toMatchObject({
      schemaVersion: 2,
      rootPageId: 'page-1',
      slots: [{ name: 'press', label: 'press' }],
      pages: [
        {
          id: 'page-1',
          title: 'Main',
          widgets: [
            {
              id: 'a',
              type: 'value',
              title: 'T',
              layout: { x: 4, y: 1, w: 6, h: 2 },
              binding: { slot: 'press', path: '/press/temperature' },
              options: { unit: '°C' },
            },
            { id: 'b', type: 'gauge', options: { min: 0, max: 10 } },
            { id: 'c', type: 'lineChart', bindings: [{ slot: 'press', path: '/press/pressure' }] },
            { id: 'd', type: 'text', layout: { x: 0, w: 24 }, options: { text: '<b>hi</b>' } },
          ],
        },
      ],
    });
  });

  it('refuses a version 1 document that does not follow version 1, and unknown versions', () => {
    expect(errorsOf({ schemaVersion: 1, devices: [], pages: [] })[0]).toMatch(/^document\/pages/);
    expect(errorsOf({ schemaVersion: 7 })).toEqual(['document/schemaVersion must be 1 or 2']);
  });

  it('checks flows: parents must exist and never form a cycle', () => {
    const entry = (id: string, parentId?: string) => ({
      id,
      ...(parentId && { parentId }),
      alias: id,
      icon: 'gauge',
      color: '#336699',
      target: { kind: 'dashboard', dashboardId: DEVICE },
      position: { x: 0, y: 0 },
    });
    expect(errorsOf({ schemaVersion: 1, entries: [entry('a'), entry('b', 'a')] }, 'flow')).toEqual([]);
    expect(errorsOf({ schemaVersion: 1, entries: [entry('a', 'b'), entry('b', 'a')] }, 'flow')).toEqual([
      'document/entries parentId must not form a cycle',
    ]);
    expect(errorsOf({ schemaVersion: 1, entries: [entry('a', 'zz')] }, 'flow')).toEqual([
      'document/entries/0/parentId must name another entry',
    ]);
  });
});
