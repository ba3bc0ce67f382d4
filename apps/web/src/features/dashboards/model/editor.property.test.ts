import {
  type DashboardDocument,
  type DeviceSlot,
  readDocument,
  type Variable,
  WIDGET_TYPES,
  type Widget,
} from '@edgeport/dashboard-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as editor from './editor.ts';
import { sampleDocument } from './test-fixtures.ts';
import type { ClipboardPayload } from './types.ts';

/**
 * Random command sequences: every document stays valid (`readDocument` and no parent cycles), documents are never
 * mutated (they are frozen as they appear), and the history behaves exactly like a plain list of documents: each
 * undo gives back the exact earlier document object, each redo the later one.
 */

type World = { model: editor.EditorModel; clipboard: ClipboardPayload | null };
type Command = { name: string; run(world: World): World };

function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}

function widgetsOfOpenPage(model: editor.EditorModel): Widget[] {
  return model.present.document.pages.find((page) => page.id === model.present.pageId)?.widgets ?? [];
}

const OTHER_PAYLOAD: ClipboardPayload = (() => {
  const model = editor.selectAll(editor.openPage(editor.createEditor(sampleDocument()), 'second'));
  const payload = editor.copySelection(model);
  if (!payload) throw new Error('no payload');
  return payload;
})();

const index = fc.nat({ max: 50 });
const layout = fc.record({
  x: fc.integer({ min: -2, max: 26 }),
  y: fc.integer({ min: -2, max: 40 }),
  w: fc.integer({ min: 0, max: 30 }),
  h: fc.integer({ min: 0, max: 12 }),
});
const slotName = fc.constantFrom('motor', 'pump', 'spare', 'extra', 'ghost');

const change = fc.oneof(
  fc.record({ kind: fc.constant('title' as const), title: fc.string({ maxLength: 220 }) }),
  fc.record({ kind: fc.constant('layout' as const), layout }),
  fc.record({ kind: fc.constant('bind' as const), slot: slotName }),
  fc.record({ kind: fc.constant('parent' as const), target: index }),
);

function changeOf(spec: typeof change extends fc.Arbitrary<infer T> ? T : never, page: Widget[]) {
  return (widget: Widget): Widget => {
    switch (spec.kind) {
      case 'title':
        return { ...widget, title: spec.title };
      case 'layout':
        return { ...widget, layout: spec.layout };
      case 'bind':
        return widget.type === 'value' || widget.type === 'gauge'
          ? { ...widget, binding: { slot: spec.slot, path: '/motor/speed' } }
          : widget;
      case 'parent': {
        const parent = pick(page, spec.target);
        return parent ? { ...widget, parentId: parent.id } : widget;
      }
    }
  };
}

