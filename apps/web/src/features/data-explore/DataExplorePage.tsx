import { Alert, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useOrganizationApi } from '../../app/use-organization-api.ts';
import { describeError } from '../../shared/http/describe.ts';
import { LoadFailed } from '../../shared/ui/LoadFailed.tsx';
import { type DataSeries, type Device, fetchPaths, queryData } from './api.ts';
import { type ChartSeries, TimeSeriesChart } from './chart/TimeSeriesChart.tsx';
import { DevicePicker } from './components/DevicePicker.tsx';
import { ExportCsvButton } from './components/ExportCsvButton.tsx';
import { PathPicker } from './components/PathPicker.tsx';
import { ResolutionBadges } from './components/ResolutionBadges.tsx';
import { SeriesTable } from './components/SeriesTable.tsx';
import { TimeRangePicker } from './components/TimeRangePicker.tsx';
import { rollupsOf } from './resolution.ts';
import { type RangeChoice, rangeProblem, resolveRange, zoomRange } from './time-range.ts';
import { useFeatureFlag } from './use-flag.ts';

/** Points per series asked of the server; the chart reduces them further to its pixel width. */
const MAX_POINTS = 4000;

function toChartSeries(series: DataSeries[]): ChartSeries[] {
  return series
    .filter((s) => s.type !== 'string')
    .map((s) => ({
      key: `${s.deviceId} ${s.path}`,
      label: `${s.label} ${s.path}`,
      unit: s.unit,
      boolean: s.type === 'boolean',
      t: s.points.t,
      v: s.points.v,
    }));
}

