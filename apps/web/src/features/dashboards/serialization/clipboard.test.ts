import { describe, expect, it } from 'vitest';
import * as editor from '../model/editor.ts';
import { sampleDocument } from '../model/test-fixtures.ts';
import type { ClipboardPayload } from '../model/types.ts';
import { CLIPBOARD_FORMAT, fromClipboardText, MAX_CLIPBOARD_CHARS, toClipboardText } from './clipboard.ts';

function copied(ids: string[]): ClipboardPayload {
  const payload = editor.copySelection(editor.select(editor.createEditor(sampleDocument()), ids, 'replace'));
  if (!payload) throw new Error('nothing copied');
  return payload;
}

function text(value: unknown): string {
  return JSON.stringify(value);
}

const valid = {
  format: CLIPBOARD_FORMAT,
  schemaVersion: 2,
  widgets: [
    { id: 'a', type: 'text', layout: { x: 0, y: 0, w: 4, h: 2 }, options: { text: 'hi', size: 'md' } },
  ],
  slots: [],
};

describe('clipboard text', () => {
  it('round-trips a payload', () => {
    const payload = copied(['speed', 'gauge', 'g1']);
    const serialized = toClipboardText(payload);
    expect(JSON.parse(serialized).format).toBe('edgeport/widgets');
    expect(fromClipboardText(serialized)).toEqual(payload);
    expect(fromClipboardText(`  \n${serialized}\n`)).toEqual(payload);
  });

  it('reads payloads without slots or variables, and more than 200 widgets', () => {
    expect(fromClipboardText(text(valid))).toEqual({ ...valid, variables: [] });
    const many = Array.from({ length: 450 }, (_, index) => ({ ...valid.widgets[0], id: `w${index}` }));
    expect(fromClipboardText(text({ ...valid, widgets: many }))?.widgets).toHaveLength(450);
  });

  it('rejects text that is not copied widgets', () => {
    for (const candidate of [
      '',
      'hello',
      '[1,2]',
      '{"format":"edgeport/widgets"',
      text({ ...valid, format: 'other' }),
      text({ ...valid, format: undefined }),
      text({ ...valid, schemaVersion: 3 }),
      text({ ...valid, widgets: [] }),
      text({ ...valid, widgets: 'x' }),
      text({ ...valid, slots: 'x' }),
      text({ ...valid, variables: [{ name: '1bad', type: 'number', initial: 0 }] }),
    ]) {
      expect(fromClipboardText(candidate), candidate).toBeNull();
    }
    expect(fromClipboardText(42)).toBeNull();
    expect(
      fromClipboardText(`{"format":"edgeport/widgets","x":"${'a'.repeat(MAX_CLIPBOARD_CHARS)}"}`),
    ).toBeNull();
  });

  it('rejects hostile widgets: unknown fields, script addresses, bad ids, oversized text, unknown types', () => {
    const widget = valid.widgets[0];
    const hostile = [
      { ...widget, onclick: 'alert(1)' },
      { ...widget, options: { text: 'x', size: 'md', html: '<script>alert(1)</script>' } },
      { id: 'f', type: 'iframe', layout: widget?.layout, options: { url: 'javascript:alert(1)' } },
      {
        id: 'f',
        type: 'iframe',
        layout: widget?.layout,
        options: { url: 'data:text/html,<script>alert(1)</script>' },
      },
      { ...widget, id: '"><img src=x onerror=alert(1)>' },
      { ...widget, options: { text: 'x'.repeat(5001), size: 'md' } },
      { ...widget, type: 'script' },
      { ...widget, layout: { x: 0, y: 0, w: 99, h: 2 } },
    ];
    for (const bad of hostile) {
      expect(fromClipboardText(text({ ...valid, widgets: [bad] })), text(bad)).toBeNull();
    }
    const protoText =
      '{"format":"edgeport/widgets","schemaVersion":2,"__proto__":{"polluted":true},"widgets":[{"id":"a","type":"text","layout":{"x":0,"y":0,"w":4,"h":2},"options":{"text":"hi","size":"md","__proto__":{"x":1}}}],"slots":[]}';
    expect(fromClipboardText(protoText)).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps script-like text as plain text data (rendered as text by the widgets)', () => {
    const script = {
      ...valid,
      widgets: [{ ...valid.widgets[0], options: { text: '<script>alert(1)</script>', size: 'md' } }],
    };
    expect(fromClipboardText(text(script))?.widgets[0]).toMatchObject({
      options: { text: '<script>alert(1)</script>' },
    });
  });

  it('rejects slots with invalid names or ids', () => {
    expect(fromClipboardText(text({ ...valid, slots: [{ name: 'Motor', label: 'x' }] }))).toBeNull();
    expect(
      fromClipboardText(text({ ...valid, slots: [{ name: 'motor', label: 'x', modelId: 'nope' }] })),
    ).toBeNull();
    expect(fromClipboardText(text({ ...valid, slots: [{ name: 'motor', label: 'x', evil: 1 }] }))).toBeNull();
  });

  it('migrates version 1 widgets', () => {
    const old = {
      format: CLIPBOARD_FORMAT,
      schemaVersion: 1,
      slots: [{ name: 'motor', label: 'Motor' }],
      widgets: [
        { id: 'l1', kind: 'label', x: 0, y: 0, w: 2, h: 2, path: '/motor/speed', props: { unit: 'rpm' } },
        {
          id: 'g1',
          kind: 'gauge',
          x: 2,
          y: 0,
          w: 3,
          h: 3,
          deviceSlot: 'pump',
          path: '/p',
          props: { max: 50 },
        },
      ],
    };
    const payload = fromClipboardText(text(old));
    expect(payload?.schemaVersion).toBe(2);
    expect(payload?.slots).toEqual([
      { name: 'motor', label: 'Motor' },
      { name: 'pump', label: 'pump' },
    ]);
    expect(payload?.widgets).toEqual([
      {
        id: 'l1',
        type: 'value',
        layout: { x: 0, y: 0, w: 4, h: 2 },
        binding: { slot: 'motor', path: '/motor/speed' },
        options: { unit: 'rpm' },
      },
      {
        id: 'g1',
        type: 'gauge',
        layout: { x: 4, y: 0, w: 6, h: 3 },
        binding: { slot: 'pump', path: '/p' },
        options: { min: 0, max: 50 },
      },
    ]);
    expect(
      fromClipboardText(text({ ...old, widgets: [{ id: 'x', kind: 'html', x: 0, y: 0, w: 1, h: 1 }] })),
    ).toBeNull();
    expect(fromClipboardText(text({ ...old, slots: ['Bad Slot'] }))).toBeNull();
  });

  it('a payload read from text pastes into another dashboard validly', () => {
    const payload = fromClipboardText(toClipboardText(copied(['speed', 'g1'])));
    if (!payload) throw new Error('not read');
    const target = editor.createEditor({
      schemaVersion: 2,
      rootPageId: 'p',
      pages: [{ id: 'p', title: 'P', widgets: [] }],
      slots: [],
      variables: [],
    });
    const pasted = editor.paste(target, payload);
    expect(editor.documentProblems(pasted.present.document)).toEqual([]);
    expect(pasted.present.document.slots.map((slot) => slot.name)).toEqual(['motor']);
    expect(pasted.present.document.pages[0]?.widgets).toHaveLength(5);
  });
});
