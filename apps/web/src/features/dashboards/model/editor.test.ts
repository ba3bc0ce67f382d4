import type { DashboardDocument, Widget } from '@edgeport/dashboard-schema';
import { emptyDocument } from '@edgeport/dashboard-schema';
import { describe, expect, it } from 'vitest';
import * as editor from './editor.ts';
import { counterIds, sampleDocument } from './test-fixtures.ts';

function start(document: DashboardDocument = sampleDocument(), options: editor.EditorOptions = {}) {
  return editor.createEditor(document, { newId: counterIds(), ...options });
}

function page(model: editor.EditorModel, pageId = model.present.pageId) {
  const found = model.present.document.pages.find((candidate) => candidate.id === pageId);
  if (!found) throw new Error(`no page ${pageId}`);
  return found;
}

function widget(model: editor.EditorModel, id: string): Widget {
  for (const candidate of model.present.document.pages) {
    const found = candidate.widgets.find((item) => item.id === id);
    if (found) return found;
  }
  throw new Error(`no widget ${id}`);
}

function expectValid(model: editor.EditorModel) {
  expect(editor.documentProblems(model.present.document)).toEqual([]);
}

describe('createEditor and editorState', () => {
  it('opens the root page with the page selected, nothing to undo, not dirty', () => {
    const model = start();
    expect(editor.editorState(model)).toEqual({
      document: model.present.document,
      pageId: 'home',
      selection: [],
      canUndo: false,
      canRedo: false,
      dirty: false,
    });
    expect(editor.editorState(model)).toBe(editor.editorState(model));
  });
});

describe('selection and pages', () => {
  it('replaces, toggles and ignores widgets of other pages', () => {
    let model = start();
    model = editor.select(model, ['speed', 'trend', 'nope'], 'replace');
    expect(model.present.selection).toEqual(['speed']);
    model = editor.select(model, ['gauge', 'speed'], 'toggle');
    expect(model.present.selection).toEqual(['gauge']);
    model = editor.select(model, [], 'replace');
    expect(model.present.selection).toEqual([]);
    expect(editor.select(model, [], 'replace')).toBe(model);
  });

  it('selects all widgets of the open page', () => {
    const model = editor.selectAll(start());
    expect(model.present.selection).toEqual(['speed', 'gauge', 'g1', 'note', 'g2', 'go']);
    expect(model.past).toBeNull();
  });

  it('opens another page with its page selected; unknown pages change nothing', () => {
    const model = editor.select(start(), ['speed'], 'replace');
    const opened = editor.openPage(model, 'second');
    expect(opened.present.pageId).toBe('second');
    expect(opened.present.selection).toEqual([]);
    expect(editor.openPage(model, 'missing')).toBe(model);
  });
});

describe('addWidget', () => {
  it('places at the first free place of the top level, selects it, one step', () => {
    const model = start();
    const { model: added, widgetId } = editor.addWidget(model, 'value');
    expect(widget(added, widgetId).layout).toEqual({ x: 9, y: 0, w: 4, h: 3 });
    expect(added.present.selection).toEqual([widgetId]);
    expect(editor.historyDepth(added)).toEqual({ undo: 1, redo: 0 });
    expectValid(added);
    const wide = editor.addWidget(model, 'deviceTable');
    expect(widget(wide.model, wide.widgetId).layout).toEqual({ x: 12, y: 0, w: 12, h: 8 });
    expect(editor.undo(added).present.document).toBe(model.present.document);
  });

  it('uses the layout given, and finds room on an empty page for every type', () => {
    let model = start(emptyDocument('dashboard'));
    const placed = editor.addWidget(model, 'gauge', { x: 3, y: 7 });
    expect(widget(placed.model, placed.widgetId).layout).toEqual({ x: 3, y: 7, w: 5, h: 5 });
    for (const type of ['value', 'value', 'value', 'value', 'value', 'value', 'value'] as const) {
      model = editor.addWidget(model, type).model;
    }
    const layouts = page(model).widgets.map((item) => item.layout);
    expect(layouts.map((layout) => [layout.x, layout.y])).toEqual([
      [0, 0],
      [4, 0],
      [8, 0],
      [12, 0],
      [16, 0],
      [20, 0],
      [0, 3],
    ]);
    expectValid(model);
  });

  it('ids never collide with existing ids', () => {
    const ids = ['speed', 'home', 'fresh'];
    const model = start(sampleDocument(), { newId: () => ids.shift() ?? 'later' });
    expect(editor.addWidget(model, 'text').widgetId).toBe('fresh');
  });
});

