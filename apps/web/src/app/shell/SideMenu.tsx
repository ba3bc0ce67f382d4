import { Badge, NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NavLink as RouterNavLink } from 'react-router';
import type { EnteredOrganization } from '../../auth/organization-session.ts';
import type { PortalRoute } from '../routing/route-types.ts';
import { visibleMenu } from '../routing/screens.ts';

/** The screens the ability allows, grouped by area; screens whose pages are not built yet show but do not link. */
export function SideMenu({
  entered,
  routes,
}: {
  entered: EnteredOrganization;
  routes: readonly PortalRoute[];
}) {
  const { t } = useTranslation();
  const groups = visibleMenu(routes, entered.ability, entered.features);
  return (
    <ScrollArea type="auto" component="nav" aria-label={t('menu.label')} data-testid="side-menu">
      <Stack gap="md" p="xs">
        <NavLink component={RouterNavLink} to="/home" label={t('menu.home')} />
        {groups.map(({ area, entries }) => (
          <section key={area} data-area={area} aria-labelledby={`menu-area-${area}`}>
            <Text id={`menu-area-${area}`} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              {t(`menu.areas.${area}`)}
            </Text>
            {entries.map((entry) =>
              entry.built ? (
                <NavLink
                  key={entry.path}
                  component={RouterNavLink}
                  to={entry.path}
                  // `/vpn` is not also current on `/vpn/endpoints`, which has its own entry.
                  end={entries.some((other) => other.path.startsWith(`${entry.path}/`))}
                  label={t(`menu.entries.${entry.id}`)}
                  data-screen={entry.screen}
                />
              ) : (
                <NavLink
                  key={entry.path}
                  label={t(`menu.entries.${entry.id}`)}
                  rightSection={
                    <Badge size="xs" variant="outline" color="gray">
                      {t('menu.soon')}
                    </Badge>
                  }
                  disabled
                  aria-disabled="true"
                  data-screen={entry.screen}
                />
              ),
            )}
          </section>
        ))}
      </Stack>
    </ScrollArea>
  );
}
