import { Alert, Button, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { DataTable, type PageRequest } from '../../shared/ui/DataTable.tsx';
import { LogTabs } from '../failed-notifications/LogTabs.tsx';
import { type Entry, fetchEntries, fetchFacets } from './api.ts';
import { EntryDetails } from './EntryDetails.tsx';
import { ExportCsvButton } from './ExportCsvButton.tsx';
import { LogFilters } from './LogFilters.tsx';
import {
  DEFAULT_VIEW,
  defaultOrder,
  entryFilter,
  isRangeReversed,
  type LogView,
  logViewParams,
  parseLogView,
  SORT_COLUMNS,
} from './log-query.ts';

/** Spec 2/6: the organization's audit log (/log), filtered through the address so a view can be shared. */
export default function AuditLogPage() {
  const { t, i18n } = useTranslation();
  const { organization, ability, token } = useOrganizationApi();
  const [params, setParams] = useSearchParams();
  const view = useMemo(() => parseLogView(params), [params]);
  const [selected, setSelected] = useState<Entry | null>(null);
  // Remounts the inputs that keep typed text of their own (who, search) when every filter is reset.
  const [generation, setGeneration] = useState(0);
  const reversed = isRangeReversed(view);
  const filter = entryFilter(view);

  const changeView = useCallback(
    (changes: Partial<LogView>) => {
      const next = { ...view, page: 0, ...changes };
      setParams(logViewParams(next), { replace: true });
    },
    [view, setParams],
  );

  const entries = useQuery({
    queryKey: ['audit-log', organization.id, 'entries', filter, view.page, view.pageSize],
    queryFn: async ({ signal }) =>
      fetchEntries(await token(), organization.id, filter, view.page, view.pageSize, signal),
    enabled: !reversed,
    placeholderData: keepPreviousData,
  });
  const facets = useQuery({
    queryKey: ['audit-log', organization.id, 'facets'],
    queryFn: async ({ signal }) => fetchFacets(await token(), organization.id, signal),
    staleTime: 60_000,
  });

  const timeFormat = useMemo(
    () => new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'medium' }),
    [i18n.language],
  );

  const columns = useMemo<ColumnDef<Entry>[]>(
    () => [
      {
        id: 'at',
        header: t('auditLog.columns.at'),
        cell: ({ row }) => (
          <time dateTime={row.original.at}>{timeFormat.format(new Date(row.original.at))}</time>
        ),
      },
      {
        id: 'actorEmail',
        header: t('auditLog.columns.who'),
        cell: ({ row }) => row.original.actorEmail || t('auditLog.system'),
      },
      { id: 'action', header: t('auditLog.columns.what'), cell: ({ row }) => row.original.action },
      {
        id: 'resourceType',
        header: t('auditLog.columns.resourceType'),
        cell: ({ row }) => row.original.resourceType,
      },
      {
        id: 'resourceName',
        header: t('auditLog.columns.resourceName'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text size="sm" data-testid="entry-resource-name" style={{ wordBreak: 'break-word' }}>
            {row.original.resourceName}
          </Text>
        ),
      },
      {
        id: 'details',
        header: () => <VisuallyHidden>{t('auditLog.columns.details')}</VisuallyHidden>,
        enableSorting: false,
        cell: ({ row }) => (
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => setSelected(row.original)}
            aria-label={t('auditLog.details.open', { action: row.original.action })}
          >
            {t('auditLog.details.button')}
          </Button>
        ),
      },
    ],
    [t, timeFormat],
  );

  const request: PageRequest = {
    page: view.page,
    pageSize: view.pageSize,
    search: view.search || undefined,
    sort: view.sort,
    order: view.order,
  };
  const onRequestChange = (next: PageRequest) => {
    const sort = SORT_COLUMNS.find((column) => column === next.sort) ?? DEFAULT_VIEW.sort;
    changeView({
      page: next.page,
      pageSize: next.pageSize,
      search: next.search ?? '',
      sort,
      order: next.sort ? (next.order ?? defaultOrder(sort)) : defaultOrder(sort),
    });
  };

  const filtered = Object.entries(filter).some(
    ([key, value]) => key !== 'sort' && key !== 'order' && value !== undefined,
  );

  return (
    <Stack gap="md" p="md" data-testid="audit-log">
      <LogTabs />
      <Title order={1} size="h2">
        {t('auditLog.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('auditLog.intro')}
      </Text>
      <LogFilters
        key={`filters-${generation}`}
        view={view}
        facets={facets.data}
        facetsFailed={facets.isError}
        reversed={reversed}
        onChange={changeView}
        onReset={() => {
          setParams(new URLSearchParams(), { replace: true });
          setGeneration((current) => current + 1);
        }}
      />
      {reversed ? (
        <Alert color="yellow" title={t('auditLog.filters.reversedTitle')}>
          {t('auditLog.filters.reversed')}
        </Alert>
      ) : (
        <DataTable<Entry>
          key={`table-${generation}`}
          label={t('auditLog.tableLabel')}
          columns={columns}
          request={request}
          onRequestChange={onRequestChange}
          query={entries}
          rowId={(row) => String(row.id)}
          empty={
            <Text c="dimmed" ta="center">
              {filtered ? t('auditLog.emptyFiltered') : t('auditLog.empty')}
            </Text>
          }
          toolbar={
            ability.can('ACCESS', 'audit') ? (
              <ExportCsvButton organizationId={organization.id} filter={filter} token={token} />
            ) : null
          }
        />
      )}
      <EntryDetails entry={selected} timeFormat={timeFormat} onClose={() => setSelected(null)} />
    </Stack>
  );
}
