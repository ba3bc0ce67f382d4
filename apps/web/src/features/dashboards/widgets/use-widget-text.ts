import type { i18n as I18n, TFunction } from 'i18next';
import { useContext, useSyncExternalStore } from 'react';
import { getI18n, I18nContext } from 'react-i18next';

/** What a widget needs to speak: the texts of the interface language and the language, for numbers and times. */
export type WidgetText = { t: TFunction; language: string };

type Shared = { snapshot: WidgetText; subscribe: (listener: () => void) => () => void };

const sharedByInstance = new WeakMap<I18n, Shared>();

function snapshotOf(i18n: I18n): WidgetText {
  const fixed = i18n.getFixedT(i18n.language) as unknown as (
    key: string | string[],
    options?: unknown,
  ) => string;
  // A hundred widgets ask for the same few texts ("No value yet"): each text without options is looked up once per
  // language.
  const plain = new Map<string, string>();
  const cached = (key: string | string[], options?: unknown): string => {
    if (options !== undefined || typeof key !== 'string') return fixed(key, options);
    let text = plain.get(key);
    if (text === undefined) {
      text = fixed(key);
      plain.set(key, text);
    }
    return text;
  };
  return { t: cached as unknown as TFunction, language: i18n.language };
}

/** One language listener per i18next instance, shared by every widget of every dashboard. */
function sharedOf(i18n: I18n): Shared {
  const known = sharedByInstance.get(i18n);
  if (known) return known;
  const listeners = new Set<() => void>();
  const shared: Shared = {
    snapshot: snapshotOf(i18n),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  i18n.on('languageChanged', () => {
    shared.snapshot = snapshotOf(i18n);
    for (const listener of [...listeners]) listener();
  });
  sharedByInstance.set(i18n, shared);
  return shared;
}

/**
 * `useTranslation()`'s `t` and language for the widgets, which a dashboard shows by the hundred: the same texts
 * (every language's bundle is complete once it is in use, see shared/i18n) and the same re-render when the language
 * changes, through one listener per i18next instance instead of one subscription (and its bookkeeping) per widget.
 */
export function useWidgetText(): WidgetText {
  const i18n = useContext(I18nContext)?.i18n ?? getI18n();
  const shared = sharedOf(i18n);
  const snapshot = () => shared.snapshot;
  return useSyncExternalStore(shared.subscribe, snapshot, snapshot);
}
