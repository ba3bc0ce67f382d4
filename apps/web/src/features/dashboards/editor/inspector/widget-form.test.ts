import { readDocument, type Widget } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import { defaultWidget } from '../../model/defaults.ts';
import { applyForm, sameJson, toForm } from './widget-form.ts';

const layout = { x: 0, y: 0, w: 4, h: 3 };

function valid(widget: Widget): boolean {
  return readDocument('widget', { schemaVersion: 2, widgets: [widget] }).ok;
}

describe('widget form', () => {
  it('gives back every default widget unchanged (no empty history step)', () => {
    const types = [
      'value',
      'gauge',
      'lineChart',
      'barChart',
      'table',
      'deviceTable',
      'map',
      'alarmList',
      'image',
      'text',
      'button',
      'switch',
      'setpoint',
      'iframe',
      'group',
    ] as const;
    for (const type of types) {
      const widget = defaultWidget(type, `w-${type}`, layout);
      const result = applyForm(widget, toForm(widget));
      expect(result.ok, type).toBe(true);
      if (result.ok) expect(sameJson(result.widget, widget), type).toBe(true);
    }
  });

  it('sets the title and removes it when emptied', () => {
    const widget = defaultWidget('value', 'v', layout);
    const titled = applyForm(widget, { ...toForm(widget), title: '  Speed  ' });
    expect(titled.ok && titled.widget.title).toBe('Speed');
    if (!titled.ok) return;
    const untitled = applyForm(titled.widget, { ...toForm(titled.widget), title: '' });
    expect(untitled.ok && 'title' in untitled.widget).toBe(false);
  });

  it('reads optional numbers and leaves empty ones out', () => {
    const widget = defaultWidget('value', 'v', layout);
    const result = applyForm(widget, { ...toForm(widget), unit: 'rpm', decimals: '' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.widget).toMatchObject({ options: { unit: 'rpm' } });
    expect(result.widget.type === 'value' && 'decimals' in result.widget.options).toBe(false);
    expect(valid(result.widget)).toBe(true);
  });

  it('names each field that is wrong', () => {
    const gauge = defaultWidget('gauge', 'g', layout);
    const result = applyForm(gauge, {
      ...toForm(gauge),
      min: '10',
      max: '5',
      decimals: '9',
      unit: 'x'.repeat(21),
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        max: { problem: 'minBelowMax' },
        decimals: { problem: 'integer', min: 0, max: 6 },
        unit: { problem: 'tooLong', max: 20 },
      },
    });
    const chart = defaultWidget('barChart', 'c', layout);
    expect(applyForm(chart, { ...toForm(chart), windowSeconds: '', bucketSeconds: 'abc' })).toEqual({
      ok: false,
      errors: { windowSeconds: { problem: 'required' }, bucketSeconds: { problem: 'number' } },
    });
  });

  it('accepts only http(s) addresses for an iframe', () => {
    const frame = defaultWidget('iframe', 'f', layout);
    expect(applyForm(frame, { ...toForm(frame), url: 'javascript:alert(1)' })).toEqual({
      ok: false,
      errors: { url: { problem: 'url' } },
    });
    const good = applyForm(frame, { ...toForm(frame), url: 'https://example.com/x' });
    expect(good.ok && valid(good.widget)).toBe(true);
  });

  it('keeps a set-point step positive and its minimum below its maximum', () => {
    const setpoint = defaultWidget('setpoint', 's', layout);
    expect(applyForm(setpoint, { ...toForm(setpoint), step: '0', min: '3', max: '3' })).toEqual({
      ok: false,
      errors: { step: { problem: 'positive' }, max: { problem: 'minBelowMax' } },
    });
  });

  it('keeps the bindings, actions and assets it does not edit', () => {
    const value = {
      ...defaultWidget('value', 'v', layout),
      binding: { slot: 'press', path: '/t' },
    } as Widget;
    const result = applyForm(value, { ...toForm(value), unit: '°C' });
    expect(result.ok && result.widget).toMatchObject({ binding: { slot: 'press', path: '/t' } });
    const image = defaultWidget('image', 'i', layout);
    const withAsset = { ...image, options: { ...image.options, asset: 'logo.png' } } as Widget;
    const read = applyForm(withAsset, { ...toForm(withAsset), fit: 'cover', alt: 'Logo' });
    expect(read.ok && read.widget).toMatchObject({
      options: { asset: 'logo.png', source: 'dashboard', fit: 'cover', alt: 'Logo' },
    });
  });

  it('sets who sees the widget (widgetPermissions), everyone being the default that is not stored', () => {
    const value = defaultWidget('value', 'v', layout);
    expect(toForm(value).visibleTo).toBe('everyone');
    const hidden = applyForm(value, { ...toForm(value), visibleTo: 'editors' });
    expect(hidden.ok && hidden.widget.visibleTo).toBe('editors');
    if (!hidden.ok) return;
    expect(valid(hidden.widget)).toBe(true);
    // Another field changed while the choice is hidden: the widget stays meant for editors.
    const retitled = applyForm(hidden.widget, { ...toForm(hidden.widget), title: 'Speed' });
    expect(retitled.ok && retitled.widget).toMatchObject({ title: 'Speed', visibleTo: 'editors' });
    const shown = applyForm(hidden.widget, { ...toForm(hidden.widget), visibleTo: 'everyone' });
    expect(shown.ok && 'visibleTo' in shown.widget).toBe(false);
    // A widget that says 'everyone' explicitly is given back unchanged (no empty history step).
    const explicit = { ...value, visibleTo: 'everyone' } as Widget;
    const same = applyForm(explicit, toForm(explicit));
    expect(same.ok && sameJson(same.widget, explicit)).toBe(true);
  });

  it('compares JSON whatever the order of keys', () => {
    expect(sameJson({ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 2 })).toBe(false);
    expect(sameJson([1, 2], [2, 1])).toBe(false);
  });
});
