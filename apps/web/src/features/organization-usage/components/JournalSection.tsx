import { Anchor, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ColumnDef } from '@tanstack/react-table';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { DataTable, usePageRequest } from '../../../shared/ui/DataTable.tsx';
import { fetchJournal, type JournalEntry, type Range, usageKeys } from '../api.ts';
import type { ConsumptionChoice } from '../consumption-params.ts';
import { NONE, useFormats } from '../format.ts';
import { reasonKey } from '../reasons.ts';
import { ExportJournalButton } from './ExportJournalButton.tsx';

type Props = { choice: ConsumptionChoice; range: Range | undefined };

/**
 * The usage journal of the chosen resource in the range, newest first, paged by the server, with CSV export. The page
 * renders it with a key of the resource and range, so another choice starts again at the first page.
 */
export function JournalSection({ choice, range }: Props) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token, ability } = useOrganizationApi();
  const [request, setRequest] = usePageRequest({ pageSize: 50 });
  const query = range
    ? { ...range, type: choice.type, page: request.page, pageSize: request.pageSize }
    : undefined;
  const journal = useQuery({
    queryKey: usageKeys.journal(organization.id, query ?? {}),
    queryFn: async ({ signal }) => {
      if (!query) throw new Error('no range');
      return fetchJournal(await token(), organization.id, query, signal);
    },
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
  });
  const canSeeDevices = ability.can('READ', 'devices');
  const columns = useMemo<ColumnDef<JournalEntry>[]>(
    () => [
      {
        id: 'time',
        header: t('organizationUsage.consumptions.journal.columns.time'),
        enableSorting: false,
        cell: ({ row }) => <Text size="sm">{format.dateTime(row.original.at)}</Text>,
      },
      {
        id: 'reason',
        header: t('organizationUsage.consumptions.journal.columns.reason'),
        enableSorting: false,
        cell: ({ row }) => {
          const key = reasonKey(row.original.reason);
          return (
            <Stack gap={0}>
              <Text size="sm">{key ? t(key) : row.original.reason}</Text>
              {key && (
                <Text size="xs" c="dimmed" ff="monospace">
                  {row.original.reason}
                </Text>
              )}
            </Stack>
          );
        },
      },
      {
        id: 'delta',
        header: t('organizationUsage.consumptions.journal.columns.delta'),
        enableSorting: false,
        cell: ({ row }) => (
          <Text
            size="sm"
            fw={600}
            c={row.original.delta > 0 ? 'teal' : row.original.delta < 0 ? 'red' : undefined}
            style={{ fontVariantNumeric: 'tabular-nums' }}
          >
            {format.delta(row.original.delta)}
          </Text>
        ),
      },
      {
        id: 'subject',
        header: t('organizationUsage.consumptions.journal.columns.subject'),
        enableSorting: false,
        cell: ({ row }) => {
          const subject = row.original.subjectId;
          if (!subject) return <Text size="sm">{NONE}</Text>;
          return row.original.resourceType === 'devices' && canSeeDevices && row.original.delta > 0 ? (
            <Anchor
              component={Link}
              to={`/devices?device=${encodeURIComponent(subject)}`}
              size="sm"
              ff="monospace"
            >
              {subject}
            </Anchor>
          ) : (
            <Text size="sm" ff="monospace">
              {subject}
            </Text>
          );
        },
      },
    ],
    [t, format, canSeeDevices],
  );

  return (
    <Stack gap="xs" component="section" aria-labelledby="journal-heading">
      <Title order={2} size="h4" id="journal-heading">
        {t('organizationUsage.consumptions.journal.heading')}
      </Title>
      <DataTable<JournalEntry>
        label={t('organizationUsage.consumptions.journal.tableLabel')}
        columns={columns}
        request={request}
        onRequestChange={setRequest}
        query={journal}
        rowId={(entry) => String(entry.id)}
        searchable={false}
        toolbar={<ExportJournalButton choice={choice} range={range} />}
        empty={
          <Text size="sm" c="dimmed">
            {t('organizationUsage.consumptions.journal.empty')}
          </Text>
        }
      />
    </Stack>
  );
}
