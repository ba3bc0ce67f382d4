import { Button, Group, Text } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import { useFeatureFlag } from '../../../data-explore/use-flag.ts';
import { useChartColors } from '../chart-theme.ts';
import { ChartFrame, chartAxes, keepChart, useLiveChart } from '../live-chart.tsx';
import { Placeholder } from '../Placeholder.tsx';
import { useWidgetText } from '../use-widget-text.ts';
import type { WidgetPropsOf } from '../widget-props.ts';
import { bucketize, drillInto } from './buckets.ts';

type Range = { from: number; to: number; bucketMs: number };
type Frame = { starts: number[]; columns: (number | null)[][]; range: Range };

const hasValues = (frame: Frame) => frame.columns.some((column) => column.some((value) => value !== null));

/**
 * The bound values averaged per bucket over the window (bars, one nested bar per series). With the experimental
 * `barChartTimeDrill` feature a click on a bar drills into that bucket's time range; "Whole window" goes back.
 */
export default function BarChartWidget({ widget, runtime }: WidgetPropsOf<'barChart'>) {
  const { t, language } = useWidgetText();
  const colors = useChartColors();
  const drillEnabled = useFeatureFlag('barChartTimeDrill');
  const [drill, setDrill] = useState<Range | null>(null);
  const { bindings } = widget;
  const { windowSeconds, bucketSeconds } = widget.options;

  const frame = (): Frame => {
    const now = Date.now();
    const range = drill ?? { from: now - windowSeconds * 1000, to: now, bucketMs: bucketSeconds * 1000 };
    const buckets = bindings.map((binding) =>
      bucketize(runtime.historyOf(binding, windowSeconds), range.from, range.to, range.bucketMs),
    );
    const starts = buckets[0]?.starts ?? [];
    return { starts, columns: buckets.map((bucket) => bucket.values), range };
  };
  const latest = useRef(frame);
  latest.current = frame;
  // "No values" only when there are none: the chart's values may be there before the chart is drawn.
  const [empty, setEmpty] = useState(() => !hasValues(frame()));
  const drillRef = useRef({ enabled: drillEnabled, drill, setDrill });
  drillRef.current = { enabled: drillEnabled, drill, setDrill };

  const dataOf = (current: Frame): uPlot.AlignedData =>
    [
      current.starts.map((start) => start + current.range.bucketMs / 2),
      ...current.columns,
    ] as uPlot.AlignedData;
  const redraw = (chart: uPlot | null) => {
    const current = latest.current();
    setEmpty(!hasValues(current));
    if (!chart) return;
    chart.batch(() => {
      chart.setData(dataOf(current), false);
      chart.setScale('x', { min: current.range.from, max: current.range.to });
    });
  };
  // Bars move on once per bucket (between 1 and 10 s) when no value comes.
  const live = useLiveChart(
    runtime,
    bindings,
    redraw,
    Math.max(1000, Math.min(bucketSeconds * 1000, 10_000)),
  );
  const { labels, host, plot, width, height, measured, plugins } = live;

  // biome-ignore lint/correctness/useExhaustiveDependencies: created again only when structure, size class, colours or the drill change.
  useLayoutEffect(() => {
    const element = host.current;
    if (!element || !measured || bindings.length === 0) return;
    const current = latest.current();
    const long = current.range.to - current.range.from > 86_400_000;
    const count = bindings.length;
    const chart = new uPlot(
      {
        width,
        height,
        ms: 1,
        legend: { show: false },
        plugins: plugins(),
        cursor: { drag: { x: false, y: false }, points: { show: false } },
        scales: {
          x: { time: true, min: current.range.from, max: current.range.to },
          y: { range: (_u, min, max) => [Math.min(0, min), Math.max(0, max)] },
        },
        axes: chartAxes(
          colors,
          language,
          long
            ? { month: 'short', day: 'numeric', hour: '2-digit' }
            : { hour: '2-digit', minute: '2-digit', second: '2-digit' },
          { timeGrid: false },
        ),
        series: [
          {},
          ...bindings.map((_binding, index): uPlot.Series => {
            const color = colors.series[index % colors.series.length] ?? colors.axis;
            return {
              label: labels[index] ?? '',
              stroke: color,
              fill: color,
              width: 0,
              points: { show: false },
              paths: uPlot.paths.bars?.({ size: [0.9 * (1 - index / (count + 1)), 200], align: 0 }),
            };
          }),
        ],
        hooks: {
          ready: [
            (u) => {
              u.over.addEventListener('click', () => {
                const { enabled, drill: drilled, setDrill: choose } = drillRef.current;
                const index = u.cursor.idx;
                if (!enabled || drilled || index === null || index === undefined) return;
                const shown = latest.current();
                const start = shown.starts[index];
                if (start !== undefined) choose(drillInto(start, shown.range.bucketMs));
              });
              if (drillRef.current.enabled && !drillRef.current.drill) u.over.style.cursor = 'zoom-in';
            },
          ],
        },
      },
      dataOf(current),
      element,
    );
    setEmpty(!hasValues(current));
    return keepChart(plot, chart);
  }, [measured, bindings, labels, colors, windowSeconds, bucketSeconds, drill, language]);

  if (bindings.length === 0) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  const rangeFormat = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' });
  return (
    <ChartFrame chart={live} colors={colors} empty={empty} testId="bar-chart">
      {drill && (
        <Group gap="xs" wrap="nowrap" justify="space-between">
          <Text size="xs" c="dimmed" truncate data-testid="bar-drill-range">
            {t('dashboardWidgets.chart.drilled', {
              from: rangeFormat.format(drill.from),
              to: rangeFormat.format(drill.to),
            })}
          </Text>
          <Button size="compact-xs" variant="light" onClick={() => setDrill(null)}>
            {t('dashboardWidgets.chart.wholeWindow')}
          </Button>
        </Group>
      )}
    </ChartFrame>
  );
}