const commands: fc.Arbitrary<Command> = fc.oneof(
  index.map((at) => ({
    name: `openPage ${at}`,
    run: (world: World) => ({
      ...world,
      model: editor.openPage(world.model, pick(world.model.present.document.pages, at)?.id ?? ''),
    }),
  })),
  fc
    .tuple(fc.array(index, { maxLength: 4 }), fc.constantFrom('replace' as const, 'toggle' as const))
    .map(([picks, mode]) => ({
      name: `select ${picks} ${mode}`,
      run: (world: World) => {
        const ids = picks.map((at) => pick(widgetsOfOpenPage(world.model), at)?.id ?? 'none');
        return { ...world, model: editor.select(world.model, ids, mode) };
      },
    })),
  fc.constant({
    name: 'selectAll',
    run: (world: World) => ({ ...world, model: editor.selectAll(world.model) }),
  }),
  fc.tuple(fc.constantFrom(...WIDGET_TYPES), fc.option(layout, { nil: undefined })).map(([type, at]) => ({
    name: `addWidget ${type}`,
    run: (world: World) => ({ ...world, model: editor.addWidget(world.model, type, at).model }),
  })),
  fc.tuple(index, change).map(([at, spec]) => ({
    name: `updateWidget ${at} ${spec.kind}`,
    run: (world: World) => {
      const page = widgetsOfOpenPage(world.model);
      const target = pick(page, at);
      if (!target) return world;
      return { ...world, model: editor.updateWidget(world.model, target.id, changeOf(spec, page)).model };
    },
  })),
  fc.array(fc.tuple(index, layout), { maxLength: 4 }).map((moves) => ({
    name: 'moveWidgets',
    run: (world: World) => {
      const page = widgetsOfOpenPage(world.model);
      const layouts = moves.flatMap(([at, to]) => {
        const target = pick(page, at);
        return target ? [{ id: target.id, layout: to }] : [];
      });
      return { ...world, model: editor.moveWidgets(world.model, layouts) };
    },
  })),
  fc.constant({
    name: 'deleteSelection',
    run: (world: World) => ({ ...world, model: editor.deleteSelection(world.model).model }),
  }),
  fc.constant({
    name: 'copy',
    run: (world: World) => ({ ...world, clipboard: editor.copySelection(world.model) ?? world.clipboard }),
  }),
  fc.constant({
    name: 'cut',
    run: (world: World) => {
      const { model, payload } = editor.cutSelection(world.model);
      return { model, clipboard: payload ?? world.clipboard };
    },
  }),
  fc.boolean().map((other) => ({
    name: other ? 'paste other' : 'paste',
    run: (world: World) => {
      const payload = other ? OTHER_PAYLOAD : world.clipboard;
      return payload ? { ...world, model: editor.paste(world.model, payload) } : world;
    },
  })),
  fc.constant({
    name: 'group',
    run: (world: World) => ({ ...world, model: editor.groupSelection(world.model) }),
  }),
  fc.constant({
    name: 'ungroup',
    run: (world: World) => ({ ...world, model: editor.ungroupSelection(world.model) }),
  }),
  fc.string({ maxLength: 120 }).map((title) => ({
    name: 'addPage',
    run: (world: World) => ({ ...world, model: editor.addPage(world.model, title).model }),
  })),
  fc.tuple(index, fc.string({ maxLength: 120 })).map(([at, title]) => ({
    name: `renamePage ${at}`,
    run: (world: World) => {
      const page = pick(world.model.present.document.pages, at);
      return page ? { ...world, model: editor.renamePage(world.model, page.id, title) } : world;
    },
  })),
  index.map((at) => ({
    name: `deletePage ${at}`,
    run: (world: World) => {
      const page = pick(world.model.present.document.pages, at);
      return page ? { ...world, model: editor.deletePage(world.model, page.id).model } : world;
    },
  })),
  fc.tuple(index, index).map(([at, to]) => ({
    name: `movePage ${at} ${to}`,
    run: (world: World) => {
      const page = pick(world.model.present.document.pages, at);
      return page ? { ...world, model: editor.movePage(world.model, page.id, to) } : world;
    },
  })),
  index.map((at) => ({
    name: `setRootPage ${at}`,
    run: (world: World) => {
      const page = pick(world.model.present.document.pages, at);
      return page ? { ...world, model: editor.setRootPage(world.model, page.id) } : world;
    },
  })),
  fc
    .uniqueArray(fc.constantFrom('motor', 'pump', 'spare', 'extra', 'Bad-Name'), { maxLength: 4 })
    .map((names) => ({
      name: `setSlots ${names}`,
      run: (world: World) => {
        const slots: DeviceSlot[] = names.map((name) => ({ name, label: name }));
        return { ...world, model: editor.setSlots(world.model, slots).model };
      },
    })),
  fc.uniqueArray(fc.constantFrom('limit', 'mode', 'other'), { maxLength: 3 }).map((names) => ({
    name: `setVariables ${names}`,
    run: (world: World) => {
      const variables: Variable[] = names.map((name) => ({ name, type: 'number', initial: 0 }));
      return { ...world, model: editor.setVariables(world.model, variables).model };
    },
  })),
  fc.constant({ name: 'undo', run: (world: World) => ({ ...world, model: editor.undo(world.model) }) }),
  fc.constant({ name: 'redo', run: (world: World) => ({ ...world, model: editor.redo(world.model) }) }),
  fc.constant({
    name: 'markSaved',
    run: (world: World) => ({ ...world, model: editor.markSaved(world.model) }),
  }),
);

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

describe('editor model under random command sequences', () => {
  it('keeps every document valid and the history exact', () => {
    fc.assert(
      fc.property(fc.array(commands, { minLength: 1, maxLength: 40 }), (sequence) => {
        let world: World = { model: editor.createEditor(deepFreeze(sampleDocument())), clipboard: null };
        // The reference history: plain arrays of documents.
        const past: DashboardDocument[] = [];
        let future: DashboardDocument[] = [];
        for (const command of sequence) {
          const before = world.model;
          world = command.run(world);
          const after = world.model;
          const document = deepFreeze(after.present.document);
          const read = readDocument('dashboard', document);
          expect(read.ok ? [] : read.errors, command.name).toEqual([]);
          expect(editor.documentProblems(document), command.name).toEqual([]);
          expect(
            document.pages.some((page) => page.id === after.present.pageId),
            command.name,
          ).toBe(true);
          const onPage = new Set(widgetsOfOpenPage(after).map((widget) => widget.id));
          expect(
            after.present.selection.every((id) => onPage.has(id)),
            command.name,
          ).toBe(true);
          if (command.name === 'undo') {
            if (before.past) {
              future.push(before.present.document);
              expect(document, 'undo gives the earlier document').toBe(past.pop());
            } else expect(after).toBe(before);
          } else if (command.name === 'redo') {
            if (before.future) {
              past.push(before.present.document);
              expect(document, 'redo gives the later document').toBe(future.pop());
            } else expect(after).toBe(before);
          } else if (document !== before.present.document) {
            past.push(before.present.document);
            future = [];
          }
          expect(editor.historyDepth(after), command.name).toEqual({
            undo: past.length,
            redo: future.length,
          });
          const state = editor.editorState(after);
          expect(state.dirty).toBe(document !== after.saved);
        }
        // Undo everything, then redo everything: the exact documents, backwards then forwards.
        let model = world.model;
        const forward = [model.present.document];
        while (model.past) {
          model = editor.undo(model);
          forward.unshift(model.present.document);
        }
        expect(model.present.document).toBe(past[0] ?? world.model.present.document);
        for (const expected of forward.slice(1)) {
          model = editor.redo(model);
          expect(model.present.document).toBe(expected);
        }
        expect(model.future).toBe(world.model.future);
      }),
      { numRuns: 150 },
    );
  });
});