describe('firstFreePlace', () => {
  it('finds holes between widgets', () => {
    const taken = [
      { x: 0, y: 0, w: 10, h: 2 },
      { x: 14, y: 0, w: 10, h: 2 },
    ];
    expect(editor.firstFreePlace(taken, 4, 2)).toEqual({ x: 10, y: 0 });
    expect(editor.firstFreePlace(taken, 5, 2)).toEqual({ x: 0, y: 2 });
    expect(editor.firstFreePlace([], 30, 2)).toEqual({ x: 0, y: 0 });
  });
});

describe('updateWidget', () => {
  it('replaces a widget in one step', () => {
    const model = start();
    const { model: next, problems } = editor.updateWidget(model, 'speed', (item) => ({
      ...item,
      title: 'Speed',
    }));
    expect(problems).toEqual([]);
    expect(widget(next, 'speed').title).toBe('Speed');
    expect(editor.historyDepth(next).undo).toBe(1);
    // Unchanged pages and widgets are shared with the earlier document.
    expect(page(next, 'second')).toBe(page(model, 'second'));
    expect(widget(next, 'gauge')).toBe(widget(model, 'gauge'));
  });

  it('changes nothing for the same widget, an id change or an invalid result', () => {
    const model = start();
    expect(editor.updateWidget(model, 'speed', (item) => item).model).toBe(model);
    expect(editor.updateWidget(model, 'speed', (item) => ({ ...item, id: 'other' })).model).toBe(model);
    const unknownSlot = editor.updateWidget(model, 'speed', (item) => ({
      ...item,
      binding: { slot: 'ghost', path: '/x' },
    }));
    expect(unknownSlot.model).toBe(model);
    expect(unknownSlot.problems.join()).toContain("slot 'ghost' is not a slot");
    const wide = editor.updateWidget(model, 'speed', (item) => ({
      ...item,
      layout: { ...item.layout, w: 99 },
    }));
    expect(wide.model).toBe(model);
    const cycle = editor.updateWidget(model, 'g1', (item) => ({ ...item, parentId: 'g2' }));
    expect(cycle.model).toBe(model);
    expect(cycle.problems.join()).toContain('cycle');
    expect(editor.updateWidget(model, 'missing', (item) => item).problems).toHaveLength(1);
  });
});

describe('moveWidgets', () => {
  it('moves several widgets in one step and makes no step when nothing moved', () => {
    const model = start();
    const moved = editor.moveWidgets(model, [
      { id: 'speed', layout: { x: 0, y: 20, w: 4, h: 3 } },
      { id: 'gauge', layout: { x: 30, y: 20, w: 5, h: 5 } },
    ]);
    expect(widget(moved, 'speed').layout.y).toBe(20);
    expect(widget(moved, 'gauge').layout).toEqual({ x: 19, y: 20, w: 5, h: 5 });
    expect(editor.historyDepth(moved).undo).toBe(1);
    expect(editor.moveWidgets(model, [{ id: 'speed', layout: { x: 0, y: 0, w: 4, h: 3 } }])).toBe(model);
    expect(editor.moveWidgets(model, [{ id: 'trend', layout: { x: 1, y: 1, w: 4, h: 3 } }])).toBe(model);
  });
});

