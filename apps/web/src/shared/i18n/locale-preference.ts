import type { CorePaths, OkBody } from '@edgeport/api-client';
import { answer, bearer, coreClient } from '../http/clients.ts';
import { LOCALE_PREFERENCE, type Locale, type LocalePreferenceStore } from './locales.ts';

type Preference = OkBody<CorePaths, '/svc/core/api/v1/userPreferences', 'get'>[number];
type Signed = { username: string; accessToken: () => Promise<string> };

const PREFERENCE_PATH = '/svc/core/api/v1/userPreferences/users/{user}/services/{service}/properties/{prop}';

// The user's list answers 200 whether or not a locale is saved, where the single-record call answers 404 for
// "none yet": a first visit then leaves no failed request in the console.
async function savedLocaleRecord({ accessToken }: Signed): Promise<Preference | undefined> {
  const preferences = await answer(
    coreClient.GET('/svc/core/api/v1/userPreferences', { headers: bearer(await accessToken()) }),
  );
  return preferences.find(
    (preference) =>
      preference.serviceName === LOCALE_PREFERENCE.serviceName &&
      preference.property === LOCALE_PREFERENCE.property,
  );
}

async function createLocale({ accessToken }: Signed, locale: Locale): Promise<void> {
  await answer(
    coreClient.POST('/svc/core/api/v1/userPreferences', {
      body: { ...LOCALE_PREFERENCE, value1: locale },
      headers: bearer(await accessToken()),
    }),
  );
}

/** Saves a chosen locale: the record is changed, or created when the user has none yet. */
export async function saveLocalePreference(signed: Signed, locale: Locale): Promise<void> {
  const existing = await savedLocaleRecord(signed);
  if (!existing) return createLocale(signed, locale);
  await answer(
    coreClient.PUT(PREFERENCE_PATH, {
      params: {
        path: {
          user: signed.username,
          service: LOCALE_PREFERENCE.serviceName,
          prop: LOCALE_PREFERENCE.property,
        },
      },
      body: { value1: locale },
      headers: bearer(await signed.accessToken()),
    }),
  );
}

/** The user's saved locale in the core service's preference store (spec 3/4). */
export function localePreferenceStore(signed: Signed): LocalePreferenceStore {
  return {
    read: async () => (await savedLocaleRecord(signed))?.value1,
    save: (locale) => createLocale(signed, locale),
  };
}
