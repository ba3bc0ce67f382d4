import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, type Locale, localeCookie } from './locales.ts';

export type Translations = { [key: string]: string | Translations };

// The shell's texts live in src/locales; a feature may keep its own under src/features/<feature>/locales (or <feature>/<part>/locales), each file
// holding its own top-level keys, so features do not all edit one file.
const bundles = import.meta.glob<Translations>(
  ['../../locales/*.json', '../../features/*/locales/*.json', '../../features/*/*/locales/*.json'],
  {
    import: 'default',
  },
);

const FILE_NAME: Record<Locale, string> = {
  'en-US': 'en.json',
  'de-DE': 'de.json',
  'es-ES': 'es.json',
  'fr-FR': 'fr.json',
  'it-IT': 'it.json',
};

/** Each language is a separate set of chunks: only the one in use is downloaded. */
async function loadBundle(locale: Locale): Promise<Translations> {
  const loads = Object.entries(bundles)
    .filter(([file]) => file.endsWith(`/${FILE_NAME[locale]}`))
    .map(([, load]) => load());
  if (loads.length === 0) throw new Error(`no translations for ${locale}`);
  return Object.assign({}, ...(await Promise.all(loads)));
}

async function ensureBundle(locale: Locale): Promise<void> {
  if (i18next.hasResourceBundle(locale, 'translation')) return;
  i18next.addResourceBundle(locale, 'translation', await loadBundle(locale));
}

export const i18n = i18next;

export async function setUpI18n(locale: Locale): Promise<void> {
  const translation = await loadBundle(locale);
  await i18next.use(initReactI18next).init({
    lng: locale,
    // Every locale file carries every key (checked by locales.test.ts); falling back would hide a gap as English.
    fallbackLng: false,
    resources: { [locale]: { translation } },
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  document.documentElement.lang = locale;
}

export function currentLocale(): Locale {
  return (i18next.language as Locale | undefined) ?? DEFAULT_LOCALE;
}

/** Switches the interface language and remembers it in the locale cookie on the parent domain. */
export async function changeLocale(locale: Locale): Promise<void> {
  await ensureBundle(locale);
  await i18next.changeLanguage(locale);
  document.documentElement.lang = locale;
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Safari; localeCookie encodes the value.
  document.cookie = localeCookie(locale, window.location.hostname);
}