/** Spec 2 /data-explore: stored values of chosen devices and model paths over a time range, as chart, table and CSV. */
export default function DataExplorePage() {
  const { t, i18n } = useTranslation();
  const { organization, token } = useOrganizationApi();
  const highFreq = useFeatureFlag('highFreq');
  const showTable = useFeatureFlag('dataTable');
  const [devices, setDevices] = useState<Device[]>([]);
  const [chosenPaths, setChosenPaths] = useState<string[]>([]);
  const [choice, setChoice] = useState<RangeChoice>(() => ({
    kind: 'preset',
    preset: '1h',
    anchor: Date.now(),
  }));
  const [history, setHistory] = useState<RangeChoice[]>([]);
  const [revision, setRevision] = useState(0);

  const deviceIds = useMemo(() => devices.map((device) => device.id), [devices]);
  const range = resolveRange(choice);
  const problem = rangeProblem(range);

  const paths = useQuery({
    queryKey: ['data-explore', organization.id, 'paths', deviceIds],
    queryFn: async ({ signal }) => fetchPaths(await token(), organization.id, deviceIds, signal),
    enabled: deviceIds.length > 0,
    placeholderData: keepPreviousData,
  });
  // Paths the chosen devices no longer have drop out of the choice.
  const available = paths.data?.paths;
  const selectedPaths = useMemo(
    () =>
      deviceIds.length === 0 || !available
        ? []
        : chosenPaths.filter((path) => available.some((entry) => entry.path === path)),
    [chosenPaths, available, deviceIds.length],
  );

  const ready = deviceIds.length > 0 && selectedPaths.length > 0;
  const request =
    ready && !problem ? { deviceIds, paths: selectedPaths, from: range.from, to: range.to } : undefined;
  const data = useQuery({
    queryKey: ['data-explore', organization.id, 'data', request],
    queryFn: async ({ signal }) =>
      queryData(
        await token(),
        organization.id,
        { ...(request as NonNullable<typeof request>), maxPoints: MAX_POINTS },
        signal,
      ),
    enabled: request !== undefined,
    placeholderData: keepPreviousData,
  });
  const series = request ? data.data?.series : undefined;
  const chartSeries = useMemo(() => toChartSeries(series ?? []), [series]);
  // Long ranges come from the minute or hour rollups: the chart names them (text paths are not charted).
  const chartRollups = useMemo(
    () => rollupsOf((series ?? []).filter((s) => s.type !== 'string').map((s) => s.resolution)),
    [series],
  );

  const changeRange = (next: RangeChoice, remember: boolean) => {
    if (remember) setHistory((before) => [...before, choice]);
    setChoice(next);
    setRevision((current) => current + 1);
  };
  const zoom = (from: number, to: number) =>
    changeRange({ kind: 'custom', ...zoomRange(from, to, highFreq) }, true);
  const back = () => {
    const previous = history.at(-1);
    if (!previous) return;
    setHistory((before) => before.slice(0, -1));
    changeRange(previous, false);
  };

  const noValues = series?.every((s) => s.total === 0) ?? false;
  const textOnly = series !== undefined && !noValues && chartSeries.length === 0;
  const reduced = series?.some((s) => s.decimated) ?? false;

  return (
    <Stack gap="md" p="md" data-testid="data-explore">
      <Title order={1} size="h2">
        {t('dataExplore.title')}
      </Title>
      <Text c="dimmed" size="sm">
        {t('dataExplore.intro')}
      </Text>
      <Paper withBorder p="sm">
        <Stack gap="sm">
          <Group align="flex-start" gap="sm" wrap="wrap">
            <DevicePicker value={devices} onChange={setDevices} />
            <PathPicker
              paths={deviceIds.length > 0 ? available : undefined}
              loading={paths.isFetching}
              failed={paths.isError}
              devicesChosen={deviceIds.length > 0}
              value={selectedPaths}
              onChange={setChosenPaths}
            />
          </Group>
          <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
            <TimeRangePicker
              choice={choice}
              revision={revision}
              highFreq={highFreq}
              problem={problem}
              onChange={(next) => changeRange(next, false)}
              onRefresh={() =>
                choice.kind === 'preset' && changeRange({ ...choice, anchor: Date.now() }, false)
              }
              onBack={history.length > 0 ? back : undefined}
            />
            <ExportCsvButton query={request} />
          </Group>
        </Stack>
      </Paper>

      {!ready && (
        <Text c="dimmed" ta="center" py="xl" data-testid="data-explore-empty">
          {t('dataExplore.empty.pick')}
        </Text>
      )}
      {ready && problem && (
        <Alert color="yellow" title={t('dataExplore.range.problemTitle')}>
          {t(`dataExplore.range.${problem}`)}
        </Alert>
      )}
      {request && data.isError && (
        <LoadFailed
          title={t('dataExplore.failed')}
          message={describeError(t, data.error)}
          onRetry={() => void data.refetch()}
        />
      )}
      {request && data.isPending && (
        <Group justify="center" py="xl">
          <Loader size="sm" aria-label={t('dataExplore.loading')} />
          <Text size="sm" c="dimmed">
            {t('dataExplore.loading')}
          </Text>
        </Group>
      )}
      {request && series && noValues && (
        <Text c="dimmed" ta="center" py="xl" data-testid="data-explore-no-values">
          {t('dataExplore.empty.noData')}
        </Text>
      )}
      {request && series && !noValues && (
        <Stack gap="sm" aria-busy={data.isFetching}>
          {chartSeries.length > 0 && (
            <Paper withBorder p="sm" pos="relative">
              <Group justify="space-between" align="flex-start" mb="xs" gap="xs">
                <Text size="sm" c="dimmed">
                  {t('dataExplore.chart.zoomHint')}
                </Text>
                <Group gap="xs" data-testid="chart-resolution">
                  <ResolutionBadges rollups={chartRollups} t={t} />
                  {data.isFetching && <Loader size="xs" aria-label={t('dataExplore.loading')} />}
                </Group>
              </Group>
              <TimeSeriesChart
                series={chartSeries}
                locale={i18n.language}
                highFreq={highFreq}
                label={t('dataExplore.chart.label')}
                onZoom={zoom}
              />
              {reduced && (
                <Text size="xs" c="dimmed" mt="xs">
                  {t('dataExplore.chart.reduced')}
                </Text>
              )}
            </Paper>
          )}
          {textOnly && (
            <Text size="sm" c="dimmed">
              {t('dataExplore.chart.textOnly')}
            </Text>
          )}
          {showTable && <SeriesTable series={series} locale={i18n.language} highFreq={highFreq} />}
        </Stack>
      )}
    </Stack>
  );
}
