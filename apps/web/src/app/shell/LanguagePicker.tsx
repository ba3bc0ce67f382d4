import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentSession } from '../../auth/session.ts';
import { changeLocale } from '../../shared/i18n/i18n.ts';
import { saveLocalePreference } from '../../shared/i18n/locale-preference.ts';
import { type Locale, normalizeLocale, SUPPORTED_LOCALES } from '../../shared/i18n/locales.ts';

async function chooseLocale(locale: Locale): Promise<void> {
  await changeLocale(locale);
  const session = currentSession();
  if (!session) return;
  try {
    await saveLocalePreference({ username: session.user.username, accessToken: session.accessToken }, locale);
  } catch (error) {
    console.warn('locale preference not saved', error);
  }
}

/** Spec 1: the five interface languages; the choice is kept in the locale cookie and the user's preferences. */
export function LanguagePicker() {
  const { t, i18n } = useTranslation();
  const current = normalizeLocale(i18n.language) ?? 'en-US';
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          aria-label={t('language.choose')}
          data-testid="language-picker"
        >
          {current.slice(0, 2).toUpperCase()}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('language.label')}</Menu.Label>
        {SUPPORTED_LOCALES.map((locale) => (
          <Menu.Item
            key={locale}
            lang={locale}
            onClick={() => void chooseLocale(locale)}
            aria-current={locale === current ? 'true' : undefined}
            data-locale={locale}
          >
            {t(`language.names.${locale}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
