import { Stack, Text, Title } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';
import type { Collection } from '../dashboards/api.ts';
import { preloadDashboardViewer } from '../dashboards/viewer/preload.ts';
import { CollectionTable } from './components/CollectionTable.tsx';

const COLLECTION_OF: Record<string, Collection> = {
  '/flows/dashboards': 'dashboards',
  '/flows': 'flows',
  '/flows/widgets': 'widgets',
};

/** The side menu's names for dashboards and flows; saved widgets have their own. */
const TITLE_KEY: Record<Collection, string> = {
  dashboards: 'menu.entries.dashboards',
  flows: 'menu.entries.flows',
  widgets: 'flows.titles.widgets',
};

/**
 * Spec 2 /flows with its sub-routes: /flows/dashboards (the dashboards), /flows (the flows) and /flows/widgets (saved
 * widgets), one tab each, every tab a server-paged table of what the user can open.
 */
export default function FlowsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const collection = COLLECTION_OF[pathname] ?? 'flows';
  // A dashboard opened from the list finds the viewer's code loaded.
  useEffect(() => {
    if (collection === 'dashboards') preloadDashboardViewer();
  }, [collection]);
  return (
    <Stack gap="md" data-testid="flows-page" data-collection={collection}>
      <RouteTabs
        label={t('flows.tabs.label')}
        tabs={[
          { path: '/flows/dashboards', label: t(TITLE_KEY.dashboards) },
          { path: '/flows', label: t(TITLE_KEY.flows) },
          { path: '/flows/widgets', label: t(TITLE_KEY.widgets) },
        ]}
      />
      <Stack gap={4}>
        <Title order={1} size="h3">
          {t(TITLE_KEY[collection])}
        </Title>
        <Text size="sm" c="dimmed">
          {t(`flows.intros.${collection}`)}
        </Text>
      </Stack>
      <CollectionTable key={collection} collection={collection} />
    </Stack>
  );
}
