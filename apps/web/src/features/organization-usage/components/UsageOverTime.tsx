import { Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../../app/use-organization-api.ts';
import { type AggregationQuery, fetchAggregated, usageKeys } from '../api.ts';
import type { ConsumptionChoice } from '../consumption-params.ts';
import { useFormats } from '../format.ts';
import { runningTotal, seriesStats } from '../series.ts';
import { LoadFailed, Loading } from './states.tsx';
import { UsageChart } from './UsageChart.tsx';

type Props = { choice: ConsumptionChoice; query: AggregationQuery | undefined };

/** The running total of the chosen resource over the range (uPlot), with the amounts at its start and end. */
export function UsageOverTime({ choice, query }: Props) {
  const { t } = useTranslation();
  const format = useFormats();
  const { organization, token } = useOrganizationApi();
  const aggregated = useQuery({
    queryKey: usageKeys.aggregated(organization.id, query ?? {}),
    queryFn: async ({ signal }) => {
      if (!query) throw new Error('no range');
      return fetchAggregated(await token(), organization.id, query, signal);
    },
    enabled: query !== undefined,
    placeholderData: keepPreviousData,
  });
  const points = useMemo(
    () => aggregated.data?.series.find((series) => series.resourceType === choice.type)?.points ?? [],
    [aggregated.data, choice.type],
  );
  const series = useMemo(() => runningTotal(points), [points]);
  const stats = seriesStats(points);
  const resource = t(`organizationUsage.resourceTypes.${choice.type}`);
  const dayFormat = new Intl.DateTimeFormat(format.locale, { dateStyle: 'medium' });
  const label = t('organizationUsage.consumptions.chart.label', {
    resource,
    start: choice.range.start ? dayFormat.format(new Date(`${choice.range.start}T00:00`)) : '',
    end: choice.range.end ? dayFormat.format(new Date(`${choice.range.end}T00:00`)) : '',
  });

  return (
    <Stack gap="xs" component="section" aria-labelledby="usage-over-time-heading">
      <Title order={2} size="h4" id="usage-over-time-heading">
        {t('organizationUsage.consumptions.chart.heading')}
      </Title>
      {aggregated.isPending && query && <Loading label={t('organizationUsage.consumptions.chart.loading')} />}
      {aggregated.isError && (
        <LoadFailed
          title={t('organizationUsage.consumptions.chart.loadFailed')}
          error={aggregated.error}
          onRetry={aggregated.refetch}
        />
      )}
      {aggregated.data && (
        <Paper withBorder p="sm" aria-busy={aggregated.isFetching}>
          <Stack gap="sm">
            <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="sm" data-testid="usage-stats">
              {(
                [
                  ['opening', format.count(stats.opening)],
                  ['closing', format.count(stats.closing)],
                  ['change', format.delta(stats.change)],
                  ['peak', format.count(stats.peak)],
                ] as const
              ).map(([key, value]) => (
                <Stack key={key} gap={0} data-testid={`usage-${key}`}>
                  <Text size="xs" c="dimmed">
                    {t(`organizationUsage.consumptions.chart.${key}`)}
                  </Text>
                  <Text size="lg" fw={600}>
                    {value}
                  </Text>
                </Stack>
              ))}
            </SimpleGrid>
            {series.times.length === 0 ? (
              <Group justify="center" p="lg">
                <Text size="sm" c="dimmed">
                  {t('organizationUsage.consumptions.chart.empty')}
                </Text>
              </Group>
            ) : (
              <UsageChart
                series={series}
                bucket={choice.bucket}
                locale={format.locale}
                label={label}
                seriesLabel={resource}
              />
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
