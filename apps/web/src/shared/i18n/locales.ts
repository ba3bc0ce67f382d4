/** Spec 9: the interface languages. */
export const SUPPORTED_LOCALES = ['en-US', 'de-DE', 'es-ES', 'fr-FR', 'it-IT'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

/** The cookie that carries the chosen locale to every host of the product domain. */
export const LOCALE_COOKIE = 'locale';

/** The user-preference record that remembers the locale (spec 3/4). */
export const LOCALE_PREFERENCE = { serviceName: 'portal', property: 'locale' } as const;

const byLanguage: ReadonlyMap<string, Locale> = new Map(
  SUPPORTED_LOCALES.map((locale) => [locale.slice(0, 2), locale]),
);

/** 'de', 'de-AT', 'DE_de' and 'de-DE' all mean de-DE; anything else is not a portal locale. */
export function normalizeLocale(value: string | null | undefined): Locale | undefined {
  if (!value) return undefined;
  return byLanguage.get(value.trim().slice(0, 2).toLowerCase());
}

export function cookieValue(cookieHeader: string, name: string): string | undefined {
  for (const part of cookieHeader.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0 || part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

export function localeFromCookie(cookieHeader: string): Locale | undefined {
  return normalizeLocale(cookieValue(cookieHeader, LOCALE_COOKIE));
}

/** Before sign-in: the cookie, else the browser's first supported language, else English. */
export function initialLocale(cookieHeader: string, browserLanguages: readonly string[]): Locale {
  return (
    localeFromCookie(cookieHeader) ??
    browserLanguages.map(normalizeLocale).find((locale) => locale !== undefined) ??
    DEFAULT_LOCALE
  );
}

/**
 * The domain one level up from the host (`acme.app.example.com` -> `app.example.com`), so every realm's host shares
 * the cookie; a single-label host (`localhost`) has no parent and keeps a host-only cookie.
 */
export function parentDomain(hostname: string): string | undefined {
  const labels = hostname.split('.');
  if (labels.length < 2 || /^[\d.]+$/.test(hostname)) return undefined;
  return labels.slice(1).join('.');
}

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

export function localeCookie(locale: Locale, hostname: string): string {
  const domain = parentDomain(hostname);
  return [
    `${LOCALE_COOKIE}=${encodeURIComponent(locale)}`,
    'path=/',
    `max-age=${ONE_YEAR_SECONDS}`,
    'samesite=lax',
    ...(domain ? [`domain=${domain}`] : []),
  ].join('; ');
}

export type LocalePreferenceStore = {
  /** The saved locale, or undefined when none is saved. */
  read: () => Promise<string | undefined>;
  save: (locale: Locale) => Promise<void>;
};

/**
 * Spec 4/9 after sign-in: the cookie wins; otherwise the saved preference is used, and when there is none the
 * current locale is saved. A failing preference service never blocks the portal: the current locale stays.
 */
export async function resolveSignedInLocale(
  cookieHeader: string,
  current: Locale,
  preferences: LocalePreferenceStore,
): Promise<Locale> {
  const fromCookie = localeFromCookie(cookieHeader);
  if (fromCookie) return fromCookie;
  try {
    const saved = normalizeLocale(await preferences.read());
    if (saved) return saved;
    await preferences.save(current);
  } catch (error) {
    console.warn('locale preference unavailable', error);
  }
  return current;
}
