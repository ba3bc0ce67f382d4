import { homeScreen } from '@edgeport/permissions';
import { AppShell } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { useHotkeys } from 'react-hotkeys-hook';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { AbilityProvider } from '../../auth/ability.ts';
import { useGuestBridge } from '../../features/app-container/guest.ts';
import { currentPortal } from '../portal.ts';
import type { PortalRoute } from '../routing/route-types.ts';
import { isDashboardEditor } from '../routing/screens.ts';
import { FullPageLoader } from './FullPageLoader.tsx';
import { SideMenu } from './SideMenu.tsx';
import classes from './shell.module.css';
import { TopBar } from './TopBar.tsx';
import { useEnteredOrganization } from './useEnteredOrganization.ts';
import { useOrganizationTheme } from './useOrganizationTheme.ts';

/** The frame of every screen inside an organization: top bar, side menu, and the page. */
export function ShellLayout({ routes }: { routes: readonly PortalRoute[] }) {
  const { t } = useTranslation();
  const { session } = currentPortal();
  const entered = useEnteredOrganization();
  const narrow = useMediaQuery('(max-width: 48em)', false, { getInitialValueInEffect: false });
  const [menuOpen, menu] = useDisclosure(!narrow);
  const location = useLocation();
  useHotkeys('ctrl+m', () => menu.toggle(), {
    preventDefault: true,
    enableOnFormTags: true,
    enabled: !isDashboardEditor(location.pathname),
  });
  useOrganizationTheme(entered?.organization);
  // The portal as guest: inside a host page that answers the bridge, the menu asks the host to navigate.
  useGuestBridge();
  if (!entered) return <FullPageLoader />;
  return (
    <AbilityProvider value={entered.ability}>
      <button
        type="button"
        className={classes.skipLink}
        onClick={() => document.getElementById('main')?.focus()}
      >
        {t('shell.skipToContent')}
      </button>
      <AppShell
        header={{ height: 50 }}
        navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !menuOpen, desktop: !menuOpen } }}
        padding="md"
        data-testid="shell"
        data-organization={entered.organization.id}
        data-home-screen={homeScreen(entered.ability, entered.features)}
        data-menu-open={menuOpen}
      >
        <AppShell.Header>
          <TopBar
            session={session}
            organization={entered.organization}
            menuOpen={menuOpen}
            onToggleMenu={menu.toggle}
          />
        </AppShell.Header>
        <AppShell.Navbar id="side-menu">
          <SideMenu entered={entered} routes={routes} />
        </AppShell.Navbar>
        <AppShell.Main id="main" tabIndex={-1}>
          <Outlet />
        </AppShell.Main>
      </AppShell>
    </AbilityProvider>
  );
}
