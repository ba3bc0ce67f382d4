import { Badge, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../../shared/ui/DataTable.tsx';
import { fetchHistory, type HistoryEntry, type Range, usageKeys } from '../api.ts';
import { eventColor, eventKey } from '../events.ts';
import { NONE, useFormats } from '../format.ts';

/** The subscription history in the range: the licence events (issued, activated, renewed, expired...), newest first. */
export function HistorySection({ range }: { range: Range | undefined }) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const [request, setRequest] = usePageRequest({ pageSize: 20 });
  const query = range ? { ...range, page: request.page, pageSize: request.pageSize } : undefined;
  const history = useQuery({
    queryKey: usageKeys.history(organization.id, query ?? {}),
    queryFn: async ({ signal }) => {
      if (!query) throw new Error('no range');
      return fetchHistory(await token(), organization.id, query, signal);
    },
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
  });
  const columns = useMemo<ColumnDef<HistoryEntry>[]>(
    () => [
      {
        id: 'time',
        header: t('organizationUsage.consumptions.history.columns.time'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{format.dateTime(row.original.at)}</Text>,
      },
      {
        id: 'event',
        header: t('organizationUsage.consumptions.history.columns.event'),
        enableSorting: false,
        cell: ({ row }) => {
          const key = eventKey(row.original.event);
          return (
            <Badge variant="light" color={eventColor(row.original.event)}>
              {key ? t(key) : row.original.event}
            </Badge>
          );
        },
      },
      {
        id: 'license',
        header: t('organizationUsage.consumptions.history.columns.license'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" ff="monospace">
            {row.original.licenseCode ?? NONE}
          </Text>
        ),
      },
      {
        id: 'product',
        header: t('organizationUsage.consumptions.history.columns.product'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{row.original.productName ?? NONE}</Text>,
      },
    ],
    [t, format],
  );
  return (
    <Stack gap="xs" component="section" aria-labelledby="history-heading">
      <Title order={2} size="h4" id="history-heading">
        {t('organizationUsage.consumptions.history.heading')}
      </Title>
      <DataTable<HistoryEntry>
        label={t('organizationUsage.consumptions.history.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={history}
        rowId={(entry) => String(entry.id)}
        searchable={false}
        empty={
          <Text size="sm" c="dimmed">
            {t('organizationUsage.consumptions.history.empty')}
          </Text>
        }
      />
    </Stack>
  );
}
