import { type DashboardDocument, readDocument } from '@edgeport/dashboard-schema';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { createElement as h, type ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import shellTexts from '../../../locales/en.json';
import alarmTexts from '../../alarms/locales/en.json';
import devicesTexts from '../../devices/locales/en.json';
import { assetAddress, collectionKeys, DASHBOARD_VIEW_KEY } from '../api.ts';
import widgetTexts from '../widgets/locales/en.json';
import type { WidgetRuntime } from '../widgets/types.ts';
import { DashboardGrid } from './DashboardGrid.tsx';
import { DashboardView } from './DashboardView.tsx';
import viewerTexts from './locales/en.json';

const ORG = '5f0a8a7e-0000-4000-8000-00000000000a';
const DASHBOARD = '5f0a8a7e-0000-4000-8000-00000000000b';
const MODEL = '5f0a8a7e-0000-4000-8000-00000000000c';

vi.mock('../../../app/use-organization-api.ts', () => ({
  useOrganizationApi: () => ({
    organization: { id: '5f0a8a7e-0000-4000-8000-00000000000a', name: 'Org' },
    ability: { can: () => true },
    token: async () => 'token',
  }),
}));

/** A script in every text a user can type, each one different so that each is found literally. */
const evil = (where: string) => `<script>alert("${where}")</script><img src=x onerror=alert('${where}')>`;
/** Units hold at most 20 characters. */
const UNITS = {
  unit: '<svg onload=a()>U1',
  variable: '<svg onload=a()>U2',
  setpoint: '<svg onload=a()>U3',
  gauge: '<svg onload=a()>U4',
};

const document: DashboardDocument = {
  schemaVersion: 2,
  rootPageId: 'root',
  slots: [{ name: 'press', label: evil('slot label'), modelId: MODEL }],
  variables: [{ name: 'mode', type: 'string', initial: evil('variable') }],
  pages: [
    {
      id: 'root',
      title: evil('root page title'),
      widgets: [
        {
          id: 'text',
          type: 'text',
          title: evil('text title'),
          layout: { x: 0, y: 0, w: 6, h: 4 },
          options: { text: evil('text'), size: 'md' },
        },
        {
          id: 'value',
          type: 'value',
          title: evil('value title'),
          layout: { x: 6, y: 0, w: 6, h: 4 },
          binding: { slot: 'press', path: '/speed' },
          options: { unit: UNITS.unit },
        },
        {
          id: 'variable',
          type: 'value',
          layout: { x: 12, y: 0, w: 6, h: 4 },
          binding: { variable: 'mode' },
          options: { unit: UNITS.variable },
        },
        {
          id: 'table',
          type: 'table',
          title: evil('table title'),
          layout: { x: 0, y: 4, w: 12, h: 6 },
          bindings: [{ slot: 'press', path: `/${evil('path')}` }, { variable: 'mode' }],
          options: {},
        },
        {
          id: 'button',
          type: 'button',
          title: evil('button title'),
          layout: { x: 12, y: 4, w: 6, h: 3 },
          action: { kind: 'setVariable', variable: 'mode', value: evil('action value') },
          options: { label: evil('button label') },
        },
        {
          id: 'image',
          type: 'image',
          title: evil('image title'),
          layout: { x: 18, y: 4, w: 6, h: 6 },
          options: { asset: evil('asset name'), source: 'dashboard', fit: 'contain', alt: evil('alt') },
        },
        {
          id: 'group',
          type: 'group',
          title: evil('group title'),
          layout: { x: 0, y: 10, w: 24, h: 8 },
          options: {},
        },
        {
          id: 'setpoint',
          type: 'setpoint',
          parentId: 'group',
          title: evil('setpoint title'),
          layout: { x: 0, y: 0, w: 12, h: 4 },
          binding: { slot: 'press', path: '/target' },
          options: { unit: UNITS.setpoint },
        },
        {
          id: 'alarms',
          type: 'alarmList',
          parentId: 'group',
          title: evil('alarm list title'),
          layout: { x: 12, y: 0, w: 12, h: 4 },
          options: { slot: 'press', limit: 5 },
        },
      ],
    },
    {
      id: 'second',
      title: evil('second page title'),
      widgets: [
        {
          id: 'gauge',
          type: 'gauge',
          title: evil('gauge title'),
          layout: { x: 0, y: 0, w: 6, h: 6 },
          binding: { slot: 'press', path: '/speed' },
          options: { min: 0, max: 100, unit: UNITS.gauge },
        },
      ],
    },
  ],
};

/** What React makes of a text: the characters that could start markup escaped. */
function escaped(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#x27;');
}

/** Every element of the markup with its attributes (React quotes every value and escapes quotes inside). */
function elements(html: string): { tag: string; attributes: Map<string, string> }[] {
  const found: { tag: string; attributes: Map<string, string> }[] = [];
  for (const match of html.matchAll(/<([a-zA-Z][^\s/>]*)((?:\s+[^\s=/>]+(?:="[^"]*")?)*)\s*\/?>/g)) {
    const attributes = new Map<string, string>();
    for (const attribute of (match[2] ?? '').matchAll(/\s+([^\s=/>]+)(?:="([^"]*)")?/g)) {
      attributes.set((attribute[1] ?? '').toLowerCase(), attribute[2] ?? '');
    }
    found.push({ tag: (match[1] ?? '').toLowerCase(), attributes });
  }
  return found;
}

/** No script element, no event-handler attribute, no javascript: address, no iframe anywhere in the markup. */
function expectInert(html: string) {
  const all = elements(html);
  expect(all.length).toBeGreaterThan(20);
  for (const { tag, attributes } of all) {
    expect(tag).not.toBe('script');
    expect(tag).not.toBe('iframe');
    for (const [name, value] of attributes) {
      expect(name, `<${tag} ${name}>`).not.toMatch(/^on/);
      if (['src', 'href', 'action', 'formaction', 'xlink:href'].includes(name)) {
        expect(value.trim().toLowerCase(), `<${tag} ${name}>`).not.toMatch(/^(javascript|data|vbscript):/);
      }
    }
    if (tag === 'img') expect(attributes.get('src'), 'an <img> from the document').toMatch(/^blob:/);
  }
}

let i18n: typeof i18next;

beforeAll(async () => {
  i18n = i18next.createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    fallbackLng: false,
    resources: {
      'en-US': {
        translation: { ...shellTexts, ...alarmTexts, ...devicesTexts, ...widgetTexts, ...viewerTexts },
      },
    },
    interpolation: { escapeValue: false },
  });
});

function render(node: ReactNode, client = new QueryClient()): string {
  return renderToStaticMarkup(
    h(
      MemoryRouter,
      null,
      h(
        QueryClientProvider,
        { client },
        h(I18nextProvider, { i18n }, h(MantineProvider, { defaultColorScheme: 'light' }, node)),
      ),
    ),
  );
}

function staticRuntime(values: Record<string, string>, deviceId?: string): WidgetRuntime {
  return {
    mode: 'view',
    deviceOf: () => deviceId,
    valueOf: (binding) => {
      const key = 'variable' in binding ? binding.variable : binding.path;
      const value = values[key];
      return value === undefined ? undefined : { value, ts: 0 };
    },
    historyOf: () => [],
    write: async () => {},
    run: async () => {},
    assetUrl: (source, name) => assetAddress(DASHBOARD, source, name),
    slotLabel: (slot) => document.slots.find((candidate) => candidate.name === slot)?.label ?? slot,
  };
}

describe('a dashboard with script in every text field', () => {
  it('passes the schema except for a javascript: iframe address, which is refused', () => {
    expect(readDocument('dashboard', document).ok).toBe(true);
    const framed = structuredClone(document);
    framed.pages[0]?.widgets.push({
      id: 'frame',
      type: 'iframe',
      layout: { x: 0, y: 30, w: 6, h: 6 },
      options: { url: 'javascript:alert(document.cookie)' },
    });
    const read = readDocument('dashboard', framed);
    expect(read.ok).toBe(false);
    expect(read.ok ? [] : read.errors.join('\n')).toMatch(/pages\/0\/widgets\/9\/options\/url/);
  });

  it('renders the whole viewer inert, every text shown literally', () => {
    const client = new QueryClient();
    const dashboard = {
      id: DASHBOARD,
      kind: 'dashboard',
      name: evil('dashboard name'),
      description: evil('description'),
      ownerId: null,
      ownerName: null,
      currentVersion: 1,
      readers: [],
      editors: [],
      access: 'r',
      createdAt: new Date(0).toISOString(),
      updatedAt: new Date(0).toISOString(),
    };
    client.setQueryData([...collectionKeys.all(ORG), 'view', DASHBOARD], dashboard);
    client.setQueryData([DASHBOARD_VIEW_KEY, ORG, 'version', DASHBOARD, 1], {
      dashboardId: DASHBOARD,
      version: 1,
      current: true,
      derivedFrom: null,
      comment: '',
      createdBy: null,
      createdByName: null,
      createdAt: new Date(0).toISOString(),
      document,
      readers: [],
      editors: [],
    });
    // The slot's model has no device: every bound widget says so, with the slot's label.
    client.setQueryData([DASHBOARD_VIEW_KEY, ORG, 'slot-devices', MODEL], []);
    const imageUrl = assetAddress(DASHBOARD, 'dashboard', evil('asset name'));
    client.setQueryData(['dashboard-asset', ORG, imageUrl], new Blob(['<svg onload="alert(1)"/>']));

    const html = render(h(DashboardView, { dashboardId: DASHBOARD }), client);
    expectInert(html);
    expect(html).toContain('data-testid="dashboard-grid"');
    for (const where of [
      'dashboard name',
      'root page title',
      'second page title',
      'slot label',
      'text title',
      'text',
      'value title',
      'table title',
      'button title',
      'button label',
      'image title',
      'alt',
      'asset name',
      'group title',
      'setpoint title',
      'alarm list title',
    ]) {
      expect(html, where).toContain(escaped(evil(where)));
    }
    expect(html).toContain(escaped(`No device in slot ${evil('slot label')}`));
  });

  it('renders bound values, units and paths inert, and no iframe for a javascript: address', () => {
    const page = document.pages[0];
    if (!page) throw new Error('no page');
    const unchecked = {
      ...document,
      pages: [
        {
          ...page,
          widgets: [
            ...page.widgets,
            {
              id: 'frame',
              type: 'iframe' as const,
              title: evil('iframe title'),
              layout: { x: 0, y: 30, w: 6, h: 6 },
              options: { url: 'javascript:alert(document.cookie)' },
            },
          ],
        },
        ...document.pages.slice(1),
      ],
    } satisfies DashboardDocument;
    const runtime = staticRuntime(
      { '/speed': evil('live value'), mode: evil('variable'), '/target': evil('target') },
      '5f0a8a7e-0000-4000-8000-00000000000d',
    );
    const html = [
      render(h(DashboardGrid, { document: unchecked, pageId: 'root', runtime })),
      render(h(DashboardGrid, { document: unchecked, pageId: 'second', runtime })),
    ].join('\n');
    expectInert(html);
    for (const where of ['live value', 'variable', 'gauge title', 'iframe title', 'path']) {
      expect(html, where).toContain(escaped(evil(where)));
    }
    for (const unit of Object.values(UNITS)) expect(html, unit).toContain(escaped(unit));
    expect(html).toContain('Only http and https addresses can be shown.');
  });

  it('frames an https page sandboxed: scripts and forms only, never same-origin, no referrer', () => {
    const framed: DashboardDocument = {
      ...document,
      pages: [
        {
          id: 'root',
          title: 'Frame',
          widgets: [
            {
              id: 'frame',
              type: 'iframe',
              title: evil('iframe title'),
              layout: { x: 0, y: 0, w: 12, h: 8 },
              options: { url: 'https://hmi.example.com/panel?line=1' },
            },
          ],
        },
      ],
    };
    expect(readDocument('dashboard', framed).ok).toBe(true);
    const html = render(h(DashboardGrid, { document: framed, pageId: 'root', runtime: staticRuntime({}) }));
    const frames = elements(html).filter((element) => element.tag === 'iframe');
    expect(frames).toHaveLength(1);
    const attributes = frames[0]?.attributes;
    expect(attributes?.get('src')).toBe('https://hmi.example.com/panel?line=1');
    expect(attributes?.get('sandbox')).toBe('allow-scripts allow-forms');
    expect(attributes?.get('referrerpolicy')).toBe('no-referrer');
    expect(attributes?.get('title')).toBe(escaped(evil('iframe title')));
  });
});
