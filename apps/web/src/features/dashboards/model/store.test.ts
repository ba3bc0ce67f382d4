import { emptyDocument } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
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
