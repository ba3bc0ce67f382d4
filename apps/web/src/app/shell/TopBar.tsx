import { Burger, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Organization } from '../../auth/organizations.ts';
import type { PortalSession } from '../../auth/session.ts';
import { AlarmBadge } from '../../features/alarms/AlarmBadge.tsx';
import { BrandMark } from './BrandMark.tsx';
import { LanguagePicker } from './LanguagePicker.tsx';
import { OrganizationSwitcher } from './OrganizationSwitcher.tsx';
import { UserMenu } from './UserMenu.tsx';

type TopBarProps = {
  session: PortalSession;
  organization: Organization;
  menuOpen: boolean;
  onToggleMenu: () => void;
};

/**
 * The 50 px top bar: menu toggle, brand, organization, the open alarm count (only for whoever may open /alarms),
 * language and user.
 */
export function TopBar({ session, organization, menuOpen, onToggleMenu }: TopBarProps) {
  const { t } = useTranslation();
  return (
    <Group h="100%" px="md" justify="space-between" wrap="nowrap">
      <Group gap="sm" wrap="nowrap" miw={0}>
        <Burger
          opened={menuOpen}
          onClick={onToggleMenu}
          size="sm"
          aria-label={t('menu.toggle')}
          aria-expanded={menuOpen}
          aria-controls="side-menu"
          data-testid="menu-toggle"
        />
        <BrandMark linkHome />
        <OrganizationSwitcher current={organization} />
      </Group>
      <Group gap="xs" wrap="nowrap">
        <AlarmBadge />
        <LanguagePicker />
        <UserMenu session={session} />
      </Group>
    </Group>
  );
}
