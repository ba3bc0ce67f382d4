import { Alert, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { currentPortal } from '../../app/portal.ts';
import { useEnteredOrganization } from '../../app/shell/useEnteredOrganization.ts';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { RouteTabs } from '../../shared/ui/RouteTabs.tsx';
import { collectionKeys, type DashboardPage, fetchPage } from '../dashboards/api.ts';
import { fetchInstalledApps } from '../store/api.ts';
import { fetchShortcuts } from '../vpn-applications/api.ts';
import { domainOf } from '../vpn-endpoints/api.ts';
import { ApplicationsList } from './ApplicationsList.tsx';
import { CollectionList } from './CollectionList.tsx';
import {
  availableCategories,
  type Category,
  categoryOf,
  firstWithContent,
  type Sources,
  sourcesFor,
} from './categories.ts';

/**
 * Spec 2 /directaccess with its sub-routes dashboards, applications and flows: what the user can open directly. The
 * bare address goes to the first of them that lists something; with nothing to list (or no permission for any) it
 * is the empty state that says what to do next — also the final fallback of /home.
 */
export default function DirectAccessPage() {
  const entered = useEnteredOrganization();
  const { pathname } = useLocation();
  if (!entered) return <NothingCard />;
  const sources = sourcesFor(entered.ability, entered.features);
  const available = availableCategories(sources);
  if (available.length === 0) return <NothingCard />;
  const category = categoryOf(pathname);
  if (!category) return <Overview sources={sources} />;
  return <Lists category={category} available={available} sources={sources} />;
}

/** An empty state that says what to do next when nothing is open to the user. */
function NothingCard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { session } = currentPortal();
  const entered = useEnteredOrganization();
  return (
    <Card withBorder maw={640} mx="auto" mt="xl" p="xl" data-testid="direct-access">
      <Stack gap="md">
        <Title order={1} size="h3">
          {t('directaccess.title')}
        </Title>
        <Text>{t('directaccess.body', { organization: entered?.organization.name ?? '' })}</Text>
        <Text size="sm" c="dimmed">
          {t('directaccess.next')}
        </Text>
        <Group>
          <Button onClick={() => void navigate('/organization?redirectTo=/home')}>
            {t('organization.switch')}
          </Button>
          <Button variant="default" onClick={() => void session.signOut()}>
            {t('user.signOut')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

const PROBE = { page: 0, pageSize: 1 } as const;

/** /directaccess itself: counts what each list holds, then opens the first list with something in it. */
function Overview({ sources }: { sources: Sources }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const probes = useQueries({
    queries: [
      {
        queryKey: collectionKeys.page(organization.id, 'dashboards', 'all', PROBE),
        queryFn: async ({ signal }: { signal: AbortSignal }) =>
          fetchPage(await token(), 'dashboards', 'all', PROBE, signal),
        select: (page: DashboardPage) => page.total,
        enabled: sources.dashboards,
      },
      {
        queryKey: collectionKeys.page(organization.id, 'flows', 'all', PROBE),
        queryFn: async ({ signal }: { signal: AbortSignal }) =>
          fetchPage(await token(), 'flows', 'all', PROBE, signal),
        select: (page: DashboardPage) => page.total,
        enabled: sources.flows,
      },
      {
        queryKey: ['directaccess', organization.id, 'count', 'apps'],
        queryFn: async ({ signal }: { signal: AbortSignal }) =>
          (await fetchInstalledApps(await token(), organization.id, signal)).items.length,
        enabled: sources.storeApps,
      },
      {
        queryKey: ['directaccess', organization.id, 'count', 'shortcuts'],
        queryFn: async ({ signal }: { signal: AbortSignal }) =>
          (await fetchShortcuts(await token(), domainOf(organization), signal)).items.length,
        enabled: sources.vpnShortcuts,
      },
    ],
  });
  const [dashboards, flows, apps, shortcuts] = probes;
  const enabled = [sources.dashboards, sources.flows, sources.storeApps, sources.vpnShortcuts];
  const pending = probes.some((probe, index) => enabled[index] && probe.isPending);
  if (pending) {
    return (
      <Center p="xl">
        <Loader aria-label={t('directaccessLists.checking')} />
      </Center>
    );
  }
  const counts: Partial<Record<Category, number>> = {
    dashboards: dashboards?.data ?? 0,
    applications: (apps?.data ?? 0) + (shortcuts?.data ?? 0),
    flows: flows?.data ?? 0,
  };
  const first = firstWithContent(counts);
  if (first) return <Navigate to={`/directaccess/${first}`} replace />;
  const failed = probes.find((probe, index) => enabled[index] && probe.isError);
  if (failed) {
    return (
      <Alert color="red" title={t('directaccessLists.loadFailed')} maw={640} mx="auto" mt="xl">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{describeError(t, failed.error)}</Text>
          <Button
            size="xs"
            variant="light"
            onClick={() => void Promise.all(probes.map((probe) => probe.refetch()))}
          >
            {t('common.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return <NothingCard />;
}

/** The side menu's names for dashboards and flows. */
const TAB_KEY: Record<Category, string> = {
  dashboards: 'menu.entries.dashboards',
  applications: 'directaccessLists.tabs.applications',
  flows: 'menu.entries.flows',
};

function Lists({
  category,
  available,
  sources,
}: {
  category: Category;
  available: readonly Category[];
  sources: Sources;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="md" data-testid="direct-access-lists" data-category={category}>
      <RouteTabs
        label={t('directaccessLists.tabs.label')}
        tabs={(['dashboards', 'applications', 'flows'] as const).map((tab) => ({
          path: `/directaccess/${tab}`,
          label: t(TAB_KEY[tab]),
          hidden: !available.includes(tab) && tab !== category,
        }))}
      />
      <Stack gap={4}>
        <Title order={2} size="h3">
          {t(`directaccessLists.titles.${category}`)}
        </Title>
        <Text size="sm" c="dimmed">
          {t(`directaccessLists.intros.${category}`)}
        </Text>
      </Stack>
      {!available.includes(category) ? (
        <Alert color="gray" data-testid="direct-access-unavailable">
          {t('directaccessLists.unavailable')}
        </Alert>
      ) : category === 'applications' ? (
        <ApplicationsList storeApps={sources.storeApps} vpnShortcuts={sources.vpnShortcuts} />
      ) : (
        <CollectionList collection={category} />
      )}
    </Stack>
  );
}