describe('deleteSelection', () => {
  it('protects the page when only the page is selected', () => {
    const model = start();
    expect(editor.deleteSelection(model)).toEqual({ model, outcome: 'page-protected' });
  });

  it('deletes a group with all its descendants, and undo brings back the exact document', () => {
    const model = editor.select(start(), ['g1', 'speed'], 'replace');
    const { model: deleted, outcome } = editor.deleteSelection(model);
    expect(outcome).toBe('deleted');
    expect(page(deleted).widgets.map((item) => item.id)).toEqual(['gauge']);
    expect(deleted.present.selection).toEqual([]);
    expectValid(deleted);
    const undone = editor.undo(deleted);
    expect(undone.present.document).toBe(model.present.document);
    expect(undone.present.selection).toEqual(['g1', 'speed']);
    expect(editor.redo(undone).present.document).toBe(deleted.present.document);
  });

  it('deletes a nested group with its child only', () => {
    const model = editor.select(start(), ['g2'], 'replace');
    const { model: deleted } = editor.deleteSelection(model);
    expect(page(deleted).widgets.map((item) => item.id)).toEqual(['speed', 'gauge', 'g1', 'note']);
  });
});

describe('pages', () => {
  it('refuses to delete the root page', () => {
    const model = start();
    expect(editor.deletePage(model, 'home')).toEqual({ model, outcome: 'root-protected' });
    const single = start(emptyDocument('dashboard'));
    expect(editor.deletePage(single, 'page-1').outcome).toBe('root-protected');
  });

  it('deletes another page; buttons navigating to it go to the root page; the root page opens', () => {
    const model = editor.openPage(start(), 'second');
    const { model: deleted, outcome } = editor.deletePage(model, 'second');
    expect(outcome).toBe('deleted');
    expect(deleted.present.pageId).toBe('home');
    expect(deleted.present.document.pages.map((item) => item.id)).toEqual(['home']);
    const go = widget(deleted, 'go');
    expect(go.type === 'button' && go.action).toEqual({ kind: 'navigate', pageId: 'home' });
    expectValid(deleted);
    expect(editor.undo(deleted).present.pageId).toBe('second');
  });

  it('adds, renames, moves pages and changes the root page', () => {
    let model = start();
    const added = editor.addPage(model, 'Third');
    model = added.model;
    expect(model.present.pageId).toBe(added.pageId);
    expect(page(model).title).toBe('Third');
    model = editor.renamePage(model, added.pageId, 'x'.repeat(150));
    expect(page(model).title).toHaveLength(100);
    model = editor.movePage(model, added.pageId, 0);
    expect(model.present.document.pages.map((item) => item.id)).toEqual([added.pageId, 'home', 'second']);
    model = editor.setRootPage(model, 'second');
    expect(model.present.document.rootPageId).toBe('second');
    expect(editor.deletePage(model, 'second').outcome).toBe('root-protected');
    expect(editor.deletePage(model, 'home').outcome).toBe('deleted');
    expectValid(model);
    expect(editor.historyDepth(model).undo).toBe(4);
  });
});

