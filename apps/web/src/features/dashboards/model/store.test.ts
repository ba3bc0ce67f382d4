import { emptyDocument } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import { formListChange } from '../editor/inspector/page-settings.ts';
import { createEditorStore } from './store.ts';
import { counterIds, sampleDocument } from './test-fixtures.ts';

describe('createEditorStore', () => {
  it('runs commands synchronously, returns their results, notifies, and keeps stable snapshots', () => {
    const store = createEditorStore(sampleDocument(), { newId: counterIds() });
    let notified = 0;
    const unsubscribe = store.subscribe(() => {
      notified += 1;
    });
    const first = store.getState();
    expect(store.getState()).toBe(first);
    const commands = store.commands;
    expect(commands.deleteSelection()).toBe('page-protected');
    expect(notified).toBe(0);
    const id = commands.addWidget('value');
    expect(id).toBe('id-1');
    expect(store.getState().selection).toEqual([id]);
    expect(store.getState().canUndo).toBe(true);
    expect(store.getState().dirty).toBe(true);
    expect(notified).toBe(1);
    const payload = commands.copySelection();
    expect(payload?.widgets.map((widget) => widget.id)).toEqual([id]);
    commands.paste(payload ?? { format: 'edgeport/widgets', schemaVersion: 2, widgets: [], slots: [] });
    expect(store.getState().selection).toEqual(['id-2']);
    expect(commands.deletePage('home')).toBe('root-protected');
    const pageId = commands.addPage('Two');
    expect(store.getState().pageId).toBe(pageId);
    commands.undo();
    commands.undo();
    expect(store.getState().pageId).toBe('home');
    commands.redo();
    commands.markSaved();
    expect(store.getState().dirty).toBe(false);
    expect(store.commands).toBe(commands);
    unsubscribe();
    commands.load(emptyDocument('dashboard'));
    expect(store.getState()).toMatchObject({
      pageId: 'page-1',
      canUndo: false,
      canRedo: false,
      dirty: false,
    });
    expect(notified).toBe(7);
  });

  it('makes slots and variables from the current list when given how, so two quick additions add two', () => {
    const store = createEditorStore(emptyDocument('dashboard'), { newId: counterIds() });
    const shown = store.getState().document.slots;
    // Both clicks were made on the list as the inspector showed it, before the first addition reached it.
    store.commands.setSlots((current) => [...current, { name: `slot${current.length + 1}`, label: 'A' }]);
    store.commands.setSlots((current) => [...current, { name: `slot${current.length + 1}`, label: 'B' }]);
    expect(store.getState().document.slots.map((slot) => slot.name)).toEqual(['slot1', 'slot2']);
    expect(shown).toEqual([]);
    store.commands.setVariables([{ name: 'limit', type: 'number', initial: 1 }]);
    store.commands.setVariables((current) => [...current, { name: 'mode', type: 'string', initial: 'auto' }]);
    store.commands.setVariables((current) => current.filter((variable) => variable.name !== 'limit'));
    expect(store.getState().document.variables?.map((variable) => variable.name)).toEqual(['mode']);
  });

  it('keeps the slot a paste brought in when the slot form commits an edit made on the list before it', () => {
    const source = createEditorStore(sampleDocument(), { newId: counterIds('a') });
    source.commands.select(['speed'], 'replace');
    const payload = source.commands.copySelection();
    const oven = { name: 'oven', label: 'Oven' };
    const store = createEditorStore(
      { ...emptyDocument('dashboard'), slots: [oven] },
      { newId: counterIds() },
    );
    const shown = store.getState().document.slots;
    if (!payload) throw new Error('nothing copied');
    store.commands.paste(payload);
    expect(store.getState().document.slots.map((slot) => slot.name)).toEqual(['oven', 'motor']);
    // The form's label edit, made on the list it showed before the paste reached it.
    store.commands.setSlots(
      formListChange([{ ...oven, label: 'Kiln' }], new Set(shown.map((slot) => slot.name))),
    );
    const { document } = store.getState();
    expect(document.slots).toEqual([{ ...oven, label: 'Kiln' }, expect.objectContaining({ name: 'motor' })]);
    expect(document.pages[0]?.widgets[0]).toMatchObject({ binding: { slot: 'motor', path: '/motor/speed' } });
  });

  it('undoes and redoes 1,000 steps quickly', () => {
    const store = createEditorStore(sampleDocument());
    const { commands } = store;
    for (let step = 0; step < 1000; step += 1) {
      commands.moveWidgets([{ id: 'speed', layout: { x: step % 20, y: step, w: 4, h: 3 } }]);
    }
    const last = store.getState().document;
    const undoTimes: number[] = [];
    for (let step = 0; step < 1000; step += 1) {
      const started = performance.now();
      commands.undo();
      undoTimes.push(performance.now() - started);
    }
    expect(store.getState().document).toEqual(sampleDocument());
    expect(store.getState().canUndo).toBe(false);
    const redoTimes: number[] = [];
    for (let step = 0; step < 1000; step += 1) {
      const started = performance.now();
      commands.redo();
      redoTimes.push(performance.now() - started);
    }
    expect(store.getState().document).toBe(last);
    const total = (times: number[]) => times.reduce((sum, time) => sum + time, 0);
    // Loose bounds (the benchmark is elsewhere): each step far below a frame, all 1,000 within a frame or two.
    expect(Math.max(...undoTimes, ...redoTimes)).toBeLessThan(16);
    expect(total(undoTimes)).toBeLessThan(100);
    expect(total(redoTimes)).toBeLessThan(100);
  });
});
