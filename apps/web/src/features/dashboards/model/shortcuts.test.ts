import { beforeEach, describe, expect, it, vi } from 'vitest';
import { toClipboardText } from '../serialization/clipboard.ts';
import {
  type ClipboardEnvironment,
  clearInAppClipboard,
  IN_APP_CLIPBOARD_KEY,
  readInApp,
  writeInApp,
} from './clipboard-access.ts';
import * as editor from './editor.ts';
import {
  type ClipboardEventLike,
  createShortcutController,
  isInDialog,
  isTypingTarget,
} from './shortcuts.ts';
import { createEditorStore } from './store.ts';
import { sampleDocument } from './test-fixtures.ts';

class MemoryStorage {
  values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, value);
  }
}

function clipboardEvent(target: unknown = { tagName: 'DIV' }, text = '') {
  const data = new Map<string, string>([['text/plain', text]]);
  const event = {
    target,
    prevented: false,
    clipboardData: {
      getData: (format: string) => data.get(format) ?? '',
      setData: (format: string, value: string) => void data.set(format, value),
    },
    preventDefault() {
      event.prevented = true;
    },
    data,
  };
  return event satisfies ClipboardEventLike;
}

/** A controller on the sample dashboard with fake clipboards; `release()` lets its "next task" run. */
function setup(system: ClipboardEnvironment['system'] = {}) {
  const store = createEditorStore(sampleDocument());
  const storage = new MemoryStorage();
  const callbacks = {
    onProtected: vi.fn(),
    onDeleted: vi.fn(),
    onCopied: vi.fn(),
    onPasted: vi.fn(),
    onNothingToPaste: vi.fn(),
  };
  const waiting: (() => void)[] = [];
  const controller = createShortcutController({
    commands: () => store.commands,
    callbacks: () => callbacks,
    environment: () => ({ system, storage }),
    nextTask: () => new Promise<void>((resolve) => waiting.push(resolve)),
  });
  const release = async () => {
    await Promise.resolve();
    await Promise.resolve();
    for (const resolve of waiting.splice(0)) resolve();
    await Promise.resolve();
  };
  return { store, storage, callbacks, controller, release };
}

function otherTabText(ids: string[]) {
  const model = editor.select(editor.createEditor(sampleDocument()), ids, 'replace');
  const payload = editor.copySelection(model);
  if (!payload) throw new Error('nothing copied');
  return toClipboardText(payload);
}

beforeEach(() => clearInAppClipboard());

describe('copy and cut', () => {
  it('writes the in-app clipboard, the system clipboard and the copy event', async () => {
    const writeText = vi.fn(async () => {});
    const { store, storage, controller, callbacks } = setup({ writeText });
    store.commands.select(['speed', 'gauge', 'g2'], 'replace');
    const payload = controller.copy();
    expect(payload?.widgets.map((widget) => widget.id)).toEqual(['speed', 'gauge', 'g2', 'go']);
    const text = storage.getItem(IN_APP_CLIPBOARD_KEY);
    expect(text).toBe(toClipboardText(payload ?? ({} as never)));
    expect(writeText).toHaveBeenCalledWith(text);
    expect(callbacks.onCopied).toHaveBeenCalledWith(payload, false);
    const event = clipboardEvent();
    controller.handleCopyEvent(event);
    expect(event.prevented).toBe(true);
    expect(event.data.get('text/plain')).toBe(text);
    // Only the copy event of that key press is taken over.
    const later = clipboardEvent();
    controller.handleCopyEvent(later);
    expect(later.prevented).toBe(false);
  });

  it('does nothing with only the page selected: the browser copies as usual', () => {
    const writeText = vi.fn(async () => {});
    const { storage, controller } = setup({ writeText });
    expect(controller.copy()).toBeNull();
    expect(writeText).not.toHaveBeenCalled();
    expect(storage.values.size).toBe(0);
    const event = clipboardEvent();
    controller.handleCopyEvent(event);
    expect(event.prevented).toBe(false);
  });

  it('ignores a refused system clipboard quietly and still keeps the in-app copy', async () => {
    const writeText = vi.fn(async () => {
      throw new DOMException('denied', 'NotAllowedError');
    });
    const { store, controller, storage, release } = setup({ writeText });
    store.commands.select(['speed'], 'replace');
    expect(controller.copy()).not.toBeNull();
    await release();
    expect(storage.getItem(IN_APP_CLIPBOARD_KEY)).toContain('"speed"');
  });

  it('cuts: the widgets leave the page and reach the clipboard', () => {
    const { store, controller, storage, callbacks } = setup();
    store.commands.select(['g1'], 'replace');
    controller.cut();
    expect(store.getState().document.pages[0]?.widgets.map((widget) => widget.id)).toEqual([
      'speed',
      'gauge',
    ]);
    expect(storage.getItem(IN_APP_CLIPBOARD_KEY)).toContain('"note"');
    expect(callbacks.onCopied).toHaveBeenCalledWith(expect.anything(), true);
    const event = clipboardEvent({ tagName: 'INPUT' });
    controller.handleCopyEvent(event);
    expect(event.prevented).toBe(false);
  });
});