describe('copy, cut and paste', () => {
  it('copies the selected widgets with the descendants of groups and the slots and variables they use', () => {
    const model = editor.select(start(), ['g1', 'gauge', 'speed'], 'replace');
    const payload = editor.copySelection(model);
    expect(payload?.format).toBe('edgeport/widgets');
    expect(payload?.widgets.map((item) => item.id)).toEqual(['speed', 'gauge', 'g1', 'note', 'g2', 'go']);
    expect(payload?.slots.map((slot) => slot.name)).toEqual(['motor']);
    expect(payload?.variables?.map((variable) => variable.name)).toEqual(['limit']);
    expect(editor.copySelection(start())).toBeNull();
  });

  it('pastes into the same page below the originals with new ids, keeping parent links', () => {
    const model = editor.select(start(), ['g1'], 'replace');
    const payload = editor.copySelection(model);
    if (!payload) throw new Error('nothing copied');
    const pasted = editor.paste(model, payload);
    expectValid(pasted);
    const widgets = page(pasted).widgets;
    expect(widgets).toHaveLength(10);
    const fresh = widgets.slice(6);
    expect(fresh.map((item) => item.type)).toEqual(['group', 'text', 'group', 'button']);
    const [group, text, inner, button] = fresh as [Widget, Widget, Widget, Widget];
    expect(new Set([...fresh.map((item) => item.id), 'speed', 'gauge', 'g1', 'note', 'g2', 'go']).size).toBe(
      10,
    );
    expect(group.parentId).toBeUndefined();
    expect(group.layout).toEqual({ x: 0, y: 13, w: 12, h: 8 });
    expect(text.parentId).toBe(group.id);
    expect(inner.parentId).toBe(group.id);
    expect(button.parentId).toBe(inner.id);
    expect(text.layout).toEqual({ x: 0, y: 0, w: 12, h: 3 });
    expect(pasted.present.selection).toEqual([group.id]);
    expect(button.type === 'button' && button.action).toEqual({ kind: 'navigate', pageId: 'second' });
    expect(editor.undo(pasted).present.document).toBe(model.present.document);
  });

  it('pastes into another dashboard: adds missing slots and variables, keeps the target definitions', () => {
    const source = editor.select(start(), ['speed', 'gauge', 'g1'], 'replace');
    const payload = editor.copySelection(source);
    if (!payload) throw new Error('nothing copied');
    const payloadWithPump = { ...payload, slots: [...payload.slots, { name: 'pump', label: 'Pump' }] };
    const target: DashboardDocument = {
      ...emptyDocument('dashboard'),
      slots: [{ name: 'motor', label: 'Engine', defaultDeviceId: '22222222-2222-4222-8222-222222222222' }],
      variables: [{ name: 'limit', type: 'number', initial: 99 }],
    };
    target.pages = [
      {
        id: 'page-1',
        title: 'P',
        widgets: [
          {
            id: 'speed',
            type: 'text',
            layout: { x: 0, y: 0, w: 24, h: 2 },
            options: { text: '', size: 'md' },
          },
        ],
      },
    ];
    const model = start(target, { newId: counterIds('t') });
    const pasted = editor.paste(model, payloadWithPump);
    expectValid(pasted);
    const document = pasted.present.document;
    expect(document.slots).toEqual([
      { name: 'motor', label: 'Engine', defaultDeviceId: '22222222-2222-4222-8222-222222222222' },
      { name: 'pump', label: 'Pump' },
    ]);
    expect(document.variables).toEqual([{ name: 'limit', type: 'number', initial: 99 }]);
    const widgets = page(pasted).widgets;
    expect(widgets).toHaveLength(7);
    // Not the source page: the block keeps its place but goes below the existing widget it would overlap.
    expect(widgets[1]?.layout).toEqual({ x: 0, y: 2, w: 4, h: 3 });
    // A navigate action to a page the target lacks navigates to the target's root page.
    const button = widgets.find((item) => item.type === 'button');
    expect(button?.type === 'button' && button.action).toEqual({ kind: 'navigate', pageId: 'page-1' });
    expect(pasted.present.selection).toHaveLength(3);
    expect(editor.undo(pasted).present.document).toBe(target);
  });

  it('drops bindings to slots and variables that neither side has', () => {
    const source = editor.select(start(), ['speed', 'gauge'], 'replace');
    const payload = editor.copySelection(source);
    if (!payload) throw new Error('nothing copied');
    const model = start(emptyDocument('dashboard'));
    const pasted = editor.paste(model, { ...payload, slots: [], variables: undefined });
    expectValid(pasted);
    const widgets = page(pasted).widgets;
    expect(widgets.map((item) => 'binding' in item && item.binding)).toEqual([false, false]);
    expect(pasted.present.document.slots).toEqual([]);
  });

  it('a child copied without its group lands on the top level; broken parent links are dropped', () => {
    const model = editor.select(start(), ['note'], 'replace');
    const payload = editor.copySelection(model);
    if (!payload) throw new Error('nothing copied');
    const pasted = editor.paste(model, payload);
    const fresh = page(pasted).widgets.at(-1);
    expect(fresh?.parentId).toBeUndefined();
    expectValid(pasted);
    const cyclic = editor.paste(model, {
      ...payload,
      widgets: [
        { id: 'a', type: 'group', parentId: 'b', layout: { x: 0, y: 0, w: 2, h: 2 }, options: {} },
        { id: 'b', type: 'group', parentId: 'a', layout: { x: 0, y: 0, w: 2, h: 2 }, options: {} },
        {
          id: 'c',
          type: 'text',
          parentId: 'speed',
          layout: { x: 0, y: 0, w: 2, h: 2 },
          options: { text: '', size: 'sm' },
        },
      ],
    });
    expectValid(cyclic);
    expect(page(cyclic).widgets.length).toBe(9);
  });

  it('refuses a payload that would give an invalid document', () => {
    const model = start();
    const bad = {
      format: 'edgeport/widgets' as const,
      schemaVersion: 2,
      widgets: [
        {
          id: 'x',
          type: 'text',
          layout: { x: 0, y: 0, w: 2, h: 2 },
          options: { text: 1 },
        } as unknown as Widget,
      ],
      slots: [],
    };
    expect(editor.paste(model, bad)).toBe(model);
    expect(editor.paste(model, { ...bad, widgets: [] })).toBe(model);
  });

  it('cuts: copies then deletes in one step', () => {
    const model = editor.select(start(), ['speed'], 'replace');
    const { model: cut, payload } = editor.cutSelection(model);
    expect(payload?.widgets.map((item) => item.id)).toEqual(['speed']);
    expect(page(cut).widgets.some((item) => item.id === 'speed')).toBe(false);
    expect(editor.historyDepth(cut).undo).toBe(1);
    expect(editor.cutSelection(start()).payload).toBeNull();
  });
});

