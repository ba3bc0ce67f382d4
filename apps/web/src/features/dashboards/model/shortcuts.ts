import { toClipboardText } from '../serialization/clipboard.ts';
import {
  type ClipboardEnvironment,
  firstPayload,
  readInApp,
  readSystem,
  writeInApp,
  writeSystem,
} from './clipboard-access.ts';
import type { ClipboardPayload, DeleteOutcome, EditorCommands } from './types.ts';

/**
 * The editor's keyboard and clipboard behaviour without React or a DOM (so it can be tested with plain objects);
 * `useEditorShortcuts` binds it to the keys and the document's clipboard events.
 *
 * Copy / cut: the payload goes to the in-app clipboard at once, to the system clipboard through
 * `navigator.clipboard.writeText` when allowed, and — because the key press is not prevented — into the `copy`/`cut`
 * event the browser fires next (`clipboardData.setData`, which needs no permission and also works on plain http).
 *
 * Paste: the system clipboard first, then the in-app clipboard (the last copy in any tab of the portal); the first
 * that holds valid copied widgets is pasted (`fromClipboardText` checks it), so when the system clipboard holds other
 * text, the last widgets copied in the portal are pasted. The system clipboard is read from the `paste` event the
 * same key press makes the browser fire (its `clipboardData` needs no permission) and, only when no such event came
 * (a toolbar button, a browser that fired none), through `navigator.clipboard.readText`. Both hold the same system
 * clipboard; taking the event's first spares the user Chromium's permission prompt and Firefox's "Paste" pop-up on
 * every Ctrl+V.
 */
export type ShortcutCallbacks = {
  /** Delete pressed with only the page selected: the page cannot be deleted. */
  onProtected?(): void;
  onDeleted?(): void;
  onCopied?(payload: ClipboardPayload, cut: boolean): void;
  onPasted?(payload: ClipboardPayload): void;
  /** A paste found no copied widgets in any clipboard. */
  onNothingToPaste?(): void;
};

/** The part of a DOM `ClipboardEvent` the controller uses. */
export type ClipboardEventLike = {
  target: unknown;
  clipboardData: { getData(format: string): string; setData(format: string, data: string): void } | null;
  preventDefault(): void;
};

export type ShortcutController = {
  copy(): ClipboardPayload | null;
  cut(): ClipboardPayload | null;
  /** Pastes from the first clipboard holding copied widgets (see above); resolves to what was pasted. */
  paste(): Promise<ClipboardPayload | null>;
  deleteSelection(): DeleteOutcome;
  /** The document's `copy` and `cut` events. */
  handleCopyEvent(event: ClipboardEventLike): void;
  /** The document's `paste` event. */
  handlePasteEvent(event: ClipboardEventLike): void;
};

type ElementLike = {
  tagName?: unknown;
  isContentEditable?: unknown;
  getAttribute?: (name: string) => string | null;
  closest?: (selector: string) => unknown;
};

const TEXT_ROLES = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox']);

/** True when the event's target takes typed text (input, textarea, select, contenteditable, text roles). */
export function isTypingTarget(target: unknown): boolean {
  if (typeof target !== 'object' || target === null) return false;
  const element = target as ElementLike;
  const tag = typeof element.tagName === 'string' ? element.tagName.toUpperCase() : '';
  if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (element.isContentEditable === true) return true;
  const role = typeof element.getAttribute === 'function' ? element.getAttribute('role') : null;
  return role !== null && TEXT_ROLES.has(role);
}

/** True when the target sits in a dialog (a modal over the editor keeps its own keys). */
export function isInDialog(target: unknown): boolean {
  if (typeof target !== 'object' || target === null) return false;
  const element = target as ElementLike;
  return (
    typeof element.closest === 'function' && Boolean(element.closest('[role="dialog"],[aria-modal="true"]'))
  );
}

const macrotask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function createShortcutController(source: {
  commands(): EditorCommands;
  callbacks(): ShortcutCallbacks;
  environment(): ClipboardEnvironment;
  /** Lets the browser dispatch the clipboard event of the same key press (default: the next macrotask). */
  nextTask?(): Promise<void>;
}): ShortcutController {
  const nextTask = source.nextTask ?? macrotask;
  let pendingCopy: string | undefined;
  /** A paste under way: whether the browser's paste event came, and its text. */
  let pasting: { event: boolean; eventText: string | undefined } | undefined;

  const written = (payload: ClipboardPayload | null, cut: boolean) => {
    if (!payload) return null;
    const text = toClipboardText(payload);
    const environment = source.environment();
    writeInApp(text, environment);
    pendingCopy = text;
    void nextTask().then(() => {
      if (pendingCopy === text) pendingCopy = undefined;
    });
    void writeSystem(text, environment);
    source.callbacks().onCopied?.(payload, cut);
    return payload;
  };

  const pasteFirst = (texts: (string | undefined)[]) => {
    const payload = firstPayload(texts);
    if (payload) {
      source.commands().paste(payload);
      source.callbacks().onPasted?.(payload);
    } else {
      source.callbacks().onNothingToPaste?.();
    }
    return payload;
  };

  return {
    copy: () => written(source.commands().copySelection(), false),
    cut: () => written(source.commands().cutSelection(), true),
    async paste() {
      const gesture: { event: boolean; eventText: string | undefined } = {
        event: false,
        eventText: undefined,
      };
      pasting = gesture;
      await nextTask();
      if (pasting === gesture) pasting = undefined;
      const environment = source.environment();
      const system = gesture.event ? gesture.eventText : await readSystem(environment);
      return pasteFirst([system, readInApp(environment)]);
    },
    deleteSelection() {
      const outcome = source.commands().deleteSelection();
      if (outcome === 'page-protected') source.callbacks().onProtected?.();
      if (outcome === 'deleted') source.callbacks().onDeleted?.();
      return outcome;
    },
    handleCopyEvent(event) {
      if (pendingCopy === undefined || isTypingTarget(event.target)) return;
      event.clipboardData?.setData('text/plain', pendingCopy);
      event.preventDefault();
      pendingCopy = undefined;
    },
    handlePasteEvent(event) {
      if (isTypingTarget(event.target) || isInDialog(event.target)) return;
      event.preventDefault();
      const text = event.clipboardData?.getData('text/plain') || undefined;
      if (pasting) {
        pasting.event = true;
        pasting.eventText = text;
        return;
      }
      // A paste without the shortcut (the browser's menu): its text, else the in-app clipboard.
      pasteFirst([text, readInApp(source.environment())]);
    },
  };
}