describe('paste', () => {
  it('takes the system clipboard from the paste event without asking for a permission', async () => {
    const readText = vi.fn(async () => otherTabText(['gauge']));
    const { store, controller, callbacks, release, storage } = setup({ readText });
    storage.setItem(IN_APP_CLIPBOARD_KEY, otherTabText(['gauge', 'g1']));
    const done = controller.paste();
    const event = clipboardEvent({ tagName: 'DIV' }, otherTabText(['speed', 'gauge']));
    controller.handlePasteEvent(event);
    expect(event.prevented).toBe(true);
    await release();
    const payload = await done;
    expect(payload?.widgets.map((widget) => widget.type)).toEqual(['value', 'gauge']);
    expect(readText).not.toHaveBeenCalled();
    expect(store.getState().selection).toHaveLength(2);
    expect(callbacks.onPasted).toHaveBeenCalledWith(payload);
  });

  it('reads the system clipboard through readText when no paste event came (a toolbar button)', async () => {
    const { store, controller, release, storage } = setup({ readText: async () => otherTabText(['speed']) });
    storage.setItem(IN_APP_CLIPBOARD_KEY, otherTabText(['gauge', 'g1']));
    const done = controller.paste();
    await release();
    expect((await done)?.widgets.map((widget) => widget.type)).toEqual(['value']);
    expect(store.getState().selection).toHaveLength(1);
  });

  it('falls back to the in-app clipboard when readText is refused', async () => {
    const { controller, release, storage } = setup({
      readText: async () => {
        throw new DOMException('denied', 'NotAllowedError');
      },
    });
    storage.setItem(IN_APP_CLIPBOARD_KEY, otherTabText(['g1']));
    const done = controller.paste();
    await release();
    expect((await done)?.widgets).toHaveLength(4);
  });

  it('falls back to the in-app clipboard another tab wrote, past foreign or hostile text', async () => {
    const hostile = JSON.stringify({
      format: 'edgeport/widgets',
      schemaVersion: 2,
      widgets: [
        { id: 'x', type: 'iframe', layout: { x: 0, y: 0, w: 2, h: 2 }, options: { url: 'javascript:1' } },
      ],
      slots: [],
    });
    for (const systemText of [hostile, 'just some text', '']) {
      const { store, controller, release, storage } = setup({ readText: async () => hostile });
      storage.setItem(IN_APP_CLIPBOARD_KEY, otherTabText(['g1']));
      const done = controller.paste();
      controller.handlePasteEvent(clipboardEvent({ tagName: 'DIV' }, systemText));
      await release();
      expect((await done)?.widgets).toHaveLength(4);
      expect(store.getState().document.pages[0]?.widgets).toHaveLength(10);
    }
  });

  it('uses this tab’s copy when storage is not available', async () => {
    const { controller, release } = setup();
    writeInApp(otherTabText(['speed']), {});
    expect(readInApp({})).toContain('speed');
    const done = controller.paste();
    await release();
    expect(await done).not.toBeNull();
  });

  it('tells when there is nothing to paste', async () => {
    const { controller, callbacks, release } = setup();
    const done = controller.paste();
    await release();
    expect(await done).toBeNull();
    expect(callbacks.onNothingToPaste).toHaveBeenCalled();
  });

  it('leaves a paste into a text field or a dialog alone, and pastes a menu paste on the canvas', () => {
    const { store, controller } = setup();
    const typing = clipboardEvent({ tagName: 'TEXTAREA' }, otherTabText(['speed']));
    controller.handlePasteEvent(typing);
    expect(typing.prevented).toBe(false);
    const dialog = clipboardEvent({ tagName: 'DIV', closest: () => ({}) }, otherTabText(['speed']));
    controller.handlePasteEvent(dialog);
    expect(dialog.prevented).toBe(false);
    expect(store.getState().canUndo).toBe(false);
    const menu = clipboardEvent({ tagName: 'DIV' }, otherTabText(['speed']));
    controller.handlePasteEvent(menu);
    expect(menu.prevented).toBe(true);
    expect(store.getState().canUndo).toBe(true);
  });
});

describe('delete', () => {
  it('reports the protected page and deletions', () => {
    const { store, controller, callbacks } = setup();
    expect(controller.deleteSelection()).toBe('page-protected');
    expect(callbacks.onProtected).toHaveBeenCalledTimes(1);
    store.commands.select(['speed'], 'replace');
    expect(controller.deleteSelection()).toBe('deleted');
    expect(callbacks.onDeleted).toHaveBeenCalledTimes(1);
  });
});

describe('targets', () => {
  it('knows typing targets and dialogs', () => {
    expect(isTypingTarget({ tagName: 'input' })).toBe(true);
    expect(isTypingTarget({ tagName: 'TEXTAREA' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', isContentEditable: true })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', getAttribute: () => 'textbox' })).toBe(true);
    expect(isTypingTarget({ tagName: 'DIV', getAttribute: () => null })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
    expect(isInDialog({ closest: (selector: string) => (selector.includes('dialog') ? {} : null) })).toBe(
      true,
    );
    expect(isInDialog({ closest: () => null })).toBe(false);
    expect(isInDialog({})).toBe(false);
  });
});
