import { fromClipboardText } from '../serialization/clipboard.ts';
import type { ClipboardPayload } from './types.ts';

/**
 * Where copied widgets go and come from. The system clipboard (`navigator.clipboard`) is used when the browser allows
 * it (a secure page, the user's permission); refusals are ignored quietly. The in-app clipboard always holds the last
 * copy: a module variable and a `localStorage` entry, so another tab of the portal can paste even when the system
 * clipboard is not available.
 */
export type SystemClipboard = {
  writeText?(text: string): Promise<void>;
  readText?(): Promise<string>;
};

/** `localStorage`'s part the in-app clipboard uses. */
export type ClipboardStorage = {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
};

export type ClipboardEnvironment = {
  system?: SystemClipboard | undefined;
  storage?: ClipboardStorage | undefined;
};

export const IN_APP_CLIPBOARD_KEY = 'edgeport.dashboards.clipboard';

let inAppText: string | undefined;

/** The browser's clipboard and storage, each absent when not available (insecure page, storage disabled). */
export function browserClipboardEnvironment(): ClipboardEnvironment {
  let storage: ClipboardStorage | undefined;
  try {
    storage = typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    storage = undefined;
  }
  const system = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
  return { system, storage };
}

/** Keeps `text` in the in-app clipboard (module and storage; a full or disabled storage is ignored). */
export function writeInApp(text: string, environment: ClipboardEnvironment): void {
  inAppText = text;
  try {
    environment.storage?.setItem(IN_APP_CLIPBOARD_KEY, text);
  } catch {
    // Quota exceeded or storage disabled: the module copy still serves this tab.
  }
}

/** The in-app clipboard's text: the storage's (possibly written by another tab), else this tab's. */
export function readInApp(environment: ClipboardEnvironment): string | undefined {
  try {
    const stored = environment.storage?.getItem(IN_APP_CLIPBOARD_KEY);
    if (typeof stored === 'string') return stored;
  } catch {
    // Storage disabled: fall back to this tab's copy.
  }
  return inAppText;
}

/** Forgets the in-app clipboard of this tab (tests). */
export function clearInAppClipboard(): void {
  inAppText = undefined;
}

/** Writes the system clipboard; false when the browser has none or refuses (no error reaches the user). */
export async function writeSystem(text: string, environment: ClipboardEnvironment): Promise<boolean> {
  try {
    if (!environment.system?.writeText) return false;
    await environment.system.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** The system clipboard's text; undefined when the browser has none or refuses. */
export async function readSystem(environment: ClipboardEnvironment): Promise<string | undefined> {
  try {
    if (!environment.system?.readText) return undefined;
    const text = await environment.system.readText();
    return typeof text === 'string' ? text : undefined;
  } catch {
    return undefined;
  }
}

/** The first of the texts (in order of preference) that holds valid copied widgets. */
export function firstPayload(texts: readonly (string | undefined)[]): ClipboardPayload | null {
  for (const text of texts) {
    if (text === undefined) continue;
    const payload = fromClipboardText(text);
    if (payload) return payload;
  }
  return null;
}
