import {
  Alert,
  Center,
  Group,
  Loader,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { AppCard } from './AppCard.tsx';
import { CATALOGUE_PAGE_SIZE, fetchCatalogue, storeKeys } from './api.ts';
import { StoreTabs } from './StoreTabs.tsx';
import { useInstalledApps } from './use-installed.ts';
import { useLike } from './use-like.ts';

const SEARCH_DELAY_MS = 250;

/**
 * Spec 2 /store: the catalogue as cards, searchable, with likes; installed apps open in their container, others
 * install through the wizard (UPDATE organizations).
 */
export default function CataloguePage() {
  const { t } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const canInstall = ability.can('UPDATE', 'organizations');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [page, setPage] = useState(0);
  const request = useMemo(() => ({ page, ...(debounced && { search: debounced }) }), [page, debounced]);

  const catalogue = useQuery({
    queryKey: storeKeys.catalogue(organization.id, request),
    queryFn: async ({ signal }) => fetchCatalogue(await token(), request, signal),
    placeholderData: keepPreviousData,
  });
  const installed = useInstalledApps();
  const installedIds = useMemo(
    () => new Set((installed.data?.items ?? []).map((app) => app.id)),
    [installed.data],
  );
  const like = useLike();
  const pages = Math.max(1, Math.ceil((catalogue.data?.total ?? 0) / CATALOGUE_PAGE_SIZE));

  return (
    <Stack gap="md" data-testid="store-catalogue">
      <StoreTabs />
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('store.catalogue.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('store.catalogue.intro')}
          </Text>
        </Stack>
        <TextInput
          type="search"
          aria-label={t('store.catalogue.search')}
          placeholder={t('store.catalogue.search')}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(0);
          }}
          w={280}
        />
      </Group>
      {installed.isError && (
        <Alert color="yellow" title={t('store.catalogue.installedFailed')}>
          {describeError(t, installed.error)}
        </Alert>
      )}
      {catalogue.isPending ? (
        <Center h={200}>
          <Loader aria-label={t('store.catalogue.loading')} />
        </Center>
      ) : catalogue.isError ? (
        <LoadFailed
          title={t('store.catalogue.loadFailed')}
          message={describeError(t, catalogue.error)}
          onRetry={() => void catalogue.refetch()}
        />
      ) : catalogue.data.items.length === 0 ? (
        <Center mih={160}>
          <Stack gap={4} align="center">
            <Text fw={500}>{debounced ? t('store.catalogue.noMatch') : t('store.catalogue.empty')}</Text>
            <Text size="sm" c="dimmed">
              {debounced ? t('store.catalogue.noMatchHint') : t('store.catalogue.emptyHint')}
            </Text>
          </Stack>
        </Center>
      ) : (
        <>
          <SimpleGrid
            cols={{ base: 1, sm: 2, lg: 3 }}
            spacing="md"
            aria-busy={catalogue.isFetching}
            data-testid="store-apps"
          >
            {catalogue.data.items.map((app) => (
              <AppCard
                key={app.id}
                app={app}
                installed={installedIds.has(app.id)}
                canInstall={canInstall}
                likePending={like.isPending && like.variables?.id === app.id}
                onLike={(target) => like.mutate(target)}
              />
            ))}
          </SimpleGrid>
          {pages > 1 && (
            <Group justify="center">
              <Pagination
                total={pages}
                value={page + 1}
                onChange={(next) => setPage(next - 1)}
                getControlProps={(control) => ({ 'aria-label': t(`table.${control}`) })}
                getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
              />
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}
