import { readDocument } from '@edgeport/dashboard-schema';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18next from 'i18next';
import { createElement as h } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { defaultWidget } from '../../model/defaults.ts';
import widgetTexts from '../../widgets/locales/en.json';
import editorTexts from '../locales/en.json';
import { boundTo, formulaProblem, withFormula } from './formula-field.ts';
import { WidgetInspector } from './WidgetInspector.tsx';

vi.mock('../../../../app/use-organization-api.ts', () => ({
  useOrganizationApi: () => ({
    organization: { id: '5f0a8a7e-0000-4000-8000-00000000000a', name: 'Org' },
    ability: { can: () => true },
    token: async () => 'token',
  }),
}));

const layout = { x: 0, y: 0, w: 6, h: 4 };

describe('a binding’s formula in the inspector (formulaMapping)', () => {
  it('is checked as it is typed, each problem in its own words', () => {
    expect(formulaProblem('')).toBeUndefined();
    expect(formulaProblem('   ')).toBeUndefined();
    expect(formulaProblem('value * 1.8 + 32')).toBeUndefined();
    expect(formulaProblem('round(value / 10) * 10')).toBeUndefined();
    expect(formulaProblem('value *')).toBe('parse');
    expect(formulaProblem('process.exit()')).toBe('invalid');
    expect(formulaProblem('temperature * 2')).toBe('invalid');
    expect(formulaProblem('"hot"')).toBe('notNumber');
    expect(formulaProblem(`value${' + 1'.repeat(130)}`)).toBe('tooLong');
  });

  it('is stored trimmed, removed when emptied, and kept when the path or slot changes', () => {
    const binding = { slot: 'oven', path: '/temperature' };
    expect(withFormula(binding, '  value * 1.8 + 32 ')).toEqual({ ...binding, formula: 'value * 1.8 + 32' });
    expect(withFormula({ ...binding, formula: 'value / 10' }, ' ')).toEqual(binding);
    expect(boundTo({ ...binding, formula: 'value / 10' }, 'oven', '/setpoint')).toEqual({
      slot: 'oven',
      path: '/setpoint',
      formula: 'value / 10',
    });
    expect(boundTo(binding, 'press', '/speed')).toEqual({ slot: 'press', path: '/speed' });
    expect(boundTo({ variable: 'mode' }, 'press', '/speed')).toEqual({ slot: 'press', path: '/speed' });
    expect(boundTo(undefined, 'press', '/speed')).toEqual({ slot: 'press', path: '/speed' });
  });
});

describe('the widget inspector’s experimental fields', () => {
  let i18n: typeof i18next;
  beforeAll(async () => {
    i18n = i18next.createInstance();
    await i18n.use(initReactI18next).init({
      lng: 'en',
      resources: { en: { translation: { ...widgetTexts, ...editorTexts } } },
      interpolation: { escapeValue: false },
    });
  });

  const widget = {
    ...defaultWidget('value', 'temperature', layout),
    binding: { slot: 'oven', path: '/temperature', formula: 'value * 1.8 + 32' },
    visibleTo: 'editors' as const,
  };
  const document = {
    schemaVersion: 2 as const,
    rootPageId: 'main',
    slots: [{ name: 'oven', label: 'Oven' }],
    variables: [],
    pages: [{ id: 'main', title: 'Main', widgets: [widget] }],
  };

  const render = (flags: { formulaMapping?: boolean; widgetPermissions?: boolean }) =>
    renderToStaticMarkup(
      h(
        MemoryRouter,
        null,
        h(
          QueryClientProvider,
          { client: new QueryClient() },
          h(
            I18nextProvider,
            { i18n },
            h(
              MantineProvider,
              null,
              h(WidgetInspector, {
                widget,
                document,
                dashboardId: undefined,
                showJson: false,
                onUpdate: () => {},
                ...flags,
              }),
            ),
          ),
        ),
      ),
    );

  it('shows the formula of a device binding and who sees the widget when their flags are on', () => {
    expect(readDocument('dashboard', document).ok).toBe(true);
    const html = render({ formulaMapping: true, widgetPermissions: true });
    expect(html).toMatch(
      /data-testid="binding-formula"[^>]*value="value \* 1\.8 \+ 32"|value="value \* 1\.8 \+ 32"[^>]*data-testid="binding-formula"/,
    );
    expect(html).toContain('Formula');
    expect(html).toContain('data-testid="inspector-visibleTo"');
    expect(html).toContain('Visible to');
    expect(html).toContain('value="Editors only"');
  });

  it('hides both fields when the flags are off (the values stay in the widget)', () => {
    const html = render({});
    expect(html).not.toContain('binding-formula');
    expect(html).not.toContain('inspector-visibleTo');
    expect(html).not.toContain('Visible to');
  });
});
