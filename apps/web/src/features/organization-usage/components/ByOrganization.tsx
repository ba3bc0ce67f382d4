import { Progress, Stack, Table, Title, VisuallyHidden } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { type AggregationQuery, fetchAggregatedByOrg, usageKeys } from '../api.ts';
import type { ConsumptionChoice } from '../consumption-params.ts';
import { useFormats } from '../format.ts';
import { changeOf, shares } from '../series.ts';
import { LoadFailed, Loading } from './states.tsx';

type Props = { choice: ConsumptionChoice; query: AggregationQuery | undefined };

/** The chosen resource per organization (itself, then each direct sub-organization): change in the range and use. */
export function ByOrganization({ choice, query }: Props) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const byOrg = useQuery({
    queryKey: usageKeys.aggregatedByOrg(organization.id, query ?? {}),
    queryFn: async ({ signal }) => {
      if (!query) throw new Error('no range');
      return fetchAggregatedByOrg(await token(), organization.id, query, signal);
    },
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
  });
  const rows = (byOrg.data?.organizations ?? []).map((org) => {
    const points = org.series.find((series) => series.resourceType === choice.type)?.points ?? [];
    return {
      id: org.organizationId,
      name:
        org.organizationId === organization.id
          ? t('organizationUsage.consumptions.byOrg.self', { name: org.name })
          : org.name,
      change: changeOf(points),
      closing: points[points.length - 1]?.total ?? 0,
    };
  });
  const percents = shares(rows.map((row) => row.change));

  return (
    <Stack gap="xs" component="section" aria-labelledby="by-organization-heading">
      <Title order={2} size="h4" id="by-organization-heading">
        {t('organizationUsage.consumptions.byOrg.heading')}
      </Title>
      {byOrg.isPending && query && <Loading label={t('organizationUsage.consumptions.chart.loading')} />}
      {byOrg.isError && (
        <LoadFailed
          title={t('organizationUsage.consumptions.chart.loadFailed')}
          error={byOrg.error}
          onRetry={byOrg.refetch}
        />
      )}
      {byOrg.data && (
        <Table.ScrollContainer minWidth={520}>
          <Table
            aria-label={t('organizationUsage.consumptions.byOrg.tableLabel')}
            aria-busy={byOrg.isFetching}
            verticalSpacing="xs"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('organizationUsage.consumptions.byOrg.organization')}</Table.Th>
                <Table.Th ta="right">{t('organizationUsage.consumptions.byOrg.change')}</Table.Th>
                <Table.Th ta="right">{t('organizationUsage.consumptions.byOrg.closing')}</Table.Th>
                <Table.Th w="30%">
                  <VisuallyHidden>{t('organizationUsage.consumptions.byOrg.share')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row, index) => (
                <Table.Tr key={row.id} data-organization={row.id}>
                  <Table.Th scope="row" fw={index === 0 ? 600 : 500}>
                    {row.name}
                  </Table.Th>
                  <Table.Td ta="right">{format.delta(row.change)}</Table.Td>
                  <Table.Td ta="right">{format.count(row.closing)}</Table.Td>
                  <Table.Td>
                    <Progress
                      value={percents[index] ?? 0}
                      aria-label={t('organizationUsage.consumptions.byOrg.shareLabel', {
                        name: row.name,
                        percent: Math.round(percents[index] ?? 0),
                      })}
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
