import { Avatar, Menu, UnstyledButton, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PortalSession } from '../../auth/session.ts';
import { experimentalModalOpen } from '../../features/experimental/experimental-actions.ts';

function initialsOf(name: string): string {
  const parts = name.split(/[\s@.]+/).filter(Boolean);
  return (parts.length > 1 ? `${parts[0]?.[0]}${parts[1]?.[0]}` : name.slice(0, 2)).toUpperCase();
}

/** Account (change password, two-factor), light/dark mode, experimental features and sign-out. */
export function UserMenu({ session }: { session: PortalSession }) {
  const { t } = useTranslation();
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const { displayName, username } = session.user;
  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={t('user.menu')} data-testid="user-menu">
          <Avatar size={32} radius="xl" color="brand">
            {initialsOf(displayName || username)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {t('user.signedInAs')} <span data-testid="user-email">{username}</span>
        </Menu.Label>
        <Menu.Item onClick={() => void session.startAccountAction('UPDATE_PASSWORD')}>
          {t('user.changePassword')}
        </Menu.Item>
        <Menu.Item onClick={() => void session.startAccountAction('CONFIGURE_TOTP')}>
          {t('user.configureTotp')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item onClick={() => setColorScheme(scheme === 'dark' ? 'light' : 'dark')}>
          {t(scheme === 'dark' ? 'user.lightMode' : 'user.darkMode')}
        </Menu.Item>
        <Menu.Item onClick={() => experimentalModalOpen.set(true)}>{t('experimental.title')}</Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => void session.signOut()} data-testid="sign-out">
          {t('user.signOut')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
