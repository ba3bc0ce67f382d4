import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import uPlot from 'uplot';
import { type AlignedColumns, alignSeries, hasPoints } from '../chart-data.ts';
import { useChartColors } from '../chart-theme.ts';
import { ChartFrame, chartAxes, keepChart, useLiveChart } from '../live-chart.tsx';
import { Placeholder } from '../Placeholder.tsx';
import type { WidgetPropsOf } from '../widget-props.ts';

/** The window slides even when no value arrives. */
const SLIDE_MS = 5000;

/**
 * The bound series over the last `windowSeconds`: the stored history first, then live values appended as they arrive
 * (uPlot's setData, without re-rendering React). Colours follow the theme and the dark mode.
 */
export default function LineChartWidget({ widget, runtime }: WidgetPropsOf<'lineChart'>) {
  const { t, i18n } = useTranslation();
  const colors = useChartColors();
  const [empty, setEmpty] = useState(true);
  const { bindings } = widget;
  const windowSeconds = widget.options.windowSeconds;

  const current = (): { columns: AlignedColumns; from: number; to: number } => {
    const to = Date.now();
    const columns = alignSeries(bindings.map((binding) => runtime.historyOf(binding, windowSeconds)));
    return { columns, from: to - windowSeconds * 1000, to };
  };
  const latest = useRef(current);
  latest.current = current;

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
  const { labels, host, plot, width, height, measured } = live;

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
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, min: from, max: to } },
        axes: chartAxes(
          colors,
          i18n.language,
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
  }, [measured, bindings, labels, colors, windowSeconds, i18n.language]);

  if (bindings.length === 0) return <Placeholder message={t('dashboardWidgets.unbound')} />;
  return <ChartFrame chart={live} colors={colors} empty={empty} testId="line-chart" />;
}