describe('groups', () => {
  it('groups the selected widgets at their bounding box and ungroups them back', () => {
    const model = editor.select(start(), ['speed', 'gauge'], 'replace');
    const grouped = editor.groupSelection(model);
    expectValid(grouped);
    const [groupId] = grouped.present.selection;
    if (!groupId) throw new Error('no group');
    const group = widget(grouped, groupId);
    expect(group.type).toBe('group');
    expect(group.layout).toEqual({ x: 0, y: 0, w: 9, h: 5 });
    expect(widget(grouped, 'speed').parentId).toBe(groupId);
    expect(widget(grouped, 'speed').layout).toEqual({ x: 0, y: 0, w: 11, h: 3 });
    expect(widget(grouped, 'gauge').layout).toEqual({ x: 11, y: 0, w: 13, h: 5 });
    expect(page(grouped).widgets[0]?.id).toBe(groupId);
    const ungrouped = editor.ungroupSelection(grouped);
    expectValid(ungrouped);
    expect(page(ungrouped).widgets).toEqual(page(model).widgets);
    expect(ungrouped.present.selection).toEqual(['speed', 'gauge']);
  });

  it('groups inside a group, and does nothing for widgets of different parents', () => {
    const inner = editor.groupSelection(editor.select(start(), ['note'], 'replace'));
    expectValid(inner);
    const groupId = inner.present.selection[0] ?? '';
    expect(widget(inner, groupId).parentId).toBe('g1');
    const mixed = editor.select(start(), ['speed', 'note'], 'replace');
    expect(editor.groupSelection(mixed)).toBe(mixed);
    expect(editor.ungroupSelection(mixed)).toBe(mixed);
  });

  it('ungroups a nested group into its parent group', () => {
    const model = editor.select(start(), ['g2'], 'replace');
    const ungrouped = editor.ungroupSelection(model);
    expectValid(ungrouped);
    expect(widget(ungrouped, 'go').parentId).toBe('g1');
    expect(widget(ungrouped, 'go').layout).toEqual({ x: 12, y: 0, w: 4, h: 2 });
  });
});

