import type { ScreenId } from '@edgeport/permissions';
import { notifications } from '@mantine/notifications';
import { i18n } from '../../shared/i18n/i18n.ts';

/** Spec 8 sends a user without a route's permissions home; saying why keeps that from looking like a glitch. */
export function announceDenied(screen: ScreenId): void {
  notifications.show({
    id: `route-denied-${screen}`,
    color: 'yellow',
    title: i18n.t('denied.title'),
    message: i18n.t('denied.message', { screen: i18n.t(`screens.${screen}`) }),
    autoClose: 6000,
  });
}
