import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { changeLocale, currentLocale } from '../shared/i18n/i18n.ts';
import { localePreferenceStore } from '../shared/i18n/locale-preference.ts';
import { resolveSignedInLocale } from '../shared/i18n/locales.ts';
import { currentPortal } from './portal.ts';

let localeSynced = false;

/** Spec 4: on the first signed-in load the saved locale is fetched, or the current one saved when there is none. */
function useLocalePreference(): void {
  useEffect(() => {
    if (localeSynced) return;
    localeSynced = true;
    const { session } = currentPortal();
    const store = localePreferenceStore({
      username: session.user.username,
      accessToken: session.accessToken,
    });
    const current = currentLocale();
    void resolveSignedInLocale(document.cookie, current, store).then((locale) => {
      if (locale !== current) return changeLocale(locale);
    });
  }, []);
}

/** Everything behind sign-in. */
export function SessionLayout() {
  useLocalePreference();
  return <Outlet />;
}