describe('slots and variables', () => {
  it('removing a slot unbinds the widgets that used it', () => {
    const model = start();
    expect(editor.widgetsUsingSlot(model.present.document, 'pump')).toEqual(['trend', 'start']);
    const { model: next, problems } = editor.setSlots(model, [
      { name: 'motor', label: 'Motor' },
      { name: 'motor', label: 'Duplicate' },
    ]);
    expect(problems).toEqual([]);
    expectValid(next);
    expect(next.present.document.slots).toEqual([{ name: 'motor', label: 'Motor' }]);
    const trend = widget(next, 'trend');
    expect(trend.type === 'lineChart' && trend.bindings).toEqual([{ slot: 'motor', path: '/motor/speed' }]);
    const button = widget(next, 'start');
    expect(button.type === 'button' && button.action).toEqual({ kind: 'navigate', pageId: 'home' });
    expect(widget(next, 'speed')).toBe(widget(model, 'speed'));
    expect(editor.undo(next).present.document).toBe(model.present.document);
  });

  it('refuses invalid slots and variables; no step when unchanged', () => {
    const model = start();
    const bad = editor.setSlots(model, [{ name: 'Bad Name', label: 'x' }]);
    expect(bad.model).toBe(model);
    expect(bad.problems.length).toBeGreaterThan(0);
    expect(editor.setSlots(model, model.present.document.slots).model).toBe(model);
    const variables = editor.setVariables(model, [{ name: 'mode', type: 'string', initial: 'x' }]);
    expectValid(variables.model);
    expect(widget(variables.model, 'gauge')).not.toHaveProperty('binding');
    expect(editor.widgetsUsingVariable(model.present.document, 'limit')).toEqual(['gauge']);
  });
});

describe('history', () => {
  it('undo and redo move between exact documents; a new step clears redo; dirty follows the saved document', () => {
    let model = start();
    const documents = [model.present.document];
    for (const type of ['value', 'text', 'gauge'] as const) {
      model = editor.addWidget(model, type).model;
      documents.push(model.present.document);
    }
    expect(editor.editorState(model).dirty).toBe(true);
    model = editor.markSaved(model);
    expect(editor.editorState(model).dirty).toBe(false);
    model = editor.undo(model);
    expect(model.present.document).toBe(documents[2]);
    expect(editor.editorState(model).dirty).toBe(true);
    model = editor.undo(editor.undo(model));
    expect(model.present.document).toBe(documents[0]);
    expect(editor.undo(model)).toBe(model);
    model = editor.redo(model);
    expect(model.present.document).toBe(documents[1]);
    expect(editor.editorState(model).canRedo).toBe(true);
    model = editor.addWidget(model, 'map').model;
    expect(editor.editorState(model).canRedo).toBe(false);
    expect(editor.redo(model)).toBe(model);
  });

  it('markSaved with the document sent keeps later edits dirty', () => {
    let model = start();
    model = editor.addWidget(model, 'value').model;
    const sent = model.present.document;
    model = editor.addWidget(model, 'text').model;
    model = editor.markSaved(model, sent);
    expect(editor.editorState(model).dirty).toBe(true);
    expect(editor.editorState(editor.undo(model)).dirty).toBe(false);
  });

  it('keeps about historyLimit steps', () => {
    let model = start(emptyDocument('dashboard'), { historyLimit: 16 });
    for (let step = 0; step < 100; step += 1) model = editor.renamePage(model, 'page-1', `title ${step}`);
    const { undo } = editor.historyDepth(model);
    expect(undo).toBeGreaterThanOrEqual(16);
    expect(undo).toBeLessThanOrEqual(18);
    for (let step = 0; step < undo; step += 1) model = editor.undo(model);
    expect(page(model).title).toBe(`title ${99 - undo}`);
  });
});
