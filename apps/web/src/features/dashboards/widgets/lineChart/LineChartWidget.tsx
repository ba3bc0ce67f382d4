import { useLayoutEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import { type AlignedColumns, alignSeries, hasPoints } from '../chart-data.ts';
import { useChartColors } from '../chart-theme.ts';
import { ChartFrame, chartAxes, keepChart, useLiveChart } from '../live-chart.tsx';
import { Placeholder } from '../Placeholder.tsx';
import { useWidgetText } from '../use-widget-text.ts';
import type { WidgetPropsOf } from '../widget-props.ts';

/** The window slides even when no value arrives. */
const SLIDE_MS = 5000;

/**
 * The bound series over the last `windowSeconds`: the stored history first, then live values appended as they arrive
 * (uPlot's setData, without re-rendering React). Colours follow the theme and the dark mode.
 */
export default function LineChartWidget({ widget, runtime }: WidgetPropsOf<'lineChart'>) {
  const { t, language } = useWidgetText();
  const colors = useChartColors();
  const { bindings } = widget;
  const windowSeconds = widget.options.windowSeconds;

  const current = (): { columns: AlignedColumns; from: number; to: number } => {
    const to = Date.now();
    const columns = alignSeries(bindings.map((binding) => runtime.historyOf(binding, windowSeconds)));
    return { columns, from: to - windowSeconds * 1000, to };
  };
  const latest = useRef(current);
  latest.current = current;
  // "No values" only when there are none: the chart's values may be there before the chart is drawn.
  const [empty, setEmpty] = useState(() => !hasPoints(current().columns));

  const redraw = (chart: uPlot | null) => {
    const { columns, from, to } = latest.current();
    setEmpty(!hasPoints(columns));
    if (!chart) return;
    chart.batch(() => {
      chart.setData(columns as uPlot.AlignedData, false);
      chart.setScale('x', { min: from, max: to });
    });
  };
  const live = useLiveChart(runtime, bindings, redraw, SLIDE_MS);
  const { labels, host, plot, width, height, measured, plugins } = live;

  // biome-ignore lint/correctness/useExhaustiveDependencies: created again only when structure, size class or colours change.
  useLayoutEffect(() => {
    const element = host.current;
    if (!element || !measured || bindings.length === 0) return;
    const { columns, from, to } = latest.current();
    const chart = new uPlot(
      {
        width,
        height,
        ms: 1,
        legend: { show: false },
        plugins: plugins(),
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, min: from, max: to } },
        axes: chartAxes(
          colors,
          language,
          { hour: '2-digit', minute: '2-digit', second: '2-digit' },
          { timeGrid: true },
        ),
        series: [
          {},
          ...bindings.map(
            (_binding, index): uPlot.Series => ({
              label: labels[index] ?? '',
              stroke: colors.series[index % colors.series.length],
              width: 1.5,
              points: { show: false },
              spanGaps: true,
            }),
          ),
        ],
      },
      columns as uPlot.AlignedData,
      element,
    );
    setEmpty(!hasPoints(columns));
    return keepChart(plot, chart);
  }, [measured, bindings, labels, colors, windowSeconds, language]);

  if (bindings.length === 0) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  return <ChartFrame chart={live} colors={colors} empty={empty} testId="line-chart" />;
}
