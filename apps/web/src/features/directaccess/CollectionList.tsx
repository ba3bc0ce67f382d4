import { Anchor, Stack, Text, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../shared/ui/DataTable.tsx';
import { collectionKeys, type Dashboard, fetchPage } from '../dashboards/api.ts';
import { openPath } from '../flows/paths.ts';
import { OpenButton } from './OpenButton.tsx';

/** The dashboards or flows the user can open (their own and those shared with them), each a link to open it. */
export function CollectionList({ collection }: { collection: 'dashboards' | 'flows' }) {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const [request, setRequest] = usePageRequest({ sort: 'name', order: 'asc' });
  const kind = collection === 'dashboards' ? 'dashboard' : 'flow';
  const list = useQuery({
    queryKey: collectionKeys.page(organization.id, collection, 'all', request),
    queryFn: async ({ signal }) => fetchPage(await token(), collection, 'all', request, signal),
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<ColumnDef<Dashboard>[]>(() => {
    const dates = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
    return [
      {
        id: 'name',
        accessorKey: 'name',
        header: t('directaccessLists.columns.name'),
        cell: ({ row }) => (
          <Anchor component={Link} to={openPath(kind, row.original.id)} fw={500}>
            {row.original.name}
          </Anchor>
        ),
      },
      {
        id: 'owner',
        header: t('directaccessLists.columns.owner'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{row.original.ownerName ?? t('directaccessLists.noOwner')}</Text>,
      },
      {
        id: 'updatedAt',
        accessorKey: 'updatedAt',
        header: t('directaccessLists.columns.updated'),
        cell: ({ row }) => <Text size="sm">{dates.format(new Date(row.original.updatedAt))}</Text>,
      },
      {
        id: 'open',
        header: () => <VisuallyHidden>{t('directaccessLists.columns.actions')}</VisuallyHidden>,
        enableSorting: false,
        cell: ({ row }) => <OpenButton to={openPath(kind, row.original.id)} name={row.original.name} />,
      },
    ];
  }, [t, i18n.language, kind]);
  return (
    <DataTable<Dashboard>
      label={t(`directaccessLists.tableLabel.${collection}`)}
      columns={columns}
      request={request}
      onRequestChange={setRequest}
      query={list}
      rowId={(row) => row.id}
      empty={
        <Stack gap={4} align="center">
          <Text fw={500}>
            {request.search
              ? t('directaccessLists.empty.noMatch')
              : t(`directaccessLists.empty.${collection}`)}
          </Text>
          <Text size="sm" c="dimmed">
            {t('directaccessLists.empty.hint')}
          </Text>
        </Stack>
      }
    />
  );
}
