import { type DashboardDocument, readDocument, type Widget } from '@edgeport/dashboard-schema';
import { MantineProvider } from '@mantine/core';
import i18next from 'i18next';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import widgetTexts from '../widgets/locales/en.json';
import type { WidgetRuntime } from '../widgets/types.ts';
import { DashboardGrid } from './DashboardGrid.tsx';
import viewerTexts from './locales/en.json';
import { shownTo, visibleWidgets } from './visibility.ts';

const layout = { x: 0, y: 0, w: 6, h: 3 };
const text = (id: string, extra: Partial<Widget> = {}): Widget =>
  ({ id, type: 'text', layout, options: { text: `Text ${id}`, size: 'md' }, ...extra }) as Widget;

const widgets: Widget[] = [
  text('public'),
  text('secret', { visibleTo: 'editors' }),
  text('explicit', { visibleTo: 'everyone' }),
  { id: 'tools', type: 'group', layout: { x: 0, y: 6, w: 12, h: 6 }, visibleTo: 'editors', options: {} },
  text('inTools', { parentId: 'tools' }),
  { id: 'box', type: 'group', layout: { x: 12, y: 6, w: 12, h: 6 }, options: {} },
  text('inBox', { parentId: 'box' }),
  text('secretInBox', { parentId: 'box', visibleTo: 'editors' }),
];

const ids = (list: readonly Widget[]) => list.map((widget) => widget.id);

describe('widgets meant for editors (widgetPermissions)', () => {
  it('are shown to owners and editors, not to readers', () => {
    const secret = widgets[1] as Widget;
    expect(shownTo(secret, 'owner')).toBe(true);
    expect(shownTo(secret, 'r/w')).toBe(true);
    expect(shownTo(secret, 'r')).toBe(false);
    expect(shownTo(widgets[0] as Widget, 'r')).toBe(true);
    expect(shownTo(widgets[2] as Widget, 'r')).toBe(true);
  });

  it('leave a reader’s page with what is inside a hidden group left out too', () => {
    expect(visibleWidgets(widgets, 'owner')).toBe(widgets);
    expect(visibleWidgets(widgets, 'r/w')).toBe(widgets);
    expect(ids(visibleWidgets(widgets, 'r'))).toEqual(['public', 'explicit', 'box', 'inBox']);
    const plain = [text('a'), text('b')];
    expect(visibleWidgets(plain, 'r')).toBe(plain);
  });

  describe('in the viewer’s grid', () => {
    let i18n: typeof i18next;
    beforeAll(async () => {
      i18n = i18next.createInstance();
      await i18n.use(initReactI18next).init({
        lng: 'en',
        resources: { en: { translation: { ...widgetTexts, ...viewerTexts } } },
        interpolation: { escapeValue: false },
      });
    });

    const runtime: WidgetRuntime = {
      mode: 'view',
      deviceOf: () => undefined,
      valueOf: () => undefined,
      historyOf: () => [],
      write: async () => {},
      run: async () => {},
      assetUrl: () => '',
    };
    const document: DashboardDocument = {
      schemaVersion: 2,
      rootPageId: 'main',
      slots: [],
      variables: [],
      pages: [
        { id: 'main', title: 'Main', widgets },
        { id: 'toolPage', title: 'Tools', widgets: [text('onlyTool', { visibleTo: 'editors' })] },
      ],
    };
    const render = (pageId: string, access?: 'owner' | 'r/w' | 'r') =>
      renderToStaticMarkup(
        h(
          MemoryRouter,
          null,
          h(
            I18nextProvider,
            { i18n },
            h(MantineProvider, null, h(DashboardGrid, { document, pageId, runtime, access })),
          ),
        ),
      );
    const shownIds = (html: string) =>
      [...html.matchAll(/data-widget-id="([^"]+)"/g)].map((match) => match[1]).sort();

    it('renders every widget for owners and editors, and leaves the hidden ones out for readers', () => {
      const read = readDocument('dashboard', document);
      expect(read.ok ? [] : read.errors).toEqual([]);
      const all = ['box', 'explicit', 'inBox', 'inTools', 'public', 'secret', 'secretInBox', 'tools'];
      expect(shownIds(render('main'))).toEqual(all);
      expect(shownIds(render('main', 'r/w'))).toEqual(all);
      const reader = render('main', 'r');
      expect(shownIds(reader)).toEqual(['box', 'explicit', 'inBox', 'public']);
      expect(reader).not.toContain('Text secret');
      expect(reader).not.toContain('Text inTools');
    });

    it('shows a reader a page of hidden widgets as an empty page', () => {
      expect(render('toolPage', 'r')).toContain('This page has no widgets yet.');
      expect(render('toolPage', 'owner')).toContain('Text onlyTool');
    });
  });
});
