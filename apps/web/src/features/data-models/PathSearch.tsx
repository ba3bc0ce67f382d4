import {
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { RowLinkButton } from '../../shared/ui/RowLinkButton.tsx';
import { searchPaths } from './api.ts';
import { MODELS_KEY } from './query-keys.ts';

/** Spec 9: the path search asks for 100 paths a page. */
const PAGE_SIZE = 100;

/** `POST /models/paths/search`: the paths of every model (current versions) containing the typed text. */
export function PathSearch({ onOpenModel }: { onOpenModel: (id: string) => void }) {
  const { t } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [text, setText] = useState('');
  const [query] = useDebouncedValue(text.trim(), 300);
  const [page, setPage] = useState(0);
  const hits = useQuery({
    queryKey: [MODELS_KEY, organization.id, 'paths', query, page],
    queryFn: async ({ signal }) =>
      searchPaths(await token(), organization.id, { query, page, pageSize: PAGE_SIZE }, signal),
    enabled: query !== '',
    placeholderData: keepPreviousData,
  });
  const pages = Math.max(1, Math.ceil((hits.data?.total ?? 0) / PAGE_SIZE));

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="path-search-title">
      <Stack gap="sm">
        <Title order={3} size="h5" id="path-search-title">
          {t('dataModels.search.title')}
        </Title>
        <TextInput
          label={t('dataModels.search.label')}
          description={t('dataModels.search.hint')}
          placeholder="/motor"
          value={text}
          maxLength={300}
          onChange={(event) => {
            setText(event.currentTarget.value);
            setPage(0);
          }}
          w={360}
          data-testid="path-search"
        />
        {query !== '' && hits.isError && (
          <LoadFailed
            title={t('dataModels.search.failed')}
            message={describeError(t, hits.error)}
            onRetry={() => void hits.refetch()}
          />
        )}
        {query !== '' && hits.isPending && (
          <Center p="sm">
            <Loader size="sm" aria-label={t('common.loading')} />
          </Center>
        )}
        {query !== '' && hits.data && hits.data.items.length === 0 && (
          <Text size="sm" c="dimmed" data-testid="path-search-empty">
            {t('dataModels.search.none', { query })}
          </Text>
        )}
        {query !== '' && hits.data && hits.data.items.length > 0 && (
          <>
            <Text size="sm" c="dimmed">
              {t('dataModels.search.total', { count: hits.data.total })}
            </Text>
            <Table.ScrollContainer minWidth={560} maxHeight="40vh">
              <Table
                stickyHeader
                striped
                aria-label={t('dataModels.search.tableLabel')}
                aria-busy={hits.isFetching}
              >
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('dataModels.search.model')}</Table.Th>
                    <Table.Th>{t('dataModels.paths.path')}</Table.Th>
                    <Table.Th>{t('dataModels.paths.type')}</Table.Th>
                    <Table.Th>{t('dataModels.paths.unit')}</Table.Th>
                    <Table.Th>{t('dataModels.paths.writable')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {hits.data.items.map((hit) => (
                    <Table.Tr key={`${hit.modelId}${hit.path}`}>
                      <Table.Td>
                        <RowLinkButton
                          onClick={() => onOpenModel(hit.modelId)}
                          label={t('dataModels.models.open', { name: hit.modelName })}
                        >
                          {hit.modelName}
                        </RowLinkButton>
                      </Table.Td>
                      <Table.Td ff="monospace">{hit.path}</Table.Td>
                      <Table.Td>{t(`dataModels.types.${hit.type}`)}</Table.Td>
                      <Table.Td>{hit.unit ?? ''}</Table.Td>
                      <Table.Td>
                        {hit.writable ? t('dataModels.paths.yes') : t('dataModels.paths.no')}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            {pages > 1 && (
              <Group justify="flex-end">
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
    </Paper>
  );
}
